"""The walkthrough of docs/first-tournament.md, step by step in a real browser on a live
server, with the screenshots the page shows.

An organiser on the laptop (a desktop window) signs in, creates a tournament, imports the
players, checks them in, previews and opens round 1, prints the sheets; a phone (412 x
900) scans a table's QR code and enters a game; the standings follow; round 2 is drawn
Swiss; the tournament is finished and its final standings show the podium. Every step
asserts what the page says, so a change that breaks the walkthrough fails here.

The screenshots go to a folder of the test run, or, with DOCS_SCREENSHOTS=1 (`make
screenshots`), into docs/img/, where the page finds them: take them again after a change
to a page it shows, and commit the PNGs. The last test checks that the page shows exactly
the screenshots this walk takes, and that each one is in docs/img/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Game, Result
from games.services.results import result_submit
from tests.browser.conftest import TIMEOUT_MS, sign_in
from tournaments.models import Round, TableLink, Tournament
from tournaments.table_links import token_for

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "img"
PAGE = ROOT / "docs" / "first-tournament.md"
SHOTS = [
    "01-sign-in.png",
    "02-new-tournament.png",
    "03-import-players.png",
    "04-check-in.png",
    "05-round-preview.png",
    "06-round-open.png",
    "07-table-sheets.png",
    "08-table-link.png",
    "09-enter-game.png",
    "10-standings.png",
    "11-missing-results.png",
    "12-next-round.png",
    "13-finish.png",
    "14-final-standings.png",
]

PLAYERS = [
    ("Ada Peretz", "Haifa Joker"), ("Bram de Vries", "Utrecht 30+"),
    ("Chana Mizrahi", "Tel Aviv RC"), ("Dov Jansen", "Amsterdam Tegels"),
    ("Esther Levy", "Haifa Joker"), ("Farid Bakker", "Utrecht 30+"),
    ("Gila Cohen", "Tel Aviv RC"), ("Hugo Visser", "Amsterdam Tegels"),
    ("Ilse Shapiro", "Haifa Joker"), ("Jonah Smit", "Utrecht 30+"),
    ("Katja Katz", "Tel Aviv RC"), ("Levi Mulder", "Amsterdam Tegels"),
]  # fmt: skip
PLAYERS_CSV = "name,club,rating\n" + "".join(
    f"{name},{club},{1600 - 10 * n}\n" for n, (name, club) in enumerate(PLAYERS)
)
LOSER_RACKS = ["R4 B10 K2", "J 7", "O3 O4", "K11", "B1 B2 R9", "O12"]


@pytest.fixture
def shots(tmp_path):
    folder = IMAGES if os.environ.get("DOCS_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    taken: list[str] = []

    def shot(page, name: str, *, full_page: bool = False) -> None:
        assert name in SHOTS, name
        page.screenshot(path=str(folder / name), full_page=full_page, animations="disabled")
        taken.append(name)

    shot.taken = taken  # type: ignore[attr-defined]
    return shot


@pytest.fixture
def laptop(browser, live_server):
    """The organiser's laptop: a desktop window on the live server."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1100, "height": 760})
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def enter_the_rest(round_: Round, by) -> None:
    """Every game of the round still without a result: a Rummikub end won by the game's
    starter (so each player wins about as often), the other racks from a short list."""
    games = Game.objects.filter(table__round=round_, results__isnull=True).order_by("pk")
    for n, game in enumerate(games.select_related("table")):
        players = list(game.table.seats.order_by("position").values_list("player_id", flat=True))
        winner = players[game.starter_position - 1]
        losers = [p for p in players if p != winner]
        racks = [{"player": winner, "tiles": ""}] + [
            {"player": p, "tiles": LOSER_RACKS[(n + i) % len(LOSER_RACKS)]}
            for i, p in enumerate(losers)
        ]
        result_submit(game=game, by=by, based_on=0, end="rummikub", winner=winner, racks=racks)


def test_run_your_first_tournament(laptop, new_page, alice, shots):
    page = laptop
    # 2. Sign in.
    page.goto("/accounts/login/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    shots(page, "01-sign-in.png")
    sign_in(page, "alice", "alice-pass-123")

    # 3. Create the tournament: the resolved rules follow the preset.
    page.goto("/new/")
    page.get_by_label("Name").fill("Club Night")
    page.get_by_role("radio", name=re.compile("^Standard club rules")).check()
    expect(page.locator('#rules-panel [data-option="joker_penalty"]')).to_have_text("30")
    shots(page, "02-new-tournament.png")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_text("Club Night is created")).to_be_visible()
    tournament = Tournament.objects.get(name="Club Night")

    # 4. Import the players from a CSV file.
    page.goto(f"/t/{tournament.slug}/players/")
    page.get_by_label("CSV file").set_input_files(
        {"name": "players.csv", "mimeType": "text/csv", "buffer": PLAYERS_CSV.encode()}
    )
    page.get_by_role("button", name="Import players").click()
    expect(page.get_by_text("12 players imported.", exact=False)).to_be_visible()
    shots(page, "03-import-players.png")
    assert tournament.players.count() == 12

    # 5. Check-in: Levi has not come; everyone else is present by default.
    page.get_by_role("link", name="Check-in").click()
    levi = tournament.players.get(name="Levi Mulder")
    page.locator(f"#player-{levi.pk} button").click()
    expect(page.locator(".checkin-count")).to_contain_text("11 present · 1 absent")
    shots(page, "04-check-in.png")

    # 6. Preview round 1: 11 players make 2 tables of 4 and one of 3, said out loud.
    page.get_by_role("link", name="Open round 1").click()
    page.get_by_label("Seating method").select_option("random")
    page.get_by_role("button", name="Preview round 1").click()
    expect(page.locator("#table-sizes")).to_contain_text("2 tables of 4 and 1 table of 3")
    shots(page, "05-round-preview.png")
    assert not Round.objects.filter(tournament=tournament).exists()  # nothing saved yet

    # 7. Open round 1.
    page.get_by_role("button", name="Open round 1").click()
    expect(page.get_by_text("Round 1 is open.")).to_be_visible()
    shots(page, "06-round-open.png")
    round1 = Round.objects.get(tournament=tournament, number=1)
    assert round1.tables.count() == 3

    # 8. Print the table sheets, each with its table's QR code.
    page.get_by_role("link", name="Printable table sheets").click()
    expect(page.locator("section.sheet")).to_have_count(3)
    expect(page.locator("section.sheet").first.locator(".qr svg")).to_be_visible()
    shots(page, "07-table-sheets.png")

    # 9. A phone scans table 1's QR code: no account, straight to the table's page.
    link = TableLink.objects.get(round=round1, table_number=1, revoked_at__isnull=True)
    phone = new_page()
    phone.goto(
        reverse(
            "table-link",
            kwargs={
                "slug": tournament.slug,
                "round_number": 1,
                "table_number": 1,
                "token": token_for(link),
            },
        )
    )
    expect(phone).to_have_url(re.compile(rf"/t/{tournament.slug}/rounds/1/tables/1/$"))
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Table 1")
    shots(phone, "08-table-link.png")

    # 10. Enter game 1: the winner, and each loser's rack by tiles.
    seats = list(round1.tables.get(number=1).seats.order_by("position").select_related("player"))
    game1 = phone.locator("#game-1")
    game1.get_by_label("Rummikub (a rack emptied)").check()
    game1.get_by_label("Winner").select_option(label=f"{seats[0].player.name} (seat 1)")
    for seat, tiles in zip(seats[1:], ["R4 B10 K2", "J 7", "O3"], strict=False):
        game1.get_by_label(f"{seat.player.name} — tiles").fill(tiles)
    expect(phone.locator("#g1-r3-value")).to_have_text("= 37 points (2 tiles, 1 joker)")
    game1.evaluate("game => game.scrollIntoView({block: 'start'})")
    shots(phone, "09-enter-game.png")
    game1.get_by_role("button", name="Save game 1").click()
    expect(phone.get_by_text("Game 1: version 1 saved")).to_be_visible()
    assert Result.objects.get(game__table=seats[0].table, game__number=1).status == "confirmed"

    # 11. The standings, on anyone's phone, as the results come in.
    enter_the_rest(round1, alice)
    viewer = new_page()
    viewer.goto(f"/t/{tournament.slug}/")
    expect(viewer.locator("#standings")).to_contain_text(seats[0].player.name)
    shots(viewer, "10-standings.png")

    # 12. Before the next round: no result is missing.
    page.get_by_role("link", name="Missing results").click()
    expect(page.locator("main")).to_contain_text("Every game has a confirmed result.")
    shots(page, "11-missing-results.png")

    # 13. The next round: Levi is back (a check-in holds for one round); Swiss this time.
    page.get_by_role("link", name="Open next round").click()
    page.get_by_label("Seating method").select_option("swiss")
    page.get_by_role("button", name="Preview round 2").click()
    expect(page.locator("#table-sizes")).to_contain_text("3 tables of 4")
    shots(page, "12-next-round.png")
    page.get_by_role("button", name="Open round 2").click()
    expect(page.get_by_text("Round 2 is open.")).to_be_visible()

    # 14. Round 2 is entered like round 1; then the organiser finishes the tournament.
    enter_the_rest(Round.objects.get(tournament=tournament, number=2), alice)
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Status").select_option("finished")
    shots(page, "13-finish.png")
    page.get_by_role("button", name="Save settings").click()
    tournament.refresh_from_db()
    assert tournament.status == "finished"

    # 15. The final standings, with the podium.
    viewer.goto(f"/t/{tournament.slug}/")
    expect(viewer.locator(".podium")).to_be_visible()
    shots(viewer, "14-final-standings.png", full_page=True)

    assert shots.taken == SHOTS  # every screenshot the page shows, in its order


def test_the_page_shows_exactly_the_screenshots_of_the_walk():
    shown = re.findall(r"\]\(img/([\w.-]+\.png)\)", PAGE.read_text(encoding="utf-8"))
    assert shown == SHOTS
    missing = [name for name in SHOTS if not (IMAGES / name).is_file()]
    assert missing == [], "run `make screenshots` and commit docs/img/"
