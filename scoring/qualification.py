"""Qualification slots with pass-down (the Polish qualifiers): a tournament's
top ``N`` qualify for a named event, and a player who has qualified already passes the
slot down to the next one. Pure Python, no Django.

Terms
-----
slot
    One place in the named event that this tournament gives away; it declares ``N``.
already qualified
    A player who holds a place in that event from an earlier tournament. They keep their
    rank here, but take no slot: the slot *passes down* to the next player in the
    standings who has none yet.
eligible
    The players who can take a slot: ranked, not already qualified, not withdrawn (the
    caller leaves withdrawn players out: a player who left the event does not go on).
line
    The last slot. Players sharing the rank that straddles it (equal on every metric of
    the ranking) are a *tie at the line*.

Decisions where the rules are silent (docs/rules/decisions.md)
--------------------------------------------------------------
* A tie at the line is decided by each tied player's fixed lot, highest first — the same
  draw as the standings' ``lot`` metric (a player's own lot when carried over from an
  event file), so it is reproducible and the same on every reading — and it is stated,
  never silent: ``SlotTie`` says who shared which rank for how many slots. The number of
  slots is what the event above gave away, so the line never takes more players than
  ``N``; an organiser who wants something else than a lot adds a tiebreak to the
  ranking (a ``lot`` at its end makes ties impossible and says so in the ranking).
* More slots than eligible players: everyone eligible qualifies, the rest of the slots
  stay empty (they are not passed to a withdrawn player).
* An already-qualified player ranked inside the slots is listed as ``passed_down``: the
  page shows who gave a slot to whom.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from scoring.errors import RuleError
from scoring.i18n import _, ngettext

# The most slots a tournament may declare: far above any real qualifier.
MAX_SLOTS = 1000


@dataclass(frozen=True)
class Placed:
    """One player of the final standings, best first: their rank and their fixed lot."""

    player: int
    rank: int
    lot: int = 0


@dataclass(frozen=True)
class SlotTie:
    """Players sharing the rank at the last slot, and how many slots were left for them."""

    rank: int
    players: tuple[int, ...]
    slots: int

    def sentence(self) -> str:
        return ngettext(
            "{count} players share rank {rank} for {slots} slot: decided by lot",
            "{count} players share rank {rank} for {slots} slots: decided by lot",
            self.slots,
        ).format(count=len(self.players), rank=self.rank, slots=self.slots)


@dataclass(frozen=True)
class Qualification:
    """Who takes the slots (in standings order), who passed a slot down, and the tie at
    the line if there was one."""

    qualified: tuple[int, ...]
    passed_down: tuple[int, ...] = ()
    tie: SlotTie | None = None


def check_slots(slots: object, field: str = "qualify_slots") -> int | None:
    """The number of slots as an organiser gave it: a whole number 1 to MAX_SLOTS, or none."""
    if slots is None:
        return None
    if not isinstance(slots, int) or isinstance(slots, bool) or not 1 <= slots <= MAX_SLOTS:
        raise RuleError(
            field,
            _("must be a whole number from 1 to {most}, or empty for none").format(most=MAX_SLOTS),
        )
    return slots


def qualifiers(standings: Sequence[Placed], already: Collection[int], slots: int) -> Qualification:
    """The players who take ``slots`` slots from ``standings`` (best first, withdrawn
    players already left out), passing each slot of an ``already`` qualified player down
    to the next eligible one; a tie at the line is decided by lot (module doc)."""
    check_slots(slots, "slots")
    if any(a.rank > b.rank for a, b in itertools.pairwise(standings)):
        raise ValueError("standings: not in rank order")
    eligible = [p for p in standings if p.player not in already]
    if len(eligible) <= slots:
        chosen = [p.player for p in eligible]
        tie = None
    elif eligible[slots - 1].rank != eligible[slots].rank:
        chosen = [p.player for p in eligible[:slots]]
        tie = None
    else:
        line = eligible[slots - 1].rank
        above = [p.player for p in eligible if p.rank < line]
        tied = [p for p in eligible if p.rank == line]
        left = slots - len(above)
        by_lot = sorted(tied, key=lambda p: (-p.lot, p.player))
        chosen = above + [p.player for p in by_lot[:left]]
        tie = SlotTie(line, tuple(p.player for p in tied), left)
    kept = set(chosen)
    order = [p.player for p in standings]
    last = max((order.index(p) for p in kept), default=-1)
    passed = tuple(p for p in order[: last + 1] if p in set(already))
    return Qualification(tuple(p for p in order if p in kept), passed, tie)
