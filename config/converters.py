"""The path converters of every address, registered once by the root URLconf
(`config.urls`, before any app's routes are read).

Terms:
* id — a database id or a number (round, table, game, stage, start number) in an API
  path (`/api/v1/games/<id:pk>/`).
* num — the same in a page address (`/t/<slug>/rounds/<num:round_number>/`).

Both are the one `NumberConverter`: ASCII digits, at most 18 of them, so a value always
fits a 64-bit column. A longer one matches no route; a shorter one too big for its
column (a round number over 2**31) finds no row, since Django answers an out-of-range
integer lookup with no rows. Either way a 404, never a 500.
"""

from __future__ import annotations

from django.urls import register_converter

# The digits a path number may have: 18 always fit a signed 64-bit integer.
MAX_DIGITS = 18


class NumberConverter:
    """A database id or number in a path, at most `MAX_DIGITS` digits."""

    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    """Register the converters by the names the routes use."""
    for name in ("id", "num"):
        register_converter(NumberConverter, name)
