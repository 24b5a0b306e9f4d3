"""The live OpenAPI schema, fuzzed by schemathesis against the app in-process (WSGI).

Every operation gets a bounded number of generated requests, valid and invalid, once
anonymous and once with a superuser's token, against a seeded tournament: path slugs and
ids point at it, and most bodies get real player ids and plausible tiles (`_ground`) so
that they reach the services and the rules engine, not just the first "unknown player".
Every check schemathesis has (`CHECKS`): never a server error, every status code, content
type, header and body documented, schema-violating requests refused, schema-valid ones
accepted (see POSITIVE_STATUSES), ... Deterministic
(derandomized) by default so CI is stable; see EXAMPLES for a deeper, random hunt.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS as CHECKS_REGISTRY
from schemathesis.config._checks import PositiveDataAcceptanceConfig

from games.models import Game, Result
from games.services.results import penalty_record
from tests.api import _api_settings  # noqa: F401  (throttles out of the way)
from tests.conftest import shared_rows
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated

# Per operation, persona and mode (valid / invalid data). Raise it for a deeper hunt:
# SCHEMATHESIS_EXAMPLES=300 SCHEMATHESIS_RANDOM=1 pytest tests/test_schemathesis.py

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "5"))
DERANDOMIZE = not os.environ.get("SCHEMATHESIS_RANDOM")
# Status codes answered, per operation: printed with `-s` when SCHEMATHESIS_STATS is set.
STATS: Counter = Counter()
CHECKS = CHECKS_REGISTRY.get_all()
# A schema-valid request may still break a rule no schema can state (a player of another
# tournament, a seat not at this table, a round already open): a 400 naming it is right,
# so positive data may be answered 400 too — never 413, 415, 405 or a server error.
POSITIVE_STATUSES = ["2xx", "400", "401", "403", "404", "409", "429"]


@pytest.fixture(autouse=True, scope="module")
def _summary():
    """With SCHEMATHESIS_STATS set: the number of requests sent, printed at the end."""
    yield
    if os.environ.get("SCHEMATHESIS_STATS"):
        print(f"\nschemathesis: {sum(STATS.values())} cases answered")


def _seed() -> dict:
    """A public tournament with a round, a result and a penalty, a private one, and the
    ids the fuzzed paths are pointed at."""
    users = get_user_model().objects
    root = users.create_superuser("root", password="root-pass-123")
    bob = users.create_user("bob", password="bob-pass-123")
    tournament = make_tournament(root, name="Club Open", scorekeepers=[bob], players=8)
    round_ = open_round(tournament, root)
    game = Game.objects.filter(table__round=round_).order_by("table__number", "number").first()
    enter_rummikub(game, bob)
    penalty = penalty_record(game=game, by=bob, player=seated(game)[1], kind="timeout")
    make_tournament(root, name="Secret Cup", public=False, players=2)
    return {
        "token": Token.objects.create(user=root).key,
        "slug": tournament.slug,
        "tournament": tournament,
        "game": game.id,
        "seated": seated(game),
        "player": tournament.players.order_by("number").first().id,
        "penalty": penalty.id,
    }


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    """`_seed()`'s rows, made once per module and process; every test runs in a savepoint
    over them (tests/conftest.py's `shared_rows`), so each one starts from exactly these
    rows whatever the requests of the one before wrote."""
    yield from shared_rows(django_db_blocker, _seed)


@pytest.fixture
def wsgi_app(db, seeded):
    """The project's WSGI app, sharing the test's database transaction: Django's test
    client does the same, by not closing connections at the start and end of requests."""
    from config.wsgi import application

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield application
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(wsgi_app):
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", wsgi_app)
    schema.config.generation.update(max_examples=EXAMPLES, deterministic=True, database="none")
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
        expected_statuses=POSITIVE_STATUSES
    )
    return schema


def _operations() -> list[tuple[str, str]]:
    """(method, path) of every operation the schema documents, for parametrize."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    return sorted((method.upper(), path) for path, item in paths.items() for method in item)


OPERATIONS = _operations()


def _fixed_path_parameters(path: str, seeded: dict) -> dict:
    """Known slug and ids, so requests reach the views instead of a 404."""
    fixed: dict = {}
    if "{slug}" in path:
        fixed["slug"] = seeded["slug"]
    if "{number}" in path:
        fixed["number"] = 1
    if "{version}" in path:
        fixed["version"] = 1
    if "{id}" in path:
        if path.startswith("/api/v1/games/"):
            fixed["id"] = seeded["game"]
        elif path.startswith("/api/v1/penalties/"):
            fixed["id"] = seeded["penalty"]
        else:
            fixed["id"] = seeded["player"]
    return fixed


FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=DERANDOMIZE,
    database=None,
    suppress_health_check=list(HealthCheck),
)


TILE_TOKENS = ["R1", "B5", "O13", "K7", "Y3", "J", "7", "12", "R10", "B10", "K13", "X4", "R14",
               "j", "r5,b6", "B5 B5 B5", "", "  "]  # fmt: skip


def _ground(case, rnd, seeded: dict) -> None:
    """Often swap generated ids and tiles for real ones, so that bodies get past "unknown
    player" into the seating, the rules engine and the database."""
    body = case.body
    if not isinstance(body, dict) or rnd.random() < 0.15:
        return
    players = seeded["seated"]
    if isinstance(body.get("racks"), list):
        if rnd.random() < 0.6:
            body["based_on"] = Result.objects.filter(game_id=seeded["game"]).count()
        if rnd.random() < 0.7:
            body["winner"] = rnd.choice(players)
        if rnd.random() < 0.5:
            body["racks"] = [*body["racks"], *({"player": p} for p in players)][: len(players)]
        for index, rack in enumerate(body["racks"]):
            if not isinstance(rack, dict):
                continue
            rack["player"] = players[index % len(players)]
            if rnd.random() < 0.6:
                tokens = [rnd.choice(TILE_TOKENS) for _ in range(rnd.randint(0, 6))]
                rack["tiles"] = " ".join(tokens)
                if rnd.random() < 0.7:
                    for key in ("points", "tile_count", "jokers"):
                        rack.pop(key, None)
        if rnd.random() < 0.4:
            # A game that could have happened: the winner went out, the others hold tiles.
            body.update(end="rummikub", winner=players[0])
            body["racks"] = [{"player": players[0], "tiles": ""}] + [
                {"player": p, "tiles": rnd.choice(["R5 K12", "J 7", "B1", "O13 O13 3"])}
                for p in players[1:]
            ]
    elif "kind" in body:
        body["player"] = rnd.choice(players)
        if body.get("kind") != "sanction" and rnd.random() < 0.7:
            body.pop("points", None)
    elif "method" in body:
        active = list(
            seeded["tournament"].players.filter(status="active").values_list("id", flat=True)
        )
        rnd.shuffle(active)
        size = rnd.choice([2, 3, 4])
        body["tables"] = [active[i : i + size] for i in range(0, len(active), size)]
        if body.get("method") != "manual" and rnd.random() < 0.7:
            body.pop("tables")  # the drawn methods seat the players themselves
    elif "file" in body:
        rows = rnd.choice(["Ada,Haifa,1700", "Bram,,", ",nameless,", "Chana,Utrecht,strong"])
        body["file"] = f"name,club,rating\n{rows}\n".encode()
    elif "role" in body:
        body["username"] = rnd.choice(["bob", "root", "nobody"])
    elif "password" in body:
        body.update(username="bob", password=rnd.choice(["bob-pass-123", "wrong"]))


def _fuzz(operation, mode: GenerationMode, seeded: dict, headers: dict, key: tuple) -> None:
    """Up to EXAMPLES generated requests of one kind (valid or invalid data)."""
    fixed = _fixed_path_parameters(operation.path, seeded) or None

    @FUZZ_SETTINGS
    @given(case=operation.as_strategy(mode, path_parameters=fixed), rnd=st.randoms())
    def run(case, rnd):
        _ground(case, rnd, seeded)
        response = case.call_and_validate(checks=CHECKS, headers=headers)
        STATS[(*key, mode.value, response.status_code)] += 1

    try:
        run()
    except Unsatisfiable:
        # Nothing of this operation can be made invalid once its path is fixed (e.g. a
        # DELETE without body or query): the valid run covered it.
        if mode is not GenerationMode.NEGATIVE:
            raise


def test_every_live_operation_is_fuzzed(api_schema):
    live = sorted(
        (result.ok().method.upper(), result.ok().path) for result in api_schema.get_all_operations()
    )
    assert live == OPERATIONS
    assert len(OPERATIONS) >= 24


@pytest.mark.parametrize("who", ["anon", "root"])
@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_operation(api_schema, seeded, who, method, path):
    operation = api_schema[path][method]
    headers = {"Authorization": f"Token {seeded['token']}"} if who == "root" else {}
    key = (who, method, path)
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        _fuzz(operation, mode, seeded, headers, key)
    if os.environ.get("SCHEMATHESIS_STATS"):
        answered = {k[3:]: v for k, v in sorted(STATS.items()) if k[:3] == key}
        print(f"\n{who} {method} {path}: {answered}")
