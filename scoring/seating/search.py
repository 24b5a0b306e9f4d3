"""Local search: the engines that improve a round or a whole schedule.

Pure Python, no Django. Points are ``0..n-1`` and rounds are lists of groups (see
``scoring.seating.groups``).

* ``optimise_round`` — one round, weighted pair costs (the random method);
* ``optimise_schedule`` — many rounds at once, tabu search (the plan method);
* ``fit_labels`` — relabel a design so it clashes least with a history.

Every random choice goes through a ``random.Random`` the caller seeds, and every loop is
bounded by a step count, never by the clock, so the same inputs give the same output on
any machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.seating.groups import Round, count_meetings, exchange, positions, swap_meetings

# --------------------------------------------------------------------------- one round


def optimise_round(
    sizes: Sequence[int],
    cost: Sequence[Sequence[int]],
    starts: Sequence[int],
    start_weight: int,
    rng: random.Random,
    max_steps: int,
) -> Round:
    """Split points 0..n-1 into groups of ``sizes`` with a small total cost.

    A group costs the sum of ``cost[a][b]`` over its pairs plus ``start_weight`` times
    the fewest ``starts`` among its members (so that every table has someone who has
    started rarely, who then gets seat 1). Randomised greedy construction, then best
    swaps between tables for the players that cost something, with random kicks out of
    local minima while repeats remain. ``max_steps`` bounds the work (swap evaluations).
    """
    n = len(cost)
    order = list(range(n))
    rng.shuffle(order)
    # Hard-to-place players first: those with the most costly partners.
    load = [sum(1 for c in cost[p] if c) for p in range(n)]
    order.sort(key=lambda p: -load[p])
    groups: Round = [[] for _ in sizes]
    offset = rng.randrange(len(sizes))
    for p in order:
        best, best_t = None, -1
        row = cost[p]
        for i in range(len(sizes)):
            t = (i + offset) % len(sizes)
            g = groups[t]
            if len(g) < sizes[t]:
                c = sum(row[x] for x in g)
                if best is None or c < best:
                    best, best_t = c, t
                    if c == 0:
                        break
        groups[best_t].append(p)
    return _improve_round(groups, cost, starts, start_weight, rng, max_steps)


def _improve_round(
    groups: Round,
    cost: Sequence[Sequence[int]],
    starts: Sequence[int],
    start_weight: int,
    rng: random.Random,
    max_steps: int,
) -> Round:
    n = len(cost)
    where = positions(groups, n)
    contrib = [0] * n  # each point's pair cost with its tablemates
    for g in groups:
        for p in g:
            contrib[p] = sum(cost[p][x] for x in g if x != p)
    floor = min(starts) if n else 0

    def total() -> int:
        return sum(contrib) // 2 + start_weight * sum(min(starts[x] for x in g) for g in groups)

    def best_swap(a: int) -> tuple[int, int]:
        ta = groups[where[a]]
        rest_a = [x for x in ta if x != a]
        ca = cost[a]
        min_rest_a = min((starts[x] for x in rest_a), default=1 << 30)
        old_min_a = min(starts[x] for x in ta)
        best_delta, best_b = 0, -1
        for t, g in enumerate(groups):
            if t == where[a]:
                continue
            join_a = sum(ca[y] for y in g)
            old_min_b = min(starts[y] for y in g)
            for b in g:
                cb = cost[b]
                delta = sum(cb[x] for x in rest_a) + join_a - ca[b] - contrib[a] - contrib[b]
                if start_weight:
                    new_min_a = min(min_rest_a, starts[b])
                    new_min_b = min([starts[a]] + [starts[y] for y in g if y != b])
                    delta += start_weight * (new_min_a + new_min_b - old_min_a - old_min_b)
                if delta < best_delta:
                    best_delta, best_b = delta, b
        return best_delta, best_b

    def swap(a: int, b: int) -> None:
        for x in groups[where[a]]:
            if x != a:
                contrib[x] += cost[x][b] - cost[x][a]
        for y in groups[where[b]]:
            if y != b:
                contrib[y] += cost[y][a] - cost[y][b]
        exchange(groups, where, a, b)
        contrib[a] = sum(cost[a][y] for y in groups[where[a]] if y != a)
        contrib[b] = sum(cost[b][x] for x in groups[where[b]] if x != b)

    def candidates() -> list[int]:
        out = [p for p in range(n) if contrib[p]]
        if start_weight:
            out += [p for g in groups if min(starts[x] for x in g) > floor for p in g]
        rng.shuffle(out)
        return out

    steps = 0
    best_cost, best_groups = total(), [list(g) for g in groups]
    # Kicks without a new best before giving up: repeats may simply be unavoidable.
    patience, kicks = 10 + n // 8, 0
    while steps < max_steps and kicks <= patience:
        improved = False
        for a in candidates():
            _, b = best_swap(a)
            steps += n
            if b >= 0:
                swap(a, b)
                improved = True
            if steps >= max_steps:
                break
        if improved:
            continue
        now = total()
        if now < best_cost:
            best_cost, best_groups, kicks = now, [list(g) for g in groups], 0
        kicks += 1
        conflicted = [p for p in range(n) if contrib[p]]
        if not conflicted:
            break
        # Local minimum with repeats left: kick a repeating player to a random table.
        a = rng.choice(conflicted)
        b = rng.randrange(n)
        if where[a] != where[b]:
            swap(a, b)
        steps += n
    if total() < best_cost:
        best_groups = [list(g) for g in groups]
    return best_groups


# --------------------------------------------------------------------------- many rounds


def schedule_cost(meetings: Sequence[Sequence[int]]) -> int:
    """Σ over pairs of C(m, 2): 0 iff no pair met twice; a third meeting costs more."""
    n = len(meetings)
    return sum(m * (m - 1) // 2 for a in range(n) for m in meetings[a][a + 1 :])


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
    n = len(meetings)
    free = [r for r in range(frozen, len(rounds)) if len(rounds[r]) > 1]
    if not free:
        return rounds  # nothing to swap between
    # Lower bound: the same number of meetings spread as evenly as possible over all pairs.
    pairs = n * (n - 1) // 2
    q, extra = divmod(sum(map(sum, meetings)) // 2, pairs)
    floor = (pairs - extra) * (q * (q - 1) // 2) + extra * (q * (q + 1) // 2)
    where = [positions(groups, n) for groups in rounds]
    cost = schedule_cost(meetings)
    best_cost, best = cost, [[list(g) for g in groups] for groups in rounds]
    tabu = [[0] * n for _ in rounds]
    step = 0
    stale = 0
    pool: list[tuple[int, int]] = []
    # Steps without a new best before giving up: the rest may be unavoidable repeats.
    patience, last_best = 60_000, 0
    while cost > floor and step < max_steps and step - last_best < patience:
        step += 1
        if not pool or step % 64 == 0:
            # The (round, player) pairs where the player meets someone a second time.
            pool = [
                (r, p)
                for r in free
                for g in rounds[r]
                for p in g
                if any(meetings[p][x] > 1 for x in g if x != p)
            ]
            if not pool:
                break
        i = rng.randrange(len(pool))
        r, a = pool[i]
        groups, wr = rounds[r], where[r]
        ga = groups[wr[a]]
        ma = meetings[a]
        if all(ma[x] < 2 for x in ga if x != a):
            pool[i] = pool[-1]
            pool.pop()
            continue  # no longer repeating here
        best_delta, best_b = None, -1
        rest_a = [x for x in ga if x != a]
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
                if tabu[r][b] > step and cost + delta >= best_cost:
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta, best_b = delta, b
        if best_b < 0 or best_delta is None:
            continue
        b = best_b
        cost += swap_meetings(groups, wr, meetings, a, b)
        tabu[r][a] = step + 4 + rng.randrange(8)
        tabu[r][b] = step + 4 + rng.randrange(8)
        if cost < best_cost:
            best_cost, best = cost, [[list(g) for g in grs] for grs in rounds]
            stale, last_best = 0, step
        else:
            stale += 1
            if stale > 2000:
                # Stuck on a plateau: shake one round hard and carry on from there.
                stale = 0
                r = free[rng.randrange(len(free))]
                for _ in range(n // 4 + 1):
                    a, b = rng.randrange(n), rng.randrange(n)
                    if where[r][a] != where[r][b]:
                        cost += swap_meetings(rounds[r], where[r], meetings, a, b)
    # Leave meetings consistent with the returned schedule.
    if best_cost != cost:
        _recount(meetings, rounds, best)
    return best


def _recount(meetings: list[list[int]], old: list[Round], new: list[Round]) -> None:
    for groups in old:
        count_meetings(meetings, groups, -1)
    for groups in new:
        count_meetings(meetings, groups)


def fit_labels(
    design: list[list[list[int]]], label: list[int], base: list[list[int]], rng: random.Random
) -> None:
    """Hill-climb on label swaps to lower Σ base[label[a]][label[b]] over design pairs."""
    n = len(label)
    mates: list[list[int]] = [[] for _ in range(n)]  # design tablemates of each point
    for groups in design:
        for g in groups:
            for p in g:
                mates[p].extend(x for x in g if x != p)

    def delta(u: int, v: int) -> int:
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

    for _ in range(40 * n):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and delta(u, v) < 0:
            label[u], label[v] = label[v], label[u]
