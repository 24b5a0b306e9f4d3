"""The tournaments admin keeps the standings in step: a player's save or deletion bumps
the results version (and the recompute follows), and the settings that feed the standings
are read-only."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.services.standings import standings_for_read, standings_recompute
from tests.factories import make_tournament
from tournaments.models import Player, Tournament
from tournaments.services.divisions import division_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(as_user):
    return as_user("root")


def shown_name(tournament: Tournament, player: Player) -> str:
    snapshot, stale = standings_for_read(tournament)
    assert not stale
    return next(r["player"]["name"] for r in snapshot.rows if r["player"]["id"] == player.pk)


def form_data(response) -> dict:
    """What the admin page would post back unchanged: its form and inline formsets."""
    data = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        forms.append(formset.management_form)
        forms += formset.forms
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is None:
                continue
            if isinstance(value, bool):
                if value:
                    data[form.add_prefix(name)] = "on"
                continue
            data[form.add_prefix(name)] = value
    return data


# Committed for real, so the recompute runs on commit as it does after a real request.
@pytest.mark.django_db(transaction=True)
def test_renaming_a_player_in_the_admin_reaches_the_standings(admin, played):
    player = played.players.get(number=3)
    standings_recompute(tournament_id=played.pk)
    played.refresh_from_db()
    version = played.results_version
    url = reverse("admin:tournaments_player_change", args=[player.pk])
    data = form_data(admin.get(url)) | {"name": "Ada Lovelace"}
    assert admin.post(url, data).status_code == 302
    played.refresh_from_db()
    assert played.results_version == version + 1
    assert shown_name(played, player) == "Ada Lovelace"


# Committed for real, so the recompute runs on commit as it does after a real request.
@pytest.mark.django_db(transaction=True)
def test_renaming_a_player_on_the_tournament_page_reaches_the_standings(admin, played):
    player = played.players.get(number=3)
    standings_recompute(tournament_id=played.pk)
    played.refresh_from_db()
    version = played.results_version
    url = reverse("admin:tournaments_tournament_change", args=[played.pk])
    data = form_data(admin.get(url))
    (key,) = [k for k, v in data.items() if re.fullmatch(r"players-\d+-id", k) and v == player.pk]
    data[key.replace("-id", "-name")] = "Ada Lovelace"
    assert admin.post(url, data).status_code == 302
    played.refresh_from_db()
    assert played.results_version == version + 1
    assert shown_name(played, player) == "Ada Lovelace"


# Committed for real, so the recompute runs on commit as it does after a real request.
@pytest.mark.django_db(transaction=True)
def test_deleting_a_player_in_the_admin_bumps_the_version(admin, alice):
    tournament = make_tournament(alice, players=3)
    player = tournament.players.get(number=2)
    version = tournament.results_version
    url = reverse("admin:tournaments_player_delete", args=[player.pk])
    assert admin.post(url, {"post": "yes"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.results_version == version + 1
    snapshot, stale = standings_for_read(tournament)
    assert not stale and len(snapshot.rows) == 2


def test_the_settings_that_feed_the_standings_are_read_only(admin, played):
    response = admin.get(reverse("admin:tournaments_tournament_change", args=[played.pk]))
    fields = response.context["adminform"].form.fields
    assert {"slug", "rules", "ranking"}.isdisjoint(fields)
    assert "name" in fields


def test_divisions_change_through_the_site_only(admin, played, alice):
    division = division_create(tournament=played, by=alice, name="Juniors")
    player = played.players.get(number=1)
    page = admin.get(reverse("admin:tournaments_player_change", args=[player.pk]))
    assert page.status_code == 200
    assert 'name="divisions"' not in page.content.decode()  # no cross-tournament picks
    assert admin.get(reverse("admin:tournaments_division_add")).status_code == 403
    listing = admin.get(reverse("admin:tournaments_division_changelist"))
    assert "Juniors" in listing.content.decode()
    assert (
        admin.post(
            reverse("admin:tournaments_division_delete", args=[division.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert division.__class__.objects.filter(pk=division.pk).exists()
