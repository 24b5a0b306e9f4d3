"""Hypothesis strategies: valid rule sets and valid games.

A game is dealt from one shuffled tile set, so the racks always respect availability;
some colours are forgotten (bare numbers) and some racks are entered by totals, so the
properties exercise every input form against real scoring.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring.game import ENDS, GameIn, NoMeld, RackIn
from scoring.placement import DEFAULT_PLACEMENT_POINTS, as_stored
from scoring.rules import OPTIONS, PRESET_NAMES, RuleSet
from scoring.tiles import COLOURS, COPIES, JOKER, NUMBERS, Tile, joker_count, rack_face_value

NUMBERED = tuple(Tile(c, n) for c in COLOURS for n in NUMBERS for _ in range(COPIES))
FULL_SET = (*NUMBERED, JOKER, JOKER)
NO_MELD: tuple[NoMeld, ...] = (None, None, "could_not", "declined")


def _option_values(name: str) -> st.SearchStrategy[Any]:
    option = OPTIONS[name]
    if option.kind == "bool":
        values: st.SearchStrategy[Any] = st.booleans()
    elif option.kind == "choice":
        values = st.sampled_from(option.choices)
    elif option.kind == "points":
        # The placement table changes no game score: the default is enough here.
        values = st.just(as_stored(DEFAULT_PLACEMENT_POINTS))
    else:
        # Mostly small values, like real rules; sometimes anything in bounds.
        assert option.minimum is not None and option.maximum is not None
        low, high = option.minimum, option.maximum
        values = st.integers(low, min(high, 60)) | st.integers(low, high)
    return st.none() | values if option.nullable else values


def rule_sets() -> st.SearchStrategy[RuleSet]:
    """Any valid rule set; half of them plain (no bonuses, no pays-each) so that the
    zero-sum case of docs/rules/scoring.md comes up often."""
    options = {name: _option_values(name) for name in OPTIONS}
    plain = options | {
        "win_bonus": st.just(0),
        "runner_up_bonus": st.just(0),
        "no_meld_pays_each": st.just(False),
    }
    presets = st.sampled_from(PRESET_NAMES)
    return st.builds(RuleSet, preset=presets, **options) | st.builds(
        RuleSet, preset=presets, **plain
    )


def _as_entry(
    draw: st.DrawFn, player: int, rack: tuple[Tile, ...], rules: RuleSet, need_count: bool
) -> RackIn:
    """The rack as a scorekeeper might enter it: by tiles or by totals."""
    no_meld = draw(st.sampled_from(NO_MELD))
    if draw(st.booleans()):
        return RackIn(player, tiles=rack, no_meld=no_meld)
    jokers = joker_count(rack)
    count = len(rack) if need_count or draw(st.booleans()) else None
    points = rack_face_value(rack) + jokers * rules.joker_penalty
    return RackIn(player, points=points, tile_count=count, jokers=jokers, no_meld=no_meld)


def _twin(rack: tuple[Tile, ...], pool: list[Tile]) -> tuple[Tile, ...] | None:
    """Tiles from ``pool`` with the same numbers (jokers for jokers), if there are any."""
    twin = []
    for tile in rack:
        match = next((other for other in pool if other.number == tile.number), None)
        if match is None:
            return None
        pool.remove(match)
        twin.append(match)
    return tuple(twin)


@st.composite
def games(draw: st.DrawFn, rules: RuleSet) -> GameIn:
    """A valid game under ``rules``: either end, 2-4 racks, no given pool winner."""
    size = draw(st.integers(2, 4))
    players = draw(st.lists(st.integers(1, 10_000), min_size=size, max_size=size, unique=True))
    end = draw(st.sampled_from(ENDS))
    shuffled = draw(st.permutations(FULL_SET))
    # Small racks are often lowest, and tie more easily.
    counts = draw(st.lists(st.integers(1, 2) | st.integers(1, 14), min_size=size, max_size=size))
    winner_at = draw(st.integers(0, size - 1))
    if end == "rummikub":
        counts[winner_at] = 0
    dealt, start = [], 0
    for count in counts:
        dealt.append(tuple(shuffled[start : start + count]))
        start += count
    if end == "pool_exhausted" and draw(st.booleans()):
        # A tie on rack value and tile count: several winners under either rule.
        dealt[1] = _twin(dealt[0], list(shuffled[start:])) or dealt[1]
    need_count = end == "pool_exhausted" and rules.exhausted_winner == "fewest_tiles"
    racks = []
    for player, rack in zip(players, dealt, strict=True):
        forget = draw(st.lists(st.booleans(), min_size=len(rack), max_size=len(rack)))
        rack = tuple(
            Tile(None, tile.number) if lost and not tile.is_joker else tile
            for tile, lost in zip(rack, forget, strict=True)
        )
        entry = _as_entry(draw, player, rack, rules, need_count)
        if end == "rummikub" and player == players[winner_at]:
            entry = RackIn(player, tiles=()) if draw(st.booleans()) else RackIn(player, points=0)
        racks.append(entry)
    sanctioned = draw(st.just([]) | st.lists(st.sampled_from(players), unique=True, max_size=2))
    sanctions = {player: draw(st.integers(1, 50)) for player in sanctioned}
    winner = players[winner_at] if end == "rummikub" else None
    return GameIn(end, tuple(racks), winner=winner, sanctions=sanctions)  # type: ignore[arg-type]


@st.composite
def rules_and_games(draw: st.DrawFn) -> tuple[RuleSet, GameIn]:
    rules = draw(rule_sets())
    return rules, draw(games(rules))
