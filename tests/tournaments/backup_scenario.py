"""A club evening on a real SQLite file, run in its own process by
tests/tournaments/test_backups.py (`python -m tests.tournaments.backup_scenario
before|after`): the settings read DATABASE_URL, DATA_DIR and SECRET_KEY from the
environment as a club server would.

* before — migrate, seed a tournament of 8 players, open round 1 (the round's automatic
  backup is awaited), enter the result of table 1 only (the round goes on), print the
  sheets' table links, then take a backup while the round runs.
* after — in the restored database: the standings as stored, the standings computed
  again from the restored results, and whether the printed tokens still sign in.

Each prints one JSON object on its last line.
"""

# ruff: noqa: E402  (Django is set up before the project is imported)
from __future__ import annotations

import json
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Standings
from games.selectors.standings import standings_table
from games.services.standings import standings_recompute
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.backups import backup_take, backups_list, backups_wait
from tournaments.jobs import wait_idle
from tournaments.models import Round, Tournament
from tournaments.services.table_links import table_links_issue
from tournaments.table_links import TableLinkRefused, table_link_check, token_for


def _standings(tournament: Tournament) -> list:
    return [
        [row["rank"], row["player"]["number"], row["metrics"]]
        for row in standings_table(tournament, whole=True).rows
    ]


def before() -> dict:
    call_command("migrate", verbosity=0)
    alice = get_user_model().objects.create_user("alice", password="alice-pass-123")
    tournament = make_tournament(alice, name="Backup Open", players=8)
    round_ = open_round(tournament, alice)
    backups_wait()  # the backup the opened round asked for, in its thread
    after_round = [b.trigger for b in backups_list()]
    game = round_.tables.get(number=1).games.order_by("number").first()
    enter_rummikub(game, alice)
    links = table_links_issue(by=alice, round_=round_, table_numbers=[1, 2])
    tokens = {str(number): token_for(link) for number, link in links.items()}
    # The standings recompute the result asked for runs on the job thread, as on the club
    # server: the backup must hold its snapshot.
    assert wait_idle(30, within=30), "the standings recompute did not finish"
    backup = backup_take("manual")
    tournament.refresh_from_db()
    return {
        "triggers_after_round_opened": after_round,
        "backup": str(backup.path),
        "standings": _standings(tournament),
        "results_version": tournament.results_version,
        "tokens": tokens,
    }


def after(tokens: dict[str, str]) -> dict:
    tournament = Tournament.objects.get(name="Backup Open")
    round_ = Round.objects.get(tournament=tournament, number=1)
    stored = _standings(tournament)
    Standings.objects.filter(tournament=tournament).delete()
    standings_recompute(tournament_id=tournament.pk)
    valid = {}
    for number, token in tokens.items():
        try:
            link = table_link_check(token=token, round_=round_, table_number=int(number))
            valid[number] = link.table_number == int(number)
        except TableLinkRefused as refused:
            valid[number] = str(refused)
    return {
        "standings": stored,
        "recomputed": _standings(tournament),
        "results_version": tournament.results_version,
        "links_valid": valid,
        "secret_key_file": str(settings.SECRET_KEY_FILE),
    }


if __name__ == "__main__":
    if sys.argv[1] == "before":
        print(json.dumps(before()))
    else:
        print(json.dumps(after(json.loads(sys.argv[2]))))
