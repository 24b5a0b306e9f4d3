"""Reads of the club pages: a club's ranking list, a member's events and rating history."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, Subquery

from scoring.ratings import Rating
from tournaments.models import Club, Member, Player, Tournament
from tournaments.permissions import User, can_view

from ..models import RatingChange, Standings


@dataclass(frozen=True)
class RatedMember:
    rank: int
    member: Member
    shown: int
    games: int


def club_ranking(club: Club) -> list[RatedMember]:
    """The club's rated members, best shown rating first (a shared rating shares a rank).
    One query whatever the size: each member with their newest rating and games rated."""
    newest = RatingChange.objects.filter(member=OuterRef("pk")).order_by("-position")
    members = (
        Member.objects.filter(club=club)
        .annotate(
            mu=Subquery(newest.values("mu")[:1]),
            sigma=Subquery(newest.values("sigma")[:1]),
            games=Count("rating_changes"),
        )
        .filter(mu__isnull=False)
    )
    rated = sorted(
        ((Rating(m.mu, m.sigma).shown, m) for m in members),
        key=lambda x: (-x[0], x[1].name, x[1].pk),
    )
    ranked: list[RatedMember] = []
    for place, (shown, member) in enumerate(rated, start=1):
        same = ranked and ranked[-1].shown == shown
        ranked.append(RatedMember(ranked[-1].rank if same else place, member, shown, member.games))
    return ranked


@dataclass(frozen=True)
class MemberEvent:
    tournament: Tournament
    player: Player
    rank: int | None  # None: no standings yet, or withdrawn
    score: int | None


def member_events(member: Member, user: User) -> list[MemberEvent]:
    """The tournaments the member played (that the user may see), newest first, with
    their rank and score from each tournament's newest standings. Three queries."""
    players = list(
        Player.objects.filter(member=member)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "-tournament_id")
    )
    players = [p for p in players if can_view(user, p.tournament)]
    newest = Standings.objects.filter(tournament=OuterRef("tournament")).order_by(
        "-computed_version"
    )
    snapshot_ids = (
        Player.objects.filter(pk__in=[p.pk for p in players])
        .annotate(snapshot=Subquery(newest.values("pk")[:1]))
        .values_list("snapshot", flat=True)
    )
    rows = dict(
        Standings.objects.filter(pk__in=list(snapshot_ids)).values_list("tournament", "rows")
    )
    events = []
    for player in players:
        row = next(
            (r for r in rows.get(player.tournament_id, []) if r["player"]["id"] == player.pk), None
        )
        active = row is not None and row["player"].get("status") != Player.Status.WITHDRAWN
        events.append(
            MemberEvent(
                player.tournament,
                player,
                row["rank"] if row is not None and active else None,
                row["metrics"].get("score") if row else None,
            )
        )
    return events


def member_rating_history(member: Member) -> list[RatingChange]:
    return list(
        member.rating_changes.select_related("game__table__round__tournament").order_by("position")
    )
