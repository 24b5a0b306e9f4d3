"""The engine's words in the reader's language, without importing a framework.

Terms:

* **translator** — a function from an English message to the same message in the active
  language. The engine is pure Python, so it cannot ask Django which language a request
  speaks; the Django side installs its own ``gettext``/``ngettext`` at start-up
  (``tournaments.apps``) and the engine calls them through here. Until then (a script, the
  engine's own tests) every message stays English.
* ``_(message)`` — translate now. Call it where the message is made (when an error is
  raised, inside the request that caused it), then fill in the named fields:
  ``_("{player} appears twice").format(player=label)``. The English text is the key the
  catalogs (``locale/<language>/LC_MESSAGES/django.po``) translate, so never build it from
  pieces.
* ``ngettext(singular, plural, count)`` — the same for a message whose words follow a
  number.
* ``gettext_noop(message)`` — marks a constant (a metric's or an option's name) for the
  catalogs without translating it at import time, when no language is active yet; the
  page or API that shows it translates it then.
* ``isolate(text)`` — free text (a player's name, a club) put inside a sentence built in
  Python, between the Unicode isolates FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL
  ISOLATE (U+2069): the name takes its own direction from its first letter, so a Hebrew
  name in an English sentence (or "Ann 3" in a Hebrew one) neither reorders the words
  around it nor pulls in its neighbours' digits and commas. The plain-text twin of
  `<bdi>` (games.templatetags.bidi); invisible when shown, and kept in API strings and
  messages alike.
"""

from __future__ import annotations

from collections.abc import Callable


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_translate: Callable[[str], str] = _english
_translate_plural: Callable[[str, str, int], str] = _english_plural


def install(
    translate: Callable[[str], str], translate_plural: Callable[[str, str, int], str]
) -> None:
    """Route the engine's messages through these (Django's gettext and ngettext)."""
    global _translate, _translate_plural
    _translate, _translate_plural = translate, translate_plural


def _(message: str) -> str:
    return _translate(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translate_plural(singular, plural, count)


def gettext_noop(message: str) -> str:
    return message


FSI, PDI = "\u2068", "\u2069"


def isolate(text: object) -> str:
    """``text`` between FSI and PDI (an empty text stays empty)."""
    value = str(text)
    return f"{FSI}{value}{PDI}" if value else ""
