"""Every word a person reads on a page is marked for translation.

Terms:

* **unmarked text** — words in a template that reach the reader without passing through
  ``{% translate %}`` / ``{% blocktranslate %}``: the text between tags, and the attributes
  a person reads or hears (``title``, ``alt``, ``placeholder``, ``aria-label``, an input
  button's ``value``, a page's ``content`` description). Template variables and tags are not text:
  what they print is translated where it is made (forms, services, the engine).
* **pending** — templates not yet marked. The list only shrinks: a pending template that no
  longer has unmarked text fails the test until it is taken off the list, so the list never
  hides a finished one.

How it reads a template: Django's own lexer splits it into text, variables, tags and
comments; every variable and tag becomes a placeholder character, a ``blocktranslate`` …
``endblocktranslate`` span and a ``comment`` … ``endcomment`` span vanish whole, and what is
left is read as HTML (scripts and styles skipped). A piece of text or a read attribute that
still holds a letter is unmarked.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

# Attributes a person reads or hears.
READ_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description", "label"}

# Words that are the same in every language the site speaks: names and file formats.
SAME_IN_EVERY_LANGUAGE = {"Rummitab", "CSV", "PDF", "JSON", "API", "iCal", "QR", "ETag"}

# Templates not marked yet (paths under templates/). Take a template off the list in the
# change that marks it.
PENDING: set[str] = set()

# Templates no person reads in a language of their own: the API's documentation page is
# Swagger UI's, in English.
EXEMPT = {"drf_spectacular/swagger_ui.html"}

PLACEHOLDER = " "  # a tag may stand where HTML wants a space: <tr{% if %} class…>
LETTER = re.compile(r"[^\W\d_]")
# Character references decode to what they show; `&nbsp;`, `&middot;` and friends hold no
# letter a reader would call a word.
ENTITY = re.compile(r"&[a-zA-Z]+;|&#\d+;|&#x[0-9a-fA-F]+;")


def _flatten(source: str) -> str:
    """The template as HTML, with every variable and tag a placeholder and every
    translated block and comment gone (newlines kept, so line numbers stay right)."""
    out: list[str] = []
    skip_until: str | None = None
    for token in Lexer(source).tokenize():
        kept_lines = "\n" * token.contents.count("\n")
        if skip_until is not None:
            if token.token_type == TokenType.BLOCK and token.contents.split()[:1] == [skip_until]:
                skip_until = None
            out.append(kept_lines)
            continue
        if token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents.split() else ""
            if name in {"blocktranslate", "blocktrans"}:
                skip_until = "endblocktranslate" if name == "blocktranslate" else "endblocktrans"
            elif name == "comment":
                skip_until = "endcomment"
            elif name == "verbatim":
                skip_until = "endverbatim"
            out.append(PLACEHOLDER + kept_lines)
        elif token.token_type == TokenType.VAR:
            out.append(PLACEHOLDER + kept_lines)
        else:  # a {# comment #}
            out.append(kept_lines)
    return "".join(out)


def _words(text: str) -> str:
    text = ENTITY.sub(" ", text.replace(PLACEHOLDER, " "))
    return " ".join(text.split())


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[int, str]] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style"}:
            self._skipping += 1
        attributes = dict(attrs)
        for name, value in attrs:
            read = name in READ_ATTRIBUTES
            # An <input> button shows its value; a <button>'s value is only sent (the form's
            # action word), its text is what is read.
            read |= (
                name == "value"
                and tag == "input"
                and attributes.get("type") in {"submit", "button", "reset"}
            )
            read |= name == "content" and attributes.get("name") in {"description"}
            if read and value:
                self._note(value)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in {"script", "style"}:
            self._skipping -= 1

    def handle_endtag(self, tag):
        if tag in {"script", "style"} and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping:
            self._note(data)

    def _note(self, text: str) -> None:
        words = _words(text)
        if LETTER.search(words) and words not in SAME_IN_EVERY_LANGUAGE:
            self.found.append((self.getpos()[0], words))


def unmarked(source: str) -> list[tuple[int, str]]:
    """(line, text) of every piece of unmarked text in a template's source."""
    reader = _Reader()
    reader.feed(_flatten(source))
    reader.close()
    return reader.found


def _templates() -> list[str]:
    return sorted(
        str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html") if path.is_file()
    )


@pytest.mark.parametrize("name", [n for n in _templates() if n not in EXEMPT])
def test_every_template_string_is_marked_for_translation(name):
    found = unmarked((TEMPLATES / name).read_text(encoding="utf-8"))
    if name in PENDING:
        assert found, f"{name} has no unmarked text any more: take it off PENDING"
        pytest.xfail(f"{name} is not marked yet ({len(found)} pieces of text)")
    assert not found, f"{name}: unmarked text, wrap it in {{% translate %}}:\n" + "\n".join(
        f"  line {line}: {text!r}" for line, text in found
    )


def test_pending_names_only_existing_templates():
    assert PENDING.issubset(_templates())


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("<p>Standings</p>", ["Standings"]),
        ('{% load i18n %}<p>{% translate "Standings" %}</p>', []),
        ("<p>{% blocktranslate %}Round {{ n }}{% endblocktranslate %}</p>", []),
        ('<img alt="Table tiles" src="x.png">', ["Table tiles"]),
        ('<img alt="{% translate \'Tiles\' %}" src="x.png">', []),
        ('<input type="submit" value="Save">', ["Save"]),
        ('<input type="hidden" value="save">', []),
        ('<button type="submit" value="open">{% translate "Open" %}</button>', []),
        ('<span title="Round {{ r }}">x</span>', ["Round", "x"]),
        ("<p>{{ player.name }} &middot; {{ score }}</p>", []),
        ("<p>top {{ s.cut_top }}</p>", ["top"]),
        ("<script>const label = 'Next';</script>", []),
        ("{% comment %}Why this is here{% endcomment %}<p>12 - 3</p>", []),
        ("{# a note #}<p>Rummitab</p>", []),
    ],
)
def test_the_reader_finds_exactly_the_unmarked_text(source, expected):
    assert [text for _, text in unmarked(source)] == expected


def test_the_reader_gives_the_line_of_the_text():
    source = (
        "{% load i18n %}\n<h1>{% translate 'Rounds' %}</h1>\n{% if x %}\n<p>Open</p>{% endif %}"
    )
    assert unmarked(source) == [(4, "Open")]


# --- dates in the reader's language --------------------------------------------------------

# A `date` / `time` filter with a literal format: `|date:"j M Y"`, `|time:'H:i'`.
LITERAL_DATE_FORMAT = re.compile(r"""\|(?:date|time):(["'])(?P<format>[^"']*)\1""")
# Formats that are no words: machine-read values (ISO 8601, a `datetime` attribute) and
# the 24-hour clock, the same in every language the site speaks.
MACHINE_FORMATS = {"c", "U", "Y-m-d", "H:i", "H:i:s"}
# A named format (DATE_FORMAT, SHORT_DATETIME_FORMAT …) is each language's own
# (Django's, or config/formats/<lang>/formats.py).
NAMED_FORMAT = re.compile(r"^[A-Z_]+_FORMAT$")

# Templates that still show a date in a literal (English) format; the list only shrinks.
PENDING_DATES: set[str] = set()


def literal_date_formats(source: str) -> list[str]:
    """The literal formats of dates a person reads in a template's source."""
    return [
        match["format"]
        for match in LITERAL_DATE_FORMAT.finditer(source)
        if match["format"] not in MACHINE_FORMATS and not NAMED_FORMAT.match(match["format"])
    ]


@pytest.mark.parametrize("name", [n for n in _templates() if n not in EXEMPT])
def test_dates_are_shown_in_the_readers_language(name):
    found = literal_date_formats((TEMPLATES / name).read_text(encoding="utf-8"))
    if name in PENDING_DATES:
        assert found, f"{name} shows no literal date format any more: take it off PENDING_DATES"
        pytest.xfail(f"{name} still formats dates in English")
    assert not found, (
        f"{name}: dates in a literal format {found}: use a named one, e.g. "
        '|date:"DATE_FORMAT" or |date:"SHORT_DATETIME_FORMAT"'
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('{{ t.starts_on|date:"j M Y" }}', ["j M Y"]),
        ("{{ at|date:'j M, H:i' }}", ["j M, H:i"]),
        ('{{ at|time:"P" }}', ["P"]),
        ('{{ t.starts_on|date:"DATE_FORMAT" }}', []),
        ('<time datetime="{{ at|date:\'c\' }}">{{ at|date:"SHORT_DATETIME_FORMAT" }}</time>', []),
        ('{{ at|time:"H:i" }} {{ d|date:"Y-m-d" }}', []),
    ],
)
def test_the_reader_finds_literal_date_formats(source, expected):
    assert literal_date_formats(source) == expected
