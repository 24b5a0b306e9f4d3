"""Writes for clubs, their members and seasons, and for holding a tournament under a club
— each one transaction, refused first to anyone who may not do it.

Terms (see `tournaments.models`): club, club organiser, member, season, rated.

* link — a tournament's player linked to a club member: the same person across the
  club's tournaments. A player may be linked only to a member of the tournament's club,
  and a member to at most one player of a tournament (a database constraint).
* members CSV — columns `name`, `code`, `joined_on` (YYYY-MM-DD), a header row first,
  delimiter `,` `;` or tab (`tournaments.csv_files`). Imported whole or not at all; every
  error names its line and column.
* name match — an unlinked player whose name is, ignoring case and surrounding spaces,
  the name of exactly one member of the club. Matches are proposed, never linked
  silently: the organiser confirms them (`players_link_matches`).

Linking, unlinking or moving a tournament into a season changes what the season totals
and ratings read, so these count as a change of the tournament's results
(`results_changed`): its standings, then its season and ratings, follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from scoring.errors import RuleError, RuleErrors, raise_all
from scoring.seasons import check_rule

from ..csv_files import DELIMITERS, RowError, read_csv_table, row_error, too_many_cells
from ..events import results_changed, season_changed
from ..models import Club, ClubOrganiser, Member, Player, Season, Tournament
from ..permissions import User, require, require_club
from ..selectors import name_matches
from .validation import collect, max_length_of, stamp_history_user, text


def _slug_for(model: Any, name: str, **scope: Any) -> str:
    base = slugify(name)[: max_length_of(model, "slug") - 10] or model.__name__.lower()
    slug, n = base, 2
    while model.objects.filter(slug=slug, **scope).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def club_create(*, by: User, name: str) -> Club:
    """A new club, run by the signed-in user who creates it."""
    if not by.is_authenticated:
        raise PermissionDenied(_("Sign in to create a club."))
    name = text("name", name, max_length=max_length_of(Club, "name"))
    club = stamp_history_user(Club(slug=_slug_for(Club, name), name=name), by)
    club.save()
    ClubOrganiser.objects.create(club=club, user=by)
    return club


@transaction.atomic
def club_organiser_add(*, club: Club, by: User, username: str) -> ClubOrganiser:
    require_club(by, club)
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise RuleError("username", _("no user can be added under that name."))
    if ClubOrganiser.objects.filter(club=club, user=user).exists():
        raise RuleError(
            "username",
            _("%(username)s already organises %(club)s.")
            % {"username": username, "club": club.name},
        )
    return ClubOrganiser.objects.create(club=club, user=user)


def _member_fields(club: Club, values: Mapping[str, Any], member: Member | None) -> dict:
    errors: list[RuleError] = []
    fields: dict[str, Any] = {}
    if "name" in values:
        fields["name"] = collect(
            errors, text, "name", values["name"], max_length=max_length_of(Member, "name")
        )
    if "code" in values:
        code = collect(
            errors,
            text,
            "code",
            values["code"],
            max_length=max_length_of(Member, "code"),
            required=False,
        )
        taken = Member.objects.filter(club=club, code=code)
        if member is not None:
            taken = taken.exclude(pk=member.pk)
        if code and taken.exists():
            errors.append(
                RuleError(
                    "code",
                    _("membership number %(code)s is taken in %(club)s.")
                    % {"code": code, "club": club.name},
                )
            )
        fields["code"] = code
    if "joined_on" in values:
        joined = values["joined_on"]
        if joined is not None and not isinstance(joined, date):
            errors.append(RuleError("joined_on", _("must be a date (YYYY-MM-DD).")))
        fields["joined_on"] = joined
    raise_all(errors)
    return fields


@transaction.atomic
def member_create(
    *, club: Club, by: User, name: str, code: str = "", joined_on: date | None = None
) -> Member:
    require_club(by, club)
    fields = _member_fields(club, {"name": name, "code": code, "joined_on": joined_on}, None)
    member = stamp_history_user(Member(club=club, **fields), by)
    member.save()
    return member


@transaction.atomic
def member_update(*, member: Member, by: User, **changes: Any) -> Member:
    require_club(by, member.club)
    unknown = set(changes) - {"name", "code", "joined_on"}
    if unknown:
        raise RuleError(sorted(unknown)[0], _("cannot be changed here."))
    for field, value in _member_fields(member.club, changes, member).items():
        setattr(member, field, value)
    stamp_history_user(member, by).save()
    return member


MEMBER_CSV_COLUMNS = ("name", "code", "joined_on")


@dataclass(frozen=True)
class MembersImport:
    """What an import added, and the delimiter it read the file with."""

    members: list[Member]
    delimiter: str

    @property
    def delimiter_name(self) -> str:
        return DELIMITERS[self.delimiter]


def _member_row(club: Club, line: int, header: list[str], cells: list[str]) -> dict[str, Any]:
    """One row of a members CSV, checked against the club as stored; errors name the line
    and the column."""
    if len(cells) > len(header):
        raise too_many_cells(line, len(cells), len(header))
    values: dict[str, Any] = dict(zip(header, (c.strip() for c in cells), strict=False))
    joined = values.get("joined_on") or None
    if joined is not None:
        try:
            values["joined_on"] = date.fromisoformat(joined)
        except ValueError:
            raise RowError(
                line,
                _("line %(line)s: joined_on '%(value)s' must be a date (YYYY-MM-DD).")
                % {"line": line, "value": joined},
            ) from None
    else:
        values["joined_on"] = None
    try:
        return _member_fields(club, values, None)
    except RuleError as error:
        raise RuleErrors(row_error(line, e) for e in error.flatten()) from None


@transaction.atomic
def members_import_csv(*, club: Club, by: User, data: bytes | str) -> MembersImport:
    """Add every row of a members CSV to the club — all rows or none."""
    require_club(by, club)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one import at a time
    table = read_csv_table(data, columns=MEMBER_CSV_COLUMNS, rows="member rows")
    rows: list[dict[str, Any]] = []
    errors: list[RuleError] = []
    codes: dict[str, int] = {}
    for line, cells in table.lines:
        row = collect(errors, _member_row, club, line, table.header, cells)
        if row is None:
            continue
        code = row.get("code")
        if code and code in codes:
            errors.append(
                RowError(
                    line,
                    _("line %(line)s: code %(code)s is on line %(first)s too.")
                    % {"line": line, "code": code, "first": codes[code]},
                )
            )
        elif code:
            codes[code] = line
        rows.append(row)
    if not rows and not errors:
        errors.append(RuleError("file", _("has no member rows.")))
    raise_all(errors)
    members = bulk_create_with_history(
        [stamp_history_user(Member(club=club, **row), by) for row in rows], Member
    )
    return MembersImport(members=members, delimiter=table.delimiter)


def member_link_check(
    tournament: Tournament, member: Member | None, player: Player | None = None
) -> None:
    """The linking rule (see "link" above), for `player` of `tournament` or, with no
    player, for one about to be registered: a RuleError on `member` when it does not
    hold. Registration, the player's changes, the links page and the CSV's `member`
    column all refuse the same things."""
    if member is None:
        return
    if tournament.club_id is None:
        raise RuleError(
            "member",
            _("%(tournament)s is not held under a club.") % {"tournament": tournament.name},
        )
    if member.club_id != tournament.club_id:
        raise RuleError(
            "member",
            _("%(member)s is not a member of this tournament's club.") % {"member": member.name},
        )
    others = tournament.players.filter(member=member)
    other = (others.exclude(pk=player.pk) if player else others).first()
    if other is not None:
        raise RuleError(
            "member",
            _("%(member)s is already %(player)s (#%(number)s).")
            % {"member": member.name, "player": other.name, "number": other.number},
        )


def club_member(tournament: Tournament, member_id: object) -> Member | None:
    """The member of the tournament's club with id `member_id` (None, or blank: no member).
    A RuleError on `member` when it is not a whole number, or no such member of its club
    exists (a member of another club is "no such member" too: ids of other clubs' members
    are not confirmed to a stranger)."""
    if member_id is None or member_id == "":
        return None
    if isinstance(member_id, bool) or not isinstance(member_id, int):
        raise RuleError("member", _("must be a member's id (a whole number)."))
    if tournament.club_id is None:
        raise RuleError(
            "member",
            _("%(tournament)s is not held under a club.") % {"tournament": tournament.name},
        )
    member = Member.objects.filter(pk=member_id, club_id=tournament.club_id).first()
    if member is None:
        raise RuleError(
            "member",
            _("no member of %(club)s has the id %(id)s.")
            % {"club": cast(Club, tournament.club).name, "id": member_id},  # club_id is set
        )
    return member


@transaction.atomic
def player_link(*, player: Player, by: User, member: Member | None) -> Player:
    """Link a player to a club member (or unlink, with None)."""
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    require(by, tournament, "organise")
    player.tournament = tournament
    member_link_check(tournament, member, player)
    player.member = member
    stamp_history_user(player, by).save(update_fields=["member"])
    results_changed(tournament)
    return player


@transaction.atomic
def players_link_matches(
    *, tournament: Tournament, by: User, player_ids: Iterable[int]
) -> list[Player]:
    """Confirm the proposed name matches of the players chosen; other matches stay open."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(by, tournament, "organise")
    chosen = set(player_ids)
    linked = []
    for player, member in name_matches(tournament):
        if player.pk in chosen:
            player.member = member
            stamp_history_user(player, by).save(update_fields=["member"])
            linked.append(player)
    if linked:
        results_changed(tournament)
    return linked


@transaction.atomic
def season_create(*, club: Club, by: User, name: str, rule: Mapping[str, Any]) -> Season:
    require_club(by, club)
    errors: list[RuleError] = []
    name = collect(errors, text, "name", name, max_length=max_length_of(Season, "name"))
    if not isinstance(rule, Mapping):
        errors.append(RuleError("rule", _("must be an object: rule, best, place_points, cap.")))
    else:
        collect(errors, check_rule, rule)
    raise_all(errors)
    checked = check_rule(rule)
    stored = {
        "rule": checked.rule,
        "best": checked.best,
        "place_points": list(checked.place_points),
        "cap": checked.cap,
    }
    season = Season(club=club, slug=_slug_for(Season, name, club=club), name=name, rule=stored)
    stamp_history_user(season, by).save()
    return season


@transaction.atomic
def tournament_hold_under(
    *,
    tournament: Tournament,
    by: User,
    club: Club | None,
    season: Season | None = None,
    rated: bool = False,
) -> Tournament:
    """Hold a tournament under a club (in one of its seasons, rated or not), or under no
    club. Needs both the tournament's and the club's organisers' say: an organiser of
    one club cannot place a tournament in another's season or take it away."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(by, tournament, "organise")
    for owner in {club, tournament.club}:
        if owner is not None:
            require_club(by, owner)
    if season is not None and (club is None or season.club_id != club.pk):
        raise RuleError(
            "season", _("%(season)s is not a season of this club.") % {"season": season.name}
        )
    if not isinstance(rated, bool):
        raise RuleError("rated", _("must be true or false."))
    if club is None and rated:
        raise RuleError("rated", _("only a tournament held under a club can be rated."))
    moving = tournament.club_id != getattr(club, "pk", None)
    if moving and tournament.players.exclude(member=None).exists():
        raise RuleError("club", _("unlink the players from the old club's members first."))
    old_season_id = tournament.season_id
    tournament.club, tournament.season, tournament.rated = club, season, rated
    stamp_history_user(tournament, by).save(update_fields=["club", "season", "rated"])
    results_changed(tournament)
    if old_season_id is not None and old_season_id != getattr(season, "pk", None):
        season_changed(old_season_id)  # the tournament left it: its totals change too
    return tournament
