"""Domain errors of the scoring engine.

Terms:

* **path** — where the bad input sits, as a tuple of keys and list indexes, e.g.
  ``("racks", 2, "tiles")`` for the tiles of the third rack, ``("rules", "joker_penalty")``
  for one rule option, ``("winner",)``; the empty path means the input as a whole.
* **RuleError** — one wrong input: its path and a message for a club organiser that names
  the bad thing (the token, the option, the player, the tile).
* **RuleErrors** — several independent RuleErrors found in one pass, raised together so
  a form can show them all at once instead of one per submission.

``as_error_dict`` turns errors into Django REST Framework's error shape, so the API and
the web forms report exactly what the engine found, without a second validation. It lists
at most ``MAX_LISTED_ERRORS`` of them and counts the rest in one ``non_field_errors``
message: a body of thousands of wrong items must not get an answer many times its size.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.i18n import ngettext

Path = tuple[str | int, ...]

NON_FIELD_ERRORS = "non_field_errors"
# The most errors one answer lists; a person fixes the first ones and sends it again.
MAX_LISTED_ERRORS = 50


def format_path(path: Path) -> str:
    """``("racks", 2, "tiles")`` -> ``"racks[2].tiles"``."""
    text = ""
    for key in path:
        if isinstance(key, int):
            text += f"[{key}]"
        else:
            text += f".{key}" if text else key
    return text


class RuleError(Exception):
    """A domain error: which input field is wrong and why."""

    def __init__(self, field: str | Path, message: str) -> None:
        self.path: Path = (field,) if isinstance(field, str) else tuple(field)
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = format_path(self.path)
        return f"{where}: {self.message}" if where else self.message

    def flatten(self) -> list[RuleError]:
        """The single errors this error stands for (itself, here)."""
        return [self]


class Conflict(RuleError):
    """The input was based on a state that has changed since (an HTTP 409): the caller
    must read again and retry. ``details`` are extra facts for the answer, such as the
    ``current_version`` to base the retry on."""

    def __init__(self, field: str | Path, message: str, **details: object) -> None:
        self.details = details
        super().__init__(field, message)


class RuleErrors(RuleError):
    """Several errors at once; ``.errors`` holds them, never nested."""

    def __init__(self, errors: Iterable[RuleError]) -> None:
        self.errors: list[RuleError] = _flatten(errors)
        if not self.errors:
            raise ValueError("RuleErrors needs at least one error")
        super().__init__((), "; ".join(str(error) for error in self.errors))

    def flatten(self) -> list[RuleError]:
        return list(self.errors)


def _flatten(errors: Iterable[RuleError]) -> list[RuleError]:
    return [single for error in errors for single in error.flatten()]


def raise_all(errors: list[RuleError]) -> None:
    """Raise what was collected: nothing, the one error, or all of them together."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise RuleErrors(errors)


def as_error_dict(
    errors: Iterable[RuleError], list_lengths: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """DRF's error shape for these errors.

    ``("winner",)`` -> ``{"winner": [msg]}``; ``("racks", 1, "tiles")`` ->
    ``{"racks": [{}, {"tiles": [msg]}]}``; ``()`` -> ``{"non_field_errors": [msg]}``.
    A list is as long as its highest index needs, or ``list_lengths[name]`` when that is
    longer (so a form with four racks gets four entries). DRF has no place for a message
    on a list itself next to its items (``racks`` and ``racks[1]``), so such a message goes
    to the top-level ``non_field_errors`` with its path spelled out.

    Only the first ``MAX_LISTED_ERRORS`` errors are shaped; the others are counted in a
    last ``non_field_errors`` message, "… and 1,234 more problems not listed here.". A list
    is padded to ``list_lengths`` only up to ``MAX_LISTED_ERRORS`` entries, so a request of
    a hundred thousand items does not get a hundred thousand empty entries back.
    """
    flat = _flatten(errors)
    listed, rest = flat[:MAX_LISTED_ERRORS], len(flat) - MAX_LISTED_ERRORS
    root = _Node()
    for error in listed:
        node = root
        for key in error.path:
            node = node.child(key)
        node.messages.append((error.message, str(error)))
    spilled: list[str] = []
    shaped = root.as_dict(dict(list_lengths or {}), spilled)
    if spilled:
        shaped.setdefault(NON_FIELD_ERRORS, []).extend(spilled)
    if rest > 0:
        more = ngettext(
            "… and {count} more problem not listed here.",
            "… and {count} more problems not listed here.",
            rest,
        ).format(count=f"{rest:,}")
        shaped.setdefault(NON_FIELD_ERRORS, []).append(more)
    return shaped


class _Node:
    """One place in the input: its own messages, named fields and list items."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []  # (message, message with its path)
        self.fields: dict[str, _Node] = {}
        self.items: dict[int, _Node] = {}

    def child(self, key: str | int) -> _Node:
        children: dict[Any, _Node] = self.items if isinstance(key, int) else self.fields
        return children.setdefault(key, _Node())

    def as_dict(self, lengths: Mapping[str, int], spilled: list[str]) -> dict[str, Any]:
        shaped: dict[str, Any] = {}
        if self.messages:
            shaped[NON_FIELD_ERRORS] = [message for message, _ in self.messages]
        for name, node in self.fields.items():
            shaped[name] = node.shape(name, lengths, spilled)
        return shaped

    def shape(self, name: str | None, lengths: Mapping[str, int], spilled: list[str]) -> Any:
        if self.items:
            spilled.extend(full for _, full in self.messages)
            padded = min(lengths.get(name, 0), MAX_LISTED_ERRORS) if name else 0
            size = max(max(self.items) + 1, padded)
            empty = _Node()
            return [
                self.items.get(index, empty).item_shape(lengths, spilled) for index in range(size)
            ]
        if self.fields:
            return self.as_dict(lengths, spilled)
        return [message for message, _ in self.messages]

    def item_shape(self, lengths: Mapping[str, int], spilled: list[str]) -> Any:
        # A list item is an object in DRF's format, so its own messages are non-field ones.
        return self.shape(None, lengths, spilled) if self.items else self.as_dict(lengths, spilled)
