"""Season totals: a league's evenings or a grand prix, totalled by a declared rule.
Pure Python, no Django.

Terms
-----
season
    Tournaments grouped and totalled together: a league of 6-10 matchdays, a grand-prix
    series of events. (Not a *series* in this code base's sense, which is the games played
    at one table in one round.)
event
    One tournament of the season, in date order. Each member who played it has a
    ``Finish``: the final rank and score there.
member
    A person followed across tournaments (the ids are the caller's).
rule
    How events become a season total:
    ``sum``      — the sum of the member's event scores;
    ``best``     — the sum of their ``best`` highest event scores (best N of M);
    ``best_games`` — the sum of their ``best`` highest *game* scores of the whole season,
                   whichever events they were played in (a league that counts the best
                   20 games of the year);
    ``places``   — points by final place in each event from a table such as
                   25/20/16/13/..., places beyond the table earning 0.
    ``cap`` (any rule) bounds what one event contributes, e.g. at most 60 a night.
contribution
    What one event adds to a member's total under the rule (after the cap). ``counted``
    marks the contributions that count (all of them, except under ``best``).

Decisions where no rule text speaks
-----------------------------------
* ``best`` counts the N largest contributions; when several are equal at the edge it does
  not matter which one counts (the total is the same), and the earliest events are
  marked counted, so the page is stable.
* ``places``: players sharing a final rank in an event all earn the points of that rank
  (competition ranking, as the standings and the placement points do).
* ``cap`` also bounds a negative contribution from below at ``-cap``: a league that caps a
  night's winnings caps its losses too. Members who missed an event contribute nothing
  for it (a league where players join or leave at any time).
* ``best_games``: the game scores are the member's net scores (after sanctions) in the
  confirmed results of the season's events, a game a substitute played for them and a
  forfeited seat left out. Among equal scores at the edge the earlier game counts (the
  total is the same). An event's contribution is the sum of its counted games, and it is
  marked counted when at least one of its games counts. ``cap`` does not combine with it
  (a cap bounds an event, this rule counts games): refused.
* Season ranking: by total; ties by the best single counted contribution, then by fewer
  events played (the same total from fewer nights); still tied share the rank ("1224").
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from scoring.errors import RuleError
from scoring.i18n import _

RuleName = Literal["sum", "best", "places", "best_games"]
RULES: tuple[RuleName, ...] = ("sum", "best", "places", "best_games")
DEFAULT_PLACE_POINTS = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


@dataclass(frozen=True)
class SeasonRule:
    rule: RuleName = "sum"
    best: int | None = None  # N of "best N of M"
    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS
    cap: int | None = None


@dataclass(frozen=True)
class Finish:
    """A member's final place in one event."""

    member: int
    rank: int
    score: int
    games: tuple[int, ...] = ()  # the member's game scores in the event (``best_games``)


@dataclass(frozen=True)
class Contribution:
    event: int  # index of the event in the season, from 0
    value: int
    counted: bool


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    member: int
    total: int
    events: int
    contributions: tuple[Contribution, ...]


def check_rule(values: Mapping[str, object]) -> SeasonRule:
    """A season rule as an organiser gave it; ``RuleError`` names the first bad field."""
    rule = values.get("rule", "sum")
    if rule not in RULES:
        raise RuleError(
            "rule",
            _("'{rule}' is not a season rule; choose sum, best, places or best_games").format(
                rule=rule
            ),
        )
    best = values.get("best")
    if rule in ("best", "best_games"):
        if not _whole(best) or best < 1:  # type: ignore[operator]
            raise RuleError("best", _("best N of M needs N, a whole number of at least 1"))
    elif best is not None:
        raise RuleError(
            "best", _("only the rules 'best' and 'best_games' count a number of best ones")
        )
    points = values.get("place_points", DEFAULT_PLACE_POINTS)
    if not isinstance(points, list | tuple) or not points or not all(map(_whole, points)):
        raise RuleError("place_points", _("give the points of each place as whole numbers"))
    if any(a < b for a, b in itertools.pairwise(points)) or points[-1] < 0:
        raise RuleError("place_points", _("points may not rise from one place to the next"))
    cap = values.get("cap")
    if cap is not None and (not _whole(cap) or cap < 1):  # type: ignore[operator]
        raise RuleError("cap", _("a cap is a whole number of at least 1, or empty for none"))
    if cap is not None and rule == "best_games":
        raise RuleError("cap", _("a cap bounds an event; best N games counts games: leave it out"))
    return SeasonRule(rule, best, tuple(points), cap)  # type: ignore[arg-type]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def contribution(finish: Finish, rule: SeasonRule) -> int:
    """What one event adds for one member under ``rule``, after the cap."""
    if rule.rule == "places":
        index = finish.rank - 1
        value = rule.place_points[index] if index < len(rule.place_points) else 0
    else:
        value = finish.score
    if rule.cap is not None:
        value = max(-rule.cap, min(rule.cap, value))
    return value


def season_standings(events: Sequence[Sequence[Finish]], rule: SeasonRule) -> list[SeasonRow]:
    """Total the season's events (in order) under ``rule`` and rank the members."""
    if rule.rule == "best_games":
        return _ranked(_best_games(events, rule.best or 0))
    per_member: dict[int, list[tuple[int, int]]] = {}
    for index, finishes in enumerate(events):
        seen: set[int] = set()
        for finish in finishes:
            if finish.member in seen:
                raise ValueError(f"event {index}: member {finish.member} finished twice")
            seen.add(finish.member)
            per_member.setdefault(finish.member, []).append((index, contribution(finish, rule)))
    rows = [_row(member, values, rule) for member, values in per_member.items()]
    return _ranked(rows)


def _best_games(events: Sequence[Sequence[Finish]], best: int) -> list[SeasonRow]:
    """Each member's ``best`` highest game scores over the season (module doc)."""
    played: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for index, finishes in enumerate(events):
        seen: set[int] = set()
        for finish in finishes:
            if finish.member in seen:
                raise ValueError(f"event {index}: member {finish.member} finished twice")
            seen.add(finish.member)
            played.setdefault(finish.member, []).append((index, finish.games))
    rows = []
    for member, per_event in played.items():
        games = [
            (score, event, game) for event, scores in per_event for game, score in enumerate(scores)
        ]
        # Highest first; among equal scores the earlier game (event, then game order).
        counted = sorted(games, key=lambda g: (-g[0], g[1], g[2]))[:best]
        by_event: dict[int, int] = {}
        for score, event, _game in counted:
            by_event[event] = by_event.get(event, 0) + score
        contributions = tuple(
            Contribution(event, by_event.get(event, 0), event in by_event)
            for event, _scores in per_event
        )
        total = sum(score for score, _e, _g in counted)
        rows.append(SeasonRow(0, member, total, len(per_event), contributions))
    return rows


def _row(member: int, values: list[tuple[int, int]], rule: SeasonRule) -> SeasonRow:
    counted = set(range(len(values)))
    if rule.rule == "best" and rule.best is not None:
        # Largest first; among equal values the earlier event (stable sort keeps it).
        order = sorted(range(len(values)), key=lambda i: -values[i][1])
        counted = set(order[: rule.best])
    contributions = tuple(
        Contribution(event, value, i in counted) for i, (event, value) in enumerate(values)
    )
    total = sum(c.value for c in contributions if c.counted)
    return SeasonRow(0, member, total, len(values), contributions)


def _key(row: SeasonRow) -> tuple[int, int, int]:
    best = max((c.value for c in row.contributions if c.counted), default=0)
    return (-row.total, -best, row.events)


def _ranked(rows: list[SeasonRow]) -> list[SeasonRow]:
    rows.sort(key=lambda r: (_key(r), r.member))
    ranked: list[SeasonRow] = []
    for place, row in enumerate(rows, start=1):
        same = ranked and _key(ranked[-1]) == _key(row)
        rank = ranked[-1].rank if same else place
        ranked.append(SeasonRow(rank, row.member, row.total, row.events, row.contributions))
    return ranked
