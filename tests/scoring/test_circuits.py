"""Tests of scoring.circuits: ranking points by place or share of the field beaten,
weighted by field size, best N, a minimum field, slots passing down, ranking slots."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.circuits import (
    CircuitRule,
    Event,
    EventFinish,
    beaten_counts,
    check_rule,
    circuit_result,
    event_points,
    event_scores,
    ranking,
)
from scoring.errors import RuleError


@pytest.mark.parametrize(
    ("rule", "rank", "beaten", "field", "points"),
    [
        # places: the table, nothing past it
        (CircuitRule(place_points=(10, 6, 3)), 1, 39, 40, 10),
        (CircuitRule(place_points=(10, 6, 3)), 3, 37, 40, 3),
        (CircuitRule(place_points=(10, 6, 3)), 4, 36, 40, 0),
        # beaten: 100 x beaten / (field - 1), halves up
        (CircuitRule(points="beaten"), 1, 39, 40, 100),
        (CircuitRule(points="beaten"), 40, 0, 40, 0),
        (CircuitRule(points="beaten"), 2, 2, 5, 50),
        (CircuitRule(points="beaten"), 2, 1, 3, 50),
        (CircuitRule(points="beaten", beaten_points=10), 2, 1, 9, 1),  # 1.25 -> 1
        (CircuitRule(points="beaten", beaten_points=10), 3, 3, 9, 4),  # 3.75 -> 4
        (CircuitRule(points="beaten"), 1, 0, 1, 100),  # a field of one
        # weighted: x field / reference field
        (CircuitRule(place_points=(25,), weighted=True, reference_field=20), 1, 39, 40, 50),
        (CircuitRule(place_points=(25,), weighted=True, reference_field=20), 1, 9, 10, 13),
        (CircuitRule(points="beaten", weighted=True, reference_field=40), 1, 19, 20, 50),
        # below the minimum field: nothing
        (CircuitRule(min_field=12), 1, 10, 11, 0),
        (CircuitRule(min_field=12), 1, 11, 12, 100),
    ],
)
def test_event_points(rule, rank, beaten, field, points):
    assert event_points(rank, beaten, field, rule) == points


def test_beaten_counts_with_ties():
    # ranks 1, 2, 2, 4, 5 of five players: 2 beats 2 players (4 and 5), 4 beats 1
    assert beaten_counts([1, 2, 2, 4, 5], 5) == {1: 4, 2: 2, 4: 1, 5: 0}


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"points": "stars"}, "points"),
        ({"place_points": [5, 10]}, "place_points"),
        ({"place_points": []}, "place_points"),
        ({"place_points": [3, -1]}, "place_points"),
        ({"weighted": "yes"}, "weighted"),
        ({"reference_field": 0}, "reference_field"),
        ({"best": 0}, "best"),
        ({"best": True}, "best"),
        ({"min_field": 0}, "min_field"),
        ({"slots": -1}, "slots"),
        ({"ranking_slots": 1.5}, "ranking_slots"),
        ({"slot": 2}, "slot"),
    ],
)
def test_check_rule_names_the_field(values, field):
    with pytest.raises(RuleError) as refused:
        check_rule(values)
    assert refused.value.path == (field,)


def test_check_rule_defaults():
    rule = check_rule({"best": 3, "slots": 2, "weighted": True})
    assert (rule.best, rule.slots, rule.weighted, rule.min_field) == (3, 2, True, 1)


def _event(key, people, field=None, by_cutoff=True):
    """People in rank order, one rank each."""
    finishes = tuple(EventFinish(p, r) for r, p in enumerate(people, start=1))
    return Event(key, field or len(people), finishes, by_cutoff)


def _scored(event, rule):
    return (event, event_scores(event, [f.rank for f in event.finishes], rule))


def test_best_n_counts_the_largest_events():
    rule = CircuitRule(place_points=(10, 5, 1), best=2)
    events = [_event(1, [1, 2, 3]), _event(2, [2, 1, 3]), _event(3, [3, 1, 2])]
    rows = ranking([_scored(e, rule) for e in events], rule)
    totals = {r.person: (r.rank, r.total) for r in rows}
    # 1: 10 5 5 -> 15; 2: 5 10 1 -> 15; 3: 1 1 10 -> 11. 1 and 2 tie on 15 and best 10,
    # same number of events: they share rank 1.
    assert totals == {1: (1, 15), 2: (1, 15), 3: (3, 11)}
    one = next(r for r in rows if r.person == 1)
    assert [c.counted for c in one.contributions] == [True, True, False]


def test_small_event_counts_for_nothing():
    rule = CircuitRule(place_points=(10, 5, 1), min_field=3)
    events = [_event(1, [1, 2, 3]), _event(2, [2, 1])]
    result = circuit_result([_scored(e, rule) for e in events], rule)
    assert {r.person: r.total for r in result.ranking} == {1: 10, 2: 5, 3: 1}
    assert [(q.person, q.event) for q in result.qualified] == [(1, 1)]


def test_slot_passes_down_past_an_earlier_qualifier():
    rule = CircuitRule(place_points=(10, 5, 1), slots=1)
    events = [_event(1, [1, 2, 3]), _event(2, [1, 3, 2]), _event(3, [1, 3, 2])]
    result = circuit_result([_scored(e, rule) for e in events], rule)
    assert [(q.person, q.event) for q in result.qualified] == [(1, 1), (3, 2), (2, 3)]
    assert [(p.person, p.event) for p in result.passed_down] == [(1, 2), (1, 3), (3, 3)]
    # seeds follow the whole ranking: 1 (30), 3 (11), 2 (7)
    assert {q.person: q.seed for q in result.qualified} == {1: 1, 3: 2, 2: 3}


def test_ranking_slots_at_the_cutoff_pass_down():
    rule = CircuitRule(place_points=(10, 5, 1), slots=1, ranking_slots=2)
    events = [
        _event(1, [1, 2, 3, 4]),
        _event(2, [1, 2, 4, 3]),
        _event(3, [4, 3, 2, 1], by_cutoff=False),
    ]
    result = circuit_result([_scored(e, rule) for e in events], rule)
    # events: 1 (event 1), 2 (event 2, passed down by 1), 4 (event 3).
    # ranking at the cutoff (events 1 and 2): 1 20, 2 10, 3 1, 4 1 -> past 1 and 2:
    # 3 and 4 tie at rank 3 for two slots: both.
    routes = [(q.person, q.route) for q in result.qualified]
    assert routes == [(1, "event"), (2, "event"), (4, "event"), (3, "ranking")]


@given(
    st.lists(
        st.lists(st.integers(0, 11), min_size=1, max_size=8, unique=True),
        min_size=1,
        max_size=6,
    ),
    st.integers(0, 3),
    st.integers(0, 3),
    st.one_of(st.none(), st.integers(1, 4)),
)
def test_qualified_are_distinct_and_bounded(fields, slots, ranking_slots, best):
    rule = CircuitRule(slots=slots, ranking_slots=ranking_slots, best=best, points="beaten")
    events = [_scored(_event(i, people), rule) for i, people in enumerate(fields)]
    result = circuit_result(events, rule)
    people = [q.person for q in result.qualified]
    assert len(people) == len(set(people))
    assert len(people) <= slots * len(fields) + ranking_slots
    assert sorted(q.seed for q in result.qualified) == list(range(1, len(people) + 1))
    # each event gives min(slots, people not yet qualified) slots
    for row in result.ranking:
        counted = [c for c in row.contributions if c.counted]
        assert row.total == sum(c.points for c in counted)
        if best is not None:
            assert len(counted) <= best
            kept = sorted((c.points for c in row.contributions), reverse=True)[:best]
            assert row.total == sum(kept)


@given(
    st.integers(1, 200),
    st.data(),
    st.booleans(),
)
def test_points_never_rise_with_a_worse_place(field, data, weighted):
    rule = CircuitRule(points=data.draw(st.sampled_from(["places", "beaten"])), weighted=weighted)
    ranks = sorted(data.draw(st.lists(st.integers(1, field), min_size=field, max_size=field)))
    # a competition ranking: rank = 1 + players above
    ranks = [1 + sum(1 for q in ranks if q < r) for r in ranks]
    beaten = beaten_counts(ranks, field)
    points = [event_points(r, beaten[r], field, rule) for r in ranks]
    assert all(a >= b for a, b in itertools.pairwise(points))
