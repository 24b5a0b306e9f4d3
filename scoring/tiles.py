"""Tiles, the notation for writing them down, and what one game's tiles can be.

Terms (docs/rules/tiles-and-games.md):

* **tile** — a numbered tile (colour + number 1..13), a joker, or a numbered tile whose
  colour the scorekeeper did not note (a *bare number*).
* **token** — one tile written down: ``R5``, ``K13``, ``J`` (joker), ``7`` (bare number).
  Colours: ``B`` blue, ``R`` red, ``O`` orange (``Y`` for yellow sets), ``K`` black.
  Tokens are separated by spaces and/or commas; case does not matter.
* **rack** — the tiles one player still holds when the game ends.
* **face value** — a tile's number; a joker has none here, because what a joker costs is a
  rule option (``rules.RuleSet.joker_penalty``).
* **availability** — the tile set has 2 of each (colour, number), so 8 of each number,
  2 jokers and 106 tiles in all; the racks of one game together cannot hold more.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scoring.errors import Path, RuleError
from scoring.i18n import _, gettext_noop

COLOURS: tuple[str, ...] = ("B", "R", "O", "K")  # also the canonical sort order
COLOUR_NAMES: dict[str, str] = {"B": "blue", "R": "red", "O": "orange", "K": "black"}
COLOUR_ALIASES: dict[str, str] = {"Y": "O"}  # some sets sell orange as yellow
JOKER_TOKEN = "J"
NUMBERS = range(1, 14)
COPIES = 2  # of each (colour, number)
NUMBER_LIMIT = COPIES * len(COLOURS)  # tiles of one number over all colours
MAX_JOKERS = 2
NUMBERED_TILES = NUMBER_LIMIT * len(NUMBERS)  # 104
TOTAL_TILES = NUMBERED_TILES + MAX_JOKERS  # 106
NUMBERED_TOTAL_VALUE = NUMBER_LIMIT * sum(NUMBERS)  # 728

_SEPARATORS = re.compile(r"[\s,]+")
_NUMBERED_TOKEN = re.compile(r"([A-Z]?)([0-9]+)", re.ASCII)
_HOW_TO_WRITE = gettext_noop(
    "write a colour B, R, O (or Y) or K and a number 1 to 13, like R5, or J for a joker"
)


@dataclass(frozen=True, order=True)
class Tile:
    """One tile; a joker has neither colour nor number, a bare number has no colour."""

    # Ordering compares this key first: colours in their canonical order, then tiles of
    # unknown colour, then jokers. Derived from the other fields, so equality is unchanged.
    sort_key: tuple[int, int] = field(init=False, repr=False)
    colour: str | None
    number: int | None

    def __post_init__(self) -> None:
        if self.colour is not None and self.colour not in COLOURS:
            raise ValueError(f"unknown colour {self.colour!r}")
        if self.number is None and self.colour is not None:
            raise ValueError("a coloured tile needs a number")
        if self.number is not None and self.number not in NUMBERS:
            raise ValueError(f"tile number {self.number!r} is not 1 to 13")
        colour_rank = COLOURS.index(self.colour) if self.colour else len(COLOURS)
        if self.number is None:
            colour_rank += 1
        object.__setattr__(self, "sort_key", (colour_rank, self.number or 0))

    @property
    def is_joker(self) -> bool:
        return self.colour is None and self.number is None

    @property
    def value(self) -> int:
        """Face value: the number; 0 for a joker (its charge comes from the rules)."""
        return self.number or 0

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_TOKEN
        return f"{self.colour or ''}{self.number}"


JOKER = Tile(None, None)


def parse_tile(token: str, field: str | Path = "tiles") -> Tile:
    """One token -> a Tile; a RuleError naming the token when it is not one."""
    text = token.strip().upper()
    if text == JOKER_TOKEN:
        return JOKER
    match = _NUMBERED_TOKEN.fullmatch(text)
    if match is None:
        if text in COLOURS or text in COLOUR_ALIASES:
            raise RuleError(
                field,
                _("tile {token} has no number; {how}").format(
                    token=repr(token), how=_(_HOW_TO_WRITE)
                ),
            )
        raise RuleError(
            field,
            _("unknown tile {token}; {how}").format(token=repr(token), how=_(_HOW_TO_WRITE)),
        )
    letter, digits = match.groups()
    if letter == JOKER_TOKEN:
        raise RuleError(
            field, _("{token} is not a tile: a joker is written J alone").format(token=repr(token))
        )
    colour = COLOUR_ALIASES.get(letter, letter) or None
    if colour is not None and colour not in COLOURS:
        raise RuleError(
            field,
            _("unknown colour {letter} in tile {token}; {how}").format(
                letter=repr(letter), token=repr(token), how=_(_HOW_TO_WRITE)
            ),
        )
    # Leading zeros aside, a number of more than two digits is never a tile; checking the
    # length first also keeps a pasted wall of digits away from int() and its size limit.
    number = int(digits) if len(digits.lstrip("0")) <= 2 else None
    if number not in NUMBERS:
        shown = number if number is not None else f"{digits[:6]}…"
        raise RuleError(
            field,
            _("tile {token} has number {number}; numbers are 1 to 13").format(
                token=repr(token), number=shown
            ),
        )
    return Tile(colour, number)


def parse_tiles(text: str, field: str | Path = "tiles") -> tuple[Tile, ...]:
    """A rack written in the notation -> its tiles, in the order written.

    The empty string is an empty rack. The first bad token stops parsing with a RuleError
    on ``field`` that names it.
    """
    return tuple(parse_tile(token, field) for token in _SEPARATORS.split(text) if token)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Tiles -> canonical notation: sorted, upper case, ``O`` not ``Y``, space separated."""
    return " ".join(str(tile) for tile in sorted(tiles))


def rack_face_value(tiles: Iterable[Tile]) -> int:
    """Sum of the numbers on the rack; jokers count 0 here."""
    return sum(tile.value for tile in tiles)


def joker_count(tiles: Iterable[Tile]) -> int:
    return sum(1 for tile in tiles if tile.is_joker)


def face_value_bounds(count: int) -> tuple[int, int]:
    """Lowest and highest face value ``count`` numbered tiles of one game can have.

    The lowest takes the 8 ones, then the 8 twos, ...; the highest starts from the 13s.
    Every value in between is reachable too (swap one tile for the next number up).
    """
    if not 0 <= count <= NUMBERED_TILES:
        raise ValueError(f"{count} numbered tiles do not exist in one game")
    ascending = [number for number in NUMBERS for _ in range(NUMBER_LIMIT)]
    return sum(ascending[:count]), sum(ascending[NUMBERED_TILES - count :])


def check_availability(racks: Sequence[Sequence[Tile] | None], field: str | Path = "racks") -> None:
    """Raise a RuleError if the racks of one game hold tiles the set does not have.

    Racks are counted in order; the error is on ``(field, i, "tiles")`` for the rack where
    a limit is first exceeded and names the tile. A rack given as ``None`` (entered by
    totals, tiles unknown) is skipped but keeps its index.
    """
    prefix = (field,) if isinstance(field, str) else tuple(field)
    copies: Counter[Tile] = Counter()
    numbers: Counter[int] = Counter()
    jokers = total = 0
    for index, rack in enumerate(racks):
        where = (*prefix, index, "tiles")
        for tile in rack or ():
            total += 1
            if total > TOTAL_TILES:
                raise RuleError(
                    where,
                    _("one tile too many ({tile}): a game has only {total} tiles").format(
                        tile=tile, total=TOTAL_TILES
                    ),
                )
            if tile.is_joker:
                jokers += 1
                if jokers > MAX_JOKERS:
                    raise RuleError(
                        where,
                        _("a third joker (J): a game has only {jokers}").format(jokers=MAX_JOKERS),
                    )
                continue
            assert tile.number is not None
            numbers[tile.number] += 1
            if numbers[tile.number] > NUMBER_LIMIT:
                raise RuleError(
                    where,
                    _(
                        "a ninth tile numbered {number} ({tile}): a game has only {limit} of "
                        "each number, tiles of unknown colour included"
                    ).format(number=tile.number, tile=tile, limit=NUMBER_LIMIT),
                )
            if tile.colour is not None:
                copies[tile] += 1
                if copies[tile] > COPIES:
                    raise RuleError(
                        where,
                        _("a third {tile}: a game has only {copies} of each tile").format(
                            tile=tile, copies=COPIES
                        ),
                    )
