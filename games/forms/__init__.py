"""Web forms of the games pages, one module per page module of `games.views` (entry,
rounds, players, stages, event_files)."""
