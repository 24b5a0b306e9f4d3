"""Planned schedules: many rounds seated at once, with as few repeats as possible.

Pure Python, no Django. Known designs where they fit the player count
(``scoring.seating.designs``), the random method's engine and tabu search for the rest
(``scoring.seating.search``), and starters balanced over the whole schedule
(``scoring.seating.starters``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from scoring.i18n import _
from scoring.seating import search
from scoring.seating.designs import design_rounds
from scoring.seating.draw import (
    History,
    Record,
    Seating,
    SeatingError,
    check_players,
    quality,
    seat_order,
    table_sizes,
)
from scoring.seating.groups import Round, count_meetings
from scoring.seating.starters import balance_starters

# --------------------------------------------------------------------------- plan


def plan_rounds(
    players: Iterable[int],
    rounds: int,
    table_size: int = 4,
    seed: int = 0,
    history: History = (),
) -> list[Seating]:
    """Seat ``rounds`` rounds at once with as few repeats as possible (ideally none).

    Where a known design fits the player count (``designs.design_rounds``) the
    schedule comes from it — relabelled and reordered by the seed, and when there is a
    history, the relabelling that clashes least with it. Rounds beyond what the design
    gives, or player counts without one, are seated round by round with the random
    method's engine, and then the whole schedule is improved by tabu search. Seat order
    balances starters over the history and the planned rounds together.
    """
    ids = sorted(check_players(players))
    if rounds < 0:
        raise SeatingError("rounds", _("cannot be negative"))
    sizes = table_sizes(len(ids), table_size)
    n = len(ids)
    rng = random.Random(seed)
    record = Record.of(history)
    base = _met_before(ids, record)
    schedule = _from_design(n, rounds, table_size, base, rng)
    meetings = [row[:] for row in base]
    for groups in schedule:
        count_meetings(meetings, groups)
    while len(schedule) < rounds:
        zeros = [0] * n
        groups = search.optimise_round(
            sizes, meetings, zeros, 0, rng, max_steps=search.round_budget(n)
        )
        count_meetings(meetings, groups)
        schedule.append(groups)
    schedule = search.optimise_schedule(
        schedule, meetings, 0, rng, max_steps=search.schedule_budget(n)
    )
    schedule = [sorted(groups, key=len, reverse=True) for groups in schedule]
    return _seat_schedule(schedule, ids, history, record, rng, seed)


def _met_before(ids: Sequence[int], record: Record) -> list[list[int]]:
    """``base[i][j]``: how often players ``ids[i]`` and ``ids[j]`` met in the history."""
    n = len(ids)
    index = {p: i for i, p in enumerate(ids)}
    base = [[0] * n for _row in range(n)]
    for (a, b), m in record.meetings.items():
        if a in index and b in index:
            base[index[a]][index[b]] = base[index[b]][index[a]] = m
    return base


def _seat_schedule(
    schedule: list[Round],
    ids: Sequence[int],
    history: History,
    record: Record,
    rng: random.Random,
    seed: int,
) -> list[Seating]:
    """Each round's tables in seat order, starters balanced over the whole schedule.

    ``record`` is brought up to date round by round, so each round's seat order and
    quality see the planned rounds before it as history.
    """
    result: list[Seating] = []
    past: list[Sequence[Sequence[int]]] = [list(r) for r in history]
    starters = balance_starters(schedule, [record.starts(p) for p in ids])
    for groups, chosen in zip(schedule, starters, strict=True):
        tables = [
            seat_order((ids[i] for i in g), record, rng, ids[s])
            for g, s in zip(groups, chosen, strict=True)
        ]
        result.append(Seating(tables, seed, "plan", quality(tables, past)))
        record.add_round(tables)
        past.append(tables)
    return result


def _from_design(
    n: int, rounds: int, table_size: int, base: list[list[int]], rng: random.Random
) -> list[Round]:
    """The first ``rounds`` rounds of a known design on n points, relabelled by the seed.

    With a history, the labelling is improved by swapping labels while that lowers the
    clash with the history (meetings the design would repeat), and the rounds that clash
    least are used.
    """
    design = design_rounds(n, table_size)
    if not design or rounds == 0:
        return []
    label = list(range(n))
    rng.shuffle(label)
    order = list(range(len(design)))
    rng.shuffle(order)
    design = [design[r] for r in order]
    if any(any(row) for row in base):
        search.fit_labels(design, label, base, rng)
        clash = [
            sum(base[label[a]][label[b]] for g in groups for a, b in _pairs(g)) for groups in design
        ]
        design = [design[r] for r in sorted(range(len(design)), key=lambda r: clash[r])]
    return [[[label[p] for p in g] for g in groups] for groups in design[:rounds]]


def _pairs(group: Sequence[int]) -> Iterable[tuple[int, int]]:
    return itertools.combinations(group, 2)
