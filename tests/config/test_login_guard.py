"""Password guessing at the sign-in forms (site and admin) and the token endpoint.

The policy (config/login_guard.py): a username is locked at an address after
LOGIN_FAILURE_LIMIT failures from that address (failures from elsewhere cannot lock it out
at the venue); an address only after LOGIN_ADDRESS_FAILURE_LIMIT failures against
usernames not locked yet, so one member hammering a locked account does not lock the whole
club behind its shared address; both for LOGIN_COOLOFF_MINUTES.
"""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
TOKEN = "/api/v1/auth/token/"
CLUB = "198.51.100.7"  # one NAT address for a whole club
ELSEWHERE = "203.0.113.50"


def sign_in(client, username: str, password: str, url: str = LOGIN, address: str = CLUB):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in_as(client) -> str | None:
    from django.contrib.auth import get_user

    user = get_user(client)
    return user.username if user.is_authenticated else None


def guess(client, username: str, times: int, url: str = LOGIN, address: str = CLUB) -> list[int]:
    return [sign_in(client, username, f"guess-{n}", url, address).status_code for n in range(times)]


def test_defaults_lock_a_username_after_10_failures_for_15_minutes():
    assert django_settings.AXES_FAILURE_LIMIT == 10
    cool_off = django_settings.AXES_COOLOFF_TIME
    assert cool_off == timedelta(minutes=15)
    assert django_settings.LOGIN_ADDRESS_FAILURE_LIMIT == 100
    assert django_settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_25_wrong_passwords_lock_the_username_not_the_club(client, bob, carol):
    codes = guess(client, "bob", 25)
    assert codes[:9] == [200] * 9  # the form again, with its error
    assert set(codes[9:]) == {429}  # the tenth failure locks
    right = sign_in(client, "bob", "bob-pass-123")
    assert right.status_code == 429
    assert signed_in_as(client) is None
    # From another client at the same address too; from elsewhere bob signs in as usual.
    assert sign_in(Client(), "bob", "bob-pass-123").status_code == 429
    # Carol, behind the same address, signs in as usual.
    other = Client()
    response = sign_in(other, "carol", "carol-pass-123")
    assert response.status_code == 302
    assert signed_in_as(other) == "carol"
    elsewhere = Client()
    assert sign_in(elsewhere, "bob", "bob-pass-123", address=ELSEWHERE).status_code == 302
    assert signed_in_as(elsewhere) == "bob"


def test_a_stranger_elsewhere_cannot_lock_a_scorekeeper_out_at_the_venue(token_rates, client, bob):
    """Staff usernames are public (pages, results): 25 failures aimed at bob from a far
    address lock that address's attempts at bob, not bob signing in at the club."""
    stranger = Client()
    codes = guess(stranger, "bob", 25, address=ELSEWHERE)
    assert set(codes[9:]) == {429}  # the stranger is stopped...
    assert sign_in(Client(), "bob", "bob-pass-123", address=ELSEWHERE).status_code == 429
    at_venue = sign_in(client, "bob", "bob-pass-123", address=CLUB)  # ...bob is not
    assert at_venue.status_code == 302
    assert signed_in_as(client) == "bob"
    # The API's token endpoint follows the same lock.
    bobs = {"username": "bob", "password": "bob-pass-123"}
    assert APIClient().post(TOKEN, bobs, REMOTE_ADDR=ELSEWHERE).status_code == 429
    assert APIClient().post(TOKEN, bobs, REMOTE_ADDR=CLUB).status_code == 200


def test_the_lock_is_visible_in_the_admin(client, bob, root):
    guess(Client(), "bob", 10, address=ELSEWHERE)
    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.ip_address) == ("bob", ELSEWHERE)
    assert attempt.failures_since_start == 10
    client.force_login(root)
    listing = client.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "bob" in html and ELSEWHERE in html


def test_the_locked_page_says_what_happened_in_the_sites_style(client, bob):
    guess(client, "bob", 10)
    page = sign_in(client, "bob", "bob-pass-123")
    assert page.status_code == 429
    html = page.content.decode()
    rendered = [template.name for template in page.templates]
    assert "registration/locked_out.html" in rendered and "base.html" in rendered
    assert "Sign-in paused" in html
    assert "bob" in html and "15 minutes" in html and "10 failed" in html
    assert 'href="/static/css/site.css"' in html


def test_admin_login_is_guarded_the_same_way(client, root, django_user_model):
    django_user_model.objects.create_superuser("ruth", password="ruth-pass-123")
    codes = guess(client, "root", 25, url=ADMIN_LOGIN)
    assert codes[-1] == 429
    locked = sign_in(client, "root", "root-pass-123", url=ADMIN_LOGIN)
    assert locked.status_code == 429
    assert "Sign-in paused" in locked.content.decode()
    assert signed_in_as(client) is None
    other = Client()
    assert sign_in(other, "ruth", "ruth-pass-123", url=ADMIN_LOGIN).status_code == 302
    assert signed_in_as(other) == "ruth"
    # One count for both forms: the site's sign-in is locked for root as well.
    assert sign_in(Client(), "root", "root-pass-123").status_code == 429


def test_the_lock_ends_after_the_cool_off(client, bob):
    guess(client, "bob", 25)
    assert sign_in(client, "bob", "bob-pass-123").status_code == 429
    cool_off = django_settings.AXES_COOLOFF_TIME
    for attempt in AccessAttempt.objects.all():  # as if the cool-off had passed
        attempt.attempt_time -= cool_off + timedelta(seconds=1)
        attempt.save(update_fields=["attempt_time"])
    assert sign_in(client, "bob", "bob-pass-123").status_code == 302
    assert signed_in_as(client) == "bob"
    # A success wipes the slate: nine more typos do not lock again.
    client.logout()
    assert set(guess(client, "bob", 9)) == {200}


def test_a_locked_account_hammered_from_the_club_does_not_lock_the_club(settings, client, carol):
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 10
    guess(client, "bob", 40)  # 3 count; the rest hit a locked username and are not counted
    assert AccessAttempt.objects.get().failures_since_start == 3
    assert sign_in(Client(), "carol", "carol-pass-123").status_code == 302


def test_guessing_many_usernames_from_one_address_locks_that_address(settings, client, carol):
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 10
    for name in ("ann", "ben", "cat", "dan", "eve"):
        guess(client, name, 2)  # 2 each, no username reaches 3
    locked = sign_in(Client(), "carol", "carol-pass-123")
    assert locked.status_code == 429
    assert "your network" in locked.content.decode()
    # Carol elsewhere (at home, on her phone's network) is fine.
    assert sign_in(Client(), "carol", "carol-pass-123", address=ELSEWHERE).status_code == 302


def test_address_limit_0_switches_the_address_lock_off(settings, client, carol):
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 0
    for name in ("ann", "ben", "cat", "dan", "eve", "fay", "gus"):
        guess(client, name, 2)
    assert sign_in(Client(), "carol", "carol-pass-123").status_code == 302


@pytest.fixture
def token_rates(settings):
    """The token endpoint's own throttle out of the way: this is about the lockout."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1000/min", "user": "1000/min", "token": "1000/min"},
    }


def test_token_endpoint_counts_failures_and_answers_429_when_locked(token_rates, bob, carol):
    client = APIClient()
    codes = [
        client.post(TOKEN, {"username": "bob", "password": f"guess-{n}"}, REMOTE_ADDR=CLUB)
        for n in range(25)
    ]
    assert [r.status_code for r in codes[:9]] == [400] * 9
    assert {r.status_code for r in codes[9:]} == {429}
    right = client.post(TOKEN, {"username": "bob", "password": "bob-pass-123"}, REMOTE_ADDR=CLUB)
    assert right.status_code == 429
    assert "locked" in right.json()["detail"]
    assert int(right["Retry-After"]) == 15 * 60
    # Carol at the same address gets her token; bob is locked on the web form too.
    carols = {"username": "carol", "password": "carol-pass-123"}
    other = client.post(TOKEN, carols, REMOTE_ADDR=CLUB)
    assert other.status_code == 200 and other.json()["token"]
    assert sign_in(Client(), "bob", "bob-pass-123").status_code == 429


def test_settings_come_from_the_environment(monkeypatch):
    import config.settings

    monkeypatch.setenv("LOGIN_FAILURE_LIMIT", "5")
    monkeypatch.setenv("LOGIN_ADDRESS_FAILURE_LIMIT", "50")
    monkeypatch.setenv("LOGIN_COOLOFF_MINUTES", "60")
    reloaded = importlib.reload(config.settings)
    assert reloaded.AXES_FAILURE_LIMIT == 5
    assert reloaded.LOGIN_ADDRESS_FAILURE_LIMIT == 50
    cool_off = reloaded.AXES_COOLOFF_TIME
    assert cool_off == timedelta(hours=1)
    monkeypatch.setenv("LOGIN_COOLOFF_MINUTES", "0")  # locked until an admin unlocks
    assert importlib.reload(config.settings).AXES_COOLOFF_TIME is None
    for name in ("LOGIN_FAILURE_LIMIT", "LOGIN_ADDRESS_FAILURE_LIMIT", "LOGIN_COOLOFF_MINUTES"):
        monkeypatch.delenv(name)
    importlib.reload(config.settings)
