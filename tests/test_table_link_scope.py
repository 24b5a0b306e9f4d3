"""A table link is one table's scorekeeper and nothing else.

The walk: every URL pattern of the site and the API (the URL resolver enumerated, the
admin's included) is filled with real ids — those of the link's own tournament, round and
table, of another table of the same round, and of another tournament (with a club, a
season, a member, a division, a webhook and an invitation) — and asked with GET and POST
by a phone signed in through the link. Only the link's own table pages (entry, timer,
time-out, undo, extension), the rack value of its tournament and the chrome
(`config.table_link_scope.ALWAYS`) may answer anything but the refusal; everything else is
a 403 that says what the phone is for, and nothing is saved.

Terms: variant — one way of filling a pattern's path arguments (own, other table, other
tournament); walk figures — patterns, requests tried, allowed, refused (printed with -s).
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from config.table_link_scope import ALWAYS, TABLE_PAGES, TOURNAMENT_PAGES
from games.models import Game, Penalty, Result
from games.services.results import penalty_record
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.invitation_tokens import invitation_token
from tournaments.models import (
    Club,
    ClubOrganiser,
    Division,
    Member,
    Player,
    Round,
    Season,
    StaffInvitation,
    StaffMember,
    TableLink,
    Tournament,
    Webhook,
)
from tournaments.services.clubs import club_create, member_create, season_create
from tournaments.services.divisions import division_create
from tournaments.services.staff import staff_invite
from tournaments.services.table_links import table_links_issue
from tournaments.table_links import token_for

pytestmark = pytest.mark.django_db

SCOPE = "signed in as the scorekeeper of table 1 in round 1 only"
# Rows a refused request must not have added, changed in number or removed.
WATCHED = [
    Club,
    ClubOrganiser,
    Member,
    Season,
    Tournament,
    StaffMember,
    StaffInvitation,
    Webhook,
    Division,
    Player,
    Round,
    Game,
    Result,
    Penalty,
    TableLink,
]


def patterns(resolver=None, prefix=(), namespace=""):
    """(qualified name, the pattern strings from the root) of every URL pattern."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        parts = (*prefix, str(entry.pattern))
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from patterns(entry, parts, inner)
        else:
            assert isinstance(entry, URLPattern)
            yield (f"{namespace}{entry.name}" if entry.name else None), entry, parts


def build(parts: tuple[str, ...], values: dict[str, str]) -> str:
    """The address of a pattern with its path arguments filled from `values` (an argument
    named nowhere there, as a new page's may be, gets "1")."""
    path = ""
    for part in parts:
        part = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values.get(m.group(1), "1"), part)
        part = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values.get(m.group(1), "1"), part)
        part = re.sub(r"\([^)]*\)", "1", part)  # an unnamed group: an id
        path += part.lstrip("^").rstrip("$").replace("\\", "")
    return "/" + path


@pytest.fixture
def world(alice):
    """Tournament A (the link's: round 1, tables 1 and 2) and tournament B under a club."""
    a = make_tournament(alice, name="Link Open", players=8)
    open_round(a, alice)
    round_a = a.rounds.get(number=1)
    links = table_links_issue(by=alice, round_=round_a, table_numbers=[1, 2])
    game_own = Game.objects.get(table__round=round_a, table__number=1, number=1)
    game_other = Game.objects.get(table__round=round_a, table__number=2, number=1)
    enter_rummikub(game_other, alice)
    player_other = game_other.table.seats.first().player
    penalty = penalty_record(game=game_other, by=alice, player=player_other.pk, kind="timeout")

    club = club_create(by=alice, name="Joker Club")
    member = member_create(club=club, by=alice, name="Ada", code="117")
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    b = make_tournament(alice, name="Other Open", players=4)
    b.club, b.season = club, season
    b.save(update_fields=["club", "season"])
    open_round(b, alice)
    link_b = table_links_issue(by=alice, round_=b.rounds.get(number=1), table_numbers=[1])[1]
    division = division_create(tournament=b, by=alice, name="Juniors")
    webhook = Webhook.objects.create(
        tournament=b, url="https://example.org/hook", secret="s" * 32, created_by=alice
    )
    invitation = staff_invite(tournament=b, by=alice, role="scorekeeper")
    return {
        "a": a,
        "b": b,
        "link": links[1],
        "link_other": links[2],
        "link_b": link_b,
        "game_own": game_own,
        "game_other": game_other,
        "result": Result.objects.filter(game=game_other).first(),
        "penalty": penalty,
        "player": player_other,
        "club": club,
        "member": member,
        "season": season,
        "division": division,
        "webhook": webhook,
        "invitation": invitation,
        "staff": StaffMember.objects.filter(tournament=b).first(),
        "alice": alice,
    }


def variants(world, name: str) -> list[tuple[str, dict[str, str]]]:
    """Own table, another table of the same round, another tournament: path arguments."""
    w = world
    pk_by_name = {
        "api-penalty": w["penalty"].pk,
        "api-webhook": w["webhook"].pk,
        "api-webhook-deliveries": w["webhook"].pk,
        "webhook-delete": w["webhook"].pk,
        "api-staff-member": w["staff"].pk,
        "staff-role": w["staff"].pk,
        "staff-remove": w["staff"].pk,
        "api-staff-invitation": w["invitation"].pk,
        "staff-invitation-revoke": w["invitation"].pk,
        "confirm-result": w["result"].pk,
        "api-player": w["player"].pk,
        "api-player-withdraw": w["player"].pk,
        "api-player-member": w["player"].pk,
    }
    common = {
        "club_slug": w["club"].slug,
        "club": w["club"].slug,
        "member_id": str(w["member"].pk),
        "season_slug": w["season"].slug,
        "season": w["season"].slug,
        "division_slug": w["division"].slug,
        "division": w["division"].slug,
        "player_number": "1",
        "stage_number": "1",
        "game_number": "1",
        "number": "1",
        "version": "1",
        "code": "nl",
        "app_label": "tournaments",
        "content_type_id": str(ContentType.objects.get_for_model(Tournament).pk),
        "object_id": str(w["a"].pk),
        "id": str(w["alice"].pk),
        "url": "nothing/",
        "round_number": "1",
        "table_number": "1",
    }
    game_pk = {"own": w["game_own"].pk, "other-table": w["game_other"].pk}
    link_for = {"own": w["link"], "other-table": w["link_other"], "other-tournament": w["link_b"]}
    out = []
    for variant, slug, table in (
        ("own", w["a"].slug, "1"),
        ("other-table", w["a"].slug, "2"),
        ("other-tournament", w["b"].slug, "1"),
    ):
        if name == "invitation-accept":
            token = invitation_token(w["invitation"])
        else:
            token = token_for(link_for[variant])
        pk = pk_by_name.get(name, game_pk.get(variant, w["game_other"].pk))
        out.append(
            (
                variant,
                {**common, "slug": slug, "table_number": table, "token": token, "pk": str(pk)},
            )
        )
    return out


def allowed(name: str | None, variant: str) -> bool:
    if name in ALWAYS:
        return True
    if name in TOURNAMENT_PAGES:
        return variant != "other-tournament"
    return name in TABLE_PAGES and variant == "own"


def sign_in(phone: Client, link: TableLink) -> None:
    landing = phone.get(
        build(
            ("t/<slug>/rounds/<r>/tables/<t>/link/<token>/",),
            {
                "slug": link.tournament.slug,
                "r": str(link.round.number),
                "t": str(link.table_number),
                "token": token_for(link),
            },
        )
    )
    assert landing.status_code == 302


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in WATCHED}


def test_a_table_link_phone_reaches_its_table_and_nothing_else(world, capsys):
    link = world["link"]
    phone = Client()
    sign_in(phone, link)
    before = counts()
    figures: Counter[str] = Counter()
    wrongly = []
    seen = set()
    all_patterns = list(patterns())
    for name, entry, parts in all_patterns:
        for variant, values in variants(world, name):
            path = build(parts, values)
            if path in seen:
                continue
            seen.add(path)
            assert resolve(path).func == entry.callback, (name, path)
            for method in ("get", "post"):
                if phone.session.get("_auth_user_id") != str(link.user_id):
                    sign_in(phone, link)  # signed out or switched by the last request
                response = getattr(phone, method)(path)
                phone.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)  # English again
                body = response.content.decode(errors="replace")
                refused = response.status_code == 403 and SCOPE in body
                expected = allowed(name, variant)
                figures["tried"] += 1
                figures["allowed" if not refused else "refused"] += 1
                figures[f"{method} {'allowed' if not refused else 'refused'}"] += 1
                if refused == expected:
                    wrongly.append(
                        f"{method.upper()} {path} ({name}, {variant}): {response.status_code}"
                    )
    with capsys.disabled():
        print(
            f"\ntable-link walk: {len(all_patterns)} URL patterns, {len(seen)} addresses, "
            f"{figures['tried']} requests tried, {figures['allowed']} allowed, "
            f"{figures['refused']} refused "
            f"(GET {figures['get allowed']}/{figures['get refused']}, "
            f"POST {figures['post allowed']}/{figures['post refused']} allowed/refused)"
        )
    assert wrongly == [], "\n".join(wrongly)
    assert counts() == before
    assert figures["allowed"] < 40 < figures["refused"]


def test_the_refusal_page_sends_the_phone_back_to_its_table(world):
    link = world["link"]
    phone = Client()
    sign_in(phone, link)
    page = phone.get("/new-club/")
    assert page.status_code == 403
    html = page.content.decode()
    assert SCOPE in html
    assert f'href="/t/{link.tournament.slug}/rounds/1/tables/1/"' in html
    # Nor can it create a club by posting: the issue's finding.
    assert phone.post("/new-club/", {"name": "Phone Club"}).status_code == 403
    assert not Club.objects.filter(name="Phone Club").exists()
    api = phone.get("/api/v1/tournaments/")
    assert api.status_code == 403 and SCOPE in api.json()["detail"]
    # Its table's page shows no menu of pages it may not open.
    table = phone.get(f"/t/{link.tournament.slug}/rounds/1/tables/1/")
    assert table.status_code == 200
    assert "/checkin/" not in table.content.decode()
    # Signed out, the same phone is anyone again.
    phone.post("/accounts/logout/")
    assert phone.get("/").status_code == 200
