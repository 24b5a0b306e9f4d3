"""The translation catalogs are complete, consistent with the code, and compiled.

Terms:

* **catalog** — ``locale/<code>/LC_MESSAGES/django.po`` (what translators edit) and its
  compiled ``django.mo`` (what the site reads); both are committed, so a fresh clone speaks
  every language without GNU gettext. ``make messages`` refreshes both.
* **complete language** — every message translated, no entry left fuzzy: Dutch, German,
  Polish.
* **chrome** — the words every page shares (the header, the navigation, the language
  switcher, the error and sign-in pages). Hebrew ships at least the chrome; what it lacks
  shows in English, still laid out right to left.
* **placeholder** — ``%(name)s`` / ``%s`` / ``%d`` (Django's) or ``{name}`` (the engine's);
  a translation keeps exactly the placeholders of its English message, or the page breaks
  at run time (a ``KeyError`` in a ``%`` or ``format``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
COMPLETE = {"nl", "de", "pl"}
CHROME = (
    "templates/base.html",
    "templates/includes/",
    "templates/registration/",
    "templates/400.html",
    "templates/403.html",
    "templates/403_csrf.html",
    "templates/404.html",
    "templates/500.html",
    "templates/503.html",
    "templates/conflict.html",
    "templates/tournaments/_nav.html",
    "templates/tournaments/home.html",
)
# The plural forms Django's own catalogs use for these languages.
PLURAL_FORMS = {"nl": 2, "de": 2, "pl": 4, "he": 4}

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]|\{(\w*)\}")


def _catalog(code: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / code / "LC_MESSAGES" / "django.po"))


def _forms(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def _placeholders(text: str, python_format: bool) -> set[str]:
    found = set()
    for match in PLACEHOLDER.finditer(text):
        if match.group(0).startswith("%") and not python_format:
            continue
        found.add(match.group(0))
    return found


def _label(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_language_has_a_catalog_with_its_plural_forms(code):
    catalog = _catalog(code)
    nplurals = re.search(r"nplurals=(\d+)", catalog.metadata.get("Plural-Forms", ""))
    assert nplurals and int(nplurals.group(1)) == PLURAL_FORMS[code]
    assert (LOCALE / code / "LC_MESSAGES" / "django.mo").is_file()


@pytest.mark.parametrize("code", sorted(COMPLETE))
def test_complete_languages_translate_every_message(code):
    missing = [
        _label(e) for e in _catalog(code) if not e.obsolete and (e.fuzzy or not all(_forms(e)))
    ]
    assert not missing, f"{code}: {len(missing)} messages untranslated or fuzzy:\n" + "\n".join(
        missing[:40]
    )


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c not in COMPLETE])
def test_every_language_translates_the_chrome(code):
    chrome = [
        e
        for e in _catalog(code)
        if any(path.startswith(CHROME) for path, _ in e.occurrences) and not e.obsolete
    ]
    assert chrome, "the chrome's messages are not in the catalog"
    missing = [_label(e) for e in chrome if not all(_forms(e)) or e.fuzzy]
    assert not missing, f"{code}: chrome untranslated:\n" + "\n".join(missing)


@pytest.mark.parametrize("code", LANGUAGES)
def test_translations_keep_the_placeholders(code):
    wrong = []
    for entry in _catalog(code):
        python_format = "python-format" in entry.flags
        english = _placeholders(entry.msgid, python_format)
        if entry.msgid_plural:
            english |= _placeholders(entry.msgid_plural, python_format)
        for form in filter(None, _forms(entry)):
            # A singular form may leave the count out ("one game"); it may never add one.
            ok = _placeholders(form, python_format) <= english
            if not entry.msgid_plural:
                ok = _placeholders(form, python_format) == english
            if not ok:
                wrong.append(f"{_label(entry)} -> {form!r}")
    assert not wrong, f"{code}: placeholders differ:\n" + "\n".join(wrong)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_compiled_catalog_matches_its_source(code):
    def pairs(catalog):
        return {
            (e.msgctxt, e.msgid): tuple(_forms(e))
            for e in catalog
            # A compiled catalog holds no fuzzy or obsolete entries: msgfmt leaves them out.
            if e.msgid and all(_forms(e)) and "fuzzy" not in e.flags and not e.obsolete
        }

    compiled = polib.mofile(str(LOCALE / code / "LC_MESSAGES" / "django.mo"))
    assert pairs(compiled) == pairs(_catalog(code)), (
        f"{code}: django.mo is stale: run `make messages`"
    )


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_the_catalogs_hold_exactly_the_messages_the_code_marks(tmp_path):
    """`make messages` on a copy of the code changes no catalog's list of messages: nothing
    marked is missing from a catalog, nothing in one is no longer used."""
    for part in (
        *("manage.py", "config", "scoring", "tournaments", "games", "circuits"),
        *("templates", "locale"),
    ):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / part)
    # The options of the Makefile's `messages` target.
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--add-location=file"]
        + [arg for code in LANGUAGES for arg in ("-l", code)],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    for code in LANGUAGES:
        fresh = polib.pofile(str(tmp_path / "locale" / code / "LC_MESSAGES" / "django.po"))
        ids = {(e.msgctxt or "", e.msgid, e.msgid_plural) for e in fresh if not e.obsolete}
        kept = {
            (e.msgctxt or "", e.msgid, e.msgid_plural) for e in _catalog(code) if not e.obsolete
        }
        assert ids == kept, (
            f"{code}: the catalog is behind the code (run `make messages`): "
            f"new {sorted(ids - kept)[:10]}, gone {sorted(kept - ids)[:10]}"
        )
