"""Stages at play: a stage's standings, the preview of its cut, and closing it.

Terms (see `tournaments.models`: stage, cut, carried):
* stage standings — the standings of one stage's rounds only (stage 1 also owns the rounds
  opened before any stage existed), of its entrants only (stage 1: every player), with
  each entrant's carried score added to `score` before ranking, by the stage's ranking.
* closing a stage — committing the cut of its standings into the next stage's entry list
  (`StageEntry`), by the *next* stage's cut rule and carry-over; the stage is then done
  and the next one becomes current (its first round seats its entrants only). Closing
  the last stage commits no cut.

Rules decided here (the rules are silent; docs/rules/decisions.md):
* The cut ranks active players only: a withdrawn player never goes on. A next stage
  limited to a division (`Stage.division`) cuts from that division's players only, by
  their places in the whole stage's standings (the lot and ties as for any cut).
* The cut's lot (ties `lot`) is `scoring.standings.lot_draw` seeded with
  "<tournament id>:<slug>:stage<number>", fixed for the stage: the preview and the commit
  draw the same lot.
* What a player carries is their stage total `score` (their own carried score included)
  through `scoring.stage_graph.carry` (half: rounded as the stage's `carry_rounding` says).
* A stage may feed several stages (the stage graph, `games.services.stage_feeds`): its
  close commits every one's entry list at once; a stage feeding none commits no cut.
* Stage standings are computed on read, not stored: the same fixed handful of queries as
  a snapshot (stage, entrants, players with penalty counts, one SQL sum), so they stay
  within the standings query bound (8) at any size. Penalties count as they stand (a
  penalty carries no stage of its own).

One game per round (a stage re-seated every game, or a race to N):
* Such a stage's rounds each play **one game per table**, so every game is a round of its
  own and a new draw: the invariants stay as they are (one seat per player per round,
  versioned results per game, the standings and seating code unchanged). A re-seated
  stage plays as many games as a table's series elsewhere (the tournament's
  `games_per_table`, else the table size): "re-seated every game: game 2 of 4"; opening
  more is refused (409 naming `stage`). Swiss seats it by the stage's standings, random
  by fewest repeat meetings, as any round.
* The race (`stage_race`) is computed on read from the confirmed results of the stage's
  games, in round, table and game order, by `scoring.stages.race`: a game's winners are
  its racks marked winner, its scores the net game scores (after sanction points). Once
  the race is won or decided, opening another round in the stage is refused (409 naming
  `stage`); a correction that undoes the decision reopens it (nothing is stored but the
  results). The stage's standings then rank by the race (`scoring.stages.race_order`),
  with each player's wins.

Side events (kind `side`, `stage_side_start`):
* Started from a closed main stage whose cut was committed into the next stage: its
  entrants are that stage's active players not cut (their rank there is their seed), no
  score carried. One side event per stage. It runs beside the next main stage with its
  own rounds (a round opened while two stages are open names its stage) and standings,
  and closes as a last stage does (no cut).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import Conflict, RuleError
from scoring.i18n import isolate
from scoring.stages import (
    CutResult,
    RaceGame,
    RaceState,
    race,
    race_order,
)
from scoring.standings import StandingRow
from tournaments.backups import backup_after_commit
from tournaments.events import pages_changed, results_changed
from tournaments.lifecycle import require_open
from tournaments.models import Player, Round, Stage, StageEntry, Tournament
from tournaments.permissions import User, require
from tournaments.selectors import feeds_of, next_stage_number
from tournaments.services.validation import stamp_history_user, text

from ..models import Game, RackEntry, Result
from ..words import stage_games_planned
from .gaps import round_results_missing, stage_rounds_q
from .locks import lock_tournament
from .stage_feeds import FeedPreview, commit_feeds, feed_previews
from .standings import EVERY_ROUND, StageFilter, ranked_rows


@dataclass(frozen=True)
class StageRow:
    rank: int
    player: Player
    carried: int
    metrics: dict
    race_wins: int | None = None  # a race stage: the player's wins that count


def stage_rows(stage: Stage, race_view: RaceView | None = None) -> list[StageRow]:
    """The stage standings (see the module doc), best first; a race stage ranked by its
    race (`race_view`, read when not given)."""
    rows = _stage_rows(stage)
    if stage.race_target is None:
        return rows
    race_view = race_view or stage_race(stage)
    if race_view is None:
        return rows
    by_player = {row.player.id: row for row in rows}
    ranked = [
        StageRow(rank, by_player[p].player, by_player[p].carried, by_player[p].metrics, wins)
        for rank, p in race_view.order
        if p in by_player
        for wins in [race_view.state.wins.get(p, 0)]
    ]
    seen = {row.player.id for row in ranked}
    return ranked + [row for row in rows if row.player.id not in seen]


def _stage_rows(stage: Stage) -> list[StageRow]:
    tournament = stage.tournament
    entries = {
        e.player_id: e.carried
        for e in StageEntry.objects.filter(stage=stage).only("player", "carried")
    }
    players_qs = Player.objects.filter(tournament=tournament).annotate(
        penalty_count=Count("penalties", filter=Q(penalties__voided=False))
    )
    if stage.number > 1:
        players_qs = players_qs.filter(pk__in=entries.keys())
    players = {p.id: p for p in players_qs}
    rows = ranked_rows(
        tournament,
        list(players),
        {p.id: p.penalty_count for p in players.values()},
        {p.id for p in players.values() if p.status == Player.Status.WITHDRAWN},
        stage=StageFilter(stage.pk, stage.number == 1),
        ranking=stage.ranking,
        carried=entries,
        # An imported tournament's players keep the lot the original site drew, here as
        # in the overall standings (the same ties break the same way in every stage).
        lots={p.id: p.lot for p in players.values() if p.lot is not None},
    )
    return [_row(row, players, entries) for row in rows]


def _row(row: StandingRow, players: Mapping[int, Player], entries: dict[int, int]) -> StageRow:
    return StageRow(row.rank, players[row.player], entries.get(row.player, 0), dict(row.metrics))


@dataclass(frozen=True)
class CutPreview:
    """What closing `stage` would do: the cut into `next_stage` (None: the last stage)."""

    stage: Stage
    next_stage: Stage | None
    rows: list[StageRow]
    result: CutResult | None
    carried: dict[int, int] = field(default_factory=dict)
    # Every stage the close fills (several when stages run in parallel after this one).
    feeds: list[FeedPreview] = field(default_factory=list)

    @property
    def entrants(self) -> list[Player]:
        by_id = {r.player.id: r.player for r in self.rows}
        return [by_id[p] for p in self.result.entrants] if self.result else []

    @property
    def eliminated(self) -> list[Player]:
        by_id = {r.player.id: r.player for r in self.rows}
        if self.result is None:
            return []
        withdrawn = [r.player for r in self.rows if r.player.status == Player.Status.WITHDRAWN]
        return [by_id[p] for p in self.result.eliminated] + withdrawn

    @property
    def tie(self) -> str:
        """The tie at the cut line in words, named by player (empty: no tie)."""
        if self.result is None or self.result.tie is None:
            return ""
        by_id = {r.player.id: r.player for r in self.rows}
        tie = self.result.tie
        names = ", ".join(f"{isolate(by_id[p].name)} (#{by_id[p].number})" for p in tie.players)
        return _("{tie}: {players}").format(tie=tie.sentence(), players=names)


def stage_rounds(stage: Stage):
    return Round.objects.filter(stage_rounds_q(stage), tournament_id=stage.tournament_id)


def stage_cut_preview(stage: Stage) -> CutPreview:
    """The cut closing `stage` would commit, from its standings by the rule of every
    stage it feeds (`games.services.stage_feeds`): entrants (of all of them together),
    eliminated, the tie stated; `feeds` one by one. A cut larger than the field is a
    RuleError on `top`."""
    feeds = feeds_of(stage)
    rows = stage_rows(stage)
    if not feeds:
        return CutPreview(stage, None, rows, None)
    previews = feed_previews(stage, rows, feeds)
    entered = {p for preview in previews for p in preview.result.entrants}
    ranked_active = [r.player.id for r in rows if r.player.status == Player.Status.ACTIVE]
    tie = next((p.result.tie for p in previews if p.result.tie is not None), None)
    result = CutResult(
        tuple(p for p in ranked_active if p in entered),
        tuple(p for p in ranked_active if p not in entered),
        tie,
    )
    carried = {p: c for preview in previews for p, c in preview.carried.items()}
    return CutPreview(stage, feeds[0], rows, result, carried, previews)


def _expected(value: object) -> list[int]:
    if not isinstance(value, list) or any(
        isinstance(p, bool) or not isinstance(p, int) for p in value
    ):
        raise RuleError("expected_entrants", _("must be the list of the previewed entrants' ids."))
    return value


def stage_close(*, stage: Stage, by: User, expected_entrants: object) -> CutPreview:
    """Close `stage` and commit exactly the previewed cut into the next stage.

    409 (`Conflict`) when the stage is closed already, has no round, has games without a
    confirmed result (`missing_results`), or when the cut now differs from
    `expected_entrants` (the preview is stale: standings changed since). A cut larger
    than the field is a RuleError on `top` (400). Nothing is saved on any refusal."""
    with transaction.atomic():
        tournament = lock_tournament(stage.tournament_id)
        require(by, tournament, "organise")
        require_open(tournament)
        expected = _expected(expected_entrants)
        stage = Stage.objects.select_related("tournament").get(pk=stage.pk)
        require_stage_closable(stage, tournament)
        preview = stage_cut_preview(stage)
        if preview.result is not None and sorted(expected) != sorted(preview.result.entrants):
            raise Conflict(
                "expected_entrants",
                _("the standings changed since the preview: look at the cut again."),
                entrants=list(preview.result.entrants),
            )
        if preview.feeds:
            commit_feeds(preview.feeds, preview.rows)
        stage.status = Stage.Status.CLOSED
        stage.final_order = [[row.rank, row.player.id] for row in preview.rows]
        stamp_history_user(stage, by).save(update_fields=["status", "final_order"])
        if tournament.qualify_stage_id == stage.pk:
            results_changed(tournament)  # the slots follow this stage's order from now on
        transaction.on_commit(lambda: pages_changed(tournament.slug))
        backup_after_commit("stage")  # the cut as committed (SQLite only, off the request)
        return preview


def require_stage_closable(stage: Stage, tournament: Tournament) -> None:
    where = _("stage {number} ({name})").format(number=stage.number, name=isolate(stage.name))
    if stage.status == Stage.Status.CLOSED:
        raise Conflict("stage", _("{where} is closed already.").format(where=where))
    if not stage_rounds(stage).exists():
        raise Conflict("stage", _("{where} has no round yet.").format(where=where))
    gaps = round_results_missing(tournament, EVERY_ROUND, stage)
    if gaps:
        raise Conflict(
            "stage",
            _("{stage} cannot close: {gaps}.").format(
                stage=where, gaps="; ".join(gap.sentence for gap in gaps)
            ),
            missing_results=[gap.sentence for gap in gaps],
        )


def went_on(stage: Stage) -> set[int] | None:
    """The players `stage`'s close sent into the stages it feeds (None: it feeds none)."""
    feeds = feeds_of(stage)
    if not feeds:
        return None
    return set(StageEntry.objects.filter(stage__in=feeds).values_list("player_id", flat=True))


# --- one game per round: re-seating and the race ------------------------------------------


@dataclass(frozen=True)
class RaceView:
    """A race stage's race as it stands: the engine's `state`, its final `order`
    (rank, player id), the players by id, and the sentences a page shows."""

    stage: Stage
    state: RaceState
    order: list[tuple[int, int]]
    players: dict[int, Player]
    in_play: bool = False  # a game of the stage is at the table (no confirmed result yet)

    @property
    def target(self) -> int:
        return self.stage.race_target or 0

    @property
    def cap(self) -> int:
        return self.stage.race_cap or 0

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def champion(self) -> Player | None:
        return self.players.get(self.state.champion) if self.state.champion else None

    @property
    def standing(self) -> list[tuple[Player, int]]:
        """Each player with their wins, in the race's order."""
        return [(self.players[p], self.state.wins.get(p, 0)) for _rank, p in self.order]

    @property
    def summary(self) -> str:
        """ "first to 4 wins: Ann 3, Bob 2, Cy 0, Dee 0; 5 of at most 9 games played"."""
        wins = ", ".join(f"{isolate(player.name)} {count}" for player, count in self.standing)
        return ngettext(
            "first to %(target)s wins: %(wins)s; %(games)s of at most %(cap)s game played",
            "first to %(target)s wins: %(wins)s; %(games)s of at most %(cap)s games played",
            self.cap,
        ) % {"target": self.target, "wins": wins, "games": self.state.games, "cap": self.cap}

    @property
    def status_words(self) -> str:
        """Who won and how, or what comes next."""
        state = self.state
        if state.status == "running" and self.in_play:
            return _("Game %(game)s is being played.") % {"game": state.games + 1}
        if state.status == "running":
            return _("Game %(game)s is next.") % {"game": state.games + 1}
        if state.status == "tied":
            names = ", ".join(isolate(self.players[p].name) for p in state.tied)
            return _("%(names)s are still tied after the decider: one more game is played.") % {
                "names": names
            }
        name = isolate(self.champion.name) if self.champion else ""
        if state.status == "won":
            words = _("%(name)s is the champion: %(target)s wins in game %(game)s.") % {
                "name": name,
                "target": self.target,
                "game": state.games,
            }
        else:
            how = {
                "wins": _("most wins"),
                "score": _("the higher score in the final"),
                "last_game": _("the last game won alone"),
            }.get(state.decider, "")
            words = _("%(name)s is the champion after %(games)s games, decided by %(how)s.") % {
                "name": name,
                "games": state.games,
                "how": how,
            }
        if state.surplus:
            words += " " + ngettext(
                "%(count)s game played after the decision does not count.",
                "%(count)s games played after the decision do not count.",
                state.surplus,
            ) % {"count": state.surplus}
        return words


def stage_race(stage: Stage) -> RaceView | None:
    """The race of a race stage as it stands (None for another stage): three queries."""
    if stage.race_target is None or stage.race_cap is None:
        return None
    entrants = Player.objects.filter(tournament_id=stage.tournament_id)
    if stage.number > 1:
        entrants = entrants.filter(stage_entries__stage=stage)
    players = {p.id: p for p in entrants}
    games: dict[int, tuple[set[int], dict[int, int]]] = {}
    racks = (
        RackEntry.objects.scored()
        .filter(
            result__status=Result.Status.CONFIRMED,
            player_id__in=players,
        )
        .filter(stage_rounds_q(stage, "result__game__table__round__"))
        .filter(result__game__table__round__tournament_id=stage.tournament_id)
        .order_by(
            "result__game__table__round__number",
            "result__game__table__number",
            "result__game__number",
        )
        .values_list("result__game_id", "player_id", "net_score", "winner")
    )
    for game_id, player, score, winner in racks:
        winners, scores = games.setdefault(game_id, (set(), {}))
        scores[player] = score
        if winner:
            winners.add(player)
    played = [RaceGame(frozenset(w), s) for w, s in games.values() if w]
    state = race(players, played, target=stage.race_target, cap=stage.race_cap)
    in_play = (
        Game.objects.filter(stage_rounds_q(stage, "table__round__"))
        .filter(table__round__tournament_id=stage.tournament_id)
        .exclude(pk__in=list(games))
        .exists()
    )
    return RaceView(stage, state, race_order(players, played, state), players, in_play)


def require_stage_open_for_a_round(stage: Stage) -> None:
    """Refuse (409 naming `stage`) a round in a stage that is done: a race won or
    decided, or a re-seated stage that played all its games."""
    where = _("stage %(number)s (%(name)s)") % {"number": stage.number, "name": isolate(stage.name)}
    if stage.status == Stage.Status.CLOSED:
        raise Conflict("stage", _("%(stage)s is closed.") % {"stage": where})
    view = stage_race(stage)
    if view is not None and view.over:
        raise Conflict(
            "stage",
            _(
                "%(stage)s is decided: %(result)s No more games are played; correct a "
                "result to reopen it."
            )
            % {"stage": where, "result": view.status_words},
        )
    if view is None and stage.reseat_every_game:
        planned = stage_games_planned(stage) or 0
        if stage_rounds(stage).count() >= planned:
            raise Conflict(
                "stage",
                _("%(stage)s has played all its %(games)s games: close it.")
                % {"stage": where, "games": planned},
            )


# --- side events ---------------------------------------------------------------------------


def stage_side_start(*, stage: Stage, by: User, name: object = None) -> Stage:
    """Start a side event for the players `stage` did not cut (see the module doc).

    409 naming `stage` when the stage is not closed, is a side event or the last stage
    (no cut), has a side event already, or left nobody out; 400 naming `name`."""
    with transaction.atomic():
        tournament = lock_tournament(stage.tournament_id)
        require(by, tournament, "organise")
        require_open(tournament)
        stage = Stage.objects.select_related("tournament").get(pk=stage.pk)
        where = _("stage %(number)s (%(name)s)") % {
            "number": stage.number,
            "name": isolate(stage.name),
        }
        if stage.is_side:
            raise Conflict("stage", _("%(stage)s is a side event itself.") % {"stage": where})
        if stage.status != Stage.Status.CLOSED:
            raise Conflict(
                "stage",
                _("%(stage)s is not closed: a side event starts once its cut is committed.")
                % {"stage": where},
            )
        taken = went_on(stage)
        if taken is None:
            raise Conflict(
                "stage", _("%(stage)s made no cut: nobody is out of it.") % {"stage": where}
            )
        if stage.side_stages.exists():
            raise Conflict("stage", _("%(stage)s has a side event already.") % {"stage": where})
        label = text("name", name or _("Side event"), max_length=60)
        out = [
            row
            for row in stage_rows(stage)
            if row.player.id not in taken and row.player.status == Player.Status.ACTIVE
        ]
        if not out:
            raise Conflict("stage", _("%(stage)s left nobody out.") % {"stage": where})
        side = Stage(
            tournament=tournament,
            number=next_stage_number(tournament),
            name=label,
            kind=Stage.Kind.SIDE,
            side_of=stage,
            ranking=list(stage.ranking),
            carry_over=Stage.CarryOver.NONE,
        )
        stamp_history_user(side, by).save()
        StageEntry.objects.bulk_create(
            StageEntry(stage=side, player=row.player, seed_rank=row.rank, carried=0) for row in out
        )
        transaction.on_commit(lambda: pages_changed(tournament.slug))
        return side
