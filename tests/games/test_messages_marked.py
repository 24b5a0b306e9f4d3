"""Every message the games app and the engine give a person passes through translation.

Terms:

* **message call** — a call that carries words to a person: a domain error
  (``RuleError``, ``Conflict``), a form or serializer ``ValidationError``, ``Http404`` and
  ``PermissionDenied`` (their text reaches the error page or the API's ``detail``), a form's
  ``add_error`` and the messages framework (``messages.success(request, …)``).
* **unmarked** — a message given as a bare string or f-string instead of through ``_()`` /
  ``gettext`` / ``ngettext`` (Django's, or the engine's ``scoring.i18n``). An f-string is
  always unmarked: its words cannot be looked up in a catalog, so a sentence with values
  is ``_("… {name} …").format(name=…)``.

Read with ``ast``, so it sees each call as Python does; programmer errors (``ValueError``,
``AssertionError``) are not message calls, they never reach a person.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCES = sorted(
    path
    for pattern in (
        "scoring/*.py",
        "games/*.py",
        "games/services/*.py",
        "games/views/*.py",
        "games/api/*.py",
        "games/templatetags/*.py",
    )
    for path in ROOT.glob(pattern)
)

# Modules another change marks (the rule options' messages belong with the tournaments
# app's forms). The list only shrinks: a pending module with nothing unmarked fails.
PENDING: set[str] = set()

ERRORS = {"RuleError", "Conflict", "ValidationError", "Http404", "PermissionDenied"}
MESSAGES = {"success", "info", "warning", "error", "debug"}


def _words(node: ast.expr) -> bool:
    """A literal a person would read: a string with a word in it, or any f-string."""
    if isinstance(node, ast.JoinedStr):
        return True
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(c.isalpha() for c in node.value)
    )


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _messages_of(call: ast.Call) -> list[ast.expr]:
    """The arguments of a message call that carry its words."""
    name = _name(call)
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "messages"
        and name in MESSAGES
    ):
        return call.args[1:2]
    if name == "add_error":
        return call.args[1:2]
    if name in ERRORS:
        # RuleError(field, message) and Conflict(field, message): the second argument.
        return call.args[1:2] if name in {"RuleError", "Conflict"} else call.args[:1]
    return []


def unmarked(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for argument in _messages_of(node):
                candidates = (
                    [argument.body, argument.orelse]
                    if isinstance(argument, ast.IfExp)
                    else [argument]
                )
                found += [
                    f"{path.relative_to(ROOT)}:{candidate.lineno}"
                    for candidate in candidates
                    if _words(candidate)
                ]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_messages_are_marked_for_translation(path: Path) -> None:
    if str(path.relative_to(ROOT)) in PENDING:
        assert unmarked(path), "nothing unmarked is left: take it off PENDING"
    else:
        assert unmarked(path) == []


def test_the_check_finds_an_unmarked_message(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        "raise RuleError('x', f'player {p} is not here')\n"
        "raise RuleError('x', _('player {p} is not here').format(p=p))\n"
        "messages.success(request, 'Saved.')\n"
        "raise Http404(_('No such game.'))\n"
    )
    global ROOT
    before, ROOT = ROOT, tmp_path
    try:
        assert unmarked(source) == ["example.py:1", "example.py:3"]
    finally:
        ROOT = before
