"""`manage.py seed_demo`: the demo tournaments of `DEMO_TOURNAMENTS` — a finished and a
running club tournament, a finished city championship ranked by placement points, a club
with a season of three rated evenings, and a championship in stages — entered through
the services with realistic racks. Idempotent: a demo that exists is left as it is.

`DEMO_TOURNAMENTS` is the list the docs (docs/guide/index.md, "Demo data") state; a test
(tests/games/test_seed_demo.py) checks that the command makes exactly these and
that the docs name them and their number, so neither can drift."""

from __future__ import annotations

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import Game
from games.services.results import penalty_record, result_submit
from games.services.rounds import round_open
from games.services.stages import stage_close, stage_cut_preview, stage_side_start
from games.services.standings import standings_recompute
from scoring.tiles import COLOURS, NUMBERS, Tile, format_tiles
from tournaments.backups import backups_paused
from tournaments.models import Club, StaffMember, Tournament
from tournaments.selectors import name_matches
from tournaments.services.clubs import (
    club_create,
    member_create,
    players_link_matches,
    season_create,
    tournament_hold_under,
)
from tournaments.services.divisions import division_create, division_members_set
from tournaments.services.players import player_register, player_update
from tournaments.services.stages import stage_create
from tournaments.services.tournaments import staff_add, tournament_create, tournament_update

FIRST = [
    "Ada",
    "Bram",
    "Chana",
    "Dov",
    "Esther",
    "Farid",
    "Gila",
    "Hugo",
    "Ilse",
    "Jonah",
    "Katja",
    "Levi",
    "Mira",
    "Noam",
    "Orly",
    "Pieter",
    "Rina",
    "Sami",
    "Tova",
    "Uri",
]
LAST = [
    "Peretz",
    "de Vries",
    "Mizrahi",
    "Jansen",
    "Levy",
    "Bakker",
    "Cohen",
    "Visser",
    "Shapiro",
    "Smit",
    "Katz",
    "Mulder",
    "Ben-David",
    "Bos",
    "Friedman",
    "Dekker",
]
CLUBS = ["Tel Aviv RC", "Amsterdam Tegels", "Haifa Joker", "Utrecht 30+"]

# Every tournament the command makes, by slug, in the order the docs list them.
DEMO_TOURNAMENTS = (
    "demo-club-open-2026",
    "demo-winter-league",
    "demo-city-championship-2026",
    "demo-spring-league-1",
    "demo-spring-league-2",
    "demo-spring-league-3",
    "demo-championship-2026",
)


def full_set() -> list[Tile]:
    tiles = [Tile(c, n) for c in COLOURS for n in NUMBERS for _ in range(2)]
    return tiles + [Tile(None, None)] * 2


def deal_racks(rng: random.Random, players: int, *, exhausted: bool) -> list[list[Tile]]:
    """What the racks hold when a game ends: a winner's empty rack (unless the pool ran
    out) and a few to a dozen tiles on every other rack, drawn from one tile set."""
    pool = full_set()
    rng.shuffle(pool)
    racks = []
    for seat in range(players):
        count = rng.randint(1, 12) if exhausted or seat > 0 else 0
        racks.append([pool.pop() for _ in range(count)])
    return racks


class Command(BaseCommand):
    help = "Create the demo tournaments (idempotent)."
    # No system checks: they import every URL and view (seconds of a first start, see
    # docs/operations/install.md) to check nothing this command uses; `runserver`, which
    # `make run` starts next, runs them all.
    requires_system_checks: list[str] = []

    def handle(self, *args, **options):
        with backups_paused():
            self._seed_all()

    def _seed_all(self):
        User = get_user_model()
        # The demo's staff cannot sign in; they only stamp the history of what was entered.
        organiser, scorekeeper = (
            User.objects.get_or_create(username=name, defaults={"password": "!"})[0]
            for name in ("demo-organiser", "demo-scorekeeper")
        )
        self.seed(
            "demo-club-open-2026",
            "Club Open 2026 (demo)",
            organiser,
            scorekeeper,
            players=16,
            rounds=4,
            entered_last=1.0,
            seed=2026,
        )
        self.seed(
            "demo-winter-league",
            "Winter League (demo)",
            organiser,
            scorekeeper,
            players=12,
            rounds=2,
            entered_last=0.5,
            seed=1985,
        )
        self.seed(
            "demo-city-championship-2026",
            "City Championship 2026 (demo)",
            organiser,
            scorekeeper,
            players=12,
            rounds=3,
            entered_last=1.0,
            seed=404,
            # Placement points as some German city championships count them: 4/3/1/0 at
            # a table of 4 in every game; the top 3 go on to a national final.
            rules={"placement_points": {"4": [4, 3, 1, 0], "3": [4, 2, 0], "2": [4, 0]}},
            ranking=["placement_points", "first_places", "score"],
            rounds_planned=3,
            before_finishing=self.qualify_demo,
        )
        self.seed_club(organiser, scorekeeper)
        self.seed_staged(organiser, scorekeeper)

    def qualify_demo(self, tournament, organiser):
        """Three slots for the national final; the leader qualified at an earlier event,
        so their slot passes down to the fourth."""
        tournament_update(
            tournament=tournament,
            by=organiser,
            qualify_slots=3,
            qualify_event="National Final 2027",
        )
        snapshot = standings_recompute(tournament_id=tournament.pk)
        if snapshot is None:
            raise CommandError("The demo's standings were not computed.")
        leader = tournament.players.get(pk=snapshot.rows[0]["player"]["id"])
        player_update(player=leader, by=organiser, already_qualified=True)

    @transaction.atomic
    def seed_staged(self, organiser, scorekeeper):
        """A championship in stages: a qualification of 16 players (2 rounds), a
        semi-final of the top 8 (scores carried over, re-seated every game: 4 rounds of
        one game, Swiss by the semi-final's standings), a final table of the top 4 (half
        carried) playing a race to 4 wins (at most 9 games), 4 games in and the fifth
        opened, and a side event
        for the 8 out of the qualification, its first round played."""
        slug, name = "demo-championship-2026", "National Championship 2026 (demo)"
        if Tournament.objects.filter(slug=slug).exists():
            self.stdout.write(f"{name}: exists, left as it is.")
            return
        rng = random.Random(2023)
        # No rounds planned: the stages carry the schedule, and the final's race has no
        # set length (the page shows each running stage's round instead).
        tournament = tournament_create(by=organiser, name=name, slug=slug, preset="standard")
        for player_name in rng.sample([f"{first} {last}" for first in FIRST for last in LAST], 16):
            player_register(
                tournament=tournament, by=organiser, name=player_name, club=rng.choice(CLUBS)
            )
        qualification, semi, final = (
            stage_create(
                tournament=tournament, by=organiser, name="Qualification", rounds_planned=2
            ),
            stage_create(
                tournament=tournament,
                by=organiser,
                name="Semi-final",
                kind="semi_final",
                cut_top=8,
                carry_over="all",
                reseat_every_game=True,
            ),
            stage_create(
                tournament=tournament,
                by=organiser,
                name="Final",
                kind="final",
                cut_top=4,
                carry_over="half",
                race_target=4,
                race_cap=9,
            ),
        )

        def play(stage, rounds, method="random"):
            for _ in range(rounds):
                round_ = round_open(
                    tournament=tournament,
                    by=organiser,
                    method=method,
                    seed=rng.randrange(2**31),
                    stage=stage.number,
                )
                for game in Game.objects.filter(table__round=round_).order_by(
                    "table__number", "number"
                ):
                    self.enter(rng, game, organiser)

        def close(stage):
            entrants = [p.id for p in stage_cut_preview(stage).entrants]
            stage_close(stage=stage, by=organiser, expected_entrants=entrants)

        play(qualification, 2)
        close(qualification)
        side = stage_side_start(stage=qualification, by=organiser, name="Consolation")
        play(semi, 4, method="swiss")  # one game a round, re-seated every game
        play(side, 1)
        close(semi)
        play(final, 4)  # the race to 4: four games in, the fifth at the table
        round_open(tournament=tournament, by=organiser, method="random", stage=final.number)
        self.stdout.write(
            f"{name}: created, qualification -> semi-final -> final (race to 4, running), "
            "and a side event."
        )

    @transaction.atomic
    def seed_club(self, organiser, scorekeeper):
        """A club of 12 members and a spring league of three evenings (best 2 of 3 count),
        each a rated tournament of 8 of the members, 2 rounds, finished."""
        name = "Haifa Joker (demo)"
        if Club.objects.filter(name=name).exists():
            self.stdout.write(f"{name}: exists, left as it is.")
            return
        rng = random.Random(30)
        club = club_create(by=organiser, name=name)
        people = rng.sample([f"{first} {last}" for first in FIRST for last in LAST], 12)
        for person in people:
            member_create(club=club, by=organiser, name=person)
        season = season_create(
            club=club, by=organiser, name="Spring league 2026", rule={"rule": "best", "best": 2}
        )
        for evening in range(1, 4):
            tournament = tournament_create(
                by=organiser,
                name=f"Spring league, evening {evening} (demo)",
                slug=f"demo-spring-league-{evening}",
                starts_on=date(2026, 3, 7 * evening),
                preset="standard",
                rounds_planned=2,
            )
            tournament = tournament_hold_under(
                tournament=tournament, by=organiser, club=club, season=season, rated=True
            )
            for person in sorted(rng.sample(people, 8)):
                player_register(tournament=tournament, by=organiser, name=person)
            players_link_matches(
                tournament=tournament,
                by=organiser,
                player_ids=[player.pk for player, _ in name_matches(tournament)],
            )
            for _ in range(2):
                round_ = round_open(
                    tournament=tournament, by=organiser, method="random", seed=rng.randrange(2**31)
                )
                for game in Game.objects.filter(table__round=round_).order_by(
                    "table__number", "number"
                ):
                    self.enter(rng, game, organiser)
            tournament_update(tournament=tournament, by=organiser, status="finished")
        self.stdout.write(f"{name}: created, with a season of three rated evenings.")

    @transaction.atomic
    def seed(
        self,
        slug,
        name,
        organiser,
        scorekeeper,
        *,
        players,
        rounds,
        entered_last,
        seed,
        rules=None,
        ranking=None,
        rounds_planned=4,
        before_finishing=None,
    ):
        if Tournament.objects.filter(slug=slug).exists():
            self.stdout.write(f"{name}: exists, left as it is.")
            return
        rng = random.Random(seed)
        tournament = tournament_create(
            by=organiser,
            name=name,
            slug=slug,
            preset="standard",
            rounds_planned=rounds_planned,
            rules=rules,
            ranking=ranking,
        )
        staff_add(
            tournament=tournament,
            by=organiser,
            username=scorekeeper.username,
            role=StaffMember.Role.SCOREKEEPER,
        )
        names = rng.sample([f"{first} {last}" for first in FIRST for last in LAST], players)
        for player_name in names:
            player_register(
                tournament=tournament,
                by=organiser,
                name=player_name,
                club=rng.choice(CLUBS),
                rating=rng.randint(1200, 2000),
            )
        self.seed_divisions(tournament, organiser, random.Random(seed + 1))
        for number in range(1, rounds + 1):
            # Random seating with fewest repeat meetings, reproducible from the demo's seed.
            round_ = round_open(
                tournament=tournament, by=organiser, method="random", seed=rng.randrange(2**31)
            )
            games = list(
                Game.objects.filter(table__round=round_).order_by("table__number", "number")
            )
            share = 1.0 if number < rounds else entered_last
            for game in games[: round(len(games) * share)]:
                self.enter(rng, game, scorekeeper)
        if before_finishing is not None:
            before_finishing(tournament, organiser)
        if entered_last == 1.0:
            tournament_update(tournament=tournament, by=organiser, status="finished")
        self.stdout.write(f"{name}: created.")

    def seed_divisions(self, tournament, organiser, rng):
        """Juniors and Seniors, a quarter of the field each (a player in neither is in the
        open field only), so the standings page shows its division filter at once."""
        ids = list(tournament.players.order_by("number").values_list("pk", flat=True))
        picked = rng.sample(ids, len(ids) // 2)
        quarter = len(ids) // 4
        for name, slug, prizes, members in (
            ("Juniors ≤ 14", "juniors", ["Trophy", "Book voucher", "Medal"], picked[:quarter]),
            ("Seniors 60+", "seniors", ["Trophy", "Medal"], picked[quarter:]),
        ):
            division = division_create(
                tournament=tournament, by=organiser, name=name, slug=slug, prizes=prizes
            )
            division_members_set(division=division, by=organiser, player_ids=members)

    def enter(self, rng, game, scorekeeper):
        seats = list(game.table.seats.order_by("position").values_list("player_id", flat=True))
        exhausted = rng.random() < 0.1
        racks = deal_racks(rng, len(seats), exhausted=exhausted)
        # The winner (empty rack) is any seat; rotate the racks so it is not always seat 1.
        shift = rng.randrange(len(seats))
        racks = racks[shift:] + racks[:shift]
        winner = None if exhausted else seats[racks.index([])]
        payload = []
        for player, tiles in zip(seats, racks, strict=True):
            if rng.random() < 0.25 and tiles:  # some scorekeepers count totals only
                jokers = sum(t.is_joker for t in tiles)
                payload.append(
                    {
                        "player": player,
                        "tile_count": len(tiles),
                        "jokers": jokers,
                        "points": sum(t.value for t in tiles) + 30 * jokers,
                    }
                )
            else:
                payload.append({"player": player, "tiles": format_tiles(tiles)})
        if rng.random() < 0.15:
            penalty_record(
                game=game,
                by=scorekeeper,
                player=rng.choice(seats),
                kind=rng.choice(["timeout", "timeout", "failed_manipulation"]),
            )
        if rng.random() < 0.03:
            penalty_record(
                game=game,
                by=scorekeeper,
                player=rng.choice(seats),
                kind="sanction",
                points=10,
                note="Slow play after a warning",
            )
        result_submit(
            game=game,
            by=scorekeeper,
            based_on=0,
            end="pool_exhausted" if exhausted else "rummikub",
            winner=winner,
            racks=payload,
        )
