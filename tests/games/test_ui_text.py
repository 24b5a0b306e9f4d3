"""The words the scripts show, carried by every page (games/templatetags/ui_text.py):
JSON in the reader's language, one form per count for counted words, and the words.js
rule for counts past the forms sent."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import django
import polib
import pytest
from django.template import Context, Template
from django.utils import translation

from games.templatetags import ui_text as ui_text_module
from games.templatetags.ui_text import COUNTED_UP_TO

SCRIPTS = ("keypad.js", "offline.js", "timer.js", "projector.js")


def words(language: str) -> dict:
    with translation.override(language):
        html = Template("{% load ui_text %}{% ui_text %}").render(Context())
    match = re.fullmatch(r'<script id="ui-text" type="application/json">(.*)</script>', html)
    assert match, html
    return json.loads(match[1])


def test_every_word_a_script_asks_for_is_sent():
    root = Path(__file__).resolve().parents[2] / "static" / "js"
    asked = set()
    for script in SCRIPTS:
        source = (root / script).read_text()
        asked |= set(re.findall(r'\bt\("(\w+)"', source))
        asked |= set(re.findall(r'rummitabCount\("(\w+)"', source))
    # tile_<colour> is asked for by a computed key
    asked |= {f"tile_{colour}" for colour in ("blue", "red", "orange", "black")}
    asked.discard("tile_")
    sent = words("en")
    assert asked and asked <= set(sent), asked - set(sent)


def test_english_words_are_the_scripts_own_fallbacks():
    sent = words("en")
    assert sent["timer_turn"] == "Turn: {name} (seat {seat})"
    assert sent["rack_sum"] == "= {points} points ({tiles})"
    assert len(sent["tiles"]) == COUNTED_UP_TO + 1
    assert sent["tiles"][1] == "{count} tile"
    assert sent["tiles"][0] == sent["tiles"][2] == sent["tiles"][29] == "{count} tiles"


def test_the_words_follow_the_active_language(monkeypatch):
    ui_text_module._script.cache_clear()

    def dutch(message):
        return "NL:" + message if translation.get_language() == "nl" else message

    monkeypatch.setattr(ui_text_module, "gettext", dutch)
    try:
        assert words("nl")["timer_next"] == "NL:Next turn"
        assert words("en")["timer_next"] == "Next turn"
    finally:
        ui_text_module._script.cache_clear()


def test_the_json_cannot_close_its_script_element(monkeypatch):
    ui_text_module._script.cache_clear()
    monkeypatch.setattr(ui_text_module, "gettext", lambda message: "</script><b>")
    try:
        with translation.override("de"):
            html = Template("{% load ui_text %}{% ui_text %}").render(Context())
        assert html.count("</script>") == 1
    finally:
        ui_text_module._script.cache_clear()


def plural_rule(language: str):
    """The language's gettext plural rule, as its catalog's Plural-Forms header says
    (Django's catalog for the language; the site's own ones use the same)."""
    catalog = Path(django.__file__).parent / "conf" / "locale" / language / "LC_MESSAGES"
    header = polib.mofile(str(catalog / "django.mo")).metadata.get("Plural-Forms", "")
    expression = re.search(r"plural=(.*?);?\s*$", header)
    return gettext.c2py(expression[1] if expression else "n != 1")


@pytest.mark.parametrize("language", ["en", "nl", "de", "pl", "he"])
def test_words_js_picks_the_right_form_for_any_count_a_rack_can_hold(language):
    """words.js: counts past the forms sent take the form of 20 + the last digit."""
    rule = plural_rule(language)
    for count in range(0, 107):  # no rack holds more than the 106 tiles of a set
        stand_in = count if count <= COUNTED_UP_TO else 20 + count % 10
        assert rule(stand_in) == rule(count), count


def test_the_dutch_catalog_reaches_the_scripts():
    """Every script word the Dutch catalog translates is sent in Dutch (the catalog is
    the translation step's; words it does not hold yet stay English)."""
    catalog = Path(__file__).resolve().parents[2] / "locale" / "nl" / "LC_MESSAGES" / "django.po"
    if not catalog.exists():
        pytest.skip("no Dutch catalog yet")
    translated = {
        entry.msgid: entry.msgstr
        for entry in polib.pofile(str(catalog))
        if entry.msgstr and not entry.msgctxt and "fuzzy" not in entry.flags
    }
    ui_text_module._script.cache_clear()
    english, dutch = words("en"), words("nl")
    checked = 0
    for key, word in english.items():
        if isinstance(word, str) and word in translated:
            assert dutch[key] == translated[word], key
            checked += 1
    assert checked or not {w for w in english.values() if isinstance(w, str)} & set(translated)
