"""Short builders for games and rule sets, and an assertion for RuleErrors.

A test reads like a score sheet: ``rummikub(1, tiles(1, ""), tiles(2, "R4 B10"))``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest

from scoring.errors import Path, RuleError
from scoring.game import GameIn, GameOut, NoMeld, RackIn
from scoring.rules import RuleSet, resolve_rules
from scoring.tiles import parse_tiles

STANDARD = resolve_rules()


def rules(**overrides: object) -> RuleSet:
    """The standard preset with these options changed."""
    return resolve_rules("standard", overrides)


def tiles(player: int, text: str, no_meld: NoMeld = None) -> RackIn:
    return RackIn(player, tiles=parse_tiles(text), no_meld=no_meld)


def totals(
    player: int,
    points: int | None,
    tile_count: int | None = None,
    jokers: int = 0,
    no_meld: NoMeld = None,
) -> RackIn:
    return RackIn(player, points=points, tile_count=tile_count, jokers=jokers, no_meld=no_meld)


def rummikub(
    winner: int | None, *racks: RackIn, sanctions: Mapping[int, int] | None = None
) -> GameIn:
    return GameIn("rummikub", tuple(racks), winner=winner, sanctions=dict(sanctions or {}))


def exhausted(
    *racks: RackIn, winner: int | None = None, sanctions: Mapping[int, int] | None = None
) -> GameIn:
    return GameIn("pool_exhausted", tuple(racks), winner=winner, sanctions=dict(sanctions or {}))


def scores(out: GameOut) -> dict[int, int]:
    return {rack.player: rack.score for rack in out.racks}


def charges(out: GameOut) -> dict[int, int]:
    return {rack.player: rack.charge for rack in out.racks}


@contextmanager
def rule_error(path: Path, *words: str) -> Iterator[None]:
    """Expect a RuleError (alone or among several) at ``path`` naming each of ``words``."""
    with pytest.raises(RuleError) as info:
        yield
    found = [error for error in info.value.flatten() if error.path == path]
    assert found, f"no error at {path}; got: {info.value}"
    for word in words:
        assert any(word in error.message for error in found), f"{word!r} not in {found[0]}"
