"""Designs: schedules in which no two points ever share a table twice.

Pure Python, no Django. Points are ``0..n-1`` and rounds are lists of groups (see
``scoring.seating.groups``). The schedules are built from finite-field geometry or from a
stored *base round* that is turned into the other rounds by adding a constant (a
"1-rotational" design):

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

Nothing here is random: the same n and table size always give the same design.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from scoring.seating.groups import Round

# Finite fields kept built: a tournament uses one or two (its table size, the number of
# tables of a transversal design) and the tests about a dozen, so 32 never evicts one
# in use, while a table is at most q² entries (49² for 196 players).
FIELD_CACHE_SIZE = 32

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


@lru_cache(maxsize=FIELD_CACHE_SIZE)
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
