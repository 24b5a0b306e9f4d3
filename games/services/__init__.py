"""Writes of the games layer and their helpers, one module per feature: `draw` (the next
round previewed), `seating` (who is seated and how), `rounds` (open a round, swap seats,
cancel, the clock), `results` (result versions and penalties), `standings` (recompute the
snapshot), `stages`, `event_file/`, ... and `locks` (the one lock order every write
follows). Reads are `games.selectors`, sentences `games.words`. Import from the module
that holds it."""
