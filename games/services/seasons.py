"""Season standings: a season's members totalled over its tournaments (`scoring.seasons`),
stored as a snapshot per `Season.version` by a background job, like tournament standings.

Terms (see `tournaments.models` and `scoring.seasons`): season, member, event, finish.

* finish — read from each tournament's newest standings snapshot: the rank and score of
  every active player linked to a member. Players not linked to a member, and withdrawn
  players, are not part of the season (**decision**: a withdrawal is not a finish).
* event order — the season's tournaments by date (then by id), which is the order
  "best N of M" and the page list them in.
* best N games (rule `best_games`) — each member's game scores are read from the confirmed
  results of the season's events (one query): net scores after sanctions, a game a
  substitute played for them and a forfeited seat left out (**decision**: neither is a
  game the member played).
"""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Subquery

from scoring.seasons import Finish, SeasonRule, check_rule, season_standings
from tournaments.models import Member, Player, Season, Tournament

from ..models import RackEntry, Result, SeasonStandings, Standings


def _rule(season: Season) -> SeasonRule:
    return check_rule({k: v for k, v in season.rule.items() if v is not None})


def season_events(season: Season) -> list[Tournament]:
    return list(season.tournaments.order_by("starts_on", "pk"))


def season_recompute(*, season_id: int) -> SeasonStandings | None:
    """The snapshot of the season's current version (stored now if it is not yet)."""
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        return None
    version = season.version
    existing = SeasonStandings.objects.filter(season=season, computed_version=version).first()
    if existing is not None:
        return existing
    events = season_events(season)
    newest = Standings.objects.filter(tournament=OuterRef("pk")).order_by("-computed_version")
    snapshots = dict(
        Tournament.objects.filter(pk__in=[t.pk for t in events])
        .annotate(snapshot=Subquery(newest.values("pk")[:1]))
        .values_list("pk", "snapshot")
    )
    rows_of = dict(
        Standings.objects.filter(pk__in=[s for s in snapshots.values() if s]).values_list(
            "tournament_id", "rows"
        )
    )
    member_of = dict(
        Player.objects.filter(tournament__in=events, member__isnull=False).values_list(
            "pk", "member_id"
        )
    )
    rule = _rule(season)
    games = _game_scores(member_of) if rule.rule == "best_games" else {}
    finishes = [_finishes(rows_of.get(t.pk, []), member_of, games) for t in events]
    ranked = season_standings(finishes, rule)
    names = dict(Member.objects.filter(club=season.club_id).values_list("pk", "name"))
    stored = [
        {
            "rank": row.rank,
            "member": {"id": row.member, "name": names.get(row.member, "")},
            "total": row.total,
            "events": row.events,
            "contributions": [
                {"event": events[c.event].slug, "value": c.value, "counted": c.counted}
                for c in row.contributions
            ],
        }
        for row in ranked
    ]
    SeasonStandings.objects.bulk_create(
        [SeasonStandings(season=season, computed_version=version, rows=stored)],
        ignore_conflicts=True,
    )
    SeasonStandings.objects.filter(season=season, computed_version__lt=version).delete()
    return SeasonStandings.objects.get(season=season, computed_version=version)


def _finishes(
    rows: list[dict[str, Any]], member_of: dict[int, int], games: dict[int, list[int]]
) -> list[Finish]:
    finishes = []
    for row in rows:
        player = row["player"]["id"]
        member = member_of.get(player)
        if member is None or row["player"].get("status") == Player.Status.WITHDRAWN:
            continue
        finishes.append(
            Finish(
                member, row["rank"], row["metrics"].get("score", 0), tuple(games.get(player, ()))
            )
        )
    return finishes


def _game_scores(member_of: dict[int, int]) -> dict[int, list[int]]:
    """Each member-linked player's game scores, in round, table and game order."""
    games: dict[int, list[int]] = {}
    for player, score in (
        RackEntry.objects.scored()
        .filter(
            player_id__in=list(member_of),
            result__status=Result.Status.CONFIRMED,
            substitute="",
            forfeit=False,
        )
        .order_by(
            "result__game__table__round__number",
            "result__game__table__number",
            "result__game__number",
        )
        .values_list("player_id", "net_score")
    ):
        games.setdefault(player, []).append(score)
    return games


def season_for_read(season: Season) -> SeasonStandings:
    """The season's snapshot at its current version: computed here when it is missing (a
    season is a few dozen tournaments' snapshots, cheap to total)."""
    snapshot = season.standings.order_by("-computed_version").first()
    if snapshot is not None and snapshot.computed_version >= season.version:
        return snapshot
    fresh = season_recompute(season_id=season.pk)
    assert fresh is not None
    return fresh
