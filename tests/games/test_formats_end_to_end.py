"""Every format of the catalogue played end to end through the services: created from
the template, players registered, every stage seated by its own method, every game
entered, every cut committed, the final ranking and slots as the format's source says.

The field is played by strength: at every table the strongest player (lowest start
number) goes out first, and each loser holds a rack worth their start number, so the
order of the standings is the order of the start numbers wherever the draw allows it.
"""

from __future__ import annotations

import pytest

from games.models import Game, Result
from games.services.results import result_submit
from games.services.rounds import round_open
from games.services.seasons import season_recompute
from games.services.stages import stage_close, stage_cut_preview, stage_race, stage_rows
from games.services.standings import standings_recompute
from scoring.formats import CATALOGUE
from tournaments.models import Club, Member, Player, Round, Stage, Tournament
from tournaments.selectors import name_matches
from tournaments.services.clubs import club_create, players_link_matches
from tournaments.services.formats import tournament_from_format
from tournaments.services.players import player_register

pytestmark = pytest.mark.django_db

COLOURS = "RBKO"


def _tiles(number: int, colour: str) -> str:
    """A rack worth `number` points (two copies of each tile exist)."""
    tiles = [f"{colour}13"] * (number // 13)
    if number % 13:
        tiles.append(f"{colour}{number % 13}")
    return " ".join(tiles)


def play_game(game: Game, by) -> None:
    """The strongest seated player goes out; the others hold their start number."""
    seats = list(game.table.seats.order_by("position").select_related("player"))
    strongest = min(seats, key=lambda s: s.player.number)
    racks = []
    for index, seat in enumerate(seats):
        tiles = "" if seat is strongest else _tiles(seat.player.number, COLOURS[index])
        racks.append({"player": seat.player_id, "tiles": tiles})
    result_submit(
        game=game, by=by, based_on=0, end="rummikub", winner=strongest.player_id, racks=racks
    )


def play_round(round_: Round, by) -> None:
    """Every game of the round in order; a target-score match closes its later games."""
    while True:
        left = (
            Game.objects.filter(table__round=round_)
            .exclude(results__status=Result.Status.CONFIRMED)
            .order_by("table__number", "number")
            .first()
        )
        if left is None:
            return
        play_game(left, by)


def open_in(tournament: Tournament, stage: Stage, by) -> Round:
    """A round of `stage`, drawn by the stage's own seating (no method named)."""
    return round_open(tournament=tournament, by=by, method=None, stage=stage.number)


def play_stage(tournament: Tournament, stage: Stage, by) -> list[Round]:
    rounds = []
    if stage.race_target is not None:
        while not stage_race(stage).over:
            rounds.append(open_in(tournament, stage, by))
            play_round(rounds[-1], by)
    elif stage.reseat_every_game:
        for _game in range(stage.games_per_table or tournament.games_per_table or 4):
            rounds.append(open_in(tournament, stage, by))
            play_round(rounds[-1], by)
    else:
        for _round in range(stage.rounds_planned or 1):
            rounds.append(open_in(tournament, stage, by))
            play_round(rounds[-1], by)
    return rounds


def close(stage: Stage, by):
    stage.refresh_from_db()
    preview = stage_cut_preview(stage)
    entrants = list(preview.result.entrants) if preview.result else []
    return stage_close(stage=stage, by=by, expected_entrants=entrants)


def numbers(players) -> list[int]:
    return [p.number for p in players]


def setup(key: str, alice, players: int | None = None) -> Tournament:
    chosen = next(f for f in CATALOGUE if f.key == key)
    tournament = tournament_from_format(by=alice, format=key, name=f"Test {key}")
    juniors = list(tournament.divisions.all())
    for n in range(1, (players or chosen.example_players) + 1):
        player_register(
            tournament=tournament,
            by=alice,
            name=f"Player {n}",
            # Every third player a junior, where the format has juniors.
            divisions=[juniors[0].slug] if juniors and n % 3 == 0 else None,
        )
    return tournament


def favourite(rows: list[dict]) -> dict:
    """Player 1's row of the standings: they go out first in every game they play."""
    return next(row for row in rows if row["player"]["number"] == 1)


def stages(tournament: Tournament) -> list[Stage]:
    return list(tournament.stages.order_by("number"))


def final_ranks(stage: Stage) -> list[int]:
    return [row.player.number for row in stage_rows(stage)]


@pytest.fixture
def play_format(alice):
    """Play a whole format: every stage in turn, each closed with its cut."""

    def play(key: str, players: int | None = None) -> tuple[Tournament, dict]:
        tournament = setup(key, alice, players)
        seen: dict = {"rounds": {}, "previews": {}}
        for stage in stages(tournament):
            stage.refresh_from_db()
            seen["rounds"][stage.number] = play_stage(tournament, stage, alice)
            seen["previews"][stage.number] = close(stage, alice)
        tournament.refresh_from_db()
        standings_recompute(tournament_id=tournament.pk)
        return tournament, seen

    return play


def test_the_catalogue_has_the_ten_formats():
    assert [f.key for f in CATALOGUE] == [
        "club-evening",
        "swiss-saturday",
        "german-city",
        "dutch-championship",
        "japanese-championship",
        "polish-qualifier",
        "belgian-open",
        "us-senior-games",
        "target-club-night",
        "season-league",
    ]
    assert all(f.description and f.source for f in CATALOGUE)


def test_club_evening(play_format):
    tournament, seen = play_format("club-evening")
    assert len(seen["rounds"][1]) == 3
    assert {r.method for r in seen["rounds"][1]} == {"random"}
    rows = standings_recompute(tournament_id=tournament.pk).rows
    # The favourite wins every game: 3 rounds of a series of 4, and nobody ranks above on
    # games won (another player the draw kept away from them may equal it).
    assert favourite(rows)["metrics"]["games_won"] == 3 * 4
    assert rows[0]["metrics"]["games_won"] == 3 * 4


def test_swiss_saturday(play_format):
    tournament, seen = play_format("swiss-saturday")
    assert [r.method for r in seen["rounds"][1]] == ["swiss"] * 5
    # Each Swiss round keeps its tables' rank spreads (how far apart in the standings
    # the players at one table were).
    assert all(len(r.quality["rank_spreads"]) == 3 for r in seen["rounds"][1])
    rows = standings_recompute(tournament_id=tournament.pk).rows
    assert favourite(rows)["metrics"]["games_won"] == rows[0]["metrics"]["games_won"] == 5 * 4


def test_german_city_championship(play_format):
    tournament, seen = play_format("german-city")
    rounds = seen["rounds"][1]
    assert len(rounds) == 4
    assert {r.tables.first().games.count() for r in rounds} == {4}  # 4 games per table
    assert tournament.ranking[0] == "placement_points"
    rows = standings_recompute(tournament_id=tournament.pk).rows
    # 16 games won, 4 points each: the most anyone can have.
    assert favourite(rows)["metrics"]["placement_points"] == 4 * 4 * 4
    assert rows[0]["metrics"]["placement_points"] == 4 * 4 * 4
    juniors = tournament.divisions.get()
    assert juniors.name == "Juniors"
    assert set(juniors.players.values_list("number", flat=True)) == {3, 6, 9, 12}


def test_dutch_championship(play_format):
    tournament, seen = play_format("dutch-championship")
    _qualification, final = stages(tournament)
    cut = seen["previews"][1]
    assert numbers(cut.entrants) == [row.player.number for row in cut.rows[:8]]  # the top 8
    assert len(cut.entrants) == 8 and 1 in numbers(cut.entrants)
    race = stage_race(final)
    # The favourite wins every game they play, so the race ends after game 4: they reach
    # 4 wins, alone or with the other table's winner (then the decider chooses).
    assert race.over and race.state.wins[race.champion.id] == 4  # first to 4 wins
    player_1 = next(p for p in race.players.values() if p.number == 1)
    assert race.state.wins[player_1.id] == 4
    assert len(seen["rounds"][2]) == 4  # one game per round
    assert final_ranks(final)[0] == race.champion.number  # the champion first
    assert all(table.games.count() == 1 for r in seen["rounds"][2] for table in r.tables.all())


def test_japanese_championship(play_format):
    tournament, seen = play_format("japanese-championship")
    _qualification, _semi, final = stages(tournament)
    assert len(seen["rounds"][2]) == 4  # re-seated every game: 4 rounds of 1 game
    assert {r.method for r in seen["rounds"][2]} == {"snake"}
    first_semi = seen["rounds"][2][0]
    by_table = [
        list(t.seats.order_by("position").values_list("player__number", flat=True))
        for t in first_semi.tables.order_by("number")
    ]
    seeds = numbers(seen["previews"][1].entrants)  # in the qualification's order
    assert by_table == [
        [seeds[0], seeds[3], seeds[4], seeds[7]],
        [seeds[1], seeds[2], seeds[5], seeds[6]],
    ]  # snake by seed: 1, 4, 5, 8 / 2, 3, 6, 7
    close_semi = seen["previews"][2]
    assert numbers(close_semi.entrants) == [row.player.number for row in close_semi.rows[:4]]
    scores = {row.player.id: row.metrics["score"] for row in close_semi.rows}
    assert close_semi.carried == {p: scores[p] for p in close_semi.result.entrants}  # all
    assert tournament.ranking[:4] == ["score", "best_game", "second_best_game", "third_best_game"]
    final_rows = stage_rows(final)
    assert [row.metrics["games_played"] for row in final_rows] == [4] * 4  # one table, 4 games
    assert {row.player.id: row.carried for row in final_rows} == close_semi.carried


def test_polish_qualifier_slots_follow_the_final_and_pass_down(alice, play_format):
    tournament = setup("polish-qualifier", alice)
    qualification, final = stages(tournament)
    # The favourite already holds a place in the national final: their slot passes down.
    Player.objects.filter(tournament=tournament, number=1).update(already_qualified=True)
    for stage in (qualification, final):
        stage.refresh_from_db()
        play_stage(tournament, stage, alice)
        preview = close(stage, alice)
    cut = stage_cut_preview(qualification)
    assert numbers(cut.entrants) == [row.player.number for row in cut.rows[:4]]
    assert final.rounds.get().tables.get().games.count() == 4
    tournament.refresh_from_db()
    assert tournament.qualify_stage == final
    order = final_ranks(final)
    assert 1 in order  # the favourite reached the final, and holds a place already
    rows = standings_recompute(tournament_id=tournament.pk).rows
    qualified = [r["player"]["number"] for r in rows if r.get("qualified")]
    # The slots follow the final's order, passed down past the favourite.
    assert sorted(qualified) == sorted([n for n in order if n != 1][:2])
    assert preview.next_stage is None


def test_belgian_open(play_format):
    tournament, seen = play_format("belgian-open")
    _qualification, _semis, final = stages(tournament)
    games = [{t.games.count() for t in seen["rounds"][n][0].tables.all()} for n in (1, 2, 3)]
    assert games == [{3}, {2}, {1}]  # 3 -> 2 -> 1 games per table
    semi_round = seen["rounds"][2][0]
    assert semi_round.method == "alternating"
    tables = [
        list(t.seats.order_by("position").values_list("player__number", flat=True))
        for t in semi_round.tables.order_by("number")
    ]
    seeds = numbers(seen["previews"][1].entrants)  # in the qualification's order
    assert tables == [seeds[0::2], seeds[1::2]]  # seeds 1, 3, 5, 7 / 2, 4, 6, 8
    semi_cut = seen["previews"][2]
    assert numbers(semi_cut.entrants) == [row.player.number for row in semi_cut.rows[:4]]
    assert final_ranks(final)[0] == 1


def test_us_senior_games_table_winners_advance(play_format):
    tournament, seen = play_format("us-senior-games")
    preliminary = seen["rounds"][1][0]
    sizes = sorted(t.seats.count() for t in preliminary.tables.all())
    assert sizes == [3, 3, 4, 4]  # 14 players at tables of 3 or 4
    winners = sorted(
        min(t.seats.values_list("player__number", flat=True)) for t in preliminary.tables.all()
    )
    feed = seen["previews"][1].feeds[0]
    assert sorted(feed.players[p].number for p in feed.result.table_winners) == winners
    assert sorted(numbers(seen["previews"][1].entrants)) == winners
    final = stages(tournament)[1]
    assert final_ranks(final)[0] == 1


def test_target_club_night(play_format):
    tournament, seen = play_format("target-club-night")
    assert tournament.target_score == 100 and tournament.target_games_cap == 6
    rows = standings_recompute(tournament_id=tournament.pk).rows
    assert favourite(rows)["metrics"]["matches_won"] == 2  # a match a round, every round
    # Ranked by matches won first: nobody above the favourite won more.
    assert rows[0]["metrics"]["matches_won"] == 2
    for round_ in seen["rounds"][1]:
        for table in round_.tables.all():
            assert table.games.count() <= 6  # never beyond the cap


def test_season_league_counts_the_best_games(alice):
    club = club_create(by=alice, name="Lincoln RC")
    for n in range(1, 9):
        Member.objects.create(club=club, name=f"Player {n}")
    evenings = []
    for night in (1, 2):
        chosen = "season-league"
        tournament = tournament_from_format(
            by=alice, format=chosen, name=f"League night {night}", club=Club.objects.get()
        )
        for n in range(1, 9):
            player_register(tournament=tournament, by=alice, name=f"Player {n}")
        players_link_matches(
            tournament=tournament, by=alice, player_ids=[p.pk for p, _ in name_matches(tournament)]
        )
        stage = tournament.stages.get()
        play_stage(tournament, stage, alice)
        close(stage, alice)
        standings_recompute(tournament_id=tournament.pk)
        evenings.append(tournament)
    season = club.seasons.get()
    assert season.name == "League" and season.rule["rule"] == "best_games"
    assert season.rule["best"] == 20
    assert {t.season_id for t in evenings} == {season.pk}
    rows = season_recompute(season_id=season.pk).rows
    assert rows[0]["member"]["name"] == "Player 1"
    # 2 evenings x 2 rounds x 4 games, all won by Player 1: 16 games, every one counted.
    won = sum(c["value"] for c in rows[0]["contributions"] if c["counted"])
    assert rows[0]["total"] == won > 0
