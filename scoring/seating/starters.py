"""Starters over a whole schedule: who takes seat 1 at each table, round by round.

Pure Python, no Django. Points are ``0..n-1`` and rounds are lists of groups (see
``scoring.seating.groups``). The draw seats one round at a time and needs none of this;
the plan chooses all its rounds' starters at once so that starts stay even.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from scoring.seating.groups import Round

# --------------------------------------------------------------------------- starters


def balance_starters(schedule: list[Round], starts: Sequence[int]) -> list[list[int]]:
    """Pick each table's starter over a whole schedule so starts stay even.

    ``starts`` are the starts each point already has. Two candidates: (a) round by
    round, every table takes its member with the fewest starts — the best each round can
    do given the rounds before; (b) the same, then, while some player has two starts
    more than another, a start is handed along a chain of tables — the busiest player
    gives a table's start to a tablemate, who gives one of theirs on, until it reaches
    someone with two fewer — so nobody else's count changes. (b) evens out the whole
    schedule but may leave a middle round lopsided; the candidate with the smaller
    worst round (then the smaller final spread) wins. Returns every table's starter.
    """
    seated = sorted({p for groups in schedule for g in groups for p in g})
    if not seated:
        return [[] for _ in schedule]
    count = list(starts)
    greedy: list[list[int]] = []
    for groups in schedule:
        chosen = [min(g, key=lambda p: count[p]) for g in groups]
        for p in chosen:
            count[p] += 1
        greedy.append(chosen)
    chained = [list(chosen) for chosen in greedy]
    for _ in range(len(seated) * len(schedule) + 1):
        hi = max(count[p] for p in seated)
        lo = min(count[p] for p in seated)
        if hi - lo <= 1 or not _hand_on_start(schedule, chained, count, hi, lo):
            break
    return min(greedy, chained, key=lambda starter: _spreads(starter, starts, schedule))


def _spreads(
    starter: list[list[int]], starts: Sequence[int], schedule: list[Round]
) -> tuple[int, int]:
    """(worst round's max - min starts among those seated, the last round's)."""
    count = list(starts)
    worst = last = 0
    for groups, chosen in zip(schedule, starter, strict=True):
        for p in chosen:
            count[p] += 1
        here = [count[p] for g in groups for p in g]
        last = max(here) - min(here)
        worst = max(worst, last)
    return worst, last


def _hand_on_start(
    schedule: list[Round], starter: list[list[int]], count: list[int], hi: int, lo: int
) -> bool:
    """One chain that lowers a busiest player's starts or raises a least-started one's."""
    tables_of: dict[int, list[tuple[int, int]]] = {}
    for r, chosen in enumerate(starter):
        for t, p in enumerate(chosen):
            tables_of.setdefault(p, []).append((r, t))
    busiest = [p for p, c in enumerate(count) if c == hi and p in tables_of]
    if _chain(schedule, starter, count, tables_of, busiest, lambda c: c <= hi - 2):
        return True
    above = [p for p, c in enumerate(count) if c >= lo + 2 and p in tables_of]
    return _chain(schedule, starter, count, tables_of, above, lambda c: c == lo)


def _chain(
    schedule: list[Round],
    starter: list[list[int]],
    count: list[int],
    tables_of: dict[int, list[tuple[int, int]]],
    sources: list[int],
    is_target: Callable[[int], bool],
) -> bool:
    """Breadth-first from ``sources`` over "starts a table where q sits" to a player whose
    start count ``is_target``; hand the starts along the chain found. False if none."""
    came_from: dict[int, tuple[int, int, int] | None] = dict.fromkeys(sources)
    queue = list(sources)
    for p in queue:
        for r, t in tables_of.get(p, []):
            for q in schedule[r][t]:
                if q in came_from:
                    continue
                came_from[q] = (p, r, t)
                if is_target(count[q]):
                    _hand_back(starter, count, came_from, q)
                    return True
                queue.append(q)
    return False


def _hand_back(
    starter: list[list[int]],
    count: list[int],
    came_from: dict[int, tuple[int, int, int] | None],
    q: int,
) -> None:
    """Walk back from ``q`` to the chain's source, moving each table's start one step on:
    ``q`` gains a start, the source loses one, everyone between keeps their count."""
    count[q] += 1
    link = came_from[q]
    while link is not None:
        giver, r, t = link
        starter[r][t] = q
        q = giver
        link = came_from[q]
    count[q] -= 1


# --------------------------------------------------------------------------- present starter


def present_starter(starter: int, positions: Sequence[int], absent: Collection[int]) -> int:
    """The seat that starts a game when some seats have left the table.

    ``starter`` is the game's starter by the rotation, ``positions`` the table's seat
    positions and ``absent`` those whose player has left by this game (withdrawn, the
    table playing on without them). A present starter keeps the start; an absent one
    hands it to the next present seat after it in seat order, wrapping from the last
    seat to the first. With nobody present the rotation's starter is returned unchanged.
    """
    order = sorted(positions)
    if starter not in order or starter not in absent:
        return starter
    at = order.index(starter)
    for step in range(1, len(order)):
        seat = order[(at + step) % len(order)]
        if seat not in absent:
            return seat
    return starter
