"""Target-score matches: a table plays its series until a player's match total reaches
the target (docs/rules/scoring.md, "Target-score matches"). Pure Python, no Django.

Terms
-----
target
    The tournament's ``target_score`` N, a whole number >= 1.
match
    The games played at one table in one round, in order (game 1, 2, ...), counted until
    the match is decided.
match total
    A player's sum of game scores (after sanction points) over the match's counted games.
    Every seated player has one; it is zero-sum wherever the game scores are.
decided
    The match ends after the first game in which at least one player's match total is N
    or more. The match winner is the player with the highest total after that game.
tie game
    When two or more players share that highest total, another game is played. Everyone
    at the table plays it and scores as usual (a Rummikub game needs the table), but only
    the tied players (the *contenders*) can still win the match: after each tie game the
    contender with the highest total wins; contenders still equal play one more.
games cap
    ``target_games_cap`` M (optional): the match ends after game M whatever the totals.
    The highest total wins (among the contenders when a tie game was being played); a tie
    on it is broken by the tournament's tiebreaks, as far as one match can answer them
    (``MATCH_TIEBREAKS``); players no tiebreak parts share the win.
surplus
    Games entered after the deciding game (a correction of an earlier game moved the
    decision earlier). They do not count for the match; ``MatchState.surplus`` counts them.
match rank
    The winner(s) rank 1; every other player follows by match total, highest first, equal
    totals sharing a rank ("1224", as the standings rank).
matches won / match points
    Standings metrics (``scoring.standings``): the decided matches a player won (a shared
    win counts for each), and the placement points (``scoring.placement``) of the player's
    match rank at a table of that size, summed over their decided matches.

Decisions where the rules are silent (docs/rules/decisions.md)
--------------------------------------------------------------
* A tie on the highest total at or above the target: everyone plays the tie game and
  every score counts in the standings, but only the tied players can win the match; a
  non-contender whose total passes them in the tie game still ranks by total below the
  winner (the winner is always match rank 1).
* At the cap, ties on the total are broken by the tournament ranking's metrics after
  ``score``, each computed over this match only: ``games_won``, ``rummikubs``,
  ``best_game`` (higher better) and ``lot`` (the player's fixed lot); every other
  metric (one a match cannot answer, such as opponents' score) is skipped. Still tied:
  the win is shared (each counts a match won and match rank 1). The cap never adds a
  game, so a match with a cap ends at game M at the latest.
* Match points use the tournament's placement table (the same 4/3/1/0 row as placement
  points, by the table's size); shared ranks each take the points of the shared place.
* An undecided match (still running) counts for nobody's matches won or match points.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scoring.errors import RuleError
from scoring.i18n import _
from scoring.placement import DEFAULT_PLACEMENT_POINTS, PlacementTable

MatchStatus = Literal["running", "tied", "decided"]
DecidedBy = Literal["", "target", "tie_game", "cap", "tiebreak", "shared"]
# The ranking metrics one match can answer, all "higher is better".
MATCH_TIEBREAKS: tuple[str, ...] = ("games_won", "rummikubs", "best_game", "lot")
# Far above any real match; the database keeps a games cap in a small integer.
MAX_GAMES_CAP = 50


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One confirmed game of the match: each seated player's game score (after sanction
    points), who won it and whether by a rummikub."""

    scores: Mapping[int, int]
    winners: frozenset[int] = field(default=frozenset())
    rummikub: bool = False


@dataclass(frozen=True)
class MatchState:
    """Where a match stands after the games entered so far.

    ``games`` counts the games that count (up to the deciding one, or all while running);
    ``totals`` are the match totals over them; ``winners`` is empty until decided (more
    than one only when the win is shared at the cap); ``contenders`` are the tied players
    of a tie game; ``ranks`` are the match ranks once decided (empty before)."""

    status: MatchStatus
    target: int
    totals: dict[int, int]
    games: int
    winners: tuple[int, ...] = ()
    contenders: tuple[int, ...] = ()
    surplus: int = 0
    decided_by: DecidedBy = ""
    ranks: dict[int, int] = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        return self.status == "decided"

    @property
    def winner(self) -> int | None:
        """The one winner, or None (running, tied, or a shared win)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def leader_total(self) -> int:
        return max(self.totals.values(), default=0)


def check_target(target: object, cap: object = None) -> tuple[int, int | None]:
    """A target and an optional games cap as an organiser typed them."""
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise RuleError("target_score", _("a target score is a whole number of at least 1"))
    if cap is None:
        return target, None
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_GAMES_CAP:
        raise RuleError(
            "target_games_cap",
            _("a games cap is a whole number from 1 to {most}").format(most=MAX_GAMES_CAP),
        )
    return target, cap


def match_state(
    players: Collection[int],
    games: Sequence[MatchGame],
    *,
    target: int,
    cap: int | None = None,
    tiebreaks: Sequence[str] = (),
    lots: Mapping[int, int] | None = None,
) -> MatchState:
    """The state of a match to ``target`` at a table of ``players`` after ``games``."""
    check_target(target, cap)
    totals = dict.fromkeys(players, 0)
    if not totals:
        raise ValueError("a match needs at least one player")
    contenders: list[int] = []
    for number, game in enumerate(games, start=1):
        if game.scores.keys() != totals.keys():
            raise ValueError(f"game {number}: every seated player needs a score")
        for player, score in game.scores.items():
            totals[player] += score
        winners, how = _after_game(totals, contenders, target)
        if not winners and cap is not None and number >= cap:
            candidates = contenders or list(totals)
            top = max(totals[p] for p in candidates)
            tied = sorted(p for p in candidates if totals[p] == top)
            if len(tied) == 1:
                winners, how = tied, "cap"
            else:
                counted = games[:number]
                winners = _tiebreak(tied, counted, tiebreaks, lots or {})
                how = "tiebreak" if len(winners) == 1 else "shared"
        if winners:
            return MatchState(
                "decided",
                target,
                dict(totals),
                number,
                tuple(winners),
                tuple(contenders),
                len(games) - number,
                how,
                match_ranks(totals, winners),
            )
        if not contenders:
            top = max(totals.values())
            if top >= target:
                contenders = sorted(p for p, t in totals.items() if t == top)
        else:
            top = max(totals[p] for p in contenders)
            contenders = [p for p in contenders if totals[p] == top]
    status: MatchStatus = "tied" if contenders else "running"
    return MatchState(status, target, dict(totals), len(games), contenders=tuple(contenders))


def _after_game(
    totals: Mapping[int, int], contenders: list[int], target: int
) -> tuple[list[int], DecidedBy]:
    """The winner decided by this game, if any (before the cap is looked at)."""
    if contenders:
        top = max(totals[p] for p in contenders)
        leaders = [p for p in contenders if totals[p] == top]
        return (leaders, "tie_game") if len(leaders) == 1 else ([], "")
    top = max(totals.values())
    leaders = [p for p, t in totals.items() if t == top]
    if top >= target and len(leaders) == 1:
        return leaders, "target"
    return [], ""


def _tiebreak(
    tied: list[int], games: Sequence[MatchGame], tiebreaks: Sequence[str], lots: Mapping[int, int]
) -> list[int]:
    """Who of ``tied`` the match-level tiebreaks keep (all of them when none parts them)."""
    for key in tiebreaks:
        if key not in MATCH_TIEBREAKS or (key == "lot" and not lots):
            continue
        values = {p: _match_metric(key, p, games, lots) for p in tied}
        best = max(values.values())
        tied = [p for p in tied if values[p] == best]
        if len(tied) == 1:
            break
    return tied


def _match_metric(
    key: str, player: int, games: Sequence[MatchGame], lots: Mapping[int, int]
) -> int:
    if key == "games_won":
        return sum(player in g.winners for g in games)
    if key == "rummikubs":
        return sum(player in g.winners and g.rummikub for g in games)
    if key == "best_game":
        return max(g.scores[player] for g in games)
    return lots.get(player, 0)


def match_ranks(totals: Mapping[int, int], winners: Collection[int]) -> dict[int, int]:
    """Match ranks: the winners first (rank 1), then the others by total, highest first,
    equal totals sharing the better rank."""
    ranks = dict.fromkeys(winners, 1)
    others = sorted((p for p in totals if p not in ranks), key=lambda p: -totals[p])
    place = len(ranks)
    previous: int | None = None
    rank = 0
    for player in others:
        place += 1
        if totals[player] != previous:
            rank = place
            previous = totals[player]
        ranks[player] = rank
    return ranks


@dataclass
class MatchTotals:
    """Per player, over their decided matches: matches won and match points (only
    players with a decided match are keys)."""

    won: dict[int, int] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)


def match_totals(
    states: Iterable[MatchState], table: PlacementTable = DEFAULT_PLACEMENT_POINTS
) -> MatchTotals:
    """Sum matches won and match points over the decided ``states`` (the seat's player
    gets them); a running or tied match counts for no one."""
    out = MatchTotals()
    for state in states:
        if not state.decided:
            continue
        row = table.get(len(state.ranks))
        for player, rank in state.ranks.items():
            out.won[player] = out.won.get(player, 0) + int(rank == 1)
            points = row[rank - 1] if row is not None else 0
            out.points[player] = out.points.get(player, 0) + points
    return out


def games_left(state: MatchState, cap: int | None) -> int | None:
    """How many more games the match may need at most: 0 once decided, the games up to
    the cap with a cap, None (open) without one."""
    if state.decided:
        return 0
    if cap is None:
        return None
    return max(cap - state.games, 0)
