"""Local search: the engines that improve a round or a whole schedule.

Pure Python, no Django. Points are ``0..n-1`` and rounds are lists of groups (see
``scoring.seating.groups``).

* ``optimise_round`` — one round, weighted pair costs (the random method);
* ``optimise_schedule`` — many rounds at once, tabu search (the plan method);
* ``fit_labels`` — relabel a design so it clashes least with a history.

Every random choice goes through a ``random.Random`` the caller seeds, and every loop is
bounded by a step count, never by the clock, so the same inputs give the same output on
any machine. The budgets and search parameters below are those constants; changing any of
them changes the seatings a seed gives.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from scoring.seating.groups import Round, count_meetings, exchange, positions, swap_meetings

# --------------------------------------------------------------------------- budgets

# One round (``optimise_round``), counted in swap evaluations. The base is plenty for 16
# players; the per-player part keeps a round of 200 players near 0.5 s, inside the 1 s a
# round may take (bench.seating, seat_random).
ROUND_STEPS_BASE = 40_000
ROUND_STEPS_PER_POINT = 1_500

# A whole schedule (``optimise_schedule``), counted in tabu steps. A step costs about n
# table-member evaluations, so the budget is a fixed amount of work divided by n: it keeps
# a 200-player plan to seconds (bench.seating: 40 rounds of 200 in about 1 s). The floor
# leaves small fields, which finish far sooner anyway, enough steps to reach their best.
SCHEDULE_WORK = 4_000_000
SCHEDULE_STEPS_MIN = 20_000

# --------------------------------------------------------------------------- parameters

# optimise_round: random kicks out of a local minimum without a new best before giving
# up — the remaining repeats may simply be unavoidable. Larger fields have more tables to
# kick into, so they get one more try per 8 players on top of the 10.
KICK_PATIENCE = 10
KICK_PATIENCE_PER_POINTS = 8

# optimise_round: "more starts than anyone has", the fewest starts at a table that has no
# one left in it (any count of real starts is far below 2**30).
_NO_STARTS = 1 << 30

# optimise_schedule: tabu steps without a new best before giving up, for the same reason.
# Far above the plateau length below, so the search gets several shakes first.
TABU_PATIENCE = 60_000
# How often (in steps) the pool of repeating players is rebuilt from scratch. In between,
# players found no longer repeating are dropped from it one by one; a full rebuild costs
# a pass over the whole schedule, so it is amortised over 64 steps.
TABU_POOL_REFRESH = 64
# A player just moved stays put for 4 to 11 steps (4 + a draw below 8), unless moving it
# gives a new best: long enough to stop the search swapping a pair straight back, short
# enough not to freeze the few players a small round has. The random part keeps the
# search from cycling with a fixed period.
TABU_TENURE_MIN = 4
TABU_TENURE_SPREAD = 8
# Steps without a new best before one round is shaken hard (n/4 + 1 random swaps, one
# per 4 points: about one player per table at tables of 4) to leave a plateau.
TABU_PLATEAU = 2_000
SHAKE_POINTS_PER_SWAP = 4

# fit_labels: random label swaps tried per point; the hill-climb only ever accepts
# improvements, so this is its whole budget (40 n tries are a few ms at 64 points).
LABEL_TRIES_PER_POINT = 40


def round_budget(n: int) -> int:
    """Swap evaluations for one round of n points."""
    return ROUND_STEPS_BASE + ROUND_STEPS_PER_POINT * n


def schedule_budget(n: int) -> int:
    """Tabu steps for a whole schedule of n points."""
    return max(SCHEDULE_STEPS_MIN, SCHEDULE_WORK // max(n, 1))


def _copy(groups: Round) -> Round:
    return [list(g) for g in groups]


# --------------------------------------------------------------------------- one round


def optimise_round(
    sizes: Sequence[int],
    cost: Sequence[Sequence[int]],
    starts: Sequence[int],
    start_weight: int,
    rng: random.Random,
    max_steps: int,
    pinned: Mapping[int, int] | None = None,
) -> Round:
    """Split points 0..n-1 into groups of ``sizes`` with a small total cost.

    A group costs the sum of ``cost[a][b]`` over its pairs plus ``start_weight`` times
    the fewest ``starts`` among its members (so that every table has someone who has
    started rarely, who then gets seat 1). Randomised greedy construction, then best
    swaps between tables for the players that cost something, with random kicks out of
    local minima while repeats remain. ``max_steps`` bounds the work (swap evaluations).

    ``pinned`` maps a point to the index of the group it must be in (a fixed table): it
    is placed there first and never moved, so group i keeps ``sizes[i]`` seats and the
    points pinned to it. The caller checks that each group has room for its pins.
    """
    pins = dict(pinned or {})
    groups = _greedy_round(sizes, cost, rng, pins)
    return _RoundSearch(groups, cost, starts, start_weight, rng, pins).run(max_steps)


def _greedy_round(
    sizes: Sequence[int], cost: Sequence[Sequence[int]], rng: random.Random, pins: Mapping[int, int]
) -> Round:
    """Each point, hardest to place first, joins the table where it costs least; pinned
    points go to their group before anyone else."""
    n = len(cost)
    order = list(range(n))
    rng.shuffle(order)
    # Hard-to-place players first: those with the most costly partners.
    load = [sum(1 for c in cost[p] if c) for p in range(n)]
    order.sort(key=lambda p: -load[p])
    groups: Round = [[] for _ in sizes]
    offset = rng.randrange(len(sizes))
    for p in order:
        if p in pins:
            groups[pins[p]].append(p)
    for p in order:
        if p not in pins:
            groups[_cheapest_table(groups, sizes, cost[p], offset)].append(p)
    return groups


def _cheapest_table(groups: Round, sizes: Sequence[int], row: Sequence[int], offset: int) -> int:
    """The first table with a free seat where ``row``'s cost is least, from ``offset`` on."""
    best, best_t = None, -1
    for i in range(len(sizes)):
        t = (i + offset) % len(sizes)
        g = groups[t]
        if len(g) < sizes[t]:
            c = sum(row[x] for x in g)
            if best is None or c < best:
                best, best_t = c, t
                if c == 0:
                    break
    return best_t


class _RoundSearch:
    """Best-swap descent with random kicks over one round (``optimise_round``).

    ``contrib[p]`` is p's pair cost with its tablemates, kept up to date by ``swap``; a
    point with a non-zero ``contrib`` sits with someone it costs something to meet.
    """

    def __init__(
        self,
        groups: Round,
        cost: Sequence[Sequence[int]],
        starts: Sequence[int],
        start_weight: int,
        rng: random.Random,
        pins: Mapping[int, int],
    ) -> None:
        self.groups = groups
        self.cost = cost
        self.starts = starts
        self.start_weight = start_weight
        self.rng = rng
        self.n = n = len(cost)
        self.where = positions(groups, n)
        self.movable = [p not in pins for p in range(n)]
        self.contrib = [0] * n
        for g in groups:
            for p in g:
                self.contrib[p] = sum(cost[p][x] for x in g if x != p)
        self.floor = min(starts) if n else 0
        self.steps = 0

    def run(self, max_steps: int) -> Round:
        """Descend, kick, repeat; the best round seen."""
        best_cost, best_groups = self.total(), _copy(self.groups)
        patience, kicks = KICK_PATIENCE + self.n // KICK_PATIENCE_PER_POINTS, 0
        while self.steps < max_steps and kicks <= patience:
            if self.descend(max_steps):
                continue
            now = self.total()
            if now < best_cost:
                best_cost, best_groups, kicks = now, _copy(self.groups), 0
            kicks += 1
            if not self.kick():
                break
        if self.total() < best_cost:
            best_groups = _copy(self.groups)
        return best_groups

    def total(self) -> int:
        starts = self.starts
        starters = sum(min(starts[x] for x in g) for g in self.groups)
        return sum(self.contrib) // 2 + self.start_weight * starters

    def descend(self, max_steps: int) -> bool:
        """One pass of best swaps over the candidates; whether any swap was made."""
        improved = False
        for a in self.candidates():
            b = self.best_swap(a)
            self.steps += self.n
            if b >= 0:
                self.swap(a, b)
                improved = True
            if self.steps >= max_steps:
                break
        return improved

    def kick(self) -> bool:
        """Local minimum with repeats left: swap a repeating player with a random one.

        False when no player costs anything: nothing left to kick.
        """
        movable = self.movable
        conflicted = [p for p in range(self.n) if self.contrib[p] and movable[p]]
        if not conflicted:
            return False
        a = self.rng.choice(conflicted)
        b = self.rng.randrange(self.n)
        if self.where[a] != self.where[b] and movable[b]:
            self.swap(a, b)
        self.steps += self.n
        return True

    def candidates(self) -> list[int]:
        """The points worth moving, shuffled: those with a cost, and (with a starter
        weight) everyone at a table whose fewest starts are above the field's fewest."""
        starts, groups, movable = self.starts, self.groups, self.movable
        out = [p for p in range(self.n) if self.contrib[p]]
        if self.start_weight:
            out += [p for g in groups if min(starts[x] for x in g) > self.floor for p in g]
        self.rng.shuffle(out)
        return [p for p in out if movable[p]]

    def best_swap(self, a: int) -> int:
        """The point at another table whose swap with ``a`` lowers the cost most, or -1."""
        cost, starts, contrib, groups = self.cost, self.starts, self.contrib, self.groups
        start_weight, wa = self.start_weight, self.where[a]
        ta = groups[wa]
        rest_a = [x for x in ta if x != a]
        ca = cost[a]
        min_rest_a = min((starts[x] for x in rest_a), default=_NO_STARTS)
        old_min_a = min(starts[x] for x in ta)
        best_delta, best_b = 0, -1
        for t, g in enumerate(groups):
            if t == wa:
                continue
            join_a = sum(ca[y] for y in g)
            old_min_b = min(starts[y] for y in g)
            for b in g:
                if not self.movable[b]:
                    continue
                cb = cost[b]
                delta = sum(cb[x] for x in rest_a) + join_a - ca[b] - contrib[a] - contrib[b]
                if start_weight:
                    new_min_a = min(min_rest_a, starts[b])
                    new_min_b = min([starts[a]] + [starts[y] for y in g if y != b])
                    delta += start_weight * (new_min_a + new_min_b - old_min_a - old_min_b)
                if delta < best_delta:
                    best_delta, best_b = delta, b
        return best_b

    def swap(self, a: int, b: int) -> None:
        """``exchange`` a and b, keeping ``contrib`` up to date."""
        cost, contrib, groups, where = self.cost, self.contrib, self.groups, self.where
        for x in groups[where[a]]:
            if x != a:
                contrib[x] += cost[x][b] - cost[x][a]
        for y in groups[where[b]]:
            if y != b:
                contrib[y] += cost[y][a] - cost[y][b]
        exchange(groups, where, a, b)
        contrib[a] = sum(cost[a][y] for y in groups[where[a]] if y != a)
        contrib[b] = sum(cost[b][x] for x in groups[where[b]] if x != b)


# --------------------------------------------------------------------------- many rounds


def schedule_cost(meetings: Sequence[Sequence[int]]) -> int:
    """Σ over pairs of C(m, 2): 0 iff no pair met twice; a third meeting costs more."""
    n = len(meetings)
    return sum(m * (m - 1) // 2 for a in range(n) for m in meetings[a][a + 1 :])


def _cost_floor(meetings: Sequence[Sequence[int]]) -> int:
    """Lower bound of ``schedule_cost``: the same meetings spread as evenly as possible."""
    n = len(meetings)
    pairs = n * (n - 1) // 2
    q, extra = divmod(sum(map(sum, meetings)) // 2, pairs)
    return (pairs - extra) * (q * (q - 1) // 2) + extra * (q * (q + 1) // 2)


def optimise_schedule(
    rounds: list[Round],
    meetings: list[list[int]],
    frozen: int,
    rng: random.Random,
    max_steps: int,
) -> list[Round]:
    """Tabu search over swaps inside rounds to minimise ``schedule_cost(meetings)``.

    ``meetings[a][b]`` must already count every round in ``rounds`` (and any history).
    Rounds before index ``frozen`` are never changed. Each step takes a random player
    who meets someone a second time, tries every swap with a player at another table of
    that round, and makes the best one that is not tabu (a player just moved stays put
    for a few steps) — even a worsening one, which is how the search leaves local
    minima. The best schedule seen is returned; ``meetings`` is left matching it.
    """
    free = [r for r in range(frozen, len(rounds)) if len(rounds[r]) > 1]
    if not free:
        return rounds  # nothing to swap between
    return _TabuSearch(rounds, meetings, free, rng).run(max_steps)


class _TabuSearch:
    """The state of ``optimise_schedule``: the schedule, its meetings, cost and tabu list.

    ``pool`` holds (round, player) pairs where the player meets someone a second time;
    ``tabu[r][p]`` is the step until which player p stays put in round r.
    """

    def __init__(
        self, rounds: list[Round], meetings: list[list[int]], free: list[int], rng: random.Random
    ) -> None:
        self.rounds = rounds
        self.meetings = meetings
        self.free = free
        self.rng = rng
        self.n = n = len(meetings)
        self.where = [positions(groups, n) for groups in rounds]
        self.cost = schedule_cost(meetings)
        self.best_cost, self.best = self.cost, [_copy(groups) for groups in rounds]
        self.tabu = [[0] * n for _ in rounds]
        self.step = self.stale = self.last_best = 0
        self.pool: list[tuple[int, int]] = []

    def run(self, max_steps: int) -> list[Round]:
        floor = _cost_floor(self.meetings)
        while (
            self.cost > floor
            and self.step < max_steps
            and self.step - self.last_best < TABU_PATIENCE
        ):
            self.step += 1
            if not self.pool or self.step % TABU_POOL_REFRESH == 0:
                self.refill_pool()
                if not self.pool:
                    break
            self.move()
        # Leave meetings consistent with the returned schedule.
        if self.best_cost != self.cost:
            _recount(self.meetings, self.rounds, self.best)
        return self.best

    def refill_pool(self) -> None:
        meetings = self.meetings
        self.pool = [
            (r, p)
            for r in self.free
            for g in self.rounds[r]
            for p in g
            if any(meetings[p][x] > 1 for x in g if x != p)
        ]

    def move(self) -> None:
        """One tabu step: a repeating player's best allowed swap, made even if worse."""
        i = self.rng.randrange(len(self.pool))
        r, a = self.pool[i]
        groups, wr = self.rounds[r], self.where[r]
        ma = self.meetings[a]
        if all(ma[x] < 2 for x in groups[wr[a]] if x != a):
            self.pool[i] = self.pool[-1]
            self.pool.pop()
            return  # no longer repeating here
        b = self.best_partner(r, a)
        if b < 0:
            return
        self.cost += swap_meetings(groups, wr, self.meetings, a, b)
        self.tabu[r][a] = self.step + TABU_TENURE_MIN + self.rng.randrange(TABU_TENURE_SPREAD)
        self.tabu[r][b] = self.step + TABU_TENURE_MIN + self.rng.randrange(TABU_TENURE_SPREAD)
        if self.cost < self.best_cost:
            self.best_cost, self.best = self.cost, [_copy(groups) for groups in self.rounds]
            self.stale, self.last_best = 0, self.step
        else:
            self.stale += 1
            if self.stale > TABU_PLATEAU:
                self.stale = 0
                self.shake()

    def best_partner(self, r: int, a: int) -> int:
        """The player to swap with ``a`` in round r: the lowest cost change, skipping tabu
        players unless the swap gives a new best (aspiration); -1 if there is none."""
        groups, wr, meetings, tabu = self.rounds[r], self.where[r], self.meetings, self.tabu[r]
        step, cost, best_cost = self.step, self.cost, self.best_cost
        ma = meetings[a]
        rest_a = [x for x in groups[wr[a]] if x != a]
        best_delta, best_b = None, -1
        for t, gb in enumerate(groups):
            if t == wr[a]:
                continue
            gain_a = sum(ma[y] for y in gb)  # a's meetings with b's table (b itself included)
            loss_b_pre = len(gb) - 1
            for b in gb:
                mb = meetings[b]
                # a leaves ga (each partner x: -(m-1)), b joins ga (+m), and vice versa.
                delta = (
                    sum(mb[x] - ma[x] + 1 for x in rest_a)
                    + gain_a
                    - ma[b]
                    - sum(mb[y] for y in gb if y != b)
                    + loss_b_pre
                )
                if tabu[b] > step and cost + delta >= best_cost:
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta, best_b = delta, b
        return best_b

    def shake(self) -> None:
        """Stuck on a plateau: random swaps in one round, and carry on from there."""
        rng, n = self.rng, self.n
        r = self.free[rng.randrange(len(self.free))]
        for _ in range(n // SHAKE_POINTS_PER_SWAP + 1):
            a, b = rng.randrange(n), rng.randrange(n)
            if self.where[r][a] != self.where[r][b]:
                self.cost += swap_meetings(self.rounds[r], self.where[r], self.meetings, a, b)


def _recount(meetings: list[list[int]], old: list[Round], new: list[Round]) -> None:
    """Replace the meetings of the rounds ``old`` by those of ``new``."""
    for groups in old:
        count_meetings(meetings, groups, -1)
    for groups in new:
        count_meetings(meetings, groups)


# --------------------------------------------------------------------------- labels


def fit_labels(
    design: Sequence[Round], label: list[int], base: Sequence[Sequence[int]], rng: random.Random
) -> None:
    """Hill-climb on label swaps to lower Σ base[label[a]][label[b]] over design pairs."""
    n = len(label)
    mates: list[list[int]] = [[] for _ in range(n)]  # design tablemates of each point
    for groups in design:
        for g in groups:
            for p in g:
                mates[p].extend(x for x in g if x != p)
    for _ in range(LABEL_TRIES_PER_POINT * n):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and _relabel_delta(mates, label, base, u, v) < 0:
            label[u], label[v] = label[v], label[u]


def _relabel_delta(
    mates: Sequence[Sequence[int]],
    label: Sequence[int],
    base: Sequence[Sequence[int]],
    u: int,
    v: int,
) -> int:
    """The change in clash if points u and v swapped labels."""
    lu, lv = label[u], label[v]
    d = 0
    for x in mates[u]:
        if x != v:
            lx = label[x]
            d += base[lv][lx] - base[lu][lx]
    for x in mates[v]:
        if x != u:
            lx = label[x]
            d += base[lu][lx] - base[lv][lx]
    return d
