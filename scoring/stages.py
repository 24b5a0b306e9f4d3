"""Stages of a championship: the cut into the next stage, carry-over of scores, placement
points at a table and the race-to-N final. Pure Python, no Django.

Terms
-----
stage
    A part of a tournament with its own rounds, seating and ranking: a qualification, a
    semi-final, a final table. Its entry list is the *cut* of the stage before it.
cut
    Who goes on: the top ``N`` of the previous stage's ranked list, or everyone at or above
    a score. The ranking's tiebreaks have already ordered that list, so a tie at the cut
    line is a tie on *every* ranking metric — a shared rank that straddles the line.
tie at the cut
    Never resolved silently: the ``CutResult`` says who was tied for how many places and
    how it was resolved (``ties``): ``include`` takes every tied player (the next stage is
    larger than asked), ``lot`` fills the places by each player's fixed lot
    (``standings.lot_draw``), highest first.
carry-over
    What a player brings into the next stage: ``all`` (scores continue), ``none`` (reset
    to 0) or ``half``.
placement points
    Points by finishing place at a table in one game (``scoring.placement``, which
    defines the finishing order and its ties).
race to N
    A final table that plays until one player has won ``N`` games (the Dutch "first to 4
    wins"), stopped at a games cap with a stated decider.

Decisions where the rules are silent (docs/rules/decisions.md)
--------------------------------------------------------------
* ``half`` carry-over halves and rounds toward zero: 7 -> 3, -7 -> -3, so the carried
  value is never more than half of the score in either direction, whatever its sign.
* Placement points: see ``scoring.placement`` (finishing order, ties, the default tables).
* Race to N: a game with several winners (a tied pool-exhausted end) counts a win for
  each. If more than one player reaches N in the same game, or the cap is reached, the
  decider is, in order: most wins in the final, then the higher sum of game scores in
  the final, then the winner of the last game the tied players did not share as winners.
  Still tied after that (same wins, same score, every game won together) is reported as
  ``tied``: the organiser has one more game played — it is never decided by a coin here
  — and the decider is asked again after each further game (beyond the cap, if need be).
* Race to N, the final standings (``race_order``): the champion first, then the others in
  the decider's order (most wins, then the score sum, then the last game won alone among
  them); players it cannot part share a rank.
* Race to N, games after the decision (a correction of an earlier game moved the
  decision earlier) do not count: the state says how many (``surplus``), never an error.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scoring.errors import RuleError
from scoring.i18n import _, ngettext

# Placement points live in scoring.placement; named here too, beside the stages.
from scoring.placement import DEFAULT_PLACEMENT_POINTS as DEFAULT_PLACEMENT_POINTS
from scoring.placement import check_placement_points as check_placement_points
from scoring.placement import first_place as first_place
from scoring.placement import placement_points as placement_points
from scoring.placement import places as places
from scoring.standings import lot_draw

CarryOver = Literal["all", "none", "half"]
CARRY_OVER: tuple[CarryOver, ...] = ("all", "none", "half")
CutTies = Literal["include", "lot"]
CUT_TIES: tuple[CutTies, ...] = ("include", "lot")


# --- the cut -------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    """One player of the previous stage's standings: rank as the ranking gave it."""

    player: int
    rank: int
    score: int


@dataclass(frozen=True)
class CutTie:
    """Players tied on every ranking metric across the cut line."""

    rank: int
    players: tuple[int, ...]
    places: int  # places left for them below the line
    resolution: CutTies

    def sentence(self) -> str:
        facts = {"players": len(self.players), "rank": self.rank, "places": self.places}
        # Whole sentences, the plural following the places left (a tie is 2 players or more).
        if self.resolution == "include":
            return ngettext(
                "{players} players share rank {rank} for {places} place: all go on",
                "{players} players share rank {rank} for {places} places: all go on",
                self.places,
            ).format(**facts)
        return ngettext(
            "{players} players share rank {rank} for {places} place: decided by lot",
            "{players} players share rank {rank} for {places} places: decided by lot",
            self.places,
        ).format(**facts)


@dataclass(frozen=True)
class CutResult:
    entrants: tuple[int, ...]  # in the previous stage's order
    eliminated: tuple[int, ...]
    tie: CutTie | None = None


def cut(
    ranked: Sequence[Ranked],
    *,
    top: int | None = None,
    min_score: int | None = None,
    ties: CutTies = "lot",
    lot_seed: str = "",
) -> CutResult:
    """The entrants of the next stage: the ``top`` players, or those scoring at least
    ``min_score`` (exactly one of the two). ``ranked`` is best first, withdrawn players
    already left out by the caller."""
    if (top is None) == (min_score is None):
        raise RuleError("cut", _("give either a number of players (top) or a minimum score"))
    if ties not in CUT_TIES:
        raise RuleError(
            "ties",
            _("'{ties}' is not a way to break a tie; choose include or lot").format(ties=ties),
        )
    _check_order(ranked)
    if min_score is not None:
        chosen = tuple(r.player for r in ranked if r.score >= min_score)
        return CutResult(chosen, tuple(r.player for r in ranked if r.score < min_score))
    assert top is not None
    if top < 1:
        raise RuleError("top", _("a cut takes at least 1 player"))
    if top > len(ranked):
        raise RuleError(
            "top",
            ngettext(
                "a cut of {top} from a field of {field} player",
                "a cut of {top} from a field of {field} players",
                len(ranked),
            ).format(top=top, field=len(ranked)),
        )
    return _cut_top(ranked, top, ties, lot_seed)


def _check_order(ranked: Sequence[Ranked]) -> None:
    if any(a.rank > b.rank for a, b in itertools.pairwise(ranked)):
        raise ValueError("ranked: not in rank order")
    if len({r.player for r in ranked}) != len(ranked):
        raise ValueError("ranked: a player appears twice")


def _cut_top(ranked: Sequence[Ranked], top: int, ties: CutTies, lot_seed: str) -> CutResult:
    everyone = [r.player for r in ranked]
    if top == len(ranked) or ranked[top - 1].rank != ranked[top].rank:
        return CutResult(tuple(everyone[:top]), tuple(everyone[top:]))
    line_rank = ranked[top - 1].rank
    tied = [r.player for r in ranked if r.rank == line_rank]
    above = [r.player for r in ranked if r.rank < line_rank]
    places = top - len(above)
    if ties == "include":
        chosen = above + tied
    else:
        by_lot = sorted(tied, key=lambda p: (-lot_draw(lot_seed, p), p))
        chosen = above + by_lot[:places]
    tie = CutTie(line_rank, tuple(tied), places, ties)
    kept = set(chosen)
    return CutResult(
        tuple(p for p in everyone if p in kept), tuple(p for p in everyone if p not in kept), tie
    )


# --- carry-over ----------------------------------------------------------------------


def carry_over(value: int, mode: CarryOver) -> int:
    """What a stage total becomes at the start of the next stage (see the module doc)."""
    if mode == "all":
        return value
    if mode == "none":
        return 0
    if mode == "half":
        return -(-value // 2) if value < 0 else value // 2
    raise RuleError(
        "carry_over", _("'{mode}' is not a carry-over; choose all, none or half").format(mode=mode)
    )


# --- race to N -----------------------------------------------------------------------

RaceStatus = Literal["running", "won", "decided", "tied"]
DECIDED: tuple[RaceStatus, ...] = ("won", "decided")
Decider = Literal["", "wins", "score", "last_game"]


@dataclass(frozen=True)
class RaceGame:
    """One game of the final: its winners and every player's game score."""

    winners: frozenset[int]
    scores: Mapping[int, int]


@dataclass(frozen=True)
class RaceState:
    """Where a race stands: ``status`` running, won (one player reached N), decided (by
    the decider), tied (the decider could not part the tied players: one more game).
    ``games`` counts the games that count (up to the decision); ``surplus`` the games
    played after it (a correction moved the decision earlier), which do not count."""

    status: RaceStatus  # running, won (reached N), decided (by the decider), tied
    champion: int | None
    wins: dict[int, int]
    games: int
    tied: tuple[int, ...] = field(default=())
    surplus: int = 0
    # What parted the players when the decider was asked: "wins", "score", "last_game"
    # ("" when nobody needed it: one player reached N alone, or still running or tied).
    decider: Decider = ""

    @property
    def over(self) -> bool:
        return self.status in DECIDED

    def sentence(self, target: int) -> str:
        if self.status == "running":
            return _("game {game} next; first to {target} wins").format(
                game=self.games + 1, target=target
            )
        if self.status == "won":
            return _("player {player} reached {target} wins in game {game}").format(
                player=self.champion, target=target, game=self.games
            )
        if self.status == "decided":
            return _("player {player} after the decider, at game {game}").format(
                player=self.champion, game=self.games
            )
        return _("still tied after the decider: one more game is played")


def race(
    players: Collection[int], games: Sequence[RaceGame], *, target: int, cap: int
) -> RaceState:
    """The state of a race-to-``target`` final after ``games``, capped at ``cap`` games.

    At the cap (or when several players reach ``target`` in one game) the decider
    decides; when it cannot (``tied``), the next game is played and the decider asked
    again after it. Games after the decision do not count: they are the ``surplus``."""
    if target < 1:
        raise RuleError("target", _("a race is to at least 1 win"))
    if cap < target:
        raise RuleError(
            "cap",
            _("a cap of {cap} games leaves no room to win {target}").format(cap=cap, target=target),
        )
    wins = dict.fromkeys(players, 0)
    for number, game in enumerate(games, start=1):
        if not game.winners or not game.winners <= wins.keys():
            raise ValueError(f"game {number}: winners must be players of the final")
        for player in game.winners:
            wins[player] += 1
        leaders = [p for p, w in wins.items() if w >= target]
        if leaders or number >= cap:
            state = _decide(
                leaders or list(wins), dict(wins), games[:number], number, reached=bool(leaders)
            )
            if state.status == "tied" and number < len(games):
                continue  # one more game was played: the decider is asked again after it
            return RaceState(
                state.status,
                state.champion,
                state.wins,
                number,
                state.tied,
                len(games) - number,
                state.decider,
            )
    return RaceState("running", None, wins, len(games))


def _decide(
    candidates: list[int], wins: dict[int, int], games: Sequence[RaceGame], n: int, reached: bool
) -> RaceState:
    if reached and len(candidates) == 1:
        return RaceState("won", candidates[0], wins, n)
    tied, how = _decider(candidates, wins, games)
    if len(tied) == 1:
        return RaceState("decided", tied[0], wins, n, decider=how)
    return RaceState("tied", None, wins, n, tuple(sorted(tied)))


def _totals(games: Sequence[RaceGame]) -> dict[int, int]:
    totals: dict[int, int] = {}
    for game in games:
        for player, score in game.scores.items():
            totals[player] = totals.get(player, 0) + score
    return totals


def _decider(
    candidates: list[int], wins: Mapping[int, int], games: Sequence[RaceGame]
) -> tuple[list[int], Decider]:
    """Who of ``candidates`` the decider keeps, and which step parted them: most wins,
    then the highest sum of game scores, then the winner of the last game they did not
    share as winners."""
    best = max(wins[p] for p in candidates)
    tied = [p for p in candidates if wins[p] == best]
    if len(tied) == 1:
        return tied, "wins"
    totals = _totals(games)
    top = max(totals.get(p, 0) for p in tied)
    tied = [p for p in tied if totals.get(p, 0) == top]
    if len(tied) == 1:
        return tied, "score"
    for game in reversed(games):
        alone = [p for p in tied if p in game.winners]
        if len(alone) == 1:
            return alone, "last_game"
    return tied, ""


def race_order(
    players: Collection[int], games: Sequence[RaceGame], state: RaceState
) -> list[tuple[int, int]]:
    """The final standings of a race: ``(rank, player)``, the champion first, then the
    others in the decider's order (most wins, then the score sum, then the last game won
    alone among them); players the decider cannot part share a rank. Only the games
    that count (``state.games``) are weighed."""
    counted = games[: state.games]
    wins = state.wins
    left = [p for p in players if p != state.champion]
    ordered: list[list[int]] = [[state.champion]] if state.champion is not None else []
    while left:
        kept, _how = _decider(left, wins, counted)
        ordered.append(sorted(kept))
        left = [p for p in left if p not in kept]
    ranked: list[tuple[int, int]] = []
    for group in ordered:
        rank = len(ranked) + 1
        ranked += [(rank, p) for p in group]
    return ranked
