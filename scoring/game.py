"""One game: check the racks entered at its end, and score it.

Terms (docs/rules/tiles-and-games.md and docs/rules/scoring.md):

* **end** — how the game ended: ``rummikub`` (a player emptied the rack) or
  ``pool_exhausted`` (the pool ran out and nobody could play).
* **rack** — what one player held at the end, entered either as tiles (``"R4 B10 J"``)
  or by totals: ``points`` (the rack value), optionally ``tile_count`` and ``jokers``
  (how many of those tiles are jokers).
* **rack value** — face values + ``joker_penalty`` for each joker (``RackOut.points``).
* **no meld** — the player never laid down the opening meld: ``could_not`` or
  ``declined``. Some rules charge a fixed amount for it instead of the rack value.
* **winner** — who emptied the rack, or, when the pool ran out, the lowest rack by the
  rules' ``exhausted_winner``; tied lowest racks are all winners.
* **charge** — what a loser pays in this game (after a no-meld charge, the difference to
  the winner's rack when the rules say so, and the loss cap); 0 for a winner.
* **score** — the player's game score: plus what is credited to them, minus their charge,
  plus bonuses, minus sanction points recorded by a referee.
* **zero-sum** — the scores add up to 0; docs/rules/scoring.md says exactly when this must hold,
  and ``score_game`` checks it every time it must.
* **label** — how a message names a player: the rack's ``name`` as the caller gives it
  (a page passes "Ada (seat 2)"), else "player <id>". The engine never invents names; it
  uses the ones it receives, so every message a person reads names a person.

Decisions where the rules are silent (docs/rules/decisions.md; each is also commented
where it is made):

* When the pool ran out, the rack value decides who won, never a no-meld charge; a
  winner may carry a no-meld flag then, and it costs them nothing.
* ``difference`` subtracts the winners' rack value (tied winners share one value).
* The loss cap limits what the loser finally pays, so it comes after the difference.
* The runner-up bonus goes to every loser tied on the lowest charge (in a game of two,
  the one loser); when all players tie as winners there is no runner-up.
* **The blank rack implies the winner of a Rummikub end**: when no winner is given and
  exactly one rack is empty, that player is the winner (the winner's rack is empty,
  docs/rules/tiles-and-games.md). A given winner still needs an empty rack. With no winner
  and no blank rack, or with several blank racks, the winner must be chosen.
* All problems at once: when some racks cannot even be read, the racks that can are still
  checked against the end and the winner and for availability (``check_readable``), so a
  person fixes every mistake in one go; only the lowest rack when the pool ran out waits
  until every rack can be read.

Forfeits (a withdrawn player's seat, ``score_forfeit``; the rules are silent, so all of this
is a **Decision**, in docs/rules/decisions.md#forfeits):

* **forfeit charge** — what an absent seat pays: the rules' ``no_meld_charge`` when they
  have one (an absent player never laid down a meld, and these rules say what that costs),
  else a whole starting rack at the average tile: 14 tiles * 7 = 98 (7 = 728 / 104, the
  average face value of the numbered tiles). The loss cap, if any, applies last, as for
  any loser.
* rule ``shared`` (the default): the present seats are all winners (a tie, like a
  pool-exhausted tie) and share the absent seats' charges equally; the points that do
  not divide go one each to the present seats in play order from the game's starter.
  Zero-sum, and nobody at the table is worse off than if the game had not been
  scheduled, while the absent seat pays about what a lost game usually costs.
* rule ``absent_only``: the absent seats pay the charge; the present seats score 0 and
  nobody wins (for fields where a free win would be a windfall).
* No bonus and no sanction applies to a forfeit: nothing was played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from scoring.errors import RuleError, raise_all
from scoring.i18n import _, ngettext
from scoring.placement import Finish, finishes
from scoring.rules import RuleSet
from scoring.tiles import (
    MAX_JOKERS,
    NUMBERED_TILES,
    NUMBERED_TOTAL_VALUE,
    TOTAL_TILES,
    Tile,
    check_availability,
    face_value_bounds,
    format_tiles,
    joker_count,
    rack_face_value,
)

NoMeld = Literal["could_not", "declined"] | None
End = Literal["rummikub", "pool_exhausted"]
ENDS: tuple[str, ...] = ("rummikub", "pool_exhausted")
NO_MELD_KINDS: tuple[str, ...] = ("could_not", "declined")
MIN_RACKS, MAX_RACKS = 2, 4
FORFEIT_RULES: tuple[str, ...] = ("shared", "absent_only")
STARTING_RACK_TILES = 14
# 728 / 104: the average face value of a numbered tile.
AVERAGE_TILE_VALUE = 7
FORFEIT_RACK_VALUE = STARTING_RACK_TILES * AVERAGE_TILE_VALUE


@dataclass(frozen=True)
class RackIn:
    """One player's rack as entered: by ``tiles``, or by ``points`` (+ count, jokers)."""

    player: int
    tiles: tuple[Tile, ...] | None = None
    points: int | None = None
    tile_count: int | None = None
    jokers: int = 0
    no_meld: NoMeld = None
    name: str | None = None  # how messages name the player, e.g. "Ada (seat 2)"

    @property
    def label(self) -> str:
        return self.name or player_label(self.player)


@dataclass(frozen=True)
class GameIn:
    end: End
    racks: tuple[RackIn, ...]
    winner: int | None = None  # rummikub: given, or implied by the one blank rack
    sanctions: Mapping[int, int] = field(default_factory=dict)  # player -> points (> 0)


@dataclass(frozen=True)
class RackOut:
    player: int
    tiles: str | None  # canonical notation; None when the rack was entered by totals
    points: int  # rack value
    tile_count: int | None
    jokers: int
    no_meld: NoMeld
    charge: int
    score: int
    winner: bool
    sanction: int


@dataclass(frozen=True)
class GameOut:
    end: str
    racks: tuple[RackOut, ...]  # in the order of the input
    winners: tuple[int, ...]
    zero_sum: bool

    @cached_property
    def finishes(self) -> dict[int, Finish]:
        """Each player's place in the game's finishing order by the scores above, as the
        rack entries store it (`scoring.placement.finishes`)."""
        scores = {rack.player: rack.score for rack in self.racks}
        return finishes(scores, {rack.player for rack in self.racks if rack.winner})


@dataclass(frozen=True)
class _Rack:
    """What validation established about one rack."""

    index: int
    player: int
    value: int
    tile_count: int | None
    jokers: int
    no_meld: NoMeld
    face: int  # face values only, jokers excluded
    by_tiles: bool  # entered as tiles rather than totals
    label: str = ""  # how messages name the player

    @property
    def where(self) -> tuple[str | int, ...]:
        """Where a problem with the rack's contents is reported."""
        return ("racks", self.index, "tiles" if self.by_tiles else "points")

    @property
    def empty(self) -> bool:
        # Totals without a count: no jokers and 0 points can only be no tiles at all.
        return self.tile_count == 0 or (self.tile_count is None and self.value == 0 == self.jokers)


def check_rack(index: int, rack: RackIn, rules: RuleSet) -> None:
    """One rack's own checks (docs/rules/tiles-and-games.md and docs/rules/scoring.md),
    exactly as `score_game` makes them: for a caller that reports this rack's problems while
    other racks could not even be read."""
    _read_rack(index, rack, rules)


def validate_game(game: GameIn, rules: RuleSet) -> None:
    """Raise RuleError (or RuleErrors, several at once) if the game cannot have happened."""
    _validated(game, rules)


def check_readable(
    end: str, winner: int | None, racks: Sequence[RackIn | None], rules: RuleSet
) -> list[RuleError]:
    """Every problem the engine can find in a game some of whose racks could not even be
    read (``None``, keeping its place): each readable rack's own checks, and whether it
    fits the end and the winner. For a caller that reports all problems at once."""
    _, _, errors = _examine(end, winner, {}, racks, rules)
    return errors


def score_game(game: GameIn, rules: RuleSet) -> GameOut:
    """Validate the game, then score it by docs/rules/scoring.md."""
    racks, winners = _validated(game, rules)
    charges = _charges(game.end, racks, winners, rules)
    scores = _scores(racks, winners, charges, rules)
    for player, points in game.sanctions.items():
        scores[player] -= points
    zero_sum = (
        len(winners) == 1
        and not rules.no_meld_pays_each
        and rules.win_bonus == 0 == rules.runner_up_bonus
        and not game.sanctions
    )
    if zero_sum and sum(scores.values()) != 0:
        # A real check, not ``assert``: it must hold under ``python -O`` too.
        raise AssertionError(f"scores {scores} of a zero-sum game do not add up to 0")
    return GameOut(
        end=game.end,
        racks=tuple(
            _rack_out(entry, rack, charges, scores, winners, game.sanctions)
            for entry, rack in zip(game.racks, racks, strict=True)
        ),
        winners=winners,
        zero_sum=zero_sum,
    )


def forfeit_charge(rules: RuleSet) -> int:
    """What an absent seat pays for a forfeited game (see "Forfeits" above)."""
    charge = FORFEIT_RACK_VALUE if rules.no_meld_charge is None else rules.no_meld_charge
    return charge if rules.loss_cap is None else min(charge, rules.loss_cap)


def score_forfeit(
    *, present: Sequence[int], absent: Sequence[int], rule: str, rules: RuleSet
) -> GameOut:
    """Score a game that the ``absent`` seats forfeit by ``rule`` (see "Forfeits" above).

    ``present`` lists the players who were there in play order from the game's starter
    (that order decides who gets the points that do not divide). Racks come out present
    seats first, then the absent ones; an absent seat's rack value is its charge.
    """
    if rule not in FORFEIT_RULES:
        raise RuleError(
            "forfeit_rule",
            _("unknown forfeit rule {rule}; use shared or absent_only").format(rule=repr(rule)),
        )
    if not absent or not present or set(present) & set(absent):
        raise RuleError("player", _("a forfeit needs an absent seat and at least one present"))
    if len(present) + len(absent) > MAX_RACKS or len(set(present)) != len(present):
        raise RuleError(
            "player", _("a game has at most {seats} distinct seats").format(seats=MAX_RACKS)
        )
    charge = forfeit_charge(rules)
    pot = charge * len(absent) if rule == "shared" else 0
    share, rest = divmod(pot, len(present))
    winners = tuple(present) if rule == "shared" else ()
    racks = [
        RackOut(
            player=player,
            tiles=None,
            points=0,
            tile_count=None,
            jokers=0,
            no_meld=None,
            charge=0,
            score=share + (1 if index < rest else 0),
            winner=player in winners,
            sanction=0,
        )
        for index, player in enumerate(present)
    ]
    racks += [
        RackOut(
            player=player,
            tiles=None,
            points=charge,
            tile_count=None,
            jokers=0,
            no_meld=None,
            charge=charge,
            score=-charge,
            winner=False,
            sanction=0,
        )
        for player in absent
    ]
    return GameOut(end="forfeit", racks=tuple(racks), winners=winners, zero_sum=rule == "shared")


def _charges(
    end: str, racks: list[_Rack], winners: tuple[int, ...], rules: RuleSet
) -> dict[int, int]:
    """Each player's charge: what they pay as a loser, 0 for a winner."""
    reference = 0
    if end == "pool_exhausted" and rules.exhausted_scoring == "difference":
        # Losers pay the difference to the winner's *rack value* -- what the winner holds,
        # never a no-meld charge, which is a loser's penalty. Tied winners have equal rack
        # values (fewest_tiles breaks count ties by points), so any one of them will do.
        reference = next(rack.value for rack in racks if rack.player in winners)
    return {
        rack.player: 0 if rack.player in winners else _charge(rack, reference, rules)
        for rack in racks
    }


def _scores(
    racks: list[_Rack], winners: tuple[int, ...], charges: Mapping[int, int], rules: RuleSet
) -> dict[int, int]:
    """Game scores before sanctions: payments, then bonuses (docs/rules/scoring.md)."""
    players = [rack.player for rack in racks]
    losers = [rack for rack in racks if rack.player not in winners]
    scores = dict.fromkeys(players, 0)
    for rack in losers:
        paid = charges[rack.player]
        scores[rack.player] -= paid
        # With no_meld_pays_each a loser without the opening meld pays everyone else.
        if rules.no_meld_pays_each and rack.no_meld is not None:
            payees = [player for player in players if player != rack.player]
        else:
            payees = list(winners)
        for payee in payees:
            scores[payee] += paid
    for player in winners:
        scores[player] += rules.win_bonus
    if losers:
        # Runner-up: the loser(s) who paid least -- in a two-player game, the one loser.
        least = min(charges[rack.player] for rack in losers)
        for rack in losers:
            if charges[rack.player] == least:
                scores[rack.player] += rules.runner_up_bonus
    return scores


def _charge(rack: _Rack, reference: int, rules: RuleSet) -> int:
    """What this rack pays as a loser.

    The no-meld charge replaces the rack value (docs/rules/scoring.md#rack-value). The loss
    cap limits what the loser finally pays, so it comes after the difference to the winner's
    rack:
    capping first would let a winner holding more than the cap collect nothing at all.
    """
    charge = rack.value
    fixed = _no_meld_charge(rack.no_meld, rules)
    if fixed is not None:
        charge = fixed
    charge = max(0, charge - reference)
    return charge if rules.loss_cap is None else min(charge, rules.loss_cap)


def _no_meld_charge(no_meld: NoMeld, rules: RuleSet) -> int | None:
    if no_meld == "declined" and rules.no_meld_declined_charge is not None:
        return rules.no_meld_declined_charge
    return rules.no_meld_charge if no_meld is not None else None


def _rack_out(
    entry: RackIn,
    rack: _Rack,
    charges: Mapping[int, int],
    scores: Mapping[int, int],
    winners: tuple[int, ...],
    sanctions: Mapping[int, int],
) -> RackOut:
    return RackOut(
        player=rack.player,
        tiles=None if entry.tiles is None else format_tiles(entry.tiles),
        points=rack.value,
        tile_count=rack.tile_count,
        jokers=rack.jokers,
        no_meld=rack.no_meld,
        charge=charges[rack.player],
        score=scores[rack.player],
        winner=rack.player in winners,
        sanction=sanctions.get(rack.player, 0),
    )


# --- validation -------------------------------------------------------------------------


def _validated(game: GameIn, rules: RuleSet) -> tuple[list[_Rack], tuple[int, ...]]:
    """The racks as established facts and the winners, or RuleError(s)."""
    racks, winners, errors = _examine(game.end, game.winner, game.sanctions, game.racks, rules)
    raise_all(errors)
    return racks, winners


def _examine(
    end: str,
    winner: int | None,
    sanctions: Mapping[int, int],
    entries: Sequence[RackIn | None],
    rules: RuleSet,
) -> tuple[list[_Rack], tuple[int, ...], list[RuleError]]:
    """The racks read, the winners and every problem found. ``None`` is a rack the caller
    could not read (its problems are the caller's); the checks that need every rack then
    wait, the rack-local ones run on the others."""
    errors: list[RuleError] = []
    if end not in ENDS:
        errors.append(
            RuleError(
                "end",
                _("unknown end {end}; use rummikub or pool_exhausted").format(end=repr(end)),
            )
        )
    if not MIN_RACKS <= len(entries) <= MAX_RACKS:
        errors.append(
            RuleError(
                "racks",
                _("a game has {low} to {high} racks, not {count}").format(
                    low=MIN_RACKS, high=MAX_RACKS, count=len(entries)
                ),
            )
        )
    racks: list[_Rack] = []
    players: list[int] = []
    labels: dict[int, str] = {}
    for index, entry in enumerate(entries):
        if entry is None:
            continue
        if entry.player in players:
            errors.append(
                RuleError(
                    ("racks", index, "player"),
                    _("{player} appears twice").format(player=entry.label),
                )
            )
        players.append(entry.player)
        labels.setdefault(entry.player, entry.label)
        try:
            racks.append(_read_rack(index, entry, rules))
        except RuleError as error:
            errors.append(error)
    complete = len(racks) == len(entries)  # also: no rack failed its own checks
    errors += _winner_errors(winner, players, labels)
    errors += _sanction_errors(sanctions, players, labels)
    if end == "rummikub" and winner is None:
        winner, problem = _implied_winner(racks)
        errors += problem
    # Availability over the racks read is a lower bound, so what it finds is real even
    # when some rack could not be read; likewise the rack-local end checks.
    errors += _supply_errors(entries, racks)
    errors += _end_errors(end, winner, players, racks, rules)
    if errors or not complete:
        return racks, (), errors
    if end == "rummikub":
        assert winner is not None
        return racks, (winner,), []
    winners, more = _exhausted_winners(winner, racks, rules)
    return racks, winners, more


def _end_errors(
    end: str, winner: int | None, players: list[int], racks: list[_Rack], rules: RuleSet
) -> list[RuleError]:
    """What each rack read says against the end (and the winner of a Rummikub end)."""
    if end == "rummikub":
        return _rummikub_errors(winner, racks) if winner in players else []
    if end == "pool_exhausted":
        return _exhausted_rack_errors(racks, rules)
    return []


def _implied_winner(racks: list[_Rack]) -> tuple[int | None, list[RuleError]]:
    """A Rummikub end without a winner given: the one blank rack names the winner."""
    blank = [rack for rack in racks if rack.empty]
    if len(blank) == 1:
        return blank[0].player, []
    if not blank:
        return None, [
            RuleError(
                "winner",
                _(
                    "a Rummikub end needs the winner who emptied the rack: choose the winner "
                    "or leave their rack blank"
                ),
            )
        ]
    names = and_list([rack.label for rack in blank])
    return None, [
        RuleError(
            "winner",
            _("{players} all have blank racks; choose the winner who went out").format(
                players=names
            ),
        )
    ]


def _read_rack(index: int, entry: RackIn, rules: RuleSet) -> _Rack:
    """One rack's own checks (docs/rules/tiles-and-games.md and docs/rules/scoring.md); the
    first problem is raised."""
    who = entry.label
    if entry.no_meld not in (None, *NO_MELD_KINDS):
        raise RuleError(
            ("racks", index, "no_meld"),
            _("{player}: unknown no-meld flag {flag}; use could_not, declined or null").format(
                player=who, flag=repr(entry.no_meld)
            ),
        )
    if entry.tiles is not None:
        if entry.points is not None or entry.tile_count is not None or entry.jokers:
            raise RuleError(
                ("racks", index, "points"),
                _("{player}'s rack has both tiles and totals; give the tiles or the points").format(
                    player=who
                ),
            )
        tiles = entry.tiles
        face, jokers = rack_face_value(tiles), joker_count(tiles)
        value = face + jokers * rules.joker_penalty
        return _Rack(index, entry.player, value, len(tiles), jokers, entry.no_meld, face, True, who)
    face = _checked_face(index, entry, rules.joker_penalty)
    points = entry.points or 0
    return _Rack(
        index, entry.player, points, entry.tile_count, entry.jokers, entry.no_meld, face, False, who
    )


def _checked_face(index: int, entry: RackIn, joker_penalty: int) -> int:
    """The face value behind a rack entered by totals, if such a rack can exist."""
    who = entry.label
    points, count, jokers = entry.points, entry.tile_count, entry.jokers

    def error(name: str, message: str) -> RuleError:
        return RuleError(
            ("racks", index, name), _("{player}: {problem}").format(player=who, problem=message)
        )

    if points is None:
        if count is None and not jokers:
            raise error("tiles", _("the rack is missing; give its tiles or its points"))
        raise error("points", _("points are required when the rack is entered by totals"))
    if points < 0:
        raise error("points", _("points cannot be negative, got {points}").format(points=points))
    if count is not None and not 0 <= count <= TOTAL_TILES:
        raise error(
            "tile_count",
            _("tile count must be 0 to {total}, got {count}").format(
                total=TOTAL_TILES, count=count
            ),
        )
    if not 0 <= jokers <= MAX_JOKERS:
        raise error(
            "jokers",
            _("jokers must be 0 to {most}, got {jokers}").format(most=MAX_JOKERS, jokers=jokers),
        )
    if count is not None and jokers > count:
        raise error(
            "jokers",
            _("{jokers} cannot be among {tiles}").format(
                jokers=_jokers(jokers), tiles=_tiles(count)
            ),
        )
    face = points - jokers * joker_penalty
    if face < 0:
        raise error(
            "points",
            ngettext(
                "{points} point cannot include {jokers} at {charge}",
                "{points} points cannot include {jokers} at {charge}",
                points,
            ).format(points=points, jokers=_jokers(jokers), charge=joker_penalty),
        )
    _check_face_fits(face, entry, joker_penalty, error)
    return face


def _check_face_fits(
    face: int, entry: RackIn, joker_penalty: int, error: Callable[[str, str], RuleError]
) -> None:
    """Whether the numbered tiles behind a rack entered by totals can be worth `face`:
    at most all numbered tiles of a game, or, with a tile count, what that many tiles can
    be worth."""
    points, count, jokers = entry.points, entry.tile_count, entry.jokers
    if count is None:
        if face > NUMBERED_TOTAL_VALUE:
            raise error(
                "points",
                ngettext(
                    "{points} point is more than a rack can hold: all numbered tiles are "
                    "worth {total}, plus {charge} per joker",
                    "{points} points is more than a rack can hold: all numbered tiles are "
                    "worth {total}, plus {charge} per joker",
                    face if points is None else points,
                ).format(points=points, total=NUMBERED_TOTAL_VALUE, charge=joker_penalty),
            )
        return
    numbered = count - jokers
    if numbered > NUMBERED_TILES:
        raise error(
            "tile_count",
            ngettext(
                "{count} numbered tile; a game has {total}",
                "{count} numbered tiles; a game has {total}",
                numbered,
            ).format(count=numbered, total=NUMBERED_TILES),
        )
    low, high = face_value_bounds(numbered)
    if not low <= face <= high:
        facts = {"tiles": _numbered_tiles(numbered), "low": low, "high": high, "points": points}
        if jokers:
            message = _(
                "{tiles} can be worth {low} to {high} points, so {points} points after "
                "{jokers} at {charge} is impossible"
            ).format(**facts, jokers=_jokers(jokers), charge=joker_penalty)
        else:
            message = _(
                "{tiles} can be worth {low} to {high} points, so {points} points is impossible"
            ).format(**facts)
        raise error("points", message)


def _winner_errors(
    winner: int | None, players: list[int], labels: Mapping[int, str]
) -> list[RuleError]:
    if winner is None or winner in players:
        return []
    # Not at this table, so no name is known for it: the id is what the caller sent.
    at_table = ", ".join(
        labels[player] if labels[player] != player_label(player) else str(player)
        for player in players
    )
    return [
        RuleError(
            "winner",
            _("player {number} is not in this game ({players})").format(
                number=winner, players=at_table
            ),
        )
    ]


def _sanction_errors(
    sanctions: Mapping[int, int], players: list[int], labels: Mapping[int, str]
) -> list[RuleError]:
    # Keyed by player id, not list position, so the error sits on the mapping itself.
    errors = []
    for player, points in sanctions.items():
        if player not in players:
            errors.append(
                RuleError(
                    "sanctions", _("player {number} is not in this game").format(number=player)
                )
            )
        elif isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            errors.append(
                RuleError(
                    "sanctions",
                    _(
                        "{player}'s sanction must be a positive number of points, not {points}"
                    ).format(player=labels[player], points=repr(points)),
                )
            )
    return errors


def _supply_errors(entries: Sequence[RackIn | None], racks: list[_Rack]) -> list[RuleError]:
    """Availability over the racks (docs/rules/tiles-and-games.md#availability), racks
    entered by totals included."""
    try:
        check_availability([entry.tiles if entry else None for entry in entries])
    except RuleError as error:
        index = error.path[1]
        entry = entries[index] if isinstance(index, int) else None
        label = entry.label if entry is not None else _("a rack")
        return [
            RuleError(
                error.path, _("{player}: {problem}").format(player=label, problem=error.message)
            )
        ]
    # Racks entered by totals hide their tiles, but their counts still add up.
    jokers = tiles = face = 0
    for rack in racks:
        jokers += rack.jokers
        tiles += rack.tile_count or 0
        face += rack.face
        if jokers > MAX_JOKERS:
            problem = (
                "jokers",
                _("a third joker over the racks; a game has {jokers}").format(jokers=MAX_JOKERS),
            )
        elif tiles > TOTAL_TILES:
            problem = (
                "tile_count",
                _("{tiles} tiles over the racks; a game has {total}").format(
                    tiles=tiles, total=TOTAL_TILES
                ),
            )
        elif face > NUMBERED_TOTAL_VALUE:
            problem = (
                "points",
                _(
                    "the racks hold {points} points of numbered tiles; "
                    "all of a game's numbered tiles are worth {total}"
                ).format(points=face, total=NUMBERED_TOTAL_VALUE),
            )
        else:
            continue
        name = "tiles" if rack.by_tiles else problem[0]
        return [
            RuleError(
                ("racks", rack.index, name),
                _("{player}: {problem}").format(player=rack.label, problem=problem[1]),
            )
        ]
    return []


def _rummikub_errors(winner: int | None, racks: list[_Rack]) -> list[RuleError]:
    errors = []
    went_out = next(
        (rack.label for rack in racks if rack.player == winner), player_label(winner or 0)
    )
    for rack in racks:
        if rack.player == winner:
            if not rack.empty:
                errors.append(
                    RuleError(
                        rack.where,
                        _("{player} went out, so their rack must be empty, not {holding}").format(
                            player=went_out, holding=_holding(rack)
                        ),
                    )
                )
            if rack.no_meld is not None:
                errors.append(
                    RuleError(
                        ("racks", rack.index, "no_meld"),
                        _(
                            "{player} went out, so they made the opening meld; "
                            "clear the no-meld flag"
                        ).format(player=went_out),
                    )
                )
        elif rack.empty:
            errors.append(
                RuleError(
                    rack.where,
                    _("{player}'s rack is empty, but only the winner, {winner}, went out").format(
                        player=rack.label, winner=went_out
                    ),
                )
            )
    return errors


def _exhausted_rack_errors(racks: list[_Rack], rules: RuleSet) -> list[RuleError]:
    """What each rack says against a pool-exhausted end (docs/rules/tiles-and-games.md)."""
    errors = [
        RuleError(
            rack.where,
            _("{player}'s rack is empty: that is a Rummikub end, not pool exhausted").format(
                player=rack.label
            ),
        )
        for rack in racks
        if rack.empty
    ]
    if rules.exhausted_winner == "fewest_tiles":
        errors += [
            RuleError(
                ("racks", rack.index, "tile_count"),
                _(
                    "{player}'s tile count is required because the rules decide "
                    "a pool-exhausted game by fewest tiles"
                ).format(player=rack.label),
            )
            for rack in racks
            if rack.tile_count is None
        ]
    return errors


def _exhausted_winners(
    given: int | None, racks: list[_Rack], rules: RuleSet
) -> tuple[tuple[int, ...], list[RuleError]]:
    """The lowest racks when the pool ran out (docs/rules/tiles-and-games.md), and errors if any.

    The rack value decides, never a no-meld charge: the charge is what a loser pays,
    the rack is what the player holds, and "lowest rack" is about what they hold.
    Each rack's own problems (``_exhausted_rack_errors``) are already ruled out.
    """
    by_tiles = rules.exhausted_winner == "fewest_tiles"

    def rank(rack: _Rack) -> tuple[int, ...]:
        # Decision (docs/rules/tiles-and-games.md): fewest tiles, a tie broken by lower points.
        return (rack.tile_count or 0, rack.value) if by_tiles else (rack.value,)

    lowest = min(rank(rack) for rack in racks)
    winners = tuple(rack.player for rack in racks if rank(rack) == lowest)
    if given is not None and given not in winners:
        return winners, [RuleError("winner", _not_lowest(given, winners, racks, by_tiles))]
    return winners, []


def player_label(player: int) -> str:
    """How messages name a player the caller gave no name for: "player 12"."""
    return _("player {number}").format(number=player)


def and_list(labels: Sequence[str]) -> str:
    """ "Ada", "Ada and Bo", "Ada, Bo and Cy": names listed in a message."""
    if len(labels) == 1:
        return labels[0]
    return _("{players} and {last}").format(players=", ".join(labels[:-1]), last=labels[-1])


def _points(count: int) -> str:
    return ngettext("{count} point", "{count} points", count).format(count=count)


def _tiles(count: int) -> str:
    return ngettext("{count} tile", "{count} tiles", count).format(count=count)


def _numbered_tiles(count: int) -> str:
    return ngettext("{count} numbered tile", "{count} numbered tiles", count).format(count=count)


def _jokers(count: int) -> str:
    return ngettext("{count} joker", "{count} jokers", count).format(count=count)


def _holding(rack: _Rack) -> str:
    """What a rack holds, in words: "2 tiles, 10 points" or "10 points"."""
    points = _points(rack.value)
    if rack.tile_count is None:
        return points
    return _("{tiles}, {points}").format(tiles=_tiles(rack.tile_count), points=points)


def _not_lowest(given: int, winners: tuple[int, ...], racks: list[_Rack], by_tiles: bool) -> str:
    best = next(rack for rack in racks if rack.player in winners)
    claimed = next(rack for rack in racks if rack.player == given)
    lowest_racks = [rack for rack in racks if rack.player in winners]

    def holding(rack: _Rack) -> str:
        return _holding(rack) if by_tiles else _points(rack.value)

    facts = {
        "player": claimed.label,
        "holding": holding(claimed),
        "best_holding": holding(best),
    }
    # One whole sentence for each case: the verb follows how many are lowest.
    if len(lowest_racks) == 1:
        if by_tiles:
            message = _(
                "{player} is not lowest by fewest tiles: {best} has {best_holding}, "
                "{player} has {holding}"
            )
        else:
            message = _(
                "{player} is not lowest by lowest points: {best} has {best_holding}, "
                "{player} has {holding}"
            )
        return message.format(**facts, best=best.label)
    if all(rack.label == player_label(rack.player) for rack in lowest_racks):
        numbers = ", ".join(str(rack.player) for rack in lowest_racks)
        if by_tiles:
            message = _(
                "{player} is not lowest by fewest tiles: players {numbers} have "
                "{best_holding}, {player} has {holding}"
            )
        else:
            message = _(
                "{player} is not lowest by lowest points: players {numbers} have "
                "{best_holding}, {player} has {holding}"
            )
        return message.format(**facts, numbers=numbers)
    names = and_list([rack.label for rack in lowest_racks])
    if by_tiles:
        message = _(
            "{player} is not lowest by fewest tiles: {best} have {best_holding}, "
            "{player} has {holding}"
        )
    else:
        message = _(
            "{player} is not lowest by lowest points: {best} have {best_holding}, "
            "{player} has {holding}"
        )
    return message.format(**facts, best=names)
