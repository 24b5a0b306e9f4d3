"""Reads of the games app, one module per feature (games, rounds, players, standings,
stages, clubs, caching): what the API and the pages share. Writes are in
`games.services`; a read here writes nothing (except `standings_table`, which may have
the standings computed there and then when no worker can be asked).

Visibility follows the tournament's (`tournaments.permissions.can_view`): a game, result
or penalty of a private tournament does not exist for someone without a role in it.
"""
