"""Shared by the page tests (tests/<app>/test_views.py): a running tournament to work on,
clients signed in as each persona, and small readers of the HTML that comes back.

Personas (tests/conftest.py): alice organises "Club Open", bob keeps score there, mallory
is a signed-in stranger, root a superuser, anon nobody at all.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games.models import Game
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

PERSONAS = ("anon", "mallory", "bob", "alice", "root")


@pytest.fixture
def club(alice, bob):
    """Club Open: 8 players, round 1 open at two tables of four, nothing entered yet."""
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    return tournament


@pytest.fixture
def played(club, bob):
    """Club Open with game 1 of each table entered (seat 1 went out)."""
    for game in Game.objects.filter(table__round__tournament=club, number=1):
        enter_rummikub(game, bob)
    return club


@pytest.fixture
def as_user(alice, bob, carol, mallory, root):
    """`as_user("bob")` -> a test client signed in as bob ("anon": signed in as nobody)."""
    people = {"alice": alice, "bob": bob, "carol": carol, "mallory": mallory, "root": root}

    def client_for(who: str) -> Client:
        client = Client()
        if who != "anon":
            client.force_login(people[who])
        return client

    return client_for


def field_errors(page: str, field_id: str) -> list[str]:
    """The messages shown beside one input (the list with id `<field_id>_errors`)."""
    pattern = rf'<ul class="errors" id="{re.escape(field_id)}_errors"[^>]*>(.*?)</ul>'
    match = re.search(pattern, page, re.S)
    if not match:
        return []
    items = re.findall(r"<li>(.*?)</li>", match.group(1), re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in items]


# `<bdi>` (games.templatetags.bidi) and the Unicode isolates FSI/PDI (scoring.i18n.isolate).
BDI = re.compile("</?bdi>|\u2068|\u2069")


def text(response) -> str:
    """The page's HTML without the `<bdi>` and the isolates around typed names: direction
    markup only, so a test reads "entered by alice" as a reader does. A test of the
    isolation itself reads `response.content`."""
    return BDI.sub("", response.content.decode())


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of a page by name (the carried draw of a round preview, say)."""
    fields = {}
    for tag in re.findall(r"<input [^>]*>", page):
        if 'type="hidden"' in tag:
            name = re.search(r'name="([^"]*)"', tag)
            value = re.search(r'value="([^"]*)"', tag)
            if name:
                fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return fields
