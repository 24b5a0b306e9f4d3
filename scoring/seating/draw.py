"""The draw: one round at a time, at random or by the standings, and its figures.

Pure Python — no Django, no ORM (terms: see ``scoring.seating``).

* ``table_sizes`` — how many tables and how big;
* ``seat_random`` — fewest repeats given the history, then balanced starters;
  reproducible from its ``seed`` (the engine is ``search.optimise_round``);
* ``seat_swiss`` — tables filled from the top of the standings; repeats avoided by the
  smallest moves in the ranking;
* ``quality`` / ``table_rank_spreads`` — the figures stored with a round.

``Record`` (what the history says), ``check_players`` and ``seat_order`` are shared with
``scoring.seating.plan``.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scoring.errors import RuleError
from scoring.seating import search
from scoring.seating.groups import exchange, positions

Table = tuple[int, ...]
History = Sequence[Sequence[Sequence[int]]]

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 4
# Swiss: how many tables up or down a player may be swapped to avoid a repeat.
SWISS_REACH = 8


class SeatingError(RuleError, ValueError):
    """A seating request that cannot be met; its path names the offending input.

    A ``RuleError``, so the API reports it like every other domain error (HTTP 400).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)
        self.field = field


@dataclass(frozen=True)
class Seating:
    """One round's seating and how good it is.

    ``tables`` — table 1 first, each a tuple of player ids in seat order.
    ``method`` — "random", "swiss" or "plan". ``quality`` — see ``quality()``.
    ``rank_spreads`` — Swiss only: per table, worst rank minus best rank.
    """

    tables: list[Table]
    seed: int
    method: str
    quality: dict[str, int]
    rank_spreads: list[int] = field(default_factory=list)


# --------------------------------------------------------------------------- table sizes


def table_sizes(n_players: int, table_size: int = 4) -> list[int]:
    """How many tables, and how many seats at each, for ``n_players`` (largest first).

    The rule: use as few tables as possible — ceil(n / size) — and make them as equal as
    possible. That is the same as "as many tables of ``table_size`` as possible, the
    rest one seat fewer" whenever that is possible, i.e. for every n ≥ 2 except:

    * tables of 4 with 2 or 5 players: [2] and [3, 2] (a table of 1 is never made);
    * tables of 2 with an odd number of players: one table of 3 (nobody sits out, and
      RULES §7 allows tables of 2 to 4).
    """
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise SeatingError("table_size", f"must be 2 to 4, not {table_size}")
    if n_players < 2:
        raise SeatingError("players", "at least 2 players are needed to seat a round")
    # With tables of 2 an odd player joins a table of 2, making it 3.
    tables = n_players // 2 if table_size == 2 else -(-n_players // table_size)
    base, extra = divmod(n_players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


# --------------------------------------------------------------------------- history


@dataclass
class Record:
    """What the history says about the players: meetings, recency and seats."""

    meetings: dict[tuple[int, int], int]
    recent: set[tuple[int, int]]
    seats: dict[int, list[int]]  # player → times in seat 1, 2, 3, 4

    @classmethod
    def of(cls, history: History) -> Record:
        meetings: dict[tuple[int, int], int] = defaultdict(int)
        recent: set[tuple[int, int]] = set()
        seats: dict[int, list[int]] = defaultdict(lambda: [0] * MAX_TABLE_SIZE)
        for number, seating in enumerate(history):
            last = number == len(history) - 1
            for table in seating:
                for position, player in enumerate(table):
                    if position < MAX_TABLE_SIZE:
                        seats[player][position] += 1
                for a, b in itertools.combinations(sorted(table), 2):
                    meetings[a, b] += 1
                    if last:
                        recent.add((a, b))
        return cls(dict(meetings), recent, seats)

    def met(self, a: int, b: int) -> int:
        return self.meetings.get((a, b) if a < b else (b, a), 0)

    def starts(self, player: int) -> int:
        return self.seats[player][0] if player in self.seats else 0

    def add_round(self, tables: Iterable[Sequence[int]]) -> None:
        self.recent = set()
        for table in tables:
            for position, player in enumerate(table):
                self.seats[player][position] += 1
            for a, b in itertools.combinations(sorted(table), 2):
                self.meetings[a, b] = self.meetings.get((a, b), 0) + 1
                self.recent.add((a, b))


def check_players(players: Iterable[int], name: str = "players") -> list[int]:
    ids = list(players)
    if len(set(ids)) != len(ids):
        raise SeatingError(name, "a player is listed twice")
    if len(ids) < 2:
        raise SeatingError(name, "at least 2 players are needed to seat a round")
    return ids


def seat_order(
    group: Iterable[int], record: Record, rng: random.Random, starter: int | None = None
) -> Table:
    """Seat a table: seat k goes to whoever has sat in seats 1..k least often.

    Seat 1 is the starter, so the player with the fewest starts gets it (unless the plan
    already chose the ``starter``); the next seats start the next games of the series,
    so the same rule, one seat further, balances those too. Ties are broken by the
    seeded draw, not by player id.
    """
    left = list(group)
    rng.shuffle(left)
    seated: list[int] = []
    if starter is not None:
        left.remove(starter)
        seated.append(starter)
    for k in range(len(seated), len(seated) + len(left)):
        counts = {p: record.seats[p] if p in record.seats else [0] * MAX_TABLE_SIZE for p in left}
        pick = min(left, key=lambda p: (sum(counts[p][: k + 1]), counts[p][k]))
        left.remove(pick)
        seated.append(pick)
    return tuple(seated)


# --------------------------------------------------------------------------- quality


def quality(
    seating: Seating | Sequence[Sequence[int]],
    history: History = (),
    ranked_players: Sequence[int] | None = None,
) -> dict[str, int]:
    """The figures stored with a round (JSON-ready ints).

    * ``repeat_pairs`` — pairs at the same table this round who met before.
    * ``max_meetings`` — most meetings of any two players seated this round, this round
      and the history together: 1 when nobody ever met twice, 0 when no two met at all.
    * ``starter_balance`` — over the history and this round, most starts minus fewest
      starts among the players seated this round (0 or 1 is as even as it gets).
    * with ``ranked_players`` (standings order, best first): ``rank_spread`` — the widest
      table, worst rank minus best rank (ranks 1-based) — and ``rank_spread_total``.
    """
    tables = seating.tables if isinstance(seating, Seating) else seating
    record = Record.of(history)
    seated = [p for table in tables for p in table]
    if len(set(seated)) != len(seated):
        raise SeatingError("seating", "a player is seated twice")
    now = {(min(a, b), max(a, b)) for table in tables for a, b in itertools.combinations(table, 2)}
    here = set(seated)
    repeat_pairs = sum(1 for a, b in now if record.met(a, b))
    counts = {pair: m for pair, m in record.meetings.items() if pair[0] in here and pair[1] in here}
    for pair in now:
        counts[pair] = counts.get(pair, 0) + 1
    starts = {p: record.starts(p) for p in seated}
    for table in tables:
        if table:
            starts[table[0]] += 1
    result = {
        "repeat_pairs": repeat_pairs,
        "max_meetings": max(counts.values(), default=0),
        "starter_balance": max(starts.values(), default=0) - min(starts.values(), default=0),
    }
    if ranked_players is not None:
        spreads = table_rank_spreads(tables, ranked_players)
        result["rank_spread"] = max(spreads, default=0)
        result["rank_spread_total"] = sum(spreads)
    return result


def table_rank_spreads(tables: Sequence[Sequence[int]], ranked_players: Sequence[int]) -> list[int]:
    """Per table: worst rank minus best rank (ranks are 1-based positions in the standings)."""
    rank = {p: i + 1 for i, p in enumerate(ranked_players)}
    missing = [p for table in tables for p in table if p not in rank]
    if missing:
        raise SeatingError("ranked_players", f"player {missing[0]} is not in the standings")
    return [max(rank[p] for p in t) - min(rank[p] for p in t) if t else 0 for t in tables]


# --------------------------------------------------------------------------- random


def _pair_costs(ids: Sequence[int], record: Record, n_tables: int) -> tuple[list[list[int]], int]:
    """Pair cost matrix for one round and the weight of the starter term.

    Costs are lexicographic, packed into one integer: first the number of repeat pairs,
    then — among seatings with as few repeats — how often and how recently those pairs
    met (a pair from the round just before weighs 2 more, each earlier extra meeting 1
    more), then the starter term (see ``search.optimise_round``).
    """
    n = len(ids)
    max_starts = max((record.starts(p) for p in ids), default=0)
    start_weight = 1
    # The starter term is at most n_tables·max_starts; a unit of "how often/recent" must
    # outweigh all of it, and one repeat must outweigh every secondary unit in a round.
    unit = n_tables * (max_starts + 1) + 1
    pairs_per_round = n * (MAX_TABLE_SIZE - 1)
    max_secondary = 2 + max(record.meetings.values(), default=0)
    repeat = (pairs_per_round * max_secondary + 1) * unit
    cost = [[0] * n for _ in range(n)]
    index = {p: i for i, p in enumerate(ids)}
    for (a, b), m in record.meetings.items():
        if a in index and b in index:
            c = repeat + unit * ((m - 1) + (2 if (a, b) in record.recent else 0))
            cost[index[a]][index[b]] = cost[index[b]][index[a]] = c
    return cost, start_weight


def seat_random(
    players: Iterable[int], history: History = (), table_size: int = 4, seed: int = 0
) -> Seating:
    """Seat one round with the fewest repeats, then balanced starters.

    Deterministic in (set of players, history, table size, seed): the players are sorted
    first, so their order does not matter. Different seeds give different seatings.
    """
    ids = sorted(check_players(players))
    sizes = table_sizes(len(ids), table_size)
    record = Record.of(history)
    rng = random.Random(seed)
    cost, start_weight = _pair_costs(ids, record, len(sizes))
    starts = [record.starts(p) for p in ids]
    groups = search.optimise_round(
        sizes, cost, starts, start_weight, rng, max_steps=round_budget(len(ids))
    )
    groups.sort(key=len, reverse=True)
    tables = [seat_order((ids[i] for i in g), record, rng) for g in groups]
    return Seating(tables, seed, "random", quality(tables, history))


def round_budget(n: int) -> int:
    # Swap evaluations for one round: plenty for 16 players, about 0.5 s at 200.
    return 40_000 + 1_500 * n


# --------------------------------------------------------------------------- swiss


def seat_swiss(
    ranked_players: Sequence[int], history: History = (), table_size: int = 4, seed: int = 0
) -> Seating:
    """Seat by the standings: table 1 gets the best ranked players, and so on down.

    Each table takes the best player not yet seated and fills up with the next ones;
    when that would repeat a meeting, it looks a little further down the standings and
    takes the combination with the fewest repeats, then the smallest rank displacement
    (how far players end up outside their natural table's rank range). A last pass
    swaps players between nearby tables to clear repeats the top-down pass had to leave
    at the bottom. ``seed`` only breaks ties in the seat order.
    """
    ids = check_players(ranked_players, "ranked_players")
    sizes = table_sizes(len(ids), table_size)
    record = Record.of(history)
    rng = random.Random(seed)
    groups = _swiss_groups(ids, sizes, record)
    tables = [seat_order(g, record, rng) for g in groups]
    spreads = table_rank_spreads(tables, ids)
    return Seating(tables, seed, "swiss", quality(tables, history, ids), spreads)


def _swiss_groups(ids: Sequence[int], sizes: Sequence[int], record: Record) -> list[list[int]]:
    n = len(ids)
    # Player i (0-based rank) has natural table natural[i]; table t spans ranks lo..hi.
    bounds, start = [], 0
    for size in sizes:
        bounds.append((start, start + size - 1))
        start += size
    met: dict[int, dict[int, int]] = defaultdict(dict)
    index = {p: i for i, p in enumerate(ids)}
    for (a, b), m in record.meetings.items():
        if a in index and b in index:
            i, j = index[a], index[b]
            weight = 1_000 + 10 * (m - 1) + (5 if (a, b) in record.recent else 0)
            met[i][j] = met[j][i] = weight

    def pair_cost(group: Sequence[int]) -> int:
        return sum(met[a].get(b, 0) for a, b in itertools.combinations(group, 2) if a in met)

    def displacement(i: int, t: int) -> int:
        lo, hi = bounds[t]
        return lo - i if i < lo else i - hi if i > hi else 0

    remaining = list(range(n))
    groups: list[list[int]] = []
    for t, size in enumerate(sizes):
        anchor, rest = remaining[0], remaining[1:]
        best: tuple[int, int, tuple[int, ...]] | None = None
        window = size - 1
        while True:
            for combo in itertools.combinations(rest[:window], size - 1):
                group = (anchor, *combo)
                key = (pair_cost(group), sum(displacement(i, t) for i in group), combo)
                if best is None or key < best:
                    best = key
            if best[0] == 0 or window >= min(len(rest), 4 * size + 4):
                break
            window += size
        chosen = set(best[2])
        groups.append([anchor, *best[2]])
        remaining = [i for i in rest if i not in chosen]

    _swiss_repair(groups, met, displacement)
    return [[ids[i] for i in sorted(g)] for g in groups]


def _swiss_repair(groups: list[list[int]], met: dict[int, dict[int, int]], displacement) -> None:
    """Swap players between two tables while that lowers (repeats, displacement).

    Only tables with a repeat start a swap, with a table at most ``SWISS_REACH`` away:
    sending a player across half the field to dodge one repeat is no Swiss draw.
    """

    def cost_of(group: Sequence[int], t: int) -> tuple[int, int]:
        pc = sum(met[a].get(b, 0) for a, b in itertools.combinations(group, 2) if a in met)
        return pc, sum(displacement(i, t) for i in group)

    where = positions(groups, sum(map(len, groups)))
    for _ in range(3):
        changed = False
        for t, group in enumerate(groups):
            if cost_of(group, t)[0] == 0:
                continue
            for u in range(max(0, t - SWISS_REACH), min(len(groups), t + SWISS_REACH + 1)):
                if u == t:
                    continue
                other = groups[u]
                base = [sum(x) for x in zip(cost_of(group, t), cost_of(other, u), strict=True)]
                best = (base[0], base[1], -1, -1)
                for x, y in itertools.product(range(len(group)), range(len(other))):
                    g2 = [*group[:x], other[y], *group[x + 1 :]]
                    o2 = [*other[:y], group[x], *other[y + 1 :]]
                    c = [sum(v) for v in zip(cost_of(g2, t), cost_of(o2, u), strict=True)]
                    if (c[0], c[1]) < best[:2]:
                        best = (c[0], c[1], x, y)
                if best[2] >= 0:
                    exchange(groups, where, group[best[2]], other[best[3]])
                    changed = True
        if not changed:
            break
