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
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}


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
