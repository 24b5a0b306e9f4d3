"""Standings: rank a tournament's players from their confirmed game results
(docs/rules/standings.md).

Pure Python: no Django, no database. The Django side sums the confirmed results in one
SQL query: per player (``PlayerTotals``, ``compute_standings_from_totals``), with
``table_wins`` and ``opponents_score`` summed per series there too when the ranking uses
them (``series_summed``), or per series (``SeriesLine``, ``compute_standings_from_series``)
when it uses ``head_to_head``; this module does the rest of the arithmetic and the
ordering. ``compute_standings`` takes one line per player and game (``GameLine``) instead,
the natural input to write by hand: it folds the games into series lines (``fold_games``)
and ranks them the same way.

Terms
-----
game line
    One player's line in one confirmed game result: the game score (after sanction points),
    the charge the player paid as a loser, whether they won and whether they won by emptying
    the rack. Only confirmed results become lines, so "only confirmed results count" is the
    caller's filter, not this module's.
series
    The games played at one table in one round. A player's *series score* at a table is
    the sum of their scores in that table's confirmed games.
series line
    One player's totals over a series: games played, games won, rummikubs, score, charge
    paid as a loser, best single-game score. Series lines are enough for every metric
    because everyone seated at a table has a rack in every confirmed game of it (the
    results service accepts nothing else): the players someone met at a table are the others
    with a line there, and the games they shared are all of that table's games.
part
    The games of one series that the same players sat in. From the database a series is
    always a single part, part 0. Hand-written game lines may leave a seated player out of
    a game; folding those gives one series line per part of the series, which keeps "met"
    and ``head_to_head`` exact: both depend on who sat in a game together.
met
    Two players *met* in a round when they shared at least one confirmed game at the same
    table in that round. A pair that met in two rounds has met twice.
metric
    A named per-player number (``METRICS``): ``score``, ``games_won``, ... Each has a
    direction: ``"higher"`` or ``"lower"`` is better, or ``None`` for an informational
    metric (``games_played``) that may be shown but may not rank.
ranking
    A tournament's ordered list of metric keys, each used at most once. Players are ordered
    by the first metric, ties broken by the second, and so on.
tied group
    The players equal on every ranking metric before ``head_to_head``; ``head_to_head`` is
    only defined inside such a group (when it comes first, the group is everyone).
rank
    Competition ranking ("1224"): players equal on every ranking metric share a rank, and
    the next rank skips the places they took. Inside a shared rank rows are ordered by
    player id, only so that the output is deterministic.
withdrawn
    Players the caller names in ``withdrawn`` are listed after every other player, never
    ranked among them: the others are ranked 1..n exactly as without them, and the
    withdrawn ones are ranked among themselves by the same ranking after that, their ranks
    continuing from n + 1 (so ``rank`` stays a whole number for everyone). A withdrawn
    player never shares a rank or a ``head_to_head`` tied group with an active one.

substitute game
    A game someone else played in a player's seat (``GameLine.substitute``). By default
    it counts for nobody's standings but the opponents': their lines in that game count
    as usual, the seat's line is left out. ``credit_substitutes=True`` counts it for the
    seat's player like any other game. (From the database, the results service leaves
    those lines out of the SQL sums instead, so series lines arrive already filtered.
    There a table stays one part, so for ``head_to_head`` and "met" the seat counts as its
    player's in every game of the series, substitute games included: the seat was theirs.
    The same holds for a seat left by a withdrawn player whose table played on without
    them: fewer lines, one part; exact for every metric, as a withdrawn player never
    shares a tied group with an active one and met the others in the games before.)
missed games
    A late entry's games of the rounds before they joined: ``missed_games`` maps a player
    to how many (the caller counts a full series per missed round). ``missed_rounds``
    says how they count:

    * ``not_played`` (the default): not at all; the player simply has fewer games.
    * ``zero``: as games played that scored 0 and won nothing — ``games_played`` grows,
      nothing else does. On totals this ranks exactly like ``not_played``; it differs
      wherever games played matter (per-game averages).
    * ``average``: as games played at the player's own average per game played so far:
      ``score``, ``games_won`` and ``rack_total`` each grow by average * missed games,
      rounded half away from zero, and ``games_played`` by the missed games. With no game
      played yet the average is 0. ``best_game``, ``rummikubs``, ``table_wins`` and the
      series metrics stay what was really played, and opponents' ``opponents_score`` uses
      the opponent's played score only (a fill-in is not a result anyone met).

Decisions where the rules are silent (docs/rules/decisions.md)
--------------------------------------------------------------
* ``best_game`` is 0 for a player without a confirmed game, consistent with ``score``,
  which is also 0 then. Such a player therefore ranks above one whose best game was
  negative, exactly as they do on ``score``.
* ``head_to_head`` of a player alone in their tied group is 0 (no game with another tied
  player), and it is reported only when it is part of the ranking: outside a ranking it has
  no tied group and thus no meaning. Every other metric is cheap and always reported.
* ``lot`` is the first 6 bytes of SHA-256 over ``"<lot_seed>:<player id>"``, read as a
  big-endian integer in [0, 2**48). 48 bits keep it exact as a JSON/JavaScript number and
  make a collision between two of 5,000 players a ~4e-8 event; if it happens, the two
  simply share the lot value and the player-id order applies. A player may come with a
  lot of their own (``lots``): one drawn on another site and carried over in an event file,
  so the imported tournament ranks its ties exactly as the original did.
* ``table_wins`` counts tables, which is the same as rounds because a player sits at one
  table per round; lines that break that invariant raise ``ValueError``.
* ``score_per_game`` and ``won_per_game`` (``score`` and ``games_won`` divided by
  ``games_played``) are there so that players at a table of 3, who play fewer games than
  those at a table of 4 when each table plays one game per seat, are not ranked down for
  it. Each is rounded to 2 decimal places, halves away from zero (12.345 -> 12.35,
  -4.625 -> -4.63), computed exactly from the whole numbers (no float error), and the
  ranking compares the rounded values: what the table shows is what ranks, so two
  players shown equal are equal and the next metric decides. A player without a
  confirmed game has 0 (like ``score`` and ``best_game``). Like ``head_to_head`` they are
  reported only when they are part of the ranking (they are plain quotients of metrics
  every row has anyway); they are the only metrics that are not whole numbers.
* Inconsistent input (a line for an unregistered player, one player twice in a game or in
  a part of a series, a game in two tables or rounds, a table in two rounds, a series line
  without a game, a penalty count for an unknown player) is a bug on the calling side, not
  a user's mistake, so it raises ``ValueError`` rather than ``RuleError``. Only the ranking,
  which a user types, is validated with ``RuleError``.
"""

import functools
import hashlib
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from scoring.errors import Path, RuleError
from scoring.i18n import _, gettext_noop
from scoring.placement import (
    DEFAULT_PLACEMENT_POINTS,
    GameFinish,
    PlacementTable,
    PlacementTotals,
    placement_totals,
)

Direction = Literal["higher", "lower"]


@dataclass(frozen=True, slots=True)
class GameLine:
    """One player's line in one confirmed game result."""

    player: int
    round: int  # round number
    table: int  # table id, unique within the tournament
    game: int  # game id
    score: int  # the game score after sanction points
    charge: int  # what the player paid as a loser (0 for a winner)
    winner: bool
    rummikub: bool  # won by emptying the rack
    substitute: bool = False  # a substitute played this seat (see "substitute game")


# Not frozen, unlike GameLine: a frozen dataclass sets each field through
# object.__setattr__, which makes building the 10,000 lines of a 1,000-player, 10-round
# tournament five times slower (about 10 ms instead of 2 ms). Nothing here changes a line.
@dataclass(slots=True)
class SeriesLine:
    """One player's totals over their series at one table (or over one part of it)."""

    player: int
    round: int  # round number
    table: int  # table id, unique within the tournament
    games: int  # confirmed games played, at least 1
    won: int  # games won
    rummikubs: int  # games won by emptying the rack
    score: int  # sum of the game scores after sanction points
    charge: int  # sum of what the player paid as a loser
    best_game: int  # highest single-game score after sanction points
    part: int = 0  # see "part" above; always 0 when every seated player is in every game


@dataclass(frozen=True)
class Metric:
    """A standings metric: registry entry, shown as ``name`` / ``abbr`` in tables."""

    key: str
    name: str
    abbr: str
    direction: Direction | None  # None: informational, cannot rank

    def translated(self) -> "Metric":
        """This metric with its name and abbreviation in the reader's language: the
        registry keeps the English (marked with ``gettext_noop``), a page or API that shows
        them translates at request time."""
        return replace(self, name=_(self.name), abbr=_(self.abbr))


@dataclass(frozen=True)
class StandingRow:
    """One player's place: ``metrics`` maps metric key to value, in ``METRICS`` order."""

    rank: int
    player: int
    metrics: dict[str, float]  # whole numbers except the per-game metrics


# In the order of the metrics table of docs/rules/standings.md; the order is also the column
# order of a row's metrics.
METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        Metric("score", gettext_noop("Score"), gettext_noop("Pts"), "higher"),
        Metric("games_won", gettext_noop("Games won"), gettext_noop("W"), "higher"),
        Metric("games_played", gettext_noop("Games played"), gettext_noop("GP"), None),
        Metric("rummikubs", gettext_noop("Rummikubs"), gettext_noop("RK"), "higher"),
        Metric("rack_total", gettext_noop("Rack total"), gettext_noop("Rack"), "lower"),
        Metric("table_wins", gettext_noop("Table wins"), gettext_noop("TW"), "higher"),
        Metric("opponents_score", gettext_noop("Opponents' score"), gettext_noop("Opp"), "higher"),
        Metric("head_to_head", gettext_noop("Head to head"), gettext_noop("H2H"), "higher"),
        Metric("best_game", gettext_noop("Best game"), gettext_noop("Best"), "higher"),
        Metric("penalties", gettext_noop("Penalties"), gettext_noop("Pen"), "lower"),
        Metric("lot", gettext_noop("Lot"), gettext_noop("Lot"), "higher"),
        Metric("score_per_game", gettext_noop("Score per game"), gettext_noop("Pts/G"), "higher"),
        Metric("won_per_game", gettext_noop("Games won per game"), gettext_noop("W/G"), "higher"),
        Metric("placement_points", gettext_noop("Placement points"), gettext_noop("PP"), "higher"),
        Metric("first_places", gettext_noop("First places"), gettext_noop("1st"), "higher"),
        Metric("second_best_game", gettext_noop("Second best game"), gettext_noop("2nd"), "higher"),
        Metric("third_best_game", gettext_noop("Third best game"), gettext_noop("3rd"), "higher"),
        Metric("matches_won", gettext_noop("Matches won"), gettext_noop("MW"), "higher"),
        Metric("match_points", gettext_noop("Match points"), gettext_noop("MP"), "higher"),
    )
}

MISSED_ROUNDS: tuple[str, ...] = ("not_played", "average", "zero")

HEAD_TO_HEAD = "head_to_head"
# Per-game metric -> the total it divides by games_played ("Decisions" above).
PER_GAME = {"score_per_game": "score", "won_per_game": "games_won"}
# The metrics that need to know who sat with whom; every other one is a per-player sum.
SERIES_METRICS = frozenset({"table_wins", "opponents_score", HEAD_TO_HEAD})
# The metrics that need each game's finishing order (``scoring.placement``).
PLACEMENT_METRICS = frozenset({"placement_points", "first_places"})
# Countback (after best_game): the n-th best single-game score, from each game's score.
COUNTBACK = {"second_best_game": 2, "third_best_game": 3}
# Target-score matches (``scoring.match``): from each table's games in order.
MATCH_METRICS = frozenset({"matches_won", "match_points"})
# The metrics the caller computes beside the sums and hands in as ``extra``.
EXTRA_METRICS = frozenset(COUNTBACK) | MATCH_METRICS


def needs_series(ranking: Iterable[str]) -> bool:
    """Whether ranking by these metrics needs series lines, not just per-player totals."""
    return not SERIES_METRICS.isdisjoint(ranking)


def needs_parts(ranking: Iterable[str]) -> bool:
    """Whether ranking by these metrics needs the series lines themselves (who sat in
    which part of a series with whom: ``head_to_head``), not just per-player sums of
    them (``table_wins`` and ``opponents_score`` are such sums)."""
    return HEAD_TO_HEAD in ranking


def needs_placement(ranking: Iterable[str]) -> bool:
    """Whether ranking by these metrics needs each game's finishing order."""
    return not PLACEMENT_METRICS.isdisjoint(ranking)


def needs_extra(ranking: Iterable[str]) -> frozenset[str]:
    """The ``EXTRA_METRICS`` a ranking uses: the caller hands them in (``extra``)."""
    return EXTRA_METRICS.intersection(ranking)


def countback(game_scores: Mapping[int, Iterable[int]]) -> dict[str, dict[int, int]]:
    """``second_best_game`` and ``third_best_game`` from each player's single-game
    scores (after sanction points; any order): the 2nd and 3rd highest, 0 for a player
    with fewer games (as ``best_game`` is 0 without one)."""
    out: dict[str, dict[int, int]] = {key: {} for key in COUNTBACK}
    for player, scores in game_scores.items():
        best = sorted(scores, reverse=True)
        for key, n in COUNTBACK.items():
            out[key][player] = best[n - 1] if len(best) >= n else 0
    return out


@dataclass(frozen=True)
class Missed:
    """Late entries' missed games and how they count (see "missed games")."""

    games: Mapping[int, int]
    treatment: str

    def apply(self, values: dict[str, dict[int, int]]) -> None:
        played = values["games_played"]
        for player, missed in self.games.items():
            if player not in played:
                raise ValueError(f"missed_games: player {player} is not registered")
            if missed < 0:
                raise ValueError(f"missed_games: player {player} missed {missed} games")
            if self.treatment == "not_played" or missed == 0:
                continue
            games = played[player]
            if self.treatment == "average" and games:
                for key in ("score", "games_won", "rack_total"):
                    values[key][player] += _scaled(values[key][player], missed, games)
            played[player] = games + missed


def _scaled(total: int, times: int, per: int) -> int:
    """total * times / per, rounded half away from zero, in exact integer arithmetic."""
    magnitude = (2 * abs(total) * times + per) // (2 * per)
    return magnitude if total >= 0 else -magnitude


def _missed(missed_games: Mapping[int, int] | None, treatment: str) -> Missed | None:
    """The checked ``missed_rounds`` treatment, or None when nothing was missed."""
    if treatment not in MISSED_ROUNDS:
        choices = ", ".join(MISSED_ROUNDS)
        raise RuleError(
            "missed_rounds",
            _("unknown treatment '{treatment}'; choose from {choices}").format(
                treatment=treatment, choices=choices
            ),
        )
    if not missed_games:
        return None
    return Missed(dict(missed_games), treatment)


@dataclass(slots=True)
class PlayerTotals:
    """One player's sums over all their confirmed games (the fields of ``SeriesLine``
    without the table): enough for every metric outside ``SERIES_METRICS``. The caller
    may add ``table_wins`` and ``opponents_score``, summed over the player's series the
    way ``_tally`` sums them (see ``compute_standings_from_totals``)."""

    player: int
    games: int
    won: int
    rummikubs: int
    score: int
    charge: int
    best_game: int
    table_wins: int | None = None
    opponents_score: int | None = None


def validate_ranking(ranking: object, field: str | Path = "ranking") -> tuple[str, ...]:
    """Check a ranking as a user submitted it (parsed JSON) and return it as a tuple.

    Raises ``RuleError(field, ...)`` naming the first problem found.
    """
    # A str is a sequence of str too; without this check "score" would read as s, c, o, ...
    if not isinstance(ranking, list | tuple):
        raise RuleError(
            field, _("must be a list of metric keys, not {type}").format(type=_type_name(ranking))
        )
    if not ranking:
        raise RuleError(field, _("must name at least one metric"))
    seen: set[str] = set()
    for position, key in enumerate(ranking, start=1):
        if not isinstance(key, str):
            raise RuleError(
                field,
                _("item {position} must be a metric key (a string), not {type}").format(
                    position=position, type=_type_name(key)
                ),
            )
        metric = METRICS.get(key)
        if metric is None:
            choices = ", ".join(k for k, m in METRICS.items() if m.direction is not None)
            raise RuleError(
                field,
                _("unknown ranking metric '{key}'; choose from {choices}").format(
                    key=key, choices=choices
                ),
            )
        if metric.direction is None:
            raise RuleError(field, _("'{key}' is informational and cannot rank").format(key=key))
        if key in seen:
            raise RuleError(
                field, _("'{key}' appears twice; each metric may be used once").format(key=key)
            )
        seen.add(key)
    return tuple(ranking)


def _type_name(value: object) -> str:
    return "null" if value is None else type(value).__name__


def per_game(total: int, games: int) -> float:
    """``total / games`` rounded to 2 decimal places, halves away from zero; 0 without a
    game. Exact: the rounding is done on whole numbers of hundredths."""
    if games <= 0:
        return 0.0
    hundredths = (abs(total) * 200 + games) // (2 * games)
    return (-hundredths if total < 0 else hundredths) / 100


def lot_draw(lot_seed: str, player: int) -> int:
    """The player's fixed lot: the same for the same (seed, player) on every machine.

    hashlib rather than ``hash()``, which is salted per process for str.
    """
    return _lot_draw(lot_seed, player)


# Every recompute of a tournament draws the same lots again: kept, as a tie-break key that
# never changes (a few MB at most for the largest cache: 64 bytes or so an entry).
@functools.lru_cache(maxsize=1 << 16)
def _lot_draw(lot_seed: str, player: int) -> int:
    digest = hashlib.sha256(f"{lot_seed}:{player}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def compute_standings(
    *,
    players: Sequence[int],
    lines: Iterable[GameLine],
    penalties: Mapping[int, int],
    ranking: Sequence[str],
    lot_seed: str,
    withdrawn: Collection[int] = frozenset(),
    credit_substitutes: bool = False,
    missed_games: Mapping[int, int] | None = None,
    missed_rounds: str = "not_played",
    lots: Mapping[int, int] | None = None,
    placement: PlacementTable = DEFAULT_PLACEMENT_POINTS,
    extra: Mapping[str, Mapping[int, int]] | None = None,
) -> list[StandingRow]:
    """Rank every registered player (withdrawn ones included, after the others: see
    "withdrawn" above) by ``ranking``.

    ``lines`` are the lines of confirmed results only, in any order; ``penalties`` maps a
    player to their count of unvoided penalties (absent = 0). A substitute's lines count
    only with ``credit_substitutes``; ``missed_games`` count as ``missed_rounds`` says
    (see "substitute game", "missed games"). ``placement`` is the placement table the
    placement metrics use. The countback metrics come from the lines; ``extra`` holds any
    other ``EXTRA_METRICS`` the ranking uses (the match metrics, ``scoring.match``).
    Returns one row per player, best first.
    """
    order = validate_ranking(ranking)
    lines = list(lines)
    placed = None
    if needs_placement(order):
        placed = placement_totals(finishes(lines, credit_substitutes), placement)
    counted = [line for line in lines if credit_substitutes or not line.substitute]
    if not needs_extra(order).isdisjoint(COUNTBACK):
        scores: dict[int, list[int]] = {}
        for line in counted:
            scores.setdefault(line.player, []).append(line.score)
        extra = {**countback(scores), **(extra or {})}
    missed = _missed(missed_games, missed_rounds)
    return _rank(
        players,
        fold_games(counted),
        penalties,
        order,
        lot_seed,
        source="lines",
        withdrawn=withdrawn,
        missed=missed,
        lots=lots,
        placed=placed,
        extra=extra,
    )


def finishes(lines: Iterable[GameLine], credit_substitutes: bool = False) -> list[GameFinish]:
    """Each game's finishing input from its lines: scores, winners, and the substitute
    seats that count for nobody (unless ``credit_substitutes``)."""
    games: dict[int, list[GameLine]] = {}
    for line in lines:
        games.setdefault(line.game, []).append(line)
    return [
        GameFinish(
            scores={line.player: line.score for line in game},
            winners=frozenset(line.player for line in game if line.winner),
            left_out=frozenset(
                line.player for line in game if line.substitute and not credit_substitutes
            ),
        )
        for game in games.values()
    ]


def compute_standings_from_series(
    *,
    players: Sequence[int],
    series: Iterable[SeriesLine],
    penalties: Mapping[int, int],
    ranking: Sequence[str],
    lot_seed: str,
    withdrawn: Collection[int] = frozenset(),
    missed_games: Mapping[int, int] | None = None,
    missed_rounds: str = "not_played",
    carried: Mapping[int, int] | None = None,
    lots: Mapping[int, int] | None = None,
    placed: PlacementTotals | None = None,
    extra: Mapping[str, Mapping[int, int]] | None = None,
) -> list[StandingRow]:
    """``compute_standings`` from series lines: the same rows for the same games.

    ``series`` holds at most one line per player and part of a series, in any order, and
    only for confirmed results (substitute games already left out unless credited).
    Series lines hold no finishing order: a ranking with ``PLACEMENT_METRICS`` needs the
    caller's ``placed`` (``scoring.placement.placement_totals`` over the same games).
    """
    order = validate_ranking(ranking)
    missed = _missed(missed_games, missed_rounds)
    return _rank(
        players,
        series,
        penalties,
        order,
        lot_seed,
        source="series",
        withdrawn=withdrawn,
        missed=missed,
        carried=carried,
        lots=lots,
        placed=placed,
        extra=extra,
    )


def compute_standings_from_totals(
    *,
    players: Sequence[int],
    totals: Iterable[PlayerTotals],
    penalties: Mapping[int, int],
    ranking: Sequence[str],
    lot_seed: str,
    withdrawn: Collection[int] = frozenset(),
    missed_games: Mapping[int, int] | None = None,
    missed_rounds: str = "not_played",
    carried: Mapping[int, int] | None = None,
    lots: Mapping[int, int] | None = None,
    placed: PlacementTotals | None = None,
    extra: Mapping[str, Mapping[int, int]] | None = None,
    series_summed: bool = False,
) -> list[StandingRow]:
    """``compute_standings`` from one line per player: the same ranks, and the same
    metrics except the series ones, which are left out of the rows (nothing ranks by
    them, and they would cost a pass over every series). ``placed`` as for
    ``compute_standings_from_series``.

    With ``series_summed`` the caller has summed ``table_wins`` and ``opponents_score``
    per player over their series (each line carries both; a player without a line has
    0 of each), exactly as ``compute_standings_from_series`` would from the series lines:
    a table won per series whose series score is the table's highest (ties each win),
    and for each series the played ``score`` of everyone else at the table. Then a
    ranking may use them, and the rows report them as the series path does. Only
    ``head_to_head`` still needs the series lines themselves (``needs_parts``).
    """
    order = validate_ranking(ranking)
    if needs_parts(order) or (needs_series(order) and not series_summed):
        raise ValueError(f"ranking {order}: needs series lines, not per-player totals")
    roster = _roster(players)
    keys: tuple[str, ...] = (
        "score",
        "games_won",
        "games_played",
        "rummikubs",
        "rack_total",
        "best_game",
    )
    if series_summed:
        keys += ("table_wins", "opponents_score")
    values: dict[str, dict[int, int]] = {key: dict.fromkeys(roster, 0) for key in keys}
    score, won, played = values["score"], values["games_won"], values["games_played"]
    rummikubs, rack, best = values["rummikubs"], values["rack_total"], values["best_game"]
    for line in totals:
        player = line.player
        if player not in score:
            raise ValueError(f"totals: player {player} is not registered")
        score[player] = line.score
        won[player] = line.won
        played[player] = line.games
        rummikubs[player] = line.rummikubs
        rack[player] = line.charge
        best[player] = line.best_game if line.games else 0
        if series_summed:
            if line.table_wins is None or line.opponents_score is None:
                raise ValueError(f"totals: player {player} has no series sums")
            values["table_wins"][player] = line.table_wins
            values["opponents_score"][player] = line.opponents_score
    missed = _missed(missed_games, missed_rounds)
    return _finish(
        roster,
        values,
        [],
        penalties,
        order,
        lot_seed,
        withdrawn,
        missed,
        carried,
        lots,
        placed,
        extra,
    )


def fold_games(lines: Iterable[GameLine]) -> list[SeriesLine]:
    """Sum game lines into series lines: one per player and part of a series.

    The games of a series with the same players form one part, so a series where everyone
    sat in every game (the usual case) becomes one part, numbered 0, like the database's.
    """
    games: dict[int, list[GameLine]] = {}
    for line in lines:
        game_lines = games.get(line.game)
        if game_lines is None:
            games[line.game] = [line]
        else:
            game_lines.append(line)

    part_of: dict[tuple[int, frozenset[int]], int] = {}  # (table, players) -> part number
    parts_at: dict[int, int] = {}  # table -> number of parts so far
    round_of: dict[int, int] = {}  # table -> round number
    # (table, part, player) -> [round, games, won, rummikubs, score, charge, best_game]
    totals: dict[tuple[int, int, int], list[int]] = {}
    for game, game_lines in games.items():
        table = game_lines[0].table
        members = frozenset(line.player for line in game_lines)
        if len(members) != len(game_lines):
            raise ValueError(f"lines: a player has two lines in game {game}")
        part = part_of.get((table, members))
        if part is None:
            part = part_of[table, members] = parts_at.get(table, 0)
            parts_at[table] = part + 1
        for line in game_lines:
            if line.table != table:
                raise ValueError(f"lines: game {game} is at two tables")
            if round_of.setdefault(table, line.round) != line.round:
                raise ValueError(f"lines: table {table} is in two rounds")
            tally = totals.setdefault(
                (table, part, line.player), [line.round, 0, 0, 0, 0, 0, line.score]
            )
            tally[1] += 1
            tally[2] += int(line.winner)
            tally[3] += int(line.winner and line.rummikub)
            tally[4] += line.score
            tally[5] += 0 if line.winner else line.charge
            tally[6] = max(tally[6], line.score)
    return [
        SeriesLine(player, t[0], table, t[1], t[2], t[3], t[4], t[5], t[6], part=part)
        for (table, part, player), t in totals.items()
    ]


def rerank(ranks: Sequence[int]) -> list[int]:
    """The ranks of a part of a ranked list (a division's players, kept in the whole
    field's order): competition ranks again, 1..n. Rows that shared a rank in the whole
    field share one here; every other row's rank is 1 + the rows kept above it. The
    order is never changed, so the part is ranked by the same ranking and tiebreaks as the
    whole (``head_to_head`` included, as decided in the whole field), and the withdrawn
    players, last in the whole field, stay last.

    ``ranks`` must be non-decreasing (a ranked list, or a part of one, in its order).
    """
    out: list[int] = []
    for index, rank in enumerate(ranks):
        if index and rank < ranks[index - 1]:
            raise ValueError(f"ranks must not go down: {ranks[index - 1]} then {rank}")
        out.append(out[-1] if index and rank == ranks[index - 1] else index + 1)
    return out


def _rank(
    players: Sequence[int],
    series: Iterable[SeriesLine],
    penalties: Mapping[int, int],
    order: tuple[str, ...],
    lot_seed: str,
    source: str,
    withdrawn: Collection[int] = frozenset(),
    missed: Missed | None = None,
    carried: Mapping[int, int] | None = None,
    lots: Mapping[int, int] | None = None,
    placed: PlacementTotals | None = None,
    extra: Mapping[str, Mapping[int, int]] | None = None,
) -> list[StandingRow]:
    """The rows for a validated ranking ``order``; ``source`` names the input in errors."""
    roster = _roster(players)
    values, parts = _tally(roster, series, source)
    return _finish(
        roster,
        values,
        parts,
        penalties,
        order,
        lot_seed,
        withdrawn,
        missed,
        carried,
        lots,
        placed,
        extra,
    )


def _roster(players: Sequence[int]) -> list[int]:
    roster = list(players)
    if len(set(roster)) != len(roster):
        raise ValueError("players: a player id is listed twice")
    return roster


def _finish(
    roster: list[int],
    values: dict[str, dict[int, int]],
    parts: list[list[SeriesLine]],
    penalties: Mapping[int, int],
    order: tuple[str, ...],
    lot_seed: str,
    withdrawn: Collection[int] = frozenset(),
    missed: Missed | None = None,
    carried: Mapping[int, int] | None = None,
    lots: Mapping[int, int] | None = None,
    placed: PlacementTotals | None = None,
    extra: Mapping[str, Mapping[int, int]] | None = None,
) -> list[StandingRow]:
    """Add penalties, lot, the placement and extra metrics and head_to_head to the summed
    ``values``, then rank: the players in ``withdrawn`` after all the others (see
    "withdrawn" above). A stage's ``carried`` score (``scoring.stages.carry_over``) is
    added to ``score`` first."""
    _add_placement(roster, values, placed, order)
    _add_extra(roster, values, extra, order)
    if missed is not None:
        missed.apply(values)
    for player, points in (carried or {}).items():
        if player not in values["score"]:
            raise ValueError(f"carried: player {player} is not registered")
        values["score"][player] += points
    penalty_counts = dict.fromkeys(roster, 0)
    for player, count in penalties.items():
        if player not in penalty_counts:
            raise ValueError(f"penalties: player {player} is not registered")
        penalty_counts[player] = count
    values["penalties"] = penalty_counts
    given = lots or {}
    values["lot"] = {p: given[p] if p in given else lot_draw(lot_seed, p) for p in roster}
    table: dict[str, Mapping[int, float]] = dict(values)
    for average, total in PER_GAME.items():
        if average in order:
            games = values["games_played"]
            table[average] = {p: per_game(values[total][p], games[p]) for p in roster}

    # 0 for an active player, 1 for a withdrawn one: the first part of every sort key and
    # tied group, so the two never mix. Not a metric: it is not reported in the rows.
    standing = {p: int(p in withdrawn) for p in roster}
    if HEAD_TO_HEAD in order:
        before = order[: order.index(HEAD_TO_HEAD)]
        table[HEAD_TO_HEAD] = _head_to_head(roster, before, table, parts, standing)

    return _ranked(roster, order, table, standing)


def _ranked(
    roster: list[int],
    order: tuple[str, ...],
    table: Mapping[str, Mapping[int, float]],
    standing: Mapping[int, int],
) -> list[StandingRow]:
    """The rows, best first, with their competition ranks: by ``standing`` (active
    first), then ``order``'s metrics; every metric in ``table`` reported."""
    # Sort key: a tuple in which smaller is better, so "higher" metrics are negated; the
    # player id after it only makes the order inside a shared rank deterministic. Built
    # column by column and zipped (one tuple per player, the id last): the hot part of
    # ranking a large field, where a generator per player costs twice as much.
    keys: list[list[float]] = [[standing[p] for p in roster]]
    for k in order:
        column = table[k]
        if METRICS[k].direction == "higher":
            keys.append([-column[p] for p in roster])
        else:
            keys.append([column[p] for p in roster])
    keyed = sorted(zip(*keys, roster, strict=True))

    reported = [(k, table[k]) for k in METRICS if k in table]
    rows: list[StandingRow] = []
    previous_key: tuple[float, ...] | None = None
    rank = 0
    for place, entry in enumerate(keyed, start=1):
        key, player = entry[:-1], entry[-1]
        if key != previous_key:  # competition ranking: a new value takes its place number
            rank = place
            previous_key = key
        rows.append(StandingRow(rank, player, {k: column[player] for k, column in reported}))
    return rows


def _add_placement(
    roster: list[int],
    values: dict[str, dict[int, int]],
    placed: PlacementTotals | None,
    order: tuple[str, ...],
) -> None:
    """The placement metrics from the caller's totals (0 for a player without a game).
    Reported whenever given; a ranking by them without them is a bug on the calling side."""
    if placed is None:
        if needs_placement(order):
            raise ValueError(f"ranking {order}: needs the placement totals (placed)")
        return
    for key, totals in (("placement_points", placed.points), ("first_places", placed.firsts)):
        if not totals.keys() <= values["score"].keys():
            raise ValueError(f"placed: a player of {key} is not registered")
        values[key] = {p: totals.get(p, 0) for p in roster}


def _add_extra(
    roster: list[int],
    values: dict[str, dict[int, int]],
    extra: Mapping[str, Mapping[int, int]] | None,
    order: tuple[str, ...],
) -> None:
    """The caller's ``EXTRA_METRICS`` (0 for a player without a value). Reported whenever
    given; a ranking by one not given is a bug on the calling side."""
    given = extra or {}
    missing = needs_extra(order) - given.keys()
    if missing:
        raise ValueError(f"ranking {order}: needs {sorted(missing)} (extra)")
    for key, column in given.items():
        if key not in EXTRA_METRICS:
            raise ValueError(f"extra: {key} is not one of {sorted(EXTRA_METRICS)}")
        if not column.keys() <= values["score"].keys():
            raise ValueError(f"extra: a player of {key} is not registered")
        values[key] = {p: column.get(p, 0) for p in roster}


def _sum_lines(
    roster: list[int], series: Iterable[SeriesLine], source: str
) -> tuple[dict[int, list[int]], dict[int, list[SeriesLine]], set[int]]:
    """One pass over the lines: per player [score, games_played, games_won, rummikubs,
    rack_total, best_game]; the lines grouped by table; the tables split into parts."""
    acc = {player: [0, 0, 0, 0, 0, 0] for player in roster}
    tables: dict[int, list[SeriesLine]] = {}
    split: set[int] = set()  # tables with more than one part, or a part other than 0
    for line in series:
        player = line.player
        try:
            tally = acc[player]
        except KeyError:
            raise ValueError(f"{source}: player {player} is not registered") from None
        if line.games < 1:
            raise ValueError(f"{source}: a line of player {player} has no game")
        if tally[1] == 0 or line.best_game > tally[5]:  # the first line sets best_game
            tally[5] = line.best_game
        tally[0] += line.score
        tally[1] += line.games
        tally[2] += line.won
        tally[3] += line.rummikubs
        tally[4] += line.charge
        table_lines = tables.get(line.table)
        if table_lines is None:
            tables[line.table] = [line]
        else:
            table_lines.append(line)
        if line.part:
            split.add(line.table)
    return acc, tables, split


def _series_at(
    table: int, table_lines: list[SeriesLine], is_split: bool, source: str
) -> tuple[int, dict[int, int], list[list[SeriesLine]]]:
    """One table's round, each player's series score there, and its parts."""
    round_number = table_lines[0].round
    series_score: dict[int, int] = {}  # player -> series score at this table
    for line in table_lines:
        if line.round != round_number:
            raise ValueError(f"{source}: table {table} is in two rounds")
        series_score[line.player] = series_score.get(line.player, 0) + line.score
    if is_split:
        return round_number, series_score, _parts(table_lines, table, source)
    if len(series_score) != len(table_lines):
        raise ValueError(f"{source}: a player has two lines in one part of table {table}")
    return round_number, series_score, [table_lines]


def _add_opponents_score(
    opponents_score: dict[int, int],
    score: Mapping[int, int],
    series_score: Mapping[int, int],
    parts: list[list[SeriesLine]],
) -> None:
    """Buchholz: the final score of everyone met at this table, i.e. in this round."""
    if len(parts) == 1:
        # The usual case, and always so from the database: each player met all the
        # others at the table; O(seats), not O(seats²).
        table_score = sum(score[player] for player in series_score)
        for player in series_score:
            opponents_score[player] += table_score - score[player]
        return
    met: dict[int, set[int]] = {}
    for part_lines in parts:
        members = [line.player for line in part_lines]
        for player in members:
            met.setdefault(player, set()).update(members)
    for player, together in met.items():
        opponents_score[player] += sum(score[o] for o in together) - score[player]


def _tally(
    roster: list[int], series: Iterable[SeriesLine], source: str
) -> tuple[dict[str, dict[int, int]], list[list[SeriesLine]]]:
    """Every metric that comes from the series lines, except head_to_head; and the parts.

    Linear in the number of lines, never a per-player scan of all lines: one pass over the
    lines sums the per-player metrics and groups the lines by table; one pass over each
    table's lines builds its series scores and parts. This is the hot path of a
    recomputation (10,000 series lines for 1,000 players over 10 rounds), hence the
    accumulator lists instead of one dict per metric: one dict lookup per line, not six.
    """
    acc, tables, split = _sum_lines(roster, series, source)
    score = {player: tally[0] for player, tally in acc.items()}
    table_wins = dict.fromkeys(roster, 0)
    opponents_score = dict.fromkeys(roster, 0)
    all_parts: list[list[SeriesLine]] = []
    seated_in_round: dict[int, set[int]] = {}  # round number -> players with a line in it

    for table, table_lines in tables.items():
        round_number, series_score, parts = _series_at(table, table_lines, table in split, source)
        all_parts += parts

        # One table per player per round is what makes "tables won" the same as "rounds
        # won" and "once per table met" the same as "once per round met".
        seated = seated_in_round.setdefault(round_number, set())
        if not seated.isdisjoint(series_score):
            raise ValueError(f"{source}: a player sits at two tables in round {round_number}")
        seated.update(series_score)

        # Only tables with a confirmed game are here, so an unplayed table gives nobody a
        # win; a tie for the best series score gives a win to each tied player.
        top = max(series_score.values())
        for player, total in series_score.items():
            if total == top:
                table_wins[player] += 1
        _add_opponents_score(opponents_score, score, series_score, parts)

    columns = {
        "score": score,
        "games_won": {player: tally[2] for player, tally in acc.items()},
        "games_played": {player: tally[1] for player, tally in acc.items()},
        "rummikubs": {player: tally[3] for player, tally in acc.items()},
        "rack_total": {player: tally[4] for player, tally in acc.items()},
        "table_wins": table_wins,
        "opponents_score": opponents_score,
        "best_game": {player: tally[5] for player, tally in acc.items()},
    }
    return columns, all_parts


def _parts(table_lines: list[SeriesLine], table: int, source: str) -> list[list[SeriesLine]]:
    """A table's lines grouped by part, each player at most once in a part."""
    parts: dict[int, list[SeriesLine]] = {}
    for line in table_lines:
        parts.setdefault(line.part, []).append(line)
    for part_lines in parts.values():
        if len({line.player for line in part_lines}) != len(part_lines):
            raise ValueError(f"{source}: a player has two lines in one part of table {table}")
    return list(parts.values())


def _head_to_head(
    roster: list[int],
    before: tuple[str, ...],
    values: Mapping[str, Mapping[int, float]],
    parts: list[list[SeriesLine]],
    standing: Mapping[int, int],
) -> dict[int, int]:
    """head_to_head for every player, each within their tied group.

    The tied group is the players with equal values on every metric in ``before`` (all
    players when ``before`` is empty) and the same ``standing`` (active or withdrawn). A
    player's value is their score summed over the games in which at least one other member
    of their group also sat; such a game counts once, however many group members sat in
    it. The games of a part all have the same players, so a part's games count all or
    none: the sum runs over series lines, not games.
    """
    group_ids: dict[tuple[float, ...], int] = {}
    group_of = {
        player: group_ids.setdefault(
            (standing[player], *(values[k][player] for k in before)), len(group_ids)
        )
        for player in roster
    }
    result = dict.fromkeys(roster, 0)
    for part_lines in parts:
        groups = [group_of[line.player] for line in part_lines]
        for line, group in zip(part_lines, groups, strict=True):
            # A player is in a part once, so a count above 1 means another group member.
            if groups.count(group) > 1:
                result[line.player] += line.score
    return result
