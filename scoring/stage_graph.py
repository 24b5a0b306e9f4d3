"""Stages as a small graph: who a stage takes from the stage it follows, and what they
bring. Pure Python, no Django (the cut by top N or minimum score is ``scoring.stages``).

Terms
-----
source
    The stage a stage takes its entrants from (by default the main stage before it).
    Several stages may follow one source (an A final of ranks 1-8 and a B final of
    9-16, an open final and a juniors final): they are its *feeds*, filled when the
    source closes and played in parallel (their rounds interleave in the tournament).
entry rule
    How a feed takes its entrants from the source's standings (best first, active
    players only):
    ``top``       the top N (``scoring.stages.cut``, ties by ``include`` or ``lot``);
    ``min_score`` everyone at or above a score;
    ``ranks``     the places ``first``..``last`` of the standings (1-8, 9-16);
    ``tables``    the top K of each table of the source's last round, plus the N best
                  of the others by the source's ranking ("best losers");
    ``division``  every player of a division (``members``);
    ``manual``    nobody at the close: the organiser names the entrants by hand.
    Any rule but ``manual`` may be limited to a division's players (``members``).
carry rounding
    How ``half`` carry-over rounds an odd total: ``toward_zero`` (7 -> 3, -7 -> -3)
    or ``half_up`` (7 -> 4, -7 -> -3: the half point goes up, toward the higher score).

Decisions where the rules are silent (docs/rules/decisions.md, "Stages as a graph")
-----------------------------------------------------------------------------------
* A player enters at most one of the stages fed by one source: the feeds are filled in
  their stage-number order, each from the players the earlier ones did not take. A rank
  range counts places in the *whole* standings (so 1-8 and 9-16 mean what they say); a
  place an earlier feed took is not refilled from below.
* A rank range splits a shared rank at either end of the range by the fixed lot (two
  ranges must never overlap), and says so (the tie sentence); a range past the end of
  the field takes who is there; a range that finds nobody is refused.
* By table: the order at a table is the players' order in the source's standings (its
  ranking and tiebreaks; with one round in the source, exactly the table's own order by
  that ranking); players sharing a rank across the table's line are parted by the lot.
  A table's players who withdrew are skipped (the next at the table goes on). The best
  losers are the source's standings' best players not taken, ties at their line as
  ``cut_ties`` says; fewer left than asked: all of them go on.
* ``half_up`` gives the half point to the player (toward the higher score): 7 -> 4,
  -7 -> -3. Negative halves therefore round toward zero under both roundings, and only
  positive odd totals differ (7 -> 3 or 4).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scoring.errors import RuleError
from scoring.i18n import _, ngettext
from scoring.stages import CUT_TIES, CarryOver, CutResult, CutTie, CutTies, Ranked, cut
from scoring.standings import lot_draw

EntryRule = Literal["top", "min_score", "ranks", "tables", "division", "manual"]
ENTRY_RULES: tuple[EntryRule, ...] = ("top", "min_score", "ranks", "tables", "division", "manual")
CarryRounding = Literal["toward_zero", "half_up"]
CARRY_ROUNDINGS: tuple[CarryRounding, ...] = ("toward_zero", "half_up")


def carry(value: int, mode: CarryOver, rounding: CarryRounding = "toward_zero") -> int:
    """What a stage total becomes at the start of the next stage: ``all`` keeps it,
    ``none`` resets it, ``half`` halves it rounded as ``rounding`` says (module doc)."""
    if rounding not in CARRY_ROUNDINGS:
        raise RuleError(
            "carry_rounding",
            _("'{rounding}' is not a rounding; choose toward_zero or half_up").format(
                rounding=rounding
            ),
        )
    if mode == "all":
        return value
    if mode == "none":
        return 0
    if mode == "half":
        if rounding == "half_up":
            return -(-value // 2)  # ceiling: 7 -> 4, -7 -> -3
        return -(-value // 2) if value < 0 else value // 2
    raise RuleError(
        "carry_over", _("'{mode}' is not a carry-over; choose all, none or half").format(mode=mode)
    )


@dataclass(frozen=True)
class Feed:
    """One stage fed by the source: its number (``key``) and its entry rule."""

    key: int
    rule: EntryRule
    top: int | None = None
    min_score: int | None = None
    first: int | None = None
    last: int | None = None
    per_table: int | None = None
    best_losers: int = 0
    ties: CutTies = "lot"
    members: frozenset[int] | None = None  # limited to a division's players


@dataclass(frozen=True)
class FeedResult:
    """Who one feed takes (in the source's order) and how: ``table_winners`` are the
    players a ``tables`` rule took by their table, ``tie`` a tie stated at a line."""

    key: int
    entrants: tuple[int, ...]
    tie: CutTie | None = None
    table_winners: tuple[int, ...] = field(default=())


def _ordered(ranked: Sequence[Ranked], lot_seed: str) -> list[Ranked]:
    """The standings in one total order: shared ranks parted by the fixed lot."""
    return sorted(ranked, key=lambda r: (r.rank, -lot_draw(lot_seed, r.player), r.player))


def rank_range(ranked: Sequence[Ranked], first: int, last: int, lot_seed: str = "") -> CutResult:
    """The players at places ``first``..``last`` of ``ranked`` (best first), a shared
    rank at either end parted by lot and stated."""
    if first < 1 or last < first:
        raise RuleError("rank_to", _("a rank range runs from a place to the same or a later one"))
    order = _ordered(ranked, lot_seed)
    chosen = order[first - 1 : last]
    if not chosen:
        raise RuleError(
            "rank_from",
            _("places {first} to {last}: the field has only {field} players").format(
                first=first, last=last, field=len(ranked)
            ),
        )
    tie = None
    for edge in (first - 1, last):  # the line above the range, the line below it
        if 0 < edge < len(order) and order[edge - 1].rank == order[edge].rank:
            line_rank = order[edge].rank
            tied = tuple(r.player for r in order if r.rank == line_rank)
            inside = sum(1 for r in chosen if r.rank == line_rank)
            tie = CutTie(line_rank, tied, inside, "lot")
    kept = {r.player for r in chosen}
    everyone = [r.player for r in ranked]
    return CutResult(
        tuple(p for p in everyone if p in kept), tuple(p for p in everyone if p not in kept), tie
    )


def by_table(
    ranked: Sequence[Ranked],
    tables: Sequence[Sequence[int]],
    per_table: int,
    best_losers: int = 0,
    *,
    ties: CutTies = "lot",
    lot_seed: str = "",
) -> FeedResult:
    """The top ``per_table`` of each table (ordered by the standings) and the best
    ``best_losers`` of the others; players not in ``ranked`` (withdrawn) are skipped."""
    if per_table < 1:
        raise RuleError("table_top", _("each table sends at least 1 player on"))
    if best_losers < 0:
        raise RuleError("best_losers", _("the best losers are 0 or more players"))
    order = _ordered(ranked, lot_seed)
    place = {r.player: i for i, r in enumerate(order)}
    winners: list[int] = []
    for table in tables:
        seated = sorted((p for p in table if p in place), key=place.__getitem__)
        winners += seated[:per_table]
    taken = set(winners)
    losers = [r for r in ranked if r.player not in taken]
    tie = None
    extra: tuple[int, ...] = ()
    if best_losers and losers:
        result = cut(losers, top=min(best_losers, len(losers)), ties=ties, lot_seed=lot_seed)
        extra, tie = result.entrants, result.tie
    kept = taken | set(extra)
    entrants = tuple(r.player for r in ranked if r.player in kept)
    return FeedResult(0, entrants, tie, tuple(p for p in entrants if p in taken))


def feed(
    ranked: Sequence[Ranked],
    feeds: Sequence[Feed],
    *,
    tables: Sequence[Sequence[int]] = (),
    lot_seed: str = "",
) -> list[FeedResult]:
    """Fill every stage fed by one source from its standings (``ranked``: best first,
    active players only), in the order of ``feeds`` (their stage numbers): a player
    goes into at most one of them (module doc)."""
    if any(f.ties not in CUT_TIES for f in feeds):
        raise RuleError("cut_ties", _("choose include or lot"))
    taken: set[int] = set()
    out: list[FeedResult] = []
    for f in feeds:
        pool = [
            r
            for r in ranked
            if r.player not in taken and (f.members is None or r.player in f.members)
        ]
        result = _one(f, ranked, pool, tables, taken, lot_seed)
        taken |= set(result.entrants)
        out.append(result)
    return out


def _one(
    f: Feed,
    ranked: Sequence[Ranked],
    pool: list[Ranked],
    tables: Sequence[Sequence[int]],
    taken: Collection[int],
    lot_seed: str,
) -> FeedResult:
    if f.rule == "manual":
        return FeedResult(f.key, ())
    if f.rule == "division":
        return FeedResult(f.key, tuple(r.player for r in pool))
    if f.rule == "ranks":
        if f.first is None or f.last is None:
            raise RuleError("rank_from", _("a rank range needs its first and last place"))
        scope = [r for r in ranked if f.members is None or r.player in f.members]
        result = rank_range(scope, f.first, f.last, lot_seed)
        entrants = tuple(p for p in result.entrants if p not in taken)
        return FeedResult(f.key, entrants, result.tie)
    if f.rule == "tables":
        if f.per_table is None:
            raise RuleError("table_top", _("say how many players each table sends on"))
        found = by_table(pool, tables, f.per_table, f.best_losers, ties=f.ties, lot_seed=lot_seed)
        return FeedResult(f.key, found.entrants, found.tie, found.table_winners)
    if f.rule in ("top", "min_score"):
        result = cut(
            pool,
            top=f.top if f.rule == "top" else None,
            min_score=f.min_score if f.rule == "min_score" else None,
            ties=f.ties,
            lot_seed=lot_seed,
        )
        return FeedResult(f.key, result.entrants, result.tie)
    raise RuleError(
        "entry",
        _("'{rule}' is not an entry rule; choose {rules}").format(
            rule=f.rule, rules=", ".join(ENTRY_RULES)
        ),
    )


def feeds_sentence(results: Sequence[FeedResult], names: Mapping[int, str]) -> str:
    """ "Final A: 8 players; Final B: 8 players" (the preview's summary)."""
    return "; ".join(
        ngettext("{stage}: {count} player", "{stage}: {count} players", len(r.entrants)).format(
            stage=names.get(r.key, str(r.key)), count=len(r.entrants)
        )
        for r in results
    )
