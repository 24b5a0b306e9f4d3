"""Writes of the games layer, one module per part: `rounds` (open a round, swap seats),
`results` (result versions and penalties), `standings` (recompute the snapshot), and
`locks` (the one lock order every write follows). Import from the module that holds it."""
