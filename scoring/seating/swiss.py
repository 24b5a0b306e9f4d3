"""The Swiss draw: tables filled from the top of the standings, repeats avoided by the
smallest moves in the ranking.

Pure Python — no Django, no ORM (terms: see ``scoring.seating``; the shared pieces —
``Record``, ``seat_order``, ``place_fixed`` — are ``scoring.seating.draw``'s).

Terms:
* natural ranks — the ranks a table would seat in a top-down fill with no history
  (table 1: ranks 1-4 at tables of 4).
* displacement — how far a player's rank lies outside its table's natural ranks.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Sequence

from scoring.seating.draw import (
    SAME_CLUB_APART,
    Clubs,
    Fixed,
    History,
    Record,
    Seating,
    check_players,
    check_same_club_mode,
    fixed_pins,
    place_fixed,
    quality,
    same_club_points,
    seat_order,
    table_rank_spreads,
    table_sizes,
)
from scoring.seating.groups import exchange, positions

# Swiss: players fixed to two different tables never share one (far above any repeats).
SWISS_FIXED_APART = 1_000_000

# Swiss pair costs. A repeat costs SWISS_REPEAT, plus SWISS_EXTRA_MEETING per earlier
# meeting beyond the first and SWISS_RECENT if the pair met in the round just before. The
# extras only order repeats among themselves: while no pair has met more than 8 times,
# one repeat more outweighs all the extras of two tables of 4 (12 pairs · 75 < 1,000).
SWISS_REPEAT = 1_000
SWISS_EXTRA_MEETING = 10
SWISS_RECENT = 5
# Swiss: how many tables up or down a player may be swapped to avoid a repeat. Far
# enough to clear the repeats the top-down pass leaves at the bottom (bench.seating's
# 1,000-player rounds end with none), near enough that one swap moves a player at most 8
# tables (32 ranks at tables of 4) — sending a player across half the field to dodge one
# repeat is no Swiss draw.
SWISS_REACH = 8
# Swiss: while a table's best combination still repeats, its window grows a table at a
# time until it holds SWISS_LOOKAHEAD_TABLES tables' worth of players plus
# SWISS_LOOKAHEAD_SLACK. The combinations grow as C(window, size - 1) — at tables of 4 at
# most C(23, 3) = 1,771 for a table — which keeps 1,000 players well inside the 2 s a
# round may take (bench.seating: about 0.1 s).
SWISS_LOOKAHEAD_TABLES = 4
SWISS_LOOKAHEAD_SLACK = 4
# Swiss: passes of the swap repair at most. Every swap lowers the field's summed
# (repeats, displacement), so the repair cannot cycle and a pass that changes nothing
# ends it early; the bound caps its time.
SWISS_REPAIR_PASSES = 3


def seat_swiss(
    ranked_players: Sequence[int],
    history: History = (),
    table_size: int = 4,
    seed: int = 0,
    *,
    clubs: Clubs | None = None,
    same_club_mode: str = SAME_CLUB_APART,
    fixed: Fixed | None = None,
) -> Seating:
    """Seat by the standings: table 1 gets the best ranked players, and so on down.

    Each table takes the best player not yet seated and fills up with the next ones;
    when that would repeat a meeting, it looks a little further down the standings and
    takes the combination with the fewest repeats, then the smallest rank displacement
    (how far players end up outside their natural table's rank range). A last pass
    swaps players between nearby tables to clear repeats the top-down pass had to leave
    at the bottom. ``seed`` only breaks ties in the seat order.

    With ``SAME_CLUB_APART`` a same-club pair counts like a repeat; other modes leave the
    standings alone. Players with a ``fixed`` table are never drawn together with one
    fixed elsewhere, and their tables are then moved to the fixed numbers.
    """
    check_same_club_mode(same_club_mode)
    ids = check_players(ranked_players, "ranked_players")
    sizes = table_sizes(len(ids), table_size)
    fixed_pins(ids, fixed, sizes)
    record = Record.of(history)
    rng = random.Random(seed)
    apart = clubs if same_club_mode == SAME_CLUB_APART else None
    groups = place_fixed(_swiss_groups(ids, sizes, record, apart, fixed), fixed)
    tables = [seat_order(g, record, rng) for g in groups]
    spreads = table_rank_spreads(tables, ids)
    return Seating(tables, seed, "swiss", quality(tables, history, ids, clubs), spreads)


def _swiss_groups(
    ids: Sequence[int],
    sizes: Sequence[int],
    record: Record,
    clubs: Clubs | None = None,
    fixed: Fixed | None = None,
) -> list[list[int]]:
    """The tables' players, top table first, each table's players in ranking order."""
    ranked = _SwissField(ids, sizes, record, clubs, fixed)
    remaining = list(range(len(ids)))
    groups: list[list[int]] = []
    for t, size in enumerate(sizes):
        anchor, rest = remaining[0], remaining[1:]
        chosen = ranked.fill(t, size, anchor, rest)
        groups.append([anchor, *chosen])
        taken = set(chosen)
        remaining = [i for i in rest if i not in taken]
    ranked.repair(groups)
    return [[ids[i] for i in sorted(g)] for g in groups]


class _SwissField:
    """The ranked field by rank index (0 = best): weighted meetings and table rank ranges.

    Table t's *natural* ranks are ``bounds[t]`` (lo..hi), where a top-down fill with no
    history would seat them; a player's *displacement* at table t is how far its rank
    lies outside that range.
    """

    def __init__(
        self,
        ids: Sequence[int],
        sizes: Sequence[int],
        record: Record,
        clubs: Clubs | None = None,
        fixed: Fixed | None = None,
    ) -> None:
        self.bounds: list[tuple[int, int]] = []
        start = 0
        for size in sizes:
            self.bounds.append((start, start + size - 1))
            start += size
        self.met: dict[int, dict[int, int]] = defaultdict(dict)
        index = {p: i for i, p in enumerate(ids)}
        for (a, b), m in record.meetings.items():
            if a in index and b in index:
                i, j = index[a], index[b]
                recent = SWISS_RECENT if (a, b) in record.recent else 0
                weight = SWISS_REPEAT + SWISS_EXTRA_MEETING * (m - 1) + recent
                self.met[i][j] = self.met[j][i] = weight
        for i, j in same_club_points(ids, clubs) if clubs else ():
            self.met[i][j] = self.met[j][i] = self.met[i].get(j, 0) + SWISS_REPEAT
        fixed = fixed or {}
        pinned = [(i, fixed[p]) for i, p in enumerate(ids) if p in fixed]
        for (i, t), (j, u) in itertools.combinations(pinned, 2):
            if t != u:
                self.met[i][j] = self.met[j][i] = self.met[i].get(j, 0) + SWISS_FIXED_APART

    def pair_cost(self, group: Sequence[int]) -> int:
        met = self.met
        return sum(met[a].get(b, 0) for a, b in itertools.combinations(group, 2) if a in met)

    def displacement(self, group: Sequence[int], t: int) -> int:
        lo, hi = self.bounds[t]
        return sum(lo - i if i < lo else i - hi if i > hi else 0 for i in group)

    def cost(self, group: Sequence[int], t: int) -> tuple[int, int]:
        """(repeats, displacement) of ``group`` at table t."""
        return self.pair_cost(group), self.displacement(group, t)

    def fill(self, t: int, size: int, anchor: int, rest: Sequence[int]) -> tuple[int, ...]:
        """Who joins ``anchor`` at table t: the fewest repeats, then the least displacement.

        Looks a table further down the standings at a time, only while the best
        combination still repeats.
        """
        limit = min(len(rest), SWISS_LOOKAHEAD_TABLES * size + SWISS_LOOKAHEAD_SLACK)
        window = size - 1
        while True:
            best = min(
                (*self.cost((anchor, *combo), t), combo)
                for combo in itertools.combinations(rest[:window], size - 1)
            )
            if best[0] == 0 or window >= limit:
                return best[2]
            window += size

    def repair(self, groups: list[list[int]]) -> None:
        """Swap players between two tables while that lowers (repeats, displacement).

        Only tables with a repeat start a swap, with a table at most ``SWISS_REACH`` away.
        """
        where = positions(groups, sum(map(len, groups)))
        for _pass in range(SWISS_REPAIR_PASSES):
            if not self._repair_pass(groups, where):
                break

    def _repair_pass(self, groups: list[list[int]], where: list[int]) -> bool:
        changed = False
        for t, group in enumerate(groups):
            if self.pair_cost(group) == 0:
                continue
            for u in range(max(0, t - SWISS_REACH), min(len(groups), t + SWISS_REACH + 1)):
                if u == t:
                    continue
                swap = self._best_exchange(group, t, groups[u], u)
                if swap is not None:
                    exchange(groups, where, *swap)
                    changed = True
        return changed

    def _best_exchange(
        self, group: list[int], t: int, other: list[int], u: int
    ) -> tuple[int, int] | None:
        """The players of tables t and u whose exchange lowers the two tables' summed
        (repeats, displacement) most, or None."""
        best = _plus(self.cost(group, t), self.cost(other, u))
        found = None
        for x, y in itertools.product(range(len(group)), range(len(other))):
            g2 = [*group[:x], other[y], *group[x + 1 :]]
            o2 = [*other[:y], group[x], *other[y + 1 :]]
            c = _plus(self.cost(g2, t), self.cost(o2, u))
            if c < best:
                best, found = c, (group[x], other[y])
        return found


def _plus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]
