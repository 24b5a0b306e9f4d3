"""CSV files as the site writes and reads them: one safe writer for every export, and the
delimiter an import is written with.

Terms:
* formula cell — a text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
  return: a spreadsheet would run it as a formula (CSV injection), so it is written with a
  leading `'` (OWASP's advice), which the spreadsheet shows as text. Only text is
  prefixed: numbers are written as numbers, so a score of -12 stays a number, while a club
  typed as "-3" is text and gets the prefix like any other.
* row end — CRLF, as RFC 4180 has it.
* BOM — every export starts with U+FEFF, without which Excel reads UTF-8 as the local
  code page and mangles accented names.
* delimiter — what separates the cells: `,`, or `;` as Excel writes CSV wherever the
  decimal separator is a comma, or a tab; an import reads it off the header row.
* row error — a `file` error about one line of an import (`RowError`): its message names
  the line for the organiser, and `line` keeps it in file order whatever language the
  message is in.

The organiser reads the import errors: they are translated when made. The column names
(``name``, ``club``, ``joined_on``…) are what the file must say, so they stay as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from scoring.errors import RuleError

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}


def delimiter_sentence(delimiter: str) -> str:
    """What an import tells the organiser about the delimiter it read, as one sentence."""
    if delimiter == ";":
        return _("The file's cells were separated by semicolons.")
    if delimiter == "\t":
        return _("The file's cells were separated by tabs.")
    return _("The file's cells were separated by commas.")


def safe_cell(value: Any) -> Any:
    """The cell as written: a formula cell gets a leading `'`; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    """A whole export: BOM, header row, rows; every cell through `safe_cell`."""
    out = io.StringIO()
    out.write(BOM)
    # Rows end in CRLF (RFC 4180): the writer quotes a cell holding either character only
    # when both end a row, and a bare CR in an unquoted cell splits the row in Excel.
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


def header_delimiter(text: str) -> str:
    """The delimiter the header row uses most (a one-column file: `,`); ties go to the
    earlier of `,` `;` tab, as a comma is what the import has always read."""
    header = text.split("\n", 1)[0]
    counts = {delimiter: header.count(delimiter) for delimiter in DELIMITERS}
    return max(DELIMITERS, key=lambda delimiter: counts[delimiter])


# A club's list of players or members is a few KB; a megabyte is surely a wrong file.
MAX_CSV_BYTES = 1024 * 1024


def decode_csv(data: bytes | str) -> str:
    """The text of an uploaded CSV, without its BOM; UTF-8 or a `file` error."""
    if isinstance(data, str):
        return data.removeprefix(BOM)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RuleError(
            "file", _("is not UTF-8 text; save the spreadsheet as CSV UTF-8.")
        ) from None


class RowError(RuleError):
    """A `file` error about one line of an import; `line` orders the errors in file order."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__("file", message)


def too_many_cells(line: int, cells: int, header: int) -> RowError:
    """A row with more cells than the header has columns."""
    return RowError(
        line,
        _("line %(line)s: %(cells)s columns, header has %(header)s.")
        % {"line": line, "cells": cells, "header": header},
    )


def row_error(line: int, error: RuleError) -> RowError:
    """A service's error about one field of a row, said of its line and column: "line 3:
    name is required."."""
    return RowError(
        line,
        _("line %(line)s: %(column)s %(problem)s")
        % {"line": line, "column": error.path[0], "problem": error.message},
    )


def line_of(error: RuleError) -> int:
    """The line an import error is about (0: the file as a whole), to list them in order."""
    return error.line if isinstance(error, RowError) else 0


@dataclass(frozen=True)
class CSVTable:
    """An imported CSV read but not yet checked row by row."""

    header: list[str]  # lower case
    lines: list[tuple[int, list[str]]]  # (line number, cells) of every non-blank row
    delimiter: str


def read_csv_table(data: bytes | str, *, columns: Sequence[str], rows: str) -> CSVTable:
    """The header and non-blank rows of an import whose header names some of `columns`
    (`name` among them); the size, the row count (`settings.CSV_IMPORT_MAX_ROWS`) and the
    header are checked before any row is looked at. `rows` names them in messages
    ("player rows" or "member rows")."""
    if len(data) > MAX_CSV_BYTES:
        raise RuleError("file", _("is larger than %(size)s KiB.") % {"size": MAX_CSV_BYTES // 1024})
    text = decode_csv(data)
    delimiter = header_delimiter(text)
    limit = settings.CSV_IMPORT_MAX_ROWS
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header: list[str] | None = None
    lines: list[tuple[int, list[str]]] = []
    names = ",".join(columns)
    try:
        for cells in reader:
            if header is None:
                header = [h.strip().lower() for h in cells]
            elif any(cell.strip() for cell in cells):  # blank lines are harmless
                if len(lines) == limit:
                    raise RuleError("file", _too_many_rows(rows, limit))
                lines.append((reader.line_num, cells))
    except csv.Error as error:  # e.g. a cell longer than the csv module allows
        raise RowError(
            reader.line_num,
            _("line %(line)s: %(error)s.") % {"line": reader.line_num, "error": error},
        ) from None
    if not header or "name" not in header:
        raise RowError(
            1, _("line 1: the header row must name the columns %(names)s.") % {"names": names}
        )
    unknown = [h for h in header if h not in columns]
    if unknown:
        raise RowError(
            1,
            _("line 1: unknown column '%(column)s'; use %(names)s.")
            % {"column": unknown[0], "names": names},
        )
    return CSVTable(header, lines, delimiter)


def _too_many_rows(rows: str, limit: int) -> str:
    # One whole sentence per kind of row, so each translation can inflect its own noun.
    if rows == "member rows":
        return _("has more than %(limit)s member rows; import at most %(limit)s.") % {
            "limit": limit
        }
    return _("has more than %(limit)s player rows; import at most %(limit)s.") % {"limit": limit}
