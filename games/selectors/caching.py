"""What the public pages' validators are made of (`games.views.caching`).

Terms:
* page state — the few values that say whether anything a tournament's public pages show
  has changed (`page_state`): read in one query, it makes the pages' validators (ETag,
  Last-Modified) without reading the standings themselves.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Subquery

from tournaments.models import Round, Tournament

from ..models import Seat, Standings


@dataclass(frozen=True)
class PageState:
    """What a tournament's public pages depend on, besides their address and the reader."""

    tournament_id: int
    results_version: int
    updated_at: datetime
    computed_version: int | None  # the newest snapshot's (None: none yet)
    computed_at: datetime | None
    last_round_id: int | None  # the rounds are 1..number; a cancelled one leaves a gap in ids
    last_round_number: int | None
    last_round_at: datetime | None
    round_ends_at: datetime | None  # the last round's clock
    last_seat_id: int | None  # a seat swap stores new seats: a new highest id

    @property
    def stale(self) -> bool:
        return self.computed_version is None or self.computed_version < self.results_version

    @property
    def tag(self) -> str:
        """A short digest of everything above: equal tags, equal pages."""
        raw = "|".join(
            str(value)
            for value in (
                self.tournament_id,
                self.results_version,
                self.updated_at.isoformat(),
                self.computed_version,
                self.computed_at and self.computed_at.isoformat(),
                self.last_round_id,
                self.last_round_number,
                self.round_ends_at and self.round_ends_at.isoformat(),
                self.last_seat_id,
            )
        )
        return hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()

    @property
    def last_modified(self) -> datetime:
        return max(t for t in (self.updated_at, self.computed_at, self.last_round_at) if t)


def page_state(tournament: Tournament) -> PageState:
    """The tournament's page state, in one query however large the field."""
    newest = Standings.objects.filter(tournament=OuterRef("pk")).order_by("-computed_version")
    last_round = Round.objects.filter(tournament=OuterRef("pk")).order_by("-number")
    last_seat = Seat.objects.filter(round__tournament=OuterRef("pk")).order_by("-id")
    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            computed_version=Subquery(newest.values("computed_version")[:1]),
            computed_at=Subquery(newest.values("computed_at")[:1]),
            last_round_id=Subquery(last_round.values("id")[:1]),
            last_round_number=Subquery(last_round.values("number")[:1]),
            last_round_at=Subquery(last_round.values("created_at")[:1]),
            round_ends_at=Subquery(last_round.values("ends_at")[:1]),
            last_seat_id=Subquery(last_seat.values("id")[:1]),
        )
        .values_list(
            "results_version",
            "updated_at",
            "computed_version",
            "computed_at",
            "last_round_id",
            "last_round_number",
            "last_round_at",
            "round_ends_at",
            "last_seat_id",
        )
        .get()
    )
    return PageState(tournament.pk, *row)
