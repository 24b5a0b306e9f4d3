"""Benchmark: what an oversized or error-laden `POST rounds/` costs the server.

    DATABASE_URL=sqlite:///:memory: python -m bench.big_body
    python -m bench.big_body --kib 1200 250
    python -m bench.big_body --quick      # small sizes, what the test suite runs

For each size, posts a manual round whose `tables` hold that many KiB of unknown player
ids (every id one error) to a tournament of eight players, in a throw-away test database,
and prints the status, the bytes of the answer and the CPU seconds the request took
(`time.process_time`, parsing to rendering). Target: a body over the JSON limit (256 KiB)
answers 413 at once; one under it answers a 400 of a few KB.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from tests.factories import make_tournament  # noqa: E402


def body_of(kib: int) -> bytes:
    """A manual round of tables of two unknown ids each, about `kib` KiB of JSON."""
    table = [9_000_001, 9_000_002]
    per_table = len(json.dumps(table)) + 2
    tables = [table] * (kib * 1024 // per_table)
    return json.dumps({"method": "manual", "tables": tables}).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kib", type=int, nargs="+", default=[1200, 250])
    parser.add_argument("--quick", action="store_true", help="300 and 5 KiB (CI)")
    args = parser.parse_args()
    if args.quick:
        args.kib = [300, 5]
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        alice = get_user_model().objects.create_user("alice", password="alice-pass-123")
        tournament = make_tournament(alice, players=8)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
        url = f"/api/v1/tournaments/{tournament.slug}/rounds/"
        for kib in args.kib:
            body = body_of(kib)
            start = time.process_time()
            response = client.post(url, body, content_type="application/json")
            cpu = time.process_time() - start
            print(
                f"body {len(body):>9,} B -> {response.status_code}, answer "
                f"{len(response.content):>10,} B, {cpu:6.2f} s CPU"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
