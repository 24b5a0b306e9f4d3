"""A burst of result corrections, for bench.load's `--burst` (not a bench of its own).

    python -m bench._corrections <slug> <count> <seconds>

Corrects `count` confirmed games of the tournament, evenly over `seconds`: each a new
version entered by the tournament's organiser (and confirmed if the tournament wants a
confirmation) with other tiles left on the losers' racks, so every one moves the
standings, as a scorekeeper fixing typos does. Runs in a process of its own, as the
scorekeepers' requests would; its standings recomputes run on its job thread, as a
worker would run them. Prints how many were stored.
"""

from __future__ import annotations

import os
import random
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from games.models import Game, Result  # noqa: E402
from games.services.results import result_confirm, result_submit  # noqa: E402
from tournaments import jobs  # noqa: E402
from tournaments.models import StaffMember, Tournament  # noqa: E402

TILES = ("R4 B10 K2", "J 7", "O3", "R9 R10", "B1 B2 B3", "K13", "O5 O6")


def main(slug: str, count: int, seconds: float) -> None:
    tournament = Tournament.objects.get(slug=slug)
    organiser = (
        StaffMember.objects.filter(tournament=tournament, role=StaffMember.Role.ORGANISER)
        .first()
        .user
    )
    games = list(
        Game.objects.filter(
            table__round__tournament=tournament, results__status=Result.Status.CONFIRMED
        ).distinct()
    )
    rng = random.Random(7)
    stored = 0
    started = time.monotonic()
    for n in range(count):
        time.sleep(max(0.0, started + n * seconds / count - time.monotonic()))
        game = rng.choice(games)
        latest = game.results.order_by("-version").first()
        seats = list(game.table.seats.order_by("position").values_list("player_id", flat=True))
        racks = [{"player": seats[0], "tiles": ""}] + [
            {"player": p, "tiles": rng.choice(TILES)} for p in seats[1:]
        ]
        result = result_submit(
            game=game, by=organiser, based_on=latest.version, end="rummikub",
            winner=seats[0], racks=racks,
        )  # fmt: skip
        if result.status == Result.Status.SUBMITTED:
            result_confirm(result=result, by=organiser)
        stored += 1
    jobs.wait_idle(30)
    print(f"{stored} corrections stored in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
