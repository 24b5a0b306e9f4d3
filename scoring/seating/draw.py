"""The draw: one round at a time, at random or by the standings, and its figures.

Pure Python — no Django, no ORM (terms: see ``scoring.seating``).

* ``table_sizes`` — how many tables and how big;
* ``seat_random`` — fewest repeats given the history, then balanced starters;
  reproducible from its ``seed`` (the engine is ``search.optimise_round``);
* ``seat_swiss`` (``scoring.seating.swiss``) — tables filled from the top of the
  standings; repeats avoided by the smallest moves in the ranking;
* ``quality`` / ``table_rank_spreads`` — the figures stored with a round;
* ``place_fixed`` — players with a fixed table (a mobility need) at that table.

Two wishes beside the history, both optional:

* **clubs** — ``{player: club}`` (blank = no club). A *same-club pair* is two players of
  one club at one table. ``same_club`` says how hard the draw avoids them:
  ``SAME_CLUB_APART`` — a same-club pair costs like a repeat meeting (round 1: with k
  clubs each no bigger than the number of tables, none is left); ``SAME_CLUB_LIGHT`` —
  after every repeat, like one more earlier meeting of a pair (later rounds: meeting new
  people first, clubs apart where that costs no repeat); ``SAME_CLUB_OFF`` — only
  counted. The Swiss draw follows the standings: it honours ``APART`` only.
* **fixed** — ``{player: table number}``: that player sits at that table (1-based).
  The random draw pins them there before it searches; the Swiss draw and a plan move
  them there afterwards (``place_fixed``), trading a place for whoever sat there.

``Record`` (what the history says), ``check_players``, ``seat_order``, ``fixed_pins`` and
``place_fixed`` are shared with ``scoring.seating.swiss`` and ``scoring.seating.plan``.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.errors import RuleError
from scoring.i18n import _
from scoring.seating import search

Table = tuple[int, ...]
History = Sequence[Sequence[Sequence[int]]]
Clubs = Mapping[int, str]
Fixed = Mapping[int, int]

SAME_CLUB_OFF = "off"
SAME_CLUB_APART = "apart"
SAME_CLUB_LIGHT = "light"
SAME_CLUB_MODES = (SAME_CLUB_OFF, SAME_CLUB_APART, SAME_CLUB_LIGHT)
# Random, ``SAME_CLUB_LIGHT``: a same-club pair weighs like this many extra earlier
# meetings — below any repeat, above the starter balance.
CLUB_LIGHT_WEIGHT = 1
# docs/rules/standings.md: a table seats 2 to 4 players.
MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 4

# Random: among repeats, a pair from the round just before weighs as much as 2 extra
# earlier meetings, so it is avoided before any pair's third meeting (the glossary's
# "recent repeat, which we avoid first"). The other weights of ``_pair_costs`` are
# derived from the history so that each term outweighs everything below it.
RECENT_REPEAT_WEIGHT = 2
# Random: the starter term's weight; its unit is one start, the smallest term of all.
START_WEIGHT = 1


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
      docs/rules/standings.md allows tables of 2 to 4).
    """
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise SeatingError("table_size", _("must be 2 to 4, not {size}").format(size=table_size))
    if n_players < 2:
        raise SeatingError("players", _("at least 2 players are needed to seat a round"))
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
    seats: defaultdict[int, list[int]]  # player → times in seat 1, 2, 3, 4

    @classmethod
    def of(cls, history: History) -> Record:
        meetings: dict[tuple[int, int], int] = defaultdict(int)
        recent: set[tuple[int, int]] = set()
        seats: defaultdict[int, list[int]] = defaultdict(lambda: [0] * MAX_TABLE_SIZE)
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
        raise SeatingError(name, _("a player is listed twice"))
    if len(ids) < 2:
        raise SeatingError(name, _("at least 2 players are needed to seat a round"))
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
    clubs: Clubs | None = None,
) -> dict[str, int]:
    """The figures stored with a round (JSON-ready ints).

    * ``repeat_pairs`` — pairs at the same table this round who met before.
    * ``max_meetings`` — most meetings of any two players seated this round, this round
      and the history together: 1 when nobody ever met twice, 0 when no two met at all.
    * ``starter_balance`` — over the history and this round, most starts minus fewest
      starts among the players seated this round (0 or 1 is as even as it gets).
    * with ``ranked_players`` (standings order, best first): ``rank_spread`` — the widest
      table, worst rank minus best rank (ranks 1-based) — and ``rank_spread_total``.
    * with ``clubs``: ``same_club_pairs`` — pairs of one club at one table this round.
    """
    tables = seating.tables if isinstance(seating, Seating) else seating
    record = Record.of(history)
    seated = [p for table in tables for p in table]
    if len(set(seated)) != len(seated):
        raise SeatingError("seating", _("a player is seated twice"))
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
    if clubs is not None:
        result["same_club_pairs"] = sum(1 for a, b in now if same_club(clubs, a, b))
    return result


def same_club(clubs: Clubs, a: int, b: int) -> bool:
    """Whether a and b are of one club (a blank club is nobody's club)."""
    club = clubs.get(a, "")
    return bool(club) and club == clubs.get(b, "")


def table_rank_spreads(tables: Sequence[Sequence[int]], ranked_players: Sequence[int]) -> list[int]:
    """Per table: worst rank minus best rank (ranks are 1-based positions in the standings)."""
    rank = {p: i + 1 for i, p in enumerate(ranked_players)}
    missing = [p for table in tables for p in table if p not in rank]
    if missing:
        raise SeatingError(
            "ranked_players",
            _("player {player} is not in the standings").format(player=missing[0]),
        )
    return [max(rank[p] for p in t) - min(rank[p] for p in t) if t else 0 for t in tables]


# --------------------------------------------------------------------------- random


def _pair_costs(
    ids: Sequence[int],
    record: Record,
    n_tables: int,
    clubs: Clubs | None = None,
    same_club_mode: str = SAME_CLUB_OFF,
) -> tuple[list[list[int]], int]:
    """Pair cost matrix for one round and the weight of the starter term.

    Costs are lexicographic, packed into one integer: first the number of repeat pairs
    (and, with ``SAME_CLUB_APART``, of same-club pairs, each costing like a repeat), then
    — among seatings with as few — how often and how recently those pairs met (a pair
    from the round just before weighs ``RECENT_REPEAT_WEIGHT`` more, each earlier extra
    meeting 1 more, with ``SAME_CLUB_LIGHT`` a same-club pair ``CLUB_LIGHT_WEIGHT``),
    then the starter term (see ``search.optimise_round``).
    """
    n = len(ids)
    max_starts = max((record.starts(p) for p in ids), default=0)
    start_weight = START_WEIGHT
    light = CLUB_LIGHT_WEIGHT if clubs and same_club_mode == SAME_CLUB_LIGHT else 0
    # The starter term is at most n_tables·max_starts; a unit of "how often/recent" must
    # outweigh all of it, and one repeat must outweigh every secondary unit in a round.
    unit = start_weight * n_tables * (max_starts + 1) + 1
    pairs_per_round = n * (MAX_TABLE_SIZE - 1)
    max_secondary = RECENT_REPEAT_WEIGHT + max(record.meetings.values(), default=0) + light
    repeat = (pairs_per_round * max_secondary + 1) * unit
    cost = [[0] * n for _row in range(n)]
    index = {p: i for i, p in enumerate(ids)}
    for (a, b), m in record.meetings.items():
        if a in index and b in index:
            recent = RECENT_REPEAT_WEIGHT if (a, b) in record.recent else 0
            c = repeat + unit * ((m - 1) + recent)
            cost[index[a]][index[b]] = cost[index[b]][index[a]] = c
    if clubs and same_club_mode != SAME_CLUB_OFF:
        club_cost = repeat if same_club_mode == SAME_CLUB_APART else unit * light
        for i, j in same_club_points(ids, clubs):
            cost[i][j] += club_cost
            cost[j][i] += club_cost
    return cost, start_weight


def same_club_points(ids: Sequence[int], clubs: Clubs) -> Iterable[tuple[int, int]]:
    """The point pairs (indices into ``ids``) of one club."""
    members: defaultdict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(ids):
        if clubs.get(p):
            members[clubs[p]].append(i)
    for points in members.values():
        yield from itertools.combinations(points, 2)


def check_same_club_mode(mode: str) -> None:
    if mode not in SAME_CLUB_MODES:
        raise SeatingError(
            "same_club", _("must be one of {modes}").format(modes=", ".join(SAME_CLUB_MODES))
        )


def fixed_pins(ids: Sequence[int], fixed: Fixed | None, sizes: Sequence[int]) -> dict[int, int]:
    """Point → group index of the seated players with a fixed table; every table's
    fixed players must fit it, and the table must exist this round."""
    pins: dict[int, int] = {}
    count: defaultdict[int, int] = defaultdict(int)
    for i, p in enumerate(ids):
        table = (fixed or {}).get(p)
        if table is None:
            continue
        if not 1 <= table <= len(sizes):
            raise SeatingError(
                "fixed_table",
                _(
                    "player {player} is fixed to table {table}, but this round has {count} tables"
                ).format(player=p, table=table, count=len(sizes)),
            )
        count[table] += 1
        if count[table] > sizes[table - 1]:
            raise SeatingError(
                "fixed_table",
                _("more players are fixed to table {table} than its {seats} seats").format(
                    table=table, seats=sizes[table - 1]
                ),
            )
        pins[i] = table - 1
    return pins


def seat_random(
    players: Iterable[int],
    history: History = (),
    table_size: int = 4,
    seed: int = 0,
    *,
    clubs: Clubs | None = None,
    same_club_mode: str = SAME_CLUB_APART,
    fixed: Fixed | None = None,
) -> Seating:
    """Seat one round with the fewest repeats (and same-club pairs, see the module
    docstring), then balanced starters; players with a ``fixed`` table at that table.

    Deterministic in (set of players, history, table size, seed, clubs, fixed): the
    players are sorted first, so their order does not matter. Different seeds give
    different seatings. Without clubs and fixed tables, a seed seats as it always did.
    """
    check_same_club_mode(same_club_mode)
    ids = sorted(check_players(players))
    sizes = table_sizes(len(ids), table_size)
    pins = fixed_pins(ids, fixed, sizes)
    record = Record.of(history)
    rng = random.Random(seed)
    cost, start_weight = _pair_costs(ids, record, len(sizes), clubs, same_club_mode)
    starts = [record.starts(p) for p in ids]
    groups = search.optimise_round(
        sizes, cost, starts, start_weight, rng, max_steps=search.round_budget(len(ids)), pinned=pins
    )
    # Group i has sizes[i] seats (largest first) and the players pinned to table i + 1:
    # this stable sort keeps that order.
    groups.sort(key=len, reverse=True)
    tables = [seat_order((ids[i] for i in g), record, rng) for g in groups]
    return Seating(tables, seed, "random", quality(tables, history, clubs=clubs))


# --------------------------------------------------------------------------- fixed tables


def place_fixed(tables: Sequence[Sequence[int]], fixed: Fixed | None) -> list[list[int]]:
    """The tables renumbered (and, where needed, players exchanged) so that every player
    with a ``fixed`` table sits at that table number; everyone else keeps their group.

    Table by table number: the table that already holds most of its fixed players
    (then the one nearest that number) becomes it; a fixed player sitting elsewhere
    changes places with a tablemate there who is not fixed to it (one not fixed at all
    first). The other tables keep their order in the numbers left. A player's seat
    position is kept by whoever takes it.
    """
    groups = [list(t) for t in tables]
    if not fixed:
        return groups
    wanted: defaultdict[int, list[int]] = defaultdict(list)
    for g in groups:
        for p in g:
            if p in fixed:
                wanted[fixed[p]].append(p)
    owner: dict[int, int] = {}  # group index → its fixed table number
    for number in sorted(wanted):
        players = wanted[number]
        if not 1 <= number <= len(groups):
            raise SeatingError(
                "fixed_table",
                _(
                    "player {player} is fixed to table {table}, but this round has {count} tables"
                ).format(player=players[0], table=number, count=len(groups)),
            )
        where = {p: i for i, g in enumerate(groups) for p in g}
        free = [i for i in range(len(groups)) if i not in owner and len(groups[i]) >= len(players)]
        if not free:
            raise SeatingError(
                "fixed_table",
                _("more players are fixed to table {table} than a table seats").format(
                    table=number
                ),
            )
        home = max(free, key=lambda i: (_held(groups[i], players), -abs(i - number + 1)))
        owner[home] = number
        for p in players:
            if where[p] != home:
                mates = [q for q in groups[home] if q not in players]
                q = min(mates, key=fixed.__contains__)
                away = groups[where[p]]
                away[away.index(p)] = q
                groups[home][groups[home].index(q)] = p
                where[q], where[p] = where[p], home
    return _renumbered(groups, owner)


def _held(group: Sequence[int], players: Sequence[int]) -> int:
    return sum(p in group for p in players)


def _renumbered(groups: list[list[int]], owner: Mapping[int, int]) -> list[list[int]]:
    """Fixed tables at their numbers, the others in their order in the numbers left."""
    placed: list[list[int] | None] = [None] * len(groups)
    for i, number in owner.items():
        placed[number - 1] = groups[i]
    rest = iter(g for i, g in enumerate(groups) if i not in owner)
    return [g if g is not None else next(rest) for g in placed]
