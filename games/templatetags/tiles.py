"""Tiles on pages: ``{{ rack.tiles|tile_chips }}`` shows canonical notation as coloured
chips, ``<span class="tile tile-orange" title="orange 1"><span class="tile-colour">O</span>1
</span>``.

Terms: a *chip* keeps the token's text (colour letter + number, ``J``), so copying it
gives notation back and nobody depends on colour alone. The colour letter is set small
and raised before the big number (``.tile-colour``), as the number is printed on a real
tile, so ``O1`` never reads as ``01``, whatever the font; the colour
(static/css/site.css, ``.tile-*``) says it once more.
A token the notation does not know (old or hand-made data) is shown as it is, escaped.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import RuleError
from scoring.tiles import COLOUR_NAMES, parse_tile

register = template.Library()

# A chip's title, one whole message per colour (a colour's name may change form beside
# a number); the CSS class keeps the English name of scoring.tiles.COLOUR_NAMES.
_TITLES = {
    "B": gettext_lazy("blue %(number)s"),
    "R": gettext_lazy("red %(number)s"),
    "O": gettext_lazy("orange %(number)s"),
    "K": gettext_lazy("black %(number)s"),
}


def _chip(token: str) -> tuple[str, str, str, str]:
    """(css class, title, colour letter, the rest) of one token."""
    try:
        tile = parse_tile(token)
    except RuleError:
        return "tile tile-bare", _("not a tile"), "", token
    if tile.is_joker:
        return "tile tile-joker", _("joker"), "", str(tile)
    if tile.colour is None:
        title = _("%(number)s, colour not noted") % {"number": tile.number}
        return "tile tile-bare", title, "", str(tile)
    name = COLOUR_NAMES[tile.colour]
    title = _TITLES[tile.colour] % {"number": tile.number}
    return f"tile tile-{name}", title, tile.colour, str(tile.number)


def _chip_html(css: str, title: str, letter: str, rest: str) -> SafeString:
    if letter:
        return format_html(
            '<span class="{}" title="{}"><span class="tile-colour">{}</span>{}</span>',
            css,
            title,
            letter,
            rest,
        )
    return format_html('<span class="{}" title="{}">{}</span>', css, title, rest)


@register.filter
def tile_chips(text: str | None) -> SafeString:
    """Canonical tiles text -> chips; None or "" -> nothing (the caller says what that
    means: by totals, or an empty rack)."""
    tokens = (text or "").split()
    if not tokens:
        return mark_safe("")
    chips = format_html_join(" ", "{}", ((_chip_html(*_chip(token)),) for token in tokens))
    return format_html('<span class="tile-row">{}</span>', chips)
