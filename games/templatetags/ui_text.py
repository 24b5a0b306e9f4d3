"""The words the site's scripts show (static/js/*.js), in the reader's language.

The scripts have no translation catalog of their own (no JavaScript build step): every page
carries these words as JSON (`{% ui_text %}` in base.html and the standalone pages, read by
static/js/words.js), and each script falls back to its own English when a word is missing.

Terms:
* word — one message a script shows, under a stable key. `{name}`-style placeholders are
  filled in by the script (`{name}` a player's name, `{seat}` a seat number, `{number}` a
  tile's number, `{points}` a rack's value, `{label}` what a queued entry is).
* counted word — a message with a count (`{count}`): sent as its forms for the counts
  0 … `COUNTED_UP_TO`, so a language with several plural forms (Polish) gets each right;
  past that the script reuses the form of 20 + the count's last digit (words.js).
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext, pgettext

register = template.Library()

# Counts sent for each counted word. Past it words.js takes the form of 20 + the last
# digit, which is right for every count up to 111 in en, nl, de, pl (12-14 are sent) and
# he (its form for 20, 30 … is one): more than the 106 tiles of a set.
COUNTED_UP_TO = 29


def _words() -> dict[str, object]:
    return {
        # The projector's round clock (projector.js) at zero.
        "clock_over": pgettext("round clock at zero", "Time"),
        # The tile keypad (keypad.js).
        "rack_by_totals": gettext("by totals"),
        "rack_blank_winner": gettext("blank: the winner's rack"),
        "rack_empty": gettext("no tiles yet"),
        "rack_check": gettext("check the tiles"),
        # Translators: {points} is any number; use a form that fits every number (or an
        # abbreviation); {tiles} is one of the "{count} tile" forms.
        "rack_sum": gettext("= {points} points ({tiles})"),
        "tiles": [
            ngettext("{count} tile", "{count} tiles", count) for count in range(COUNTED_UP_TO + 1)
        ],
        "tiles_for": gettext("Tiles for {name}"),
        "joker": gettext("joker"),
        "tile_blue": gettext("blue {number}"),
        "tile_red": gettext("red {number}"),
        "tile_orange": gettext("orange {number}"),
        "tile_black": gettext("black {number}"),
        # Entries kept on a phone while the network is away (offline.js).
        "outbox_entry": gettext("Your entry"),
        "outbox_waiting": gettext(
            "{label}: waiting to send. It is kept on this phone and sent when the connection "
            "returns — no need to enter it again."
        ),
        "outbox_sent": gettext("{label}: sent."),
        # The turn timer (timer.js).
        "timer_turn": gettext("Turn: {name} (seat {seat})"),
        "timer_first": gettext("Game starts with {name} (seat {seat})."),
        "timer_timeout": gettext("Record timeout for {name}"),
        "timer_next": gettext("Next turn"),
        "timer_start": gettext("Start turn"),
        "timer_pause": gettext("Pause"),
        "timer_resume": gettext("Resume"),
        "timer_undo": gettext("Undo timeout of {name}"),
        "timer_over": pgettext("turn timer at zero", "Time!"),
        "timer_over_for": gettext("Time is up for {name}."),
        "timer_paused": gettext("Paused."),
        "timer_sound_on": gettext("Sound on"),
        "timer_sound_off": gettext("Sound off"),
    }


@lru_cache(maxsize=16)
def _script(language: str | None) -> SafeString:
    return json_script(_words(), "ui-text")


@register.simple_tag
def ui_text() -> SafeString:
    """`<script type="application/json" id="ui-text">` with the words in the active
    language (made once per language and process)."""
    return _script(get_language())
