"""A circuit: a federation's season of qualifier tournaments held by many clubs, one
national ranking of people across them, and the qualified list of the final it feeds.
Pure Python, no Django.

Terms
-----
circuit
    A federation's season: the tournaments its administrators approved (from any club),
    totalled into one ranking of *people* (not of a club's members), and the qualified
    list of the national final.
event
    One approved tournament of the circuit, once it is finished: its ``field`` (the
    players of its final standings, withdrawn players left out) and the ``Finish`` of each
    person who played it (their rank there and their fixed lot). A player linked to no
    person is part of the field, keeps their place, and takes neither points nor a slot.
counts
    An event counts when its field is at least ``min_field``; one below it gives no
    ranking points and no qualification slots.
ranking points
    What one finish earns (``event_points``)::

        base     = place_points[rank - 1]            (``points = "places"``; 0 past the table)
                 | round(beaten_points * beaten / (field - 1))    (``points = "beaten"``)
        points   = base                               (unweighted)
                 | round(base * field / reference_field)          (``weighted``)

    ``beaten`` is the number of players of the field ranked strictly below the finish
    (the share of the field beaten; a field of one beats nobody and earns
    ``beaten_points``). ``round`` rounds halves up. A weighted event of
    ``reference_field`` players is worth its base; a field twice as large, twice as much.
best N
    A person's ranking total is the sum of their ``best`` highest event points (all of
    them when ``best`` is unset), as ``scoring.seasons`` totals a season's "best N of M".
slots
    Each counting event gives ``slots`` places in the final to its best-ranked people,
    passing each slot down past a person already qualified at an earlier event (events
    in date order), with ``scoring.qualification.qualifiers`` — the tournament's own
    slot logic, ties at the line by the players' lots.
ranking slots
    At the cut-off date the top ``ranking_slots`` people of the ranking of the events
    held up to that date qualify too, passing down past people who qualified at an event
    (ties at the line by a lot drawn from the person's id, fixed for the circuit).
seed
    The order of the qualified people in the whole ranking, best first; a qualified person
    without ranking points (an event of no points) comes after every ranked one.

Decisions where the issue is silent (docs/rules/decisions.md#circuits)
-----------------------------------------------------------------------
* Ranking ties: by total, then the best single counted event, then fewer events, then
  they share the rank (``scoring.seasons``' order).
* An event below ``min_field`` counts for nothing: no points, no slots.
* A person with two players in one event (a direct link and a member's link) keeps the
  better finish only (the caller passes one finish per person).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from scoring.errors import RuleError
from scoring.i18n import _
from scoring.qualification import MAX_SLOTS, Placed, qualifiers
from scoring.seasons import Finish, SeasonRule, season_standings

PointsName = Literal["places", "beaten"]
POINTS: tuple[PointsName, ...] = ("places", "beaten")
# Points of places 1..24 by default: a qualifier of 12-40 players spreads them all.
DEFAULT_PLACE_POINTS = (
    *(100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24),
    *(22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 1),
)
MAX_FIELD = 100_000


@dataclass(frozen=True)
class CircuitRule:
    points: PointsName = "places"
    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS
    beaten_points: int = 100
    weighted: bool = False
    reference_field: int = 24
    best: int | None = None
    min_field: int = 1
    slots: int = 1
    ranking_slots: int = 0


@dataclass(frozen=True)
class EventFinish:
    """A person's final place in one event (rank from 1, lot: the standings' fixed lot)."""

    person: int
    rank: int
    lot: int = 0


@dataclass(frozen=True)
class Event:
    """A finished event of the circuit; ``key`` is the caller's id of it. ``by_cutoff``:
    held on or before the cut-off date (its points count for the ranking slots)."""

    key: int
    field: int
    finishes: tuple[EventFinish, ...]
    by_cutoff: bool = True


@dataclass(frozen=True)
class Counted:
    event: int  # the event's key
    points: int
    counted: bool


@dataclass(frozen=True)
class RankingRow:
    rank: int
    person: int
    total: int
    events: int
    contributions: tuple[Counted, ...]


@dataclass(frozen=True)
class Qualified:
    """A qualified person: by an event's slot (``event`` its key) or by the ranking at the
    cut-off (``event`` None); ``seed`` from 1."""

    person: int
    route: Literal["event", "ranking"]
    event: int | None
    seed: int = 0


@dataclass(frozen=True)
class PassedDown:
    """A person already qualified who finished inside an event's slots (or the ranking
    slots, ``event`` None): their slot went to the next person."""

    person: int
    event: int | None


@dataclass(frozen=True)
class CircuitResult:
    ranking: tuple[RankingRow, ...]
    qualified: tuple[Qualified, ...]
    passed_down: tuple[PassedDown, ...] = ()
    ties: tuple[str, ...] = field(default=())


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(values: Mapping[str, object], name: str, default: int, low: int, high: int) -> int:
    value = values.get(name, default)
    if not _whole(value) or not low <= value <= high:  # type: ignore[operator]
        raise RuleError(name, _("a whole number from {low} to {high}").format(low=low, high=high))
    return value  # type: ignore[return-value]


def check_rule(values: Mapping[str, object]) -> CircuitRule:
    """A circuit's rule as an administrator gave it; ``RuleError`` names the first bad
    field. Unknown keys are refused too (a typo must not silently mean the default)."""
    known = set(CircuitRule.__dataclass_fields__)
    for key in values:
        if key not in known:
            raise RuleError(key, _("'{key}' is not a circuit rule").format(key=key))
    points = values.get("points", "places")
    if points not in POINTS:
        raise RuleError("points", _("choose places or beaten"))
    place_points = values.get("place_points", DEFAULT_PLACE_POINTS)
    if (
        not isinstance(place_points, list | tuple)
        or not place_points
        or not all(_whole(p) and p >= 0 for p in place_points)
    ):
        raise RuleError("place_points", _("give the points of each place as whole numbers"))
    if any(a < b for a, b in itertools.pairwise(place_points)):
        raise RuleError("place_points", _("points may not rise from one place to the next"))
    beaten_points = _count(values, "beaten_points", 100, 1, 100_000)
    weighted = values.get("weighted", False)
    if not isinstance(weighted, bool):
        raise RuleError("weighted", _("must be true or false."))
    reference = _count(values, "reference_field", 24, 1, MAX_FIELD)
    best = values.get("best")
    if best is not None and (not _whole(best) or best < 1):  # type: ignore[operator]
        raise RuleError("best", _("best N needs N, a whole number of at least 1, or empty"))
    return CircuitRule(
        points=points,
        place_points=tuple(place_points),
        beaten_points=beaten_points,
        weighted=weighted,
        reference_field=reference,
        best=best,  # type: ignore[arg-type]
        min_field=_count(values, "min_field", 1, 1, MAX_FIELD),
        slots=_count(values, "slots", 1, 0, MAX_SLOTS),
        ranking_slots=_count(values, "ranking_slots", 0, 0, MAX_SLOTS),
    )


def rule_values(rule: CircuitRule) -> dict[str, object]:
    """The rule as stored and shown: every option, resolved."""
    return {
        "points": rule.points,
        "place_points": list(rule.place_points),
        "beaten_points": rule.beaten_points,
        "weighted": rule.weighted,
        "reference_field": rule.reference_field,
        "best": rule.best,
        "min_field": rule.min_field,
        "slots": rule.slots,
        "ranking_slots": rule.ranking_slots,
    }


def _round(value: Fraction) -> int:
    """Halves up (points are never negative)."""
    return int(value + Fraction(1, 2))


def event_counts(field_size: int, rule: CircuitRule) -> bool:
    return field_size >= rule.min_field


def event_points(rank: int, beaten: int, field_size: int, rule: CircuitRule) -> int:
    """The ranking points of one finish (module doc, "ranking points")."""
    if rank < 1 or field_size < 1 or not 0 <= beaten < field_size:
        raise ValueError("rank, beaten and field do not fit")
    if not event_counts(field_size, rule):
        return 0
    if rule.points == "places":
        base = Fraction(rule.place_points[rank - 1] if rank <= len(rule.place_points) else 0)
    elif field_size == 1:
        base = Fraction(rule.beaten_points)
    else:
        base = Fraction(rule.beaten_points * beaten, field_size - 1)
    if rule.weighted:
        base = base * field_size / rule.reference_field
    return _round(base)


def beaten_counts(ranks: Sequence[int], field_size: int) -> dict[int, int]:
    """For each rank of the field's standings (all players, ``ranks`` every player's
    rank), how many players are ranked strictly below it."""
    if len(ranks) > field_size:
        raise ValueError("more ranks than players")
    at_or_above: dict[int, int] = {}
    for rank in sorted(ranks):
        at_or_above[rank] = at_or_above.get(rank, 0) + 1
    beaten, seen = {}, 0
    for rank in sorted(at_or_above):
        seen += at_or_above[rank]
        beaten[rank] = field_size - seen
    return beaten


def event_scores(event: Event, ranks: Sequence[int], rule: CircuitRule) -> dict[int, int]:
    """Each person's points in ``event``; ``ranks``: the rank of every player of the field
    (people and unlinked players alike), which the share of the field beaten needs."""
    beaten = beaten_counts(ranks, event.field)
    return {
        f.person: event_points(f.rank, beaten.get(f.rank, 0), event.field, rule)
        for f in event.finishes
    }


def ranking(
    events: Sequence[tuple[Event, Mapping[int, int]]], rule: CircuitRule
) -> list[RankingRow]:
    """The ranking of people over ``events`` (each with its points per person), best N of
    the counting ones, ranked as ``scoring.seasons`` ranks a season."""
    counting = [(e, points) for e, points in events if event_counts(e.field, rule)]
    season_rule = SeasonRule(rule="best", best=rule.best) if rule.best else SeasonRule()
    rows = season_standings(
        [
            [Finish(f.person, f.rank, points.get(f.person, 0)) for f in event.finishes]
            for event, points in counting
        ],
        season_rule,
    )
    return [
        RankingRow(
            row.rank,
            row.member,
            row.total,
            row.events,
            tuple(Counted(counting[c.event][0].key, c.value, c.counted) for c in row.contributions),
        )
        for row in rows
    ]


def person_lot(circuit: int, person: int) -> int:
    """A fixed lot per person and circuit (ties at the line of the ranking slots)."""
    digest = hashlib.blake2b(f"{circuit}:{person}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def circuit_result(
    events: Sequence[tuple[Event, Mapping[int, int]]], rule: CircuitRule, *, circuit: int = 0
) -> CircuitResult:
    """The ranking and the qualified list of a circuit. ``events``: the finished events in
    date order, each with its points per person (``event_scores``, stored by the caller
    so one event finishing recomputes only its own points)."""
    full = ranking(events, rule)
    qualified: list[Qualified] = []
    passed: list[PassedDown] = []
    ties: list[str] = []
    already: set[int] = set()
    for event, _points in events:
        if not event_counts(event.field, rule) or rule.slots == 0 or not event.finishes:
            continue
        placed = [Placed(f.person, f.rank, f.lot) for f in sorted(event.finishes, key=_order)]
        result = qualifiers(placed, already, rule.slots)
        qualified += [Qualified(p, "event", event.key) for p in result.qualified]
        passed += [PassedDown(p, event.key) for p in result.passed_down]
        if result.tie is not None:
            ties.append(result.tie.sentence())
        already.update(result.qualified)
    if rule.ranking_slots:
        by_cutoff = [(e, p) for e, p in events if e.by_cutoff]
        # Every event held by the cut-off (the usual case once the season is over): the
        # ranking at the cut-off is the whole ranking.
        at_cutoff = full if len(by_cutoff) == len(events) else ranking(by_cutoff, rule)
        placed = [Placed(r.person, r.rank, person_lot(circuit, r.person)) for r in at_cutoff]
        if placed:
            result = qualifiers(placed, already, rule.ranking_slots)
            qualified += [Qualified(p, "ranking", None) for p in result.qualified]
            passed += [PassedDown(p, None) for p in result.passed_down]
            if result.tie is not None:
                ties.append(result.tie.sentence())
    position = {row.person: i for i, row in enumerate(full)}
    order = sorted(
        range(len(qualified)),
        key=lambda i: (position.get(qualified[i].person, len(full)), i),
    )
    seeds = {qualified[i].person: seed for seed, i in enumerate(order, start=1)}
    seeded = tuple(Qualified(q.person, q.route, q.event, seeds[q.person]) for q in qualified)
    return CircuitResult(tuple(full), seeded, tuple(passed), tuple(ties))


def _order(finish: EventFinish) -> tuple[int, int]:
    return (finish.rank, finish.person)
