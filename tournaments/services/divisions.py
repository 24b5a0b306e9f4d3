"""Divisions: add, change and delete a tournament's divisions, and put players in them
(organisers only, each one transaction).

Terms (see `tournaments.models`: division):
* prizes — the labels of a division's places, 1st first ("Trophy", "Book voucher"); the
  final standings page shows each beside that place's players. An empty label leaves a
  place without a prize.

Rules decided here (the rules are silent; docs/rules/decisions.md):
* A division's name is unique in its tournament whatever its case; its slug (the name in
  addresses, `?division=juniors`) is made from the name when not given, and is unique too.
* A player is only ever in divisions of their own tournament: a division named by slug is
  looked up in the player's tournament, and a `Division` of another one is refused
  (`divisions`), so no membership crosses tournaments.
* Divisions may be added, renamed and deleted in a finished tournament too (like its
  settings, they change no result); a player's divisions change only while it is open
  (as the player's other fields). A division a stage is limited to cannot be deleted.
* A change of divisions or of who is in them changes what the standings pages show, not
  the standings: it moves the pages' state (the tournament's `updated_at`), not
  `results_version`, so no recompute is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError, raise_all

from ..events import pages_changed
from ..lifecycle import require_open
from ..models import Division, Player, Tournament
from ..permissions import User, require
from .validation import (
    collect,
    max_length_of,
    stamp_history_user,
    text,
    whole_number_between,
)

FIELDS = {"name", "slug", "order", "prizes"}
MAX_PRIZES = 20
MAX_PRIZE_LENGTH = 80
MAX_ORDER = 999
SLUG = re.compile(r"^[-\w]+$")


def _lock(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def pages_moved(tournament: Tournament) -> None:
    """What the standings pages show changed (not the standings): move the page state
    (`games.selectors.page_state` reads `updated_at`) and drop the kept pages."""
    Tournament.objects.filter(pk=tournament.pk).update(updated_at=timezone.now())
    pages_changed(tournament.slug)


def _slug(value: object) -> str:
    if not isinstance(value, str):
        raise RuleError("slug", _("must be text."))
    value = value.strip().lower()
    limit = max_length_of(Division, "slug")
    if not value or not SLUG.match(value):
        raise RuleError(
            "slug", _("use letters, digits, '-' and '_' only, like 'juniors' or 'under-14'.")
        )
    if len(value) > limit:
        raise RuleError(
            "slug",
            _("is %(length)s characters long; at most %(limit)s allowed.")
            % {"length": len(value), "limit": limit},
        )
    return value


def _free_slug(name: str, others: Any) -> str:
    """A slug made from the name, with -2, -3... when another division has it."""
    base = slugify(name, allow_unicode=True)[: max_length_of(Division, "slug") - 4] or "division"
    taken = set(others.values_list("slug", flat=True))
    candidates = (base if n == 1 else f"{base}-{n}" for n in range(1, len(taken) + 2))
    return next(slug for slug in candidates if slug not in taken)


def _prizes(value: object) -> list[str]:
    """Labels, 1st place first; surrounding spaces and trailing empty labels dropped."""
    if value is None:
        return []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise RuleError("prizes", _("must be a list of labels, one per place."))
    labels = [label.strip() for label in value]
    while labels and not labels[-1]:
        labels.pop()
    if len(labels) > MAX_PRIZES:
        raise RuleError(
            "prizes",
            _("%(count)s labels; at most %(limit)s places get one.")
            % {"count": len(labels), "limit": MAX_PRIZES},
        )
    for place, label in enumerate(labels, start=1):
        if len(label) > MAX_PRIZE_LENGTH or "\x00" in label:
            raise RuleError(
                "prizes",
                _("the label of place %(place)s is longer than %(limit)s characters.")
                % {"place": place, "limit": MAX_PRIZE_LENGTH},
            )
    return labels


def _checked(tournament: Tournament, values: dict[str, Any], division: Division | None) -> dict:
    """Every field at once (all errors together), as it will be stored; name and slug
    free in the tournament (`division`: the one being changed)."""
    unknown = sorted(set(values) - FIELDS)
    if unknown:
        raise RuleError(unknown[0], _("is not a division setting."))
    errors: list[RuleError] = []
    name = collect(
        errors, text, "name", values.get("name"), max_length=max_length_of(Division, "name")
    )
    others = (
        tournament.divisions.all()
        if division is None
        else tournament.divisions.exclude(pk=division.pk)
    )
    slug_given = values.get("slug")
    if slug_given in (None, "") and name:
        slug_given = _free_slug(name, others)
    slug = collect(errors, _slug, slug_given) if slug_given not in (None, "") else None
    order = collect(
        errors,
        whole_number_between,
        "order",
        values.get("order"),
        low=0,
        high=MAX_ORDER,
        nullable=True,
    )
    prizes = collect(errors, _prizes, values.get("prizes"))
    raise_all(errors)
    if others.filter(name__iexact=name).exists():
        errors.append(RuleError("name", _("%(name)s is a division already.") % {"name": name}))
    if others.filter(slug=slug).exists():
        errors.append(
            RuleError(
                "slug",
                _("'%(slug)s' names another division already; choose another.") % {"slug": slug},
            )
        )
    raise_all(errors)
    if order is None:
        top = tournament.divisions.aggregate(top=Max("order"))["top"]
        order = division.order if division else (0 if top is None else top + 1)
    return {"name": name, "slug": slug, "order": order, "prizes": prizes}


def division_create(*, tournament: Tournament, by: User, **values: Any) -> Division:
    """Add a division: `name`, optionally `slug`, `order` (default: after the last) and
    `prizes` (labels of its places, 1st first)."""
    with transaction.atomic():
        tournament = _lock(tournament.pk)
        require(by, tournament, "organise")
        fields = _checked(tournament, values, None)
        division = stamp_history_user(Division(tournament=tournament, **fields), by)
        division.save()
        pages_moved(tournament)
        return division


def division_update(*, division: Division, by: User, **changes: Any) -> Division:
    """Rename a division, change its slug, order or prizes."""
    with transaction.atomic():
        tournament = _lock(division.tournament_id)
        require(by, tournament, "organise")
        division = Division.objects.get(pk=division.pk)
        # A new name keeps the slug unless one is given: links made with it keep working.
        current = {name: getattr(division, name) for name in FIELDS}
        fields = _checked(tournament, {**current, **changes}, division)
        for name, value in fields.items():
            setattr(division, name, value)
        stamp_history_user(division, by).save()
        pages_moved(tournament)
        return division


def division_delete(*, division: Division, by: User) -> None:
    """Delete a division (its players stay, out of it). One a stage is limited to is kept:
    a `Conflict` on `division`."""
    with transaction.atomic():
        tournament = _lock(division.tournament_id)
        require(by, tournament, "organise")
        stage = division.stages.order_by("number").first()
        if stage is not None:
            raise Conflict(
                "division",
                _("stage %(number)s (%(stage)s) is limited to %(division)s: change it first.")
                % {"number": stage.number, "stage": stage.name, "division": division.name},
            )
        stamp_history_user(division, by).delete()
        pages_moved(tournament)


def divisions_of(tournament: Tournament, value: object, field: str = "divisions") -> list[Division]:
    """The divisions `value` names (slugs, or `Division` rows), all of `tournament`; a
    RuleError on `field` naming each one that is not."""
    if value is None:
        return []
    if not isinstance(value, list | tuple | set | frozenset):
        raise RuleError(field, _("must be a list of division slugs."))
    known = {d.slug: d for d in tournament.divisions.all()}
    chosen: dict[int, Division] = {}
    errors: list[RuleError] = []
    for item in value:
        if isinstance(item, Division):
            if item.tournament_id != tournament.pk:
                errors.append(
                    RuleError(
                        field,
                        _("%(division)s is a division of another tournament.")
                        % {"division": item.name},
                    )
                )
                continue
            chosen[item.pk] = item
        elif isinstance(item, str) and item.strip().lower() in known:
            division = known[item.strip().lower()]
            chosen[division.pk] = division
        else:
            errors.append(
                RuleError(
                    field,
                    _("no division '%(slug)s' in %(tournament)s; choose from: %(known)s.")
                    % {
                        "slug": item,
                        "tournament": tournament.name,
                        "known": ", ".join(known) or "-",
                    },
                )
            )
    raise_all(errors)
    return sorted(chosen.values(), key=lambda d: (d.order, d.name))


def set_divisions(player: Player, divisions: Iterable[Division]) -> bool:
    """Put `player` in exactly these divisions (checked already, the tournament locked);
    whether anything changed."""
    wanted = {d.pk for d in divisions}
    current = set(player.divisions.values_list("pk", flat=True))
    if wanted == current:
        return False
    player.divisions.set(wanted)
    return True


def player_divisions_set(*, player: Player, by: User, divisions: object) -> list[Division]:
    """Put a player in exactly the divisions named (slugs, or `Division` rows of the
    player's tournament); none leaves them in no division."""
    with transaction.atomic():
        tournament = _lock(player.tournament_id)
        require(by, tournament, "organise")
        require_open(tournament)
        chosen = divisions_of(tournament, divisions)
        if set_divisions(player, chosen):
            pages_moved(tournament)
        return chosen


def division_members_set(*, division: Division, by: User, player_ids: object) -> int:
    """Make exactly these players (ids, of the division's tournament) its members; how
    many it has then. An id of no player of the tournament is a RuleError on `players`."""
    with transaction.atomic():
        tournament = _lock(division.tournament_id)
        require(by, tournament, "organise")
        require_open(tournament)
        if not isinstance(player_ids, list | tuple | set) or any(
            isinstance(p, bool) or not isinstance(p, int) for p in player_ids
        ):
            raise RuleError("players", _("must be a list of player ids."))
        wanted = set(player_ids)
        known = set(tournament.players.filter(pk__in=wanted).values_list("pk", flat=True))
        if wanted - known:
            raise RuleError(
                "players",
                _("no player of %(tournament)s has the id %(id)s.")
                % {"tournament": tournament.name, "id": min(wanted - known)},
            )
        current = set(division.players.values_list("pk", flat=True))
        if wanted != current:
            division.players.set(wanted)
            pages_moved(tournament)
        return len(wanted)
