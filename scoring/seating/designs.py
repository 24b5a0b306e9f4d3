"""Engines behind :mod:`tournaments.seating`: known designs and local search.

Pure Python, no Django. Everything here works on *points* ``0..n-1`` (the seating module
maps player ids to points and back) and on *groups* (a table before its seat order is
chosen: a list of points).

Two kinds of tool live here:

* **Designs** — schedules in which no two points ever share a table twice, built from
  finite-field geometry or from a stored *base round* that is turned into the other
  rounds by adding a constant (a "1-rotational" design):

  * affine space AG(d, q), q = table size: q**d players, (q**d - 1)/(q - 1) rounds
    (16 players → 5 rounds, 64 → 21, 27 at tables of 3 → 13);
  * resolvable transversal design TD(k, q), q a prime power ≥ k: k·q players (up to
    k - 1 fewer, those tables seat k - 1), q rounds (20 → 5, 28 → 7, 36 → 9);
  * 1-rotational designs for tables of 4 (base rounds found once by a simulated
    annealing search and stored in ``_ROTATIONAL``): 24 → 7 and 28 → 9, both meeting the
    bound ⌊(n - 1)/3⌋ (a player meets 3 new players per round);
  * a partial spread of lines over GF(2) for 32 players at tables of 4: 9 rounds; and
    a published 10-round schedule for the same 32 (``_PUBLISHED``), which no
    construction here reaches;
  * the circle method for tables of 2 (everyone meets everyone in n - 1 rounds).

* **Local search** — ``optimise_round`` (one round, weighted pair costs: the random
  method) and ``optimise_schedule`` (many rounds at once: the plan method).

Every random choice goes through a ``random.Random`` the caller seeds, and every loop is
bounded by a step count, never by the clock, so the same inputs give the same output on
any machine.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import lru_cache

Group = list[int]
Round = list[Group]

# --------------------------------------------------------------------------- fields


def _prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with p**k == q for a prime p, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, rest = 0, q
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


def _poly_mod_mul(a: list[int], b: list[int], mod: list[int], p: int) -> list[int]:
    """a·b reduced modulo the monic polynomial ``mod`` over GF(p); lowest degree first."""
    prod = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            prod[i + j] = (prod[i + j] + x * y) % p
    k = len(mod) - 1
    for top in range(len(prod) - 1, k - 1, -1):
        c = prod[top]
        if c:
            for i in range(k + 1):
                prod[top - k + i] = (prod[top - k + i] - c * mod[i]) % p
    return (prod + [0] * k)[:k]


def _is_irreducible(poly: list[int], p: int) -> bool:
    """A monic poly of degree k is irreducible iff no monic poly of degree 1..k/2 divides it."""
    k = len(poly) - 1
    for d in range(1, k // 2 + 1):
        for low in itertools.product(range(p), repeat=d):
            divisor = [*low, 1]
            rem = list(poly)
            for top in range(k, d - 1, -1):
                c = rem[top]
                if c:
                    for i in range(d + 1):
                        rem[top - d + i] = (rem[top - d + i] - c * divisor[i]) % p
            if not any(rem[:d]):
                return False
    return True


@lru_cache(maxsize=32)
def finite_field(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Addition and multiplication tables of GF(q) on the elements 0..q-1.

    Element e stands for the polynomial whose coefficients are the base-p digits of e, so
    0 and 1 are the field's zero and one. The modulus is the first monic irreducible
    polynomial in counting order, which makes the tables the same on every run.
    """
    pk = _prime_power(q)
    if pk is None:
        raise ValueError(f"{q} is not a prime power")
    p, k = pk
    if k == 1:
        add = tuple(tuple((a + b) % p for b in range(p)) for a in range(p))
        mul = tuple(tuple((a * b) % p for b in range(p)) for a in range(p))
        return add, mul
    modulus = next(
        [*low, 1]
        for low in itertools.product(range(p), repeat=k)
        if low[0] and _is_irreducible([*low, 1], p)
    )

    def digits(e: int) -> list[int]:
        return [(e // p**i) % p for i in range(k)]

    def number(ds: list[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    add = tuple(
        tuple(
            number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])
            for b in range(q)
        )
        for a in range(q)
    )
    mul = tuple(
        tuple(number(_poly_mod_mul(digits(a), digits(b), modulus, p)) for b in range(q))
        for a in range(q)
    )
    return add, mul


# --------------------------------------------------------------------------- designs


def affine_space_rounds(q: int, dim: int) -> list[Round]:
    """AG(dim, q): points are vectors over GF(q); each direction's parallel lines are a round."""
    add, mul = finite_field(q)
    n = q**dim

    def vec(x: int) -> list[int]:
        return [(x // q**i) % q for i in range(dim)]

    def num(v: list[int]) -> int:
        return sum(c * q**i for i, c in enumerate(v))

    rounds: list[Round] = []
    # One direction per 1-dimensional subspace: its last non-zero coordinate is 1.
    for d in range(1, n):
        direction = vec(d)
        if direction[max(i for i, c in enumerate(direction) if c)] != 1:
            continue
        seen = [False] * n
        groups: Round = []
        for start in range(n):
            if seen[start]:
                continue
            base = vec(start)
            line = [
                num([add[b][mul[lam][c]] for b, c in zip(base, direction, strict=True)])
                for lam in range(q)
            ]
            for point in line:
                seen[point] = True
            groups.append(line)
        rounds.append(groups)
    return rounds


def transversal_rounds(k: int, q: int, missing: int = 0) -> list[Round]:
    """Resolvable TD(k, q): points (g, x), g < k, x in GF(q), numbered g·q + x.

    The table of slope a and offset c seats (g, a·g + c) for every g; two points of
    different g share exactly one table, two of the same g never do. Each slope is a
    round. ``missing`` points (k-1, x) for the top x are left out: they never meet, so
    every round gets that many tables of k - 1. When q == k the groups themselves make
    one more round (that is the affine plane AG(2, k)).
    """
    add, mul = finite_field(q)
    gone = {(k - 1) * q + x for x in range(q - missing, q)}
    rounds: list[Round] = []
    for a in range(q):
        groups = []
        for c in range(q):
            table = [g * q + add[mul[a][g]][c] for g in range(k)]
            groups.append([x for x in table if x not in gone])
        rounds.append(groups)
    if q == k and missing <= 1:
        rounds.append([[g * q + x for x in range(q) if g * q + x not in gone] for g in range(k)])
    return _renumber(rounds)


def binary_spread_rounds(dim: int) -> list[Round]:
    """Tables of 4 for 2**dim players (dim odd; even dims are AG(dim/2, 4)).

    Points are vectors of GF(2)**dim. A 2-dimensional subspace {0, u, v, u+v} and its
    cosets seat everyone; two such subspaces sharing only 0 never seat a pair twice. So a
    set of pairwise trivially-meeting subspaces (a partial spread of lines in
    PG(dim-1, 2)) gives one round each: 9 for 32 players — the most possible, since
    PG(4, 2) has no 10 disjoint lines. Found by a deterministic depth-first search.
    """
    n = 2**dim
    # Each line (the 3 non-zero vectors of a 2-dimensional subspace) once, in a fixed order.
    lines = sorted(
        {frozenset((u, v, u ^ v)) for u in range(1, n) for v in range(u + 1, n)}, key=sorted
    )
    # Known maximum partial spreads: (n - 1)/3 lines for even dim, (n - 5)/3 for odd.
    target = (n - 1) // 3 if dim % 2 == 0 else (n - 5) // 3
    chosen: list[frozenset[int]] = []

    def search(start: int, used: frozenset[int]) -> bool:
        if len(chosen) == target:
            return True
        for i in range(start, len(lines)):
            if not lines[i] & used:
                chosen.append(lines[i])
                if search(i + 1, used | lines[i]):
                    return True
                chosen.pop()
        return False

    search(0, frozenset())
    rounds = []
    for line in chosen:
        u, v, _ = sorted(line)
        seen: set[int] = set()
        groups = []
        for x in range(n):
            if x not in seen:
                coset = [x, x ^ u, x ^ v, x ^ u ^ v]
                seen.update(coset)
                groups.append(coset)
        rounds.append(groups)
    return rounds


def circle_rounds(n: int) -> list[Round]:
    """Tables of 2, n even: the circle method; everyone meets everyone once in n - 1 rounds."""
    rounds = []
    for r in range(n - 1):
        ring = [n - 1] + [(r + i) % (n - 1) for i in range(n - 1)]
        rounds.append([[ring[i], ring[n - 1 - i]] for i in range(n // 2)])
    return rounds


# Base rounds of 1-rotational designs for tables of 4, found with a simulated annealing
# search over "which points share a table" scored by repeated differences (run once
# offline; checked again by the tests). A point is level·m + i (level 0..2, i mod m) or
# 3m + j for a fixed point j. Round t adds t to every i. For n ≡ 4 (mod 12), m = (n-1)/3
# and one fixed point; for n ≡ 0 (mod 12), m = (n-3)/3 and three fixed points, and the
# players (i,0), (i,1), (i,2) never meet (nor do the fixed points): everyone else meets
# exactly once.
_ROTATIONAL: dict[int, tuple[int, str]] = {
    24: (7, "21 9 1 18, 22 7 15 3, 23 6 19 8, 17 16 14 11, 20 5 4 2, 0 13 12 10"),
    28: (9, "27 25 13 3, 24 17 1 9, 20 4 2 15, 12 10 7 16, 23 14 8 18, 11 22 21 19, 5 6 26 0"),
}


# Published repeat-free schedules, stored as printed: each round a line, each table a
# word, each player a letter (A..P are points 0..15, a..p are 16..31). 32 players at 8
# tables of 4 for 10 rounds — the "8-4-10" instance of the social golfer problem, solved
# by Aguado (2004); this is the first ten rounds of the 11-round solution with tables of
# 2 in the last round, shown in Wolfram's "Social Golfer Problem" demonstration. The tests
# check that no pair meets twice.
_PUBLISHED: dict[tuple[int, int], str] = {
    (32, 4): """
        ABCD EFGH IJKL MNOP abcd efgh ijkl mnop
        AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO
        Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn
        AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN
        AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn
        AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP
        AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp
        AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm
        AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp
        AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo
    """,
}
_LETTERS = "ABCDEFGHIJKLMNOPabcdefghijklmnop"


def published_rounds(n: int, table_size: int) -> list[Round]:
    """A stored published schedule for n players at tables of `table_size`, or []."""
    text = _PUBLISHED.get((n, table_size))
    if text is None:
        return []
    return [
        [[_LETTERS.index(letter) for letter in word] for word in line.split()]
        for line in text.split("\n")
        if line.strip()
    ]


def rotational_rounds(n: int) -> list[Round]:
    """The stored 1-rotational design on n players developed into its m rounds."""
    m, text = _ROTATIONAL[n]
    base = [[int(p) for p in block.split()] for block in text.split(",")]
    rounds = []
    for t in range(m):
        groups = []
        for block in base:
            groups.append([p if p >= 3 * m else (p // m) * m + (p % m + t) % m for p in block])
        rounds.append(groups)
    return rounds


def _renumber(rounds: list[Round]) -> list[Round]:
    """Number the points that occur 0..n-1, keeping their order."""
    points = sorted({p for groups in rounds for g in groups for p in g})
    index = {p: i for i, p in enumerate(points)}
    return [[[index[p] for p in g] for g in groups] for groups in rounds]


def design_rounds(n: int, table_size: int) -> list[Round]:
    """The longest repeat-free schedule we know how to build for n players, or [].

    Every round's table sizes are those of ``table_sizes(n, table_size)``.
    """
    found: list[list[Round]] = []
    q = table_size
    if table_size == 2 and n % 2 == 0:
        found.append(circle_rounds(n))
    if _prime_power(q):
        dim, size = 1, q
        while size < n:
            dim, size = dim + 1, size * q
        if size == n and dim >= 2:
            found.append(affine_space_rounds(q, dim))
    tables = -(-n // table_size)
    missing = tables * table_size - n
    # Leaving out up to k - 1 points keeps ceil(n / k) tables; with k = 2 that would make
    # a table of 1, so there only the full design counts.
    if tables >= table_size and _prime_power(tables) and (missing == 0 or table_size >= 3):
        found.append(transversal_rounds(table_size, tables, missing))
    if table_size == 4 and n == 32:
        found.append(binary_spread_rounds(5))
    if table_size == 4 and n in _ROTATIONAL:
        found.append(rotational_rounds(n))
    found.append(published_rounds(n, table_size))
    return max(found, key=len, default=[])


# --------------------------------------------------------------------------- one round


def _table_cost(group: Sequence[int], cost: Sequence[Sequence[int]]) -> int:
    return sum(cost[a][b] for a, b in itertools.combinations(group, 2))


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
    where = [0] * n
    for t, g in enumerate(groups):
        for p in g:
            where[p] = t
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
        ta, tb = where[a], where[b]
        for x in groups[ta]:
            if x != a:
                contrib[x] += cost[x][b] - cost[x][a]
        for y in groups[tb]:
            if y != b:
                contrib[y] += cost[y][a] - cost[y][b]
        groups[ta][groups[ta].index(a)] = b
        groups[tb][groups[tb].index(b)] = a
        where[a], where[b] = tb, ta
        contrib[a] = sum(cost[a][y] for y in groups[tb] if y != a)
        contrib[b] = sum(cost[b][x] for x in groups[ta] if x != b)

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
    where = [[0] * n for _ in rounds]
    for r, groups in enumerate(rounds):
        for t, g in enumerate(groups):
            for p in g:
                where[r][p] = t
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
        gb = groups[wr[b]]
        for x in rest_a:
            meetings[a][x] -= 1
            meetings[x][a] -= 1
            meetings[b][x] += 1
            meetings[x][b] += 1
        for y in gb:
            if y != b:
                meetings[b][y] -= 1
                meetings[y][b] -= 1
                meetings[a][y] += 1
                meetings[y][a] += 1
        ga[ga.index(a)] = b
        gb[gb.index(b)] = a
        wr[a], wr[b] = wr[b], wr[a]
        cost += best_delta
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
                        cost += _apply_swap(rounds[r], where[r], meetings, a, b)
    # Leave meetings consistent with the returned schedule.
    if best_cost != cost:
        _recount(meetings, rounds, best)
    return best


def _apply_swap(groups: Round, wr: list[int], meetings: list[list[int]], a: int, b: int) -> int:
    """Swap a and b (different tables) in one round; returns the change in schedule cost."""
    ga, gb = groups[wr[a]], groups[wr[b]]
    delta = 0
    for x in ga:
        if x != a:
            meetings[a][x] -= 1
            meetings[x][a] -= 1
            delta -= meetings[a][x]
            delta += meetings[b][x]
            meetings[b][x] += 1
            meetings[x][b] += 1
    for y in gb:
        if y != b:
            meetings[b][y] -= 1
            meetings[y][b] -= 1
            delta -= meetings[b][y]
            delta += meetings[a][y]
            meetings[a][y] += 1
            meetings[y][a] += 1
    ga[ga.index(a)] = b
    gb[gb.index(b)] = a
    wr[a], wr[b] = wr[b], wr[a]
    return delta


def _recount(meetings: list[list[int]], old: list[Round], new: list[Round]) -> None:
    for groups in old:
        for g in groups:
            for a, b in itertools.combinations(g, 2):
                meetings[a][b] -= 1
                meetings[b][a] -= 1
    for groups in new:
        for g in groups:
            for a, b in itertools.combinations(g, 2):
                meetings[a][b] += 1
                meetings[b][a] += 1


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
    for sources, is_target in (
        ([p for p, c in enumerate(count) if c == hi and p in tables_of], lambda c: c <= hi - 2),
        ([p for p, c in enumerate(count) if c >= lo + 2 and p in tables_of], lambda c: c == lo),
    ):
        came_from: dict[int, tuple[int, int, int] | None] = dict.fromkeys(sources)
        queue = list(sources)
        for p in queue:
            for r, t in tables_of.get(p, []):
                for q in schedule[r][t]:
                    if q in came_from:
                        continue
                    came_from[q] = (p, r, t)
                    if is_target(count[q]):
                        # Walk back, moving each table's start one step along the chain.
                        count[q] += 1
                        while came_from[q] is not None:
                            giver, r2, t2 = came_from[q]
                            starter[r2][t2] = q
                            q = giver
                        count[q] -= 1
                        return True
                    queue.append(q)
    return False
