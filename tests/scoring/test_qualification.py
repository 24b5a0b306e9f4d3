"""Tests of scoring.qualification: slots passed down past already-qualified players, a
tie at the last slot decided by lot and said, bad slot counts."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.qualification import MAX_SLOTS, Placed, SlotTie, check_slots, qualifiers

from .helpers import rule_error


def ranked(*ranks: int, lots: dict[int, int] | None = None) -> list[Placed]:
    """Players 1, 2, 3, ... with these ranks (best first)."""
    lots = lots or {}
    return [Placed(n, rank, lots.get(n, 0)) for n, rank in enumerate(ranks, start=1)]


@pytest.mark.parametrize(
    ("ranks", "already", "slots", "qualified", "passed"),
    [
        ((1, 2, 3, 4, 5), set(), 3, (1, 2, 3), ()),
        # the winner is qualified already: the slot passes to 4th
        ((1, 2, 3, 4, 5), {1}, 3, (2, 3, 4), (1,)),
        # two already qualified inside the slots: two passed down
        ((1, 2, 3, 4, 5), {2, 3}, 2, (1, 4), (2, 3)),
        # one already qualified below the slots changes nothing
        ((1, 2, 3, 4, 5), {5}, 3, (1, 2, 3), ()),
        # more slots than eligible players: everyone eligible, the rest stay empty
        ((1, 2, 3), {2}, 5, (1, 3), (2,)),
        # a tie above the line is no tie at the line
        ((1, 1, 3, 4), set(), 3, (1, 2, 3), ()),
        # the tie is past an already-qualified player: passed down into it, decided by lot
        ((1, 2, 3, 3), {1}, 2, (2, 4), (1,)),
    ],
)
def test_slots_pass_down(ranks, already, slots, qualified, passed):
    result = qualifiers(ranked(*ranks, lots={3: 10, 4: 20}), already, slots)
    assert (result.qualified, result.passed_down) == (qualified, passed)


def test_a_tie_at_the_last_slot_is_decided_by_lot_and_said():
    # 2, 3, 4 share rank 2 for 2 slots; lots 5, 9, 7: 3 and 4 go on
    result = qualifiers(ranked(1, 2, 2, 2, 5, lots={2: 5, 3: 9, 4: 7}), set(), 3)
    assert result.qualified == (1, 3, 4)
    assert result.tie == SlotTie(rank=2, players=(2, 3, 4), slots=2)
    assert result.tie.sentence() == "3 players share rank 2 for 2 slots: decided by lot"
    one = qualifiers(ranked(1, 2, 2, lots={2: 1, 3: 2}), set(), 2).tie
    assert one is not None and one.sentence() == "2 players share rank 2 for 1 slot: decided by lot"


def test_equal_lots_fall_back_on_the_player_order():
    assert qualifiers(ranked(1, 1, 1), set(), 1).qualified == (1,)


@pytest.mark.parametrize("slots", [0, -1, MAX_SLOTS + 1, 2.5, "3", True])
def test_bad_slot_counts_name_the_field(slots):
    with rule_error(("qualify_slots",), "whole number"):
        check_slots(slots)
    assert check_slots(None) is None


def test_standings_out_of_order_are_a_programming_error():
    with pytest.raises(ValueError, match="rank order"):
        qualifiers([Placed(1, 2), Placed(2, 1)], set(), 1)


@st.composite
def events(draw):
    size = draw(st.integers(1, 12))
    ranks, rank = [], 1
    for place in range(1, size + 1):
        if place == 1 or not draw(st.booleans()):
            rank = place  # a new rank; otherwise shared with the one before
        ranks.append(rank)
    players = [Placed(n, r, draw(st.integers(0, 3))) for n, r in enumerate(ranks, start=1)]
    already = draw(st.sets(st.integers(1, size)))
    slots = draw(st.integers(1, 14))
    return players, already, slots


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_slot_properties(event):
    players, already, slots = event
    result = qualifiers(players, already, slots)
    eligible = [p.player for p in players if p.player not in already]
    got = set(result.qualified)
    # exactly min(slots, eligible) players, none already qualified
    assert len(result.qualified) == min(slots, len(eligible))
    assert not got & already
    # nobody eligible who is ranked strictly better than a qualifier is left out
    rank = {p.player: p.rank for p in players}
    worst = max((rank[p] for p in got), default=0)
    assert all(p in got for p in eligible if rank[p] < worst)
    # a tie is reported exactly when an eligible player at the worst rank is left out
    left_at_line = [p for p in eligible if rank[p] == worst and p not in got]
    assert (result.tie is not None) == bool(left_at_line)
    # without already-qualified players, the slots are the top of the standings
    if not already:
        assert result.passed_down == ()
