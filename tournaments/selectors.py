"""Reads that several views and services share: tournaments and players as a user may see
them, who is present for a round (check-in, `tournaments.services.checkin`), a player's
namesakes, the invitations addressed to an account, the players whose name matches one
club member, the next stage's number.

Visibility follows `tournaments.permissions.can_view`: a private tournament does not
exist for someone without a role in it. The staff list and the invitations are the
organisers' only (`require`, as a write would ask).

Terms:
* history entry — one change of a player as the organiser's edit page lists it: when,
  who (the history's user; nobody for an import made without one), and each field that
  changed with its value before and after (a registration lists the values it began with).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Max, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from .invitation_tokens import invitation_token
from .models import (
    Absence,
    Club,
    ClubOrganiser,
    Division,
    Member,
    Person,
    Player,
    StaffInvitation,
    StaffMember,
    Stage,
    Tournament,
    Webhook,
    WebhookDelivery,
)
from .people import user_display_name
from .permissions import User, require, require_club


def tournaments_visible_to(user: User) -> QuerySet[Tournament]:
    qs = Tournament.objects.all()
    if user.is_authenticated and getattr(user, "is_superuser", False):
        return qs
    if user.is_authenticated:
        # A table link's user sees its tournament (only while the link lasts: afterwards
        # the session no longer signs it in, `tournaments.backends`).
        return (
            qs.filter(public=True) | qs.filter(staff__user=user) | qs.filter(table_links__user=user)
        ).distinct()
    return qs.filter(public=True)


def active_players(tournament: Tournament) -> QuerySet[Player]:
    return tournament.players.filter(status=Player.Status.ACTIVE)


def players_to_seat(tournament: Tournament, round_number: int) -> QuerySet[Player]:
    """The players a round seats: the active ones not marked absent for it."""
    absent = Absence.objects.filter(tournament=tournament, round_number=round_number)
    return active_players(tournament).exclude(pk__in=absent.values("player_id"))


def current_stage(tournament: Tournament) -> Stage | None:
    """The stage a round opened now belongs to: the first stage not closed (None for a
    tournament without stages, or once every stage is closed)."""
    return (
        tournament.stages.exclude(status=Stage.Status.CLOSED)
        .exclude(kind=Stage.Kind.SIDE)
        .order_by("number")
        .first()
    )


def open_stages(tournament: Tournament) -> list[Stage]:
    """The stages a round opened now may belong to, in order (two or more: the round
    must say which): every main stage not closed whose source is closed (stage 1: none,
    so it is open until closed) — several stages fed by one source run in parallel —
    and every side event not closed."""
    stages = list(tournament.stages.order_by("number"))
    by_pk = {s.pk: s for s in stages}
    open_now = []
    for stage in stages:
        if stage.status == Stage.Status.CLOSED:
            continue
        source = source_of(stage, stages, by_pk)
        if stage.is_side or source is None or source.status == Stage.Status.CLOSED:
            open_now.append(stage)
    return open_now


def source_of(
    stage: Stage, stages: list[Stage], by_pk: dict[int, Stage] | None = None
) -> Stage | None:
    """The stage `stage` takes its entrants from (`scoring.stage_graph`): its `source`,
    else the main stage before it; None for stage 1 and side events. `stages`: the
    tournament's stages in number order (read once by the caller)."""
    if stage.is_side or stage.number == 1:
        return None
    if stage.source_id is not None:
        by_pk = by_pk or {s.pk: s for s in stages}
        return by_pk.get(stage.source_id)
    earlier = [s for s in stages if s.number < stage.number and not s.is_side]
    return earlier[-1] if earlier else None


def feeds_of(stage: Stage, stages: list[Stage] | None = None) -> list[Stage]:
    """The main stages that take their entrants from `stage`, in number order."""
    if stage.is_side:
        return []
    stages = stages if stages is not None else list(stage.tournament.stages.order_by("number"))
    by_pk = {s.pk: s for s in stages}
    return [
        s
        for s in stages
        if not s.is_side and s.number > stage.number and _is(source_of(s, stages, by_pk), stage)
    ]


def _is(a: Stage | None, b: Stage) -> bool:
    return a is not None and a.pk == b.pk


def stages_of(tournament: Tournament) -> list[Stage]:
    return list(
        tournament.stages.select_related("division", "side_of", "source").order_by("number")
    )


def divisions_list(tournament: Tournament) -> list[Division]:
    """The tournament's divisions in their order (one query)."""
    return list(tournament.divisions.order_by("order", "name", "id"))


def division_named(tournament: Tournament, slug: str | None) -> Division | None:
    """The tournament's division with this slug (any case), or None."""
    if not slug:
        return None
    return tournament.divisions.filter(slug=slug.strip().lower()).first()


def division_members(division: Division) -> set[int]:
    """The ids of a division's players (one query)."""
    return set(division.players.values_list("pk", flat=True))


def next_round_number(tournament: Tournament) -> int:
    """The number the next round opened gets."""
    return (tournament.rounds.aggregate(top=Max("number"))["top"] or 0) + 1


@dataclass(frozen=True)
class CheckIn:
    """One active player's check-in for a round."""

    player: Player
    present: bool


def checkin_list(tournament: Tournament, round_number: int) -> list[CheckIn]:
    """Every active player by start number, present or not for round `round_number`
    (two queries, whatever the field)."""
    absent = set(
        Absence.objects.filter(tournament=tournament, round_number=round_number).values_list(
            "player_id", flat=True
        )
    )
    return [
        CheckIn(player, player.pk not in absent)
        for player in active_players(tournament).order_by("number")
    ]


def staff_of(tournament: Tournament, by: User) -> QuerySet[StaffMember]:
    """The tournament's staff, organisers first, for an organiser."""
    require(by, tournament, "organise")
    return tournament.staff.select_related("user").order_by("role", "user__username")


def invitations_of(tournament: Tournament, by: User) -> QuerySet[StaffInvitation]:
    """The tournament's invitations, newest first, with who made and used them."""
    require(by, tournament, "organise")
    return tournament.staff_invitations.select_related("created_by", "used_by")


# The fields of a player the edit page's history shows, with their labels.
# The labels are lazy: translated when the page shows them, in the reader's language.
PLAYER_HISTORY_FIELDS = {
    "number": gettext_lazy("Start number"),
    "name": gettext_lazy("Name"),
    "club": gettext_lazy("Club"),
    "rating": gettext_lazy("Rating"),
    "status": gettext_lazy("Status"),
    "member": gettext_lazy("Club member"),
}


@dataclass(frozen=True)
class HistoryEntry:
    at: datetime
    by: str | None  # a display name (`tournaments.people`)
    kind: str  # "registered", "changed" or "deleted"
    changes: list[tuple[str, Any, Any]]  # (label, before, after)


def player_history(player: Player) -> list[HistoryEntry]:
    """Every change of the player, newest first: one query (the linked members joined),
    diffs taken here."""
    return _history(player.history, PLAYER_HISTORY_FIELDS, "registered", related=("member",))


# The fields of a member the member edit page's history shows, with their labels.
MEMBER_HISTORY_FIELDS = {
    "name": gettext_lazy("Name"),
    "code": gettext_lazy("Membership code"),
    "joined_on": gettext_lazy("Joined on"),
}


def member_history(member: Member) -> list[HistoryEntry]:
    """Every change of the club member, newest first: one query."""
    return _history(member.history, MEMBER_HISTORY_FIELDS, "added")


def choice_shown(model: Any, field: str, value: Any) -> Any:
    """A stored value as a person reads it: a choice field's label ("withdrawn" as
    "Withdrawn", in the reader's language: the label stays lazy until shown), anything
    else as it is. A value no longer among the choices is shown as stored."""
    if value is None:
        return None
    choices = getattr(model._meta.get_field(field), "flatchoices", None)
    if not choices:
        return value
    return dict(choices).get(value, value)


def _history(
    history: Any, fields: dict[str, Any], created: str, related: tuple[str, ...] = ()
) -> list[HistoryEntry]:
    records = list(
        history.select_related("history_user", *related).order_by("history_date", "history_id")
    )
    entries: list[HistoryEntry] = []
    previous = None
    for record in records:
        changes = [
            (
                label,
                choice_shown(history.model, field, getattr(previous, field, None)),
                choice_shown(history.model, field, getattr(record, field)),
            )
            for field, label in fields.items()
            if previous is None or getattr(previous, field) != getattr(record, field)
        ]
        kind = {"+": created, "-": "deleted"}.get(record.history_type, "changed")
        if changes or kind != "changed":
            user = record.history_user
            entries.append(
                HistoryEntry(record.history_date, user and user_display_name(user), kind, changes)
            )
        previous = record
    return entries[::-1]


def webhooks_of(tournament: Tournament, by: User) -> QuerySet[Webhook]:
    """The tournament's hooks, oldest first, for an organiser."""
    require(by, tournament, "organise")
    return tournament.webhooks.order_by("created_at", "id")


# The newest deliveries a hook's log shows.
DELIVERY_LOG_LENGTH = 50


def webhook_deliveries(webhook: Webhook, by: User) -> list[WebhookDelivery]:
    """A hook's delivery log, newest first (the last `DELIVERY_LOG_LENGTH`)."""
    require(by, webhook.tournament, "organise")
    return list(webhook.deliveries.order_by("-created_at", "-id")[:DELIVERY_LOG_LENGTH])


# The newest deliveries the Webhooks page shows under each hook.
DELIVERIES_ON_PAGE = 10


def webhooks_with_log(tournament: Tournament, by: User) -> list[Webhook]:
    """The hooks with their newest deliveries (`recent`), in two queries."""
    recent = Prefetch(
        "deliveries",
        queryset=WebhookDelivery.objects.order_by("-created_at", "-id")[:DELIVERIES_ON_PAGE],
        to_attr="recent",
    )
    return list(webhooks_of(tournament, by).select_related("created_by").prefetch_related(recent))


def clubs_run_by(user: User) -> QuerySet[Club]:
    """The clubs the user organises (a superuser: every club), by name."""
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.order_by("name")
    return Club.objects.filter(organisers__user=user).order_by("name")


def clubs_listed() -> QuerySet[Club]:
    """Every club, by name (a club's page is public, so is the list)."""
    return Club.objects.order_by("name", "pk")


def club_organisers_of(club: Club, by: User) -> QuerySet[ClubOrganiser]:
    """The club's organisers, by username, for the club's organisers (as its page)."""
    require_club(by, club)
    return club.organisers.select_related("user").order_by("user__username")


def invitations_for(user: User) -> list[StaffInvitation]:
    """The open invitations addressed to this (signed-in, active) account, each with its
    `token` for the link, newest first."""
    if not user.is_authenticated or not user.is_active:
        return []
    rows = StaffInvitation.objects.select_related("tournament").filter(
        username=user.get_username(),
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    )
    for invitation in rows:
        invitation.token = invitation_token(invitation)
    return list(rows)


def invitation_is_for(invitation: StaffInvitation, user: User) -> bool:
    """Whether `user` is the account an addressed invitation names."""
    return bool(
        user.is_authenticated and user.is_active and user.get_username() == invitation.username
    )


def same_name(player: Player) -> list[Player]:
    """The other players of the tournament with this player's name (case and surrounding
    spaces aside), by start number: worth a warning, as it is often a double entry."""
    return list(
        player.tournament.players.filter(name__iexact=player.name.strip())
        .exclude(pk=player.pk)
        .order_by("number")
    )


def name_matches(tournament: Tournament) -> list[tuple[Player, Member]]:
    """Unlinked players whose name is the name of exactly one unlinked club member."""
    if tournament.club_id is None:
        return []
    linked = set(tournament.players.exclude(member=None).values_list("member_id", flat=True))
    by_name: dict[str, list[Member]] = {}
    for member in Member.objects.filter(club_id=tournament.club_id).exclude(pk__in=linked):
        by_name.setdefault(member.name.strip().casefold(), []).append(member)
    matches = []
    for player in tournament.players.filter(member=None).order_by("number"):
        found = by_name.get(player.name.strip().casefold(), [])
        if len(found) == 1:
            matches.append((player, found[0]))
    return matches


def next_stage_number(tournament: Tournament) -> int:
    """The number the next stage added (main or side) gets."""
    last = tournament.stages.order_by("-number").first()
    return (last.number if last else 0) + 1


# People (`tournaments.models.people`): finding an existing person to link when
# registering a player. A search answers every reader the same people; what is shown of
# each is the caller's (the privacy rule).
PEOPLE_SEARCH_LIMIT = 20


def people_found(query: str) -> QuerySet[Person]:
    """People whose name contains `query` (any case) or whose federation id is `query`,
    merged duplicates left out, by name; at most `PEOPLE_SEARCH_LIMIT` (a registration
    desk types a few letters more)."""
    query = query.strip()
    people = Person.objects.filter(merged_into__isnull=True).prefetch_related("memberships__club")
    if not query:
        return people.none()
    return people.filter(Q(name__icontains=query) | Q(federation_id=query)).order_by("name", "pk")[
        :PEOPLE_SEARCH_LIMIT
    ]
