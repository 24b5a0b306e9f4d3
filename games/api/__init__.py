"""The REST API of the games layer: `rounds`, `games` (results and penalties) and
`standings`."""
