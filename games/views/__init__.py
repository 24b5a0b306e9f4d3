"""The scorekeeper's pages: `entry` (a table's games, the turn timer) and `overview`
(confirmation queue, missing results, results CSV). Routes are in games/urls.py."""
