"""`seed_demo` builds its demo tournaments (`DEMO_TOURNAMENTS`) through the services, and
only once; the docs state exactly that list and its number."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from games.management.commands.seed_demo import DEMO_TOURNAMENTS
from games.models import Game, Penalty, Result
from games.services.stages import stage_race
from tournaments.models import Tournament


@pytest.mark.django_db(transaction=True)
def test_seed_demo_is_complete_and_idempotent():
    call_command("seed_demo")
    finished = Tournament.objects.get(slug="demo-club-open-2026")
    running = Tournament.objects.get(slug="demo-winter-league")
    assert (finished.status, finished.players.count(), finished.rounds.count()) == (
        "finished",
        16,
        4,
    )
    games = Game.objects.filter(table__round__tournament=finished)
    assert games.count() == 64
    assert all(g.results.filter(status="confirmed").exists() for g in games)
    assert Penalty.objects.filter(game__table__round__tournament=finished).exists()
    assert Result.objects.filter(
        game__table__round__tournament=finished, racks__tiles__contains="J"
    ).exists()

    assert running.status == "running"
    second = Game.objects.filter(table__round__tournament=running, table__round__number=2)
    entered = second.filter(results__status="confirmed").distinct().count()
    assert 0 < entered < second.count()

    # Both have Juniors and Seniors, a quarter of the field each, with prize labels.
    for t in (finished, running):
        divisions = list(t.divisions.order_by("order"))
        assert [d.slug for d in divisions] == ["juniors", "seniors"]
        assert [d.players.count() for d in divisions] == [t.players.count() // 4] * 2
        assert divisions[0].prizes[0] == "Trophy"

    # Both standings snapshots are at their tournament's current version.
    for t in (finished, running):
        t.refresh_from_db()
        assert t.standings.filter(computed_version=t.results_version).exists()

    # The staged championship: qualification (16) -> semi-final (8, re-seated every
    # game: one game a round) -> final (4, a race to 4 wins, running), and a side event
    # for the 8 out of the qualification.
    staged = Tournament.objects.get(slug="demo-championship-2026")
    stages = list(staged.stages.order_by("number"))
    assert [s.kind for s in stages] == ["qualification", "semi_final", "final", "side"]
    assert [s.status for s in stages] == ["closed", "closed", "running", "running"]
    assert [s.entries.count() for s in stages] == [0, 8, 4, 8]
    semi_games = Game.objects.filter(table__round__stage=stages[1])
    assert semi_games.count() == 8 and stages[1].rounds.count() == 4  # 2 tables x 4 rounds
    final_tables = Game.objects.filter(table__round__stage=stages[2]).values("table").distinct()
    assert final_tables.count() == 5  # one table, one game a round; the fifth at play
    race = stage_race(stages[2])
    assert race.state.status == "running" and race.state.games == 4

    counts = (Tournament.objects.count(), Result.objects.count(), Penalty.objects.count())
    call_command("seed_demo")
    assert (Tournament.objects.count(), Result.objects.count(), Penalty.objects.count()) == counts


@pytest.mark.django_db(transaction=True)
def test_seed_demo_makes_exactly_its_list_of_demo_tournaments():
    call_command("seed_demo")
    assert set(Tournament.objects.values_list("slug", flat=True)) == set(DEMO_TOURNAMENTS)


NUMBER_WORDS = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
}  # fmt: skip


def _slugs_in_demo_table(page: str) -> list[str]:
    """The slugs of the guide's "Demo data" table; "`demo-x-1` to `-3`" stands for 1, 2, 3."""
    section = page[page.index("## Demo data") :]
    slugs = []
    for line in section.splitlines():
        cell = line.split("|")[1].strip() if line.startswith("| `") else ""
        found = re.fullmatch(r"`([a-z0-9-]+?)(\d+)?` to `-(\d+)`|`([a-z0-9-]+)`", cell)
        if found and found.group(4):
            slugs.append(found.group(4))
        elif found:
            stem, first, last = found.group(1), int(found.group(2)), int(found.group(3))
            slugs += [f"{stem}{n}" for n in range(first, last + 1)]
    return slugs


def test_the_docs_state_what_seed_demo_makes():
    docs = Path(settings.BASE_DIR) / "docs"
    guide = (docs / "guide" / "index.md").read_text()
    assert _slugs_in_demo_table(guide) == list(DEMO_TOURNAMENTS)
    # Every page that counts the demo tournaments says their number ("seven [demo
    # tournaments](…)"; "the first three demo tournaments" counts a part of them).
    said = {
        (path.name, word)
        for path in [*docs.rglob("*.md"), docs.parent / "README.md"]
        for word in re.findall(r"(?<!first )\b(\w+) \[?demo\s+tournaments", path.read_text())
        if word in NUMBER_WORDS.values() or word.isdigit()
    }
    assert said, "no page counts the demo tournaments"
    assert {word for _page, word in said} == {NUMBER_WORDS[len(DEMO_TOURNAMENTS)]}, said
