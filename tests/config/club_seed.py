"""The club server tests' data (tests/config/club_server.py): a tournament of 10 tables
whose first round is running, 10 scorekeepers with API tokens, the round's table links.
Run inside `manage.py shell` on the database being seeded."""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import connection

from config.tokens import token_issue
from games.models import Game
from tests.factories import make_tournament, open_round
from tournaments.services.table_links import table_links_issue
from tournaments.table_links import token_for

TABLES = 10
PASSWORD = "a-long-club-password-for-tests"


def seed(folder: str) -> None:
    """Run inside `manage.py shell` on the club folder's database."""
    User = get_user_model()
    organiser = User.objects.create_superuser("organiser", password=PASSWORD)
    keepers = [
        User.objects.create_user(f"keeper{n}", password=PASSWORD) for n in range(1, TABLES + 1)
    ]
    tournament = make_tournament(
        organiser, name="Club Night", scorekeepers=keepers, players=4 * TABLES, table_size=4
    )
    round_ = open_round(tournament, organiser)
    links = table_links_issue(by=organiser, round_=round_, table_numbers=range(1, TABLES + 1))
    tables = []
    for n, keeper in enumerate(keepers, start=1):
        game = Game.objects.filter(table__round=round_, table__number=n).order_by("number").first()
        seats = list(game.table.seats.order_by("position").values_list("player_id", flat=True))
        tables.append(
            {
                "table": n,
                "game": game.pk,
                "players": seats,
                "token": token_issue(user=keeper).key,
                "link": f"/t/{tournament.slug}/rounds/{round_.number}/tables/{n}/link/"
                f"{token_for(links[n])}/",
                "link_id": links[n].pk,
                "link_version": links[n].version,
            }
        )
    (Path(folder) / "seed.json").write_text(json.dumps({"tables": tables}))
    connection.close()
