"""The REST API of the games layer: `rounds`, `games` (games and what they show),
`results`, `penalties`, `extensions`, `standings`, `stages`, `withdrawals`, `event_files`,
`clubs`; `examples` holds the answers the API reference shows."""
