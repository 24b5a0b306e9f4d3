"""Benchmark: how long the PDF of a round's table sheets takes (WeasyPrint).

    DATABASE_URL=sqlite:///:memory: python -m bench.sheets_pdf
    python -m bench.sheets_pdf --tables 4 25 100
    python -m bench.sheets_pdf --quick    # one table, what the test suite runs

For each size, opens round 1 of a tournament of that many tables of four, in a throw-away
test database, downloads `.../sheets.pdf?paper=a4` as its organiser and prints the pages,
the bytes and the wall seconds of the request, and the seconds per table. One page per
table is the rule; the time says how large a round one request may print before a web
worker's timeout (gunicorn's default is 30 s).
"""

from __future__ import annotations

import argparse
import io
import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from tests.factories import make_tournament, open_round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[4, 25])
    parser.add_argument("--quick", action="store_true", help="one table (CI)")
    args = parser.parse_args()
    if args.quick:
        args.tables = [1]
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        alice = get_user_model().objects.create_user("alice", password="alice-pass-123")
        client = Client()
        client.force_login(alice)
        for tables in args.tables:
            tournament = make_tournament(alice, name=f"Bench {tables}", players=4 * tables)
            open_round(tournament, alice)
            url = reverse("round-sheets-pdf", kwargs={"slug": tournament.slug, "round_number": 1})
            start = time.perf_counter()
            response = client.get(url, {"paper": "a4"})
            seconds = time.perf_counter() - start
            pages = len(PdfReader(io.BytesIO(response.content)).pages)
            print(
                f"{tables:>4} tables -> {response.status_code}, {pages:>4} pages, "
                f"{len(response.content):>10,} B, {seconds:6.2f} s "
                f"({seconds / tables:.3f} s per table)"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
