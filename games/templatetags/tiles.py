"""Tiles on pages: ``{{ rack.tiles|tile_chips }}`` shows canonical notation as coloured
chips, ``<span class="tile tile-orange" title="orange 1">O1</span>``.

Terms: a *chip* keeps the token's text (colour letter + number, ``J``), so copying it
gives notation back and nobody depends on colour alone; the colour (static/css/site.css,
``.tile-*``) and a monospace font with a slashed zero keep ``O1`` apart from ``01``.
A token the notation does not know (old or hand-made data) is shown as it is, escaped.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from scoring.errors import RuleError
from scoring.tiles import COLOUR_NAMES, parse_tile

register = template.Library()


def _chip(token: str) -> tuple[str, str, str]:
    """(css class, title, text) of one token."""
    try:
        tile = parse_tile(token)
    except RuleError:
        return "tile tile-bare", "not a tile", token
    if tile.is_joker:
        return "tile tile-joker", "joker", str(tile)
    if tile.colour is None:
        return "tile tile-bare", f"{tile.number}, colour not noted", str(tile)
    name = COLOUR_NAMES[tile.colour]
    return f"tile tile-{name}", f"{name} {tile.number}", str(tile)


@register.filter
def tile_chips(text: str | None) -> SafeString:
    """Canonical tiles text -> chips; None or "" -> nothing (the caller says what that
    means: by totals, or an empty rack)."""
    tokens = (text or "").split()
    if not tokens:
        return mark_safe("")
    chips = format_html_join(
        " ", '<span class="{}" title="{}">{}</span>', (_chip(token) for token in tokens)
    )
    return format_html('<span class="tile-row">{}</span>', chips)
