"""The REST API of the games layer: `rounds`, `games` (results and penalties), `standings`,
`stages`, `withdrawals`, `event_files`, `clubs`; `examples` holds the answers the API
reference shows."""
