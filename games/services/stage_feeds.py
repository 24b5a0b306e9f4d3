"""The stage graph at play: who each stage fed by a closing stage takes, and the
entrants of a stage named by hand (`scoring.stage_graph` holds the rules).

Terms (`scoring.stage_graph`): source, feed, entry rule, carry rounding.

* feeds of a stage — the main stages whose source it is (`tournaments.selectors.feeds_of`);
  closing the stage (`games.services.stages.stage_close`) commits every feed's entry list
  at once, each by its own entry rule, carry-over and rounding.
* by table — the tables of the source's last round (one query), ordered by the source's
  standings.
* by hand (`entry` manual) — nobody enters at the close; the organiser names the entrants
  (`games.services.stage_entrants`) while the stage is upcoming and its source is closed.

Rules decided here (the rules are silent; docs/rules/decisions.md, "Stages as a graph"):
* The lot that parts shared ranks is the source's ("<tournament id>:<slug>:stage<n>"),
  so the preview and the commit draw the same one for every feed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.i18n import isolate
from scoring.stage_graph import Feed, FeedResult, carry, feed
from scoring.stages import Ranked
from tournaments.models import Division, Player, Round, Stage, StageEntry
from tournaments.selectors import division_members

from ..models import Seat
from .gaps import stage_rounds_q

# A stage's standings rows (`games.services.stages.StageRow`: rank, player, metrics), typed
# loosely here: that module reads the feeds through this one, never the other way.
StageRow = Any


@dataclass(frozen=True)
class FeedPreview:
    """One stage fed by the closing stage: who it takes, the score each carries."""

    stage: Stage
    result: FeedResult
    carried: dict[int, int] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)

    @property
    def entrants(self) -> list[Player]:
        return [self.players[p] for p in self.result.entrants]

    @property
    def words(self) -> str:
        """The entry rule and carry-over in words: "places 9 to 16, carry-over half"."""
        return _("{entry}, {carry}").format(
            entry=entry_words(self.stage), carry=carry_words(self.stage)
        )

    @property
    def tie(self) -> str:
        tie = self.result.tie
        if tie is None:
            return ""
        names = ", ".join(
            f"{isolate(self.players[p].name)} (#{self.players[p].number})" for p in tie.players
        )
        return _("{tie}: {players}").format(tie=tie.sentence(), players=names)


def lot_seed(stage: Stage) -> str:
    tournament = stage.tournament
    return f"{tournament.pk}:{tournament.slug}:stage{stage.number}"


def _as_feed(stage: Stage) -> Feed:
    # A division_id proves the division is there (cast: no query to check it).
    division = cast(Division, stage.division) if stage.division_id else None
    members = frozenset(division_members(division)) if division is not None else None
    return Feed(
        key=stage.number,
        rule=stage.entry or ("top" if stage.cut_top is not None else "min_score"),  # type: ignore[arg-type]
        top=stage.cut_top,
        min_score=stage.cut_min_score,
        first=stage.rank_from,
        last=stage.rank_to,
        per_table=stage.table_top,
        best_losers=stage.best_losers,
        ties=stage.cut_ties,  # type: ignore[arg-type]
        members=members,
    )


def last_round_tables(stage: Stage) -> list[list[int]]:
    """The tables of `stage`'s last round, players in seat order (one query each)."""
    last = (
        Round.objects.filter(stage_rounds_q(stage), tournament_id=stage.tournament_id)
        .order_by("-number")
        .first()
    )
    if last is None:
        return []
    tables: dict[int, list[int]] = {}
    for table, player in (
        Seat.objects.filter(round=last)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables.setdefault(table, []).append(player)
    return list(tables.values())


def feed_previews(stage: Stage, rows: Sequence[StageRow], feeds: list[Stage]) -> list[FeedPreview]:
    """What closing `stage` gives each of its `feeds`, from its standings `rows`."""
    ranked = [
        Ranked(r.player.id, r.rank, r.metrics["score"])
        for r in rows
        if r.player.status == Player.Status.ACTIVE
    ]
    needs_tables = any(f.entry == Stage.Entry.TABLES for f in feeds)
    results = feed(
        ranked,
        [_as_feed(f) for f in feeds],
        tables=last_round_tables(stage) if needs_tables else (),
        lot_seed=lot_seed(stage),
    )
    scores = {r.player.id: r.metrics["score"] for r in rows}
    players = {r.player.id: r.player for r in rows}
    return [
        FeedPreview(
            target,
            result,
            {
                p: carry(scores[p], target.carry_over, target.carry_rounding)  # type: ignore[arg-type]
                for p in result.entrants
            },
            players,
        )
        for target, result in zip(feeds, results, strict=True)
    ]


def commit_feeds(previews: Sequence[FeedPreview], rows: Sequence[StageRow]) -> None:
    """Store every feed's entry list (seeds: the ranks in the source's standings)."""
    ranks = {r.player.id: r.rank for r in rows}
    StageEntry.objects.bulk_create(
        StageEntry(
            stage=p.stage, player_id=player, seed_rank=ranks[player], carried=p.carried[player]
        )
        for p in previews
        for player in p.result.entrants
    )


def entry_words(stage: Stage) -> str:
    """A stage's entry rule in words, as the pages say it."""
    entry = stage.entry
    if entry == Stage.Entry.RANKS:
        return _("places {first} to {last}").format(first=stage.rank_from, last=stage.rank_to)
    if entry == Stage.Entry.TABLES:
        words = ngettext(
            "the top {count} of each table", "the top {count} of each table", stage.table_top or 1
        ).format(count=stage.table_top)
        if stage.best_losers:
            words += " " + ngettext(
                "and the best loser", "and the {count} best losers", stage.best_losers
            ).format(count=stage.best_losers)
        return words
    if entry == Stage.Entry.DIVISION:
        return _("every player of {division}").format(
            division=stage.division.name if stage.division else ""
        )
    if entry == Stage.Entry.MANUAL:
        return _("named by hand")
    if stage.cut_min_score is not None:
        return _("{score} points or more").format(score=stage.cut_min_score)
    return _("top {top}").format(top=stage.cut_top)


def carry_words(stage: Stage) -> str:
    if stage.carry_over == Stage.CarryOver.ALL:
        return _("carry-over all")
    if stage.carry_over == Stage.CarryOver.HALF:
        if stage.carry_rounding == Stage.CarryRounding.HALF_UP:
            return _("carry-over half, rounded up")
        return _("carry-over half")
    return _("carry-over none")
