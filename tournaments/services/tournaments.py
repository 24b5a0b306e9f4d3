"""Writes for tournaments and their staff — each one transaction.

Every function takes keyword arguments only, refuses a person who may not do it
(`require`, first), validates its whole input (a `RuleError` names the field and the
problem, and nothing is saved), then writes. `by` is the user doing it: history rows
record who and when.

Not checked here: the rules of the game themselves (`scoring.rules` resolves and checks
every option) and the standings metrics (`scoring.standings.validate_ranking`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.errors import Conflict, RuleError, raise_all
from scoring.match import MAX_GAMES_CAP
from scoring.qualification import check_slots
from scoring.rules import (
    DEFAULT_PRESET,
    PRESET_RANKING,
    PRESET_TABLE_SIZE,
    overrides_of,
    resolve_rules,
)
from scoring.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.standings import validate_ranking

from ..events import results_changed
from ..lifecycle import transition_error
from ..models import StaffMember, Stage, Tournament
from ..permissions import User, require, signed_in
from .validation import (
    choice,
    collect,
    max_length_of,
    signed_in_or_none,
    stamp_history_user,
    text,
    whole_number_between,
)

MAX_ROUNDS = 100
MAX_GAMES_PER_TABLE = 12  # the database's check constraint says the same
MAX_TARGET_SCORE = 1_000_000
# The settings create and update share, with their bounds.
NUMBER_SETTINGS: dict[str, dict[str, Any]] = {
    "table_size": {"low": MIN_TABLE_SIZE, "high": MAX_TABLE_SIZE, "nullable": False},
    "games_per_table": {"low": 1, "high": MAX_GAMES_PER_TABLE, "nullable": True},
    "rounds_planned": {"low": 1, "high": MAX_ROUNDS, "nullable": True},
    "target_score": {"low": 1, "high": MAX_TARGET_SCORE, "nullable": True},
    "target_games_cap": {"low": 1, "high": MAX_GAMES_CAP, "nullable": True},
}
UPDATABLE = {
    "name",
    "starts_on",
    "status",
    "preset",
    "rules",
    "ranking",
    "table_size",
    "games_per_table",
    "rounds_planned",
    "target_score",
    "target_games_cap",
    "results_need_confirmation",
    "club_avoidance",
    "public",
    "missed_rounds",
    "forfeit_rule",
    "credit_substitute_games",
    "qualify_slots",
    "qualify_event",
    "qualify_stage",
}
# Options that change how the standings count games already played (or, for the
# qualification slots, what the standings rows say).
STANDINGS_OPTIONS = (
    "missed_rounds",
    "credit_substitute_games",
    "qualify_slots",
    "qualify_event",
    "qualify_stage",
)


def _unique_slug(base: str) -> str:
    base = base[: max_length_of(Tournament, "slug") - 10] or "tournament"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _rule_overrides(rules: object) -> Mapping[str, Any]:
    """The `rules` a user sent: an object of option: value pairs (or nothing)."""
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise RuleError("rules", _("must be an object of option: value pairs."))
    return rules


def _settings_errors(values: Mapping[str, Any]) -> list[RuleError]:
    """Check the plain settings shared by create and update; returns what is wrong."""
    errors: list[RuleError] = []
    for field, bounds in NUMBER_SETTINGS.items():
        if field in values:
            collect(errors, whole_number_between, field, values[field], **bounds)
    for field in ("results_need_confirmation", "public", "credit_substitute_games"):
        if field in values and not isinstance(values[field], bool):
            errors.append(RuleError(field, _("must be true or false.")))
    for field, choices in (
        ("club_avoidance", Tournament.ClubAvoidance),
        ("missed_rounds", Tournament.MissedRounds),
        ("forfeit_rule", Tournament.ForfeitRule),
    ):
        if field in values:
            collect(errors, choice, field, values[field], choices)
    starts_on = values.get("starts_on")
    if starts_on is not None and not isinstance(starts_on, date):
        errors.append(RuleError("starts_on", _("must be a date (YYYY-MM-DD).")))
    return errors


def _qualification_errors(tournament: Tournament, changes: dict[str, Any]) -> list[RuleError]:
    """Check the qualification slots and their event (cleaned in `changes`): slots name
    the event they lead to, and an event without slots is none (the database says so too)."""
    errors: list[RuleError] = []
    if "qualify_stage" in changes:
        changes["qualify_stage"] = collect(
            errors, _qualify_stage, tournament, changes["qualify_stage"]
        )
    if "qualify_slots" in changes:
        changes["qualify_slots"] = collect(errors, check_slots, changes["qualify_slots"])
    if "qualify_event" in changes:
        changes["qualify_event"] = collect(
            errors,
            text,
            "qualify_event",
            changes["qualify_event"],
            max_length=max_length_of(Tournament, "qualify_event"),
            required=False,
        )
    if errors or not {"qualify_slots", "qualify_event"} & set(changes):
        return errors
    slots = changes.get("qualify_slots", tournament.qualify_slots)
    event = changes.get("qualify_event", tournament.qualify_event)
    if slots is not None and not event:
        errors.append(RuleError("qualify_event", _("name the event the slots qualify for.")))
    elif slots is None and event:
        errors.append(RuleError("qualify_slots", _("give the number of slots for the event.")))
    return errors


def _qualify_stage(tournament: Tournament, value: object) -> Any:
    """The stage whose order the slots follow, by its number (None: the standings)."""
    if value is None or value == "":
        return None
    if isinstance(value, Stage):
        return value
    number = whole_number_between("qualify_stage", value, low=1, high=32767, nullable=False)
    stage = tournament.stages.filter(number=number).first()
    if stage is None:
        raise RuleError("qualify_stage", _("this tournament has no stage %(n)s.") % {"n": number})
    return stage


def _name(value: object) -> str:
    return text("name", value, max_length=max_length_of(Tournament, "name"))


@transaction.atomic
def tournament_create(
    *,
    by: User,
    name: str,
    slug: str | None = None,
    starts_on: date | None = None,
    preset: str | None = None,
    rules: Mapping[str, Any] | None = None,
    ranking: Sequence[str] | None = None,
    table_size: int | None = None,
    games_per_table: int | None = None,
    rounds_planned: int | None = None,
    target_score: int | None = None,
    results_need_confirmation: bool = False,
    target_games_cap: int | None = None,
    club_avoidance: str = Tournament.ClubAvoidance.WEIGHTED,
    public: bool = True,
) -> Tournament:
    """Create a tournament from a preset plus single-option overrides; `by` organises it.

    Any signed-in user may create one (and becomes its organiser); nobody else may — not
    a phone signed in through a table link either (its user is inactive).
    """
    if signed_in_or_none(by) is None or not getattr(by, "is_active", False):
        raise PermissionDenied(_("Sign in to create a tournament."))
    by = signed_in(by)  # refused just above when anonymous
    errors: list[RuleError] = []
    name = collect(errors, _name, name)
    if slug:
        if slugify(slug) != slug or len(slug) > max_length_of(Tournament, "slug"):
            errors.append(RuleError("slug", _("use lowercase letters, digits and hyphens only.")))
        elif Tournament.objects.filter(slug=slug).exists():
            errors.append(RuleError("slug", _slug_taken(slug)))
    preset = preset or DEFAULT_PRESET
    rule_set = collect(errors, lambda: resolve_rules(preset, _rule_overrides(rules)))
    ranking = collect(
        errors,
        validate_ranking,
        list(PRESET_RANKING.get(preset, ())) if ranking is None else ranking,
    )
    if table_size is None:
        table_size = PRESET_TABLE_SIZE.get(preset, MAX_TABLE_SIZE)
    errors += _settings_errors(
        {
            "table_size": table_size,
            "games_per_table": games_per_table,
            "rounds_planned": rounds_planned,
            "target_score": target_score,
            "target_games_cap": target_games_cap,
            "results_need_confirmation": results_need_confirmation,
            "club_avoidance": club_avoidance,
            "public": public,
            "starts_on": starts_on,
        }
    )
    raise_all(errors)

    fields = dict(
        name=name,
        starts_on=starts_on,
        rules=rule_set.as_dict(),
        ranking=list(ranking),
        table_size=table_size,
        games_per_table=games_per_table,
        rounds_planned=rounds_planned,
        target_score=target_score,
        target_games_cap=target_games_cap,
        results_need_confirmation=results_need_confirmation,
        club_avoidance=club_avoidance,
        public=public,
    )
    tournament = _insert_with_slug(by, slug, slugify(name), fields)
    stamp_history_user(
        StaffMember(tournament=tournament, user=by, role=StaffMember.Role.ORGANISER), by
    ).save()
    return tournament


def _insert_with_slug(
    by: User, slug: str | None, base: str, fields: Mapping[str, Any], attempts: int = 3
) -> Tournament:
    """Insert the tournament under `slug`, or under a free slug derived from its name.

    Checking that a slug is free and inserting it are two steps: a tournament created at
    the same moment may take it in between, and the unique index refuses the second
    insert. A given slug is then taken (400, as if the check had seen it); a derived one
    is derived again. The savepoint keeps the transaction usable after the refusal.
    """
    for _attempt in range(attempts):
        candidate = slug or _unique_slug(base)
        tournament = stamp_history_user(Tournament(slug=candidate, **fields), by)
        try:
            with transaction.atomic():
                tournament.save()
        except IntegrityError:
            if not Tournament.objects.filter(slug=candidate).exists():
                raise  # some other constraint: not ours to explain
            if slug:
                break
        else:
            return tournament
    raise RuleError("slug", _slug_taken(slug or candidate))


def _slug_taken(slug: str) -> str:
    return _("a tournament with slug '%(slug)s' already exists.") % {"slug": slug}


def _new_rules(tournament: Tournament, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The rules after a change of preset and/or options: a new preset starts from that
    preset; options alone are applied on top of the ones already overridden. Once a
    result exists, only the same rules again are accepted."""
    preset = changes.get("preset") or tournament.rules["preset"]
    overrides = dict(_rule_overrides(changes.get("rules")))
    if "preset" not in changes:
        overrides = {**overrides_of(tournament.rules), **overrides}
    rules = resolve_rules(preset, overrides).as_dict()
    if rules != tournament.rules and tournament.first_result_at is not None:
        # Name the input that changed — the preset, else the first option — so a form puts
        # the message beside it.
        changed = [name for name in rules if rules[name] != tournament.rules.get(name)]
        field: str | tuple[str, str] = (
            "preset" if "preset" in changed or "rules" not in changes else ("rules", changed[0])
        )
        raise RuleError(field, _("rules cannot change once a result has been entered."))
    return rules


# The target-score match settings (scoring.match): rules of play, frozen like the rules.
MATCH_SETTINGS = ("target_score", "target_games_cap")


def _match_errors(tournament: Tournament, changes: Mapping[str, Any]) -> list[RuleError]:
    """A target or games cap cannot change once a result exists: a table's games were
    closed or added by the matches as they were decided (`games.services.matches`)."""
    if tournament.first_result_at is None:
        return []
    return [
        RuleError(field, _("cannot change once a result has been entered."))
        for field in MATCH_SETTINGS
        if field in changes and changes[field] != getattr(tournament, field)
    ]


# The format of a round: earlier rounds were played and counted under it, so it locks with
# the rules at the first result (docs/rules/decisions.md, "Settings after the first result").
FORMAT_SETTINGS = ("table_size", "games_per_table")


def _format_errors(tournament: Tournament, changes: Mapping[str, Any]) -> list[RuleError]:
    if tournament.first_result_at is None:
        return []
    return [
        RuleError(
            field,
            _(
                "cannot change once a result has been entered: the rounds played so far "
                "used {value}."
            ).format(value=getattr(tournament, field) or _("one game per seated player")),
        )
        for field in FORMAT_SETTINGS
        if field in changes and changes[field] != getattr(tournament, field)
    ]


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Change settings. The rules (preset and options), players per table, games per table,
    the target score and its games cap cannot change once a result exists (a change to the
    same value passes); the name, dates, status, public, rounds planned, ranking,
    confirmation, club avoidance, the late-entry/withdrawal options and qualification slots
    still may. The slug never changes.
    A status change follows `tournaments.lifecycle` (`status="running"` reopens a finished
    tournament); settings and the status may change in a finished tournament too.

    The tournament row is locked first (as every write that touches results does), so a
    rules change and a first result cannot both pass their checks at the same moment.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(by, tournament, "organise")
    errors: list[RuleError] = [
        RuleError(f, _("cannot be changed.")) for f in sorted(set(changes) - UPDATABLE)
    ]
    if "name" in changes:
        changes["name"] = collect(errors, _name, changes["name"])
    if "status" in changes:
        status = collect(errors, choice, "status", changes["status"], Tournament.Status)
        if status is not None and (wrong := transition_error(tournament, status)):
            errors.append(wrong)
    errors += _settings_errors(changes)
    errors += _qualification_errors(tournament, changes)
    errors += _format_errors(tournament, changes)
    if "preset" in changes or "rules" in changes:
        changes["rules"] = collect(errors, _new_rules, tournament, changes)
    errors += _match_errors(tournament, changes)
    affects_standings = False
    if "ranking" in changes:
        changes["ranking"] = collect(errors, validate_ranking, changes["ranking"])
        affects_standings = changes["ranking"] is not None and (
            list(changes["ranking"]) != tournament.ranking
        )
    affects_standings = affects_standings or any(
        field in changes and changes[field] != getattr(tournament, field)
        for field in STANDINGS_OPTIONS
    )
    raise_all(errors)

    changes.pop("preset", None)
    if "ranking" in changes:
        changes["ranking"] = list(changes["ranking"])
    for field, value in changes.items():
        setattr(tournament, field, value)
    stamp_history_user(tournament, by).save()
    if affects_standings:
        results_changed(tournament)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament, by: User) -> None:
    """Delete a tournament that has no results yet, with its rounds (their tables, seats,
    games and any penalties: without a result nothing of play is kept); one with results
    is kept.

    Under the tournament row lock, so no result or round can arrive half-way.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(by, tournament, "organise")
    if tournament.first_result_at is not None:
        raise RuleError((), _("a tournament with entered results cannot be deleted."))
    # Seats protect their players (a player with a seat is never deleted on its own), so
    # the rounds go first and take their seats with them; then the players can go.
    tournament.rounds.all().delete()
    # A stage limited to a division protects that division, which the tournament's own
    # delete would take first: the stages go before it (their rounds are gone already).
    tournament.stages.all().delete()
    stamp_history_user(tournament, by).delete()


# What an organiser who is not a superuser hears when no user can be added under a name.
# Any signed-in user can create a tournament and so reach this form: the answer must not
# tell them whether an account exists, or they could list a club's usernames.
NO_SUCH_USER = gettext_noop(
    "no user can be added under that name; ask them for their exact username."
)


def _staff_user(by: User, username: object) -> Any:
    """The active user named exactly `username`, or a `RuleError` on `username`.

    A superuser (who sees every account in the admin anyway) is told what is wrong; anyone
    else gets `NO_SUCH_USER` for an unknown name and a deactivated account alike, after
    the same single query, so the answer and its timing do not depend on the account. What
    remains is what the form is for: naming an existing user adds them.
    """
    users = get_user_model().objects
    user = users.filter(username=username).first() if isinstance(username, str) else None
    if user is not None and user.is_active:
        return user
    if not getattr(by, "is_superuser", False):
        raise RuleError("username", _(NO_SUCH_USER))
    if user is None:
        raise RuleError(
            "username", _("there is no user named %(username)s.") % {"username": repr(username)}
        )
    raise RuleError(
        "username",
        _("%(username)s is deactivated; reactivate them first.") % {"username": repr(username)},
    )


@transaction.atomic
def staff_add(*, tournament: Tournament, by: User, username: str, role: str) -> StaffMember:
    """Give a user a role in the tournament (or change the role they have).

    The role is checked before the name is looked up, so a request with a bad role says
    nothing about the name either (see `_staff_user` for what an unknown name answers).
    """
    require(by, tournament, "organise")
    choice("role", role, StaffMember.Role)
    user = _staff_user(by, username)
    member = StaffMember.objects.filter(tournament=tournament, user=user).first()
    if member is None:
        member = StaffMember(tournament=tournament, user=user, role=role)
    elif member.role != role:
        if (
            member.role == StaffMember.Role.ORGANISER
            and tournament.staff.filter(role=StaffMember.Role.ORGANISER).count() == 1
        ):
            raise RuleError(
                "role",
                _("'%(username)s' is the only organiser; add another first.")
                % {"username": username},
            )
        member.role = role
    try:
        # A savepoint: the same user given a role at the same moment by another request
        # makes the unique (tournament, user) index refuse this insert.
        with transaction.atomic():
            stamp_history_user(member, by).save()
    except IntegrityError:
        if member.pk is not None or not tournament.staff.filter(user=user).exists():
            raise  # some other constraint: not ours to explain
        raise Conflict(
            "username",
            _(
                "'%(username)s' was given a role in this tournament at the same moment; "
                "reload to see it."
            )
            % {"username": username},
        ) from None
    return member
