"""API tokens: how long they last, issuing a fresh one and revoking one.

Terms:
* lifetime — a token is good for `API_TOKEN_DAYS` days from when it was issued (0: for
  ever). It is not extended by use: a lost phone's token dies on its own.
* issue — the user's token, or a new one when the old one has expired (one token per
  user, as DRF's authtoken keeps them).
* revoke — the user's token is deleted; signing in again issues a new one.

DRF's settings name `ExpiringTokenAuthentication`, so this module must not import
`rest_framework.views` (nor anything that does) at the top.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

if TYPE_CHECKING:  # a model: not importable while DRF reads its settings
    from rest_framework.authtoken.models import Token

# Marked here, translated when raised (the API docs show the English).
EXPIRED = gettext_noop("Token expired; ask for a new one with POST /api/v1/auth/token/.")


def token_expires_at(token: Any) -> datetime | None:
    days = settings.API_TOKEN_DAYS
    return token.created + timedelta(days=days) if days else None


def token_expired(token: Any) -> bool:
    expires = token_expires_at(token)
    return expires is not None and expires <= timezone.now()


class ExpiringTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, refused with 401 once the token has expired."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            raise exceptions.AuthenticationFailed(gettext(EXPIRED))
        return user, token


def _token_model() -> type[Token]:
    # DRF's get_model() is typed as any model; for this class it is authtoken's Token.
    return cast("type[Token]", ExpiringTokenAuthentication().get_model())


def token_issue(*, user: Any) -> Any:
    """The user's token; a new one when there is none or it has expired."""
    model = _token_model()
    with transaction.atomic():
        token, created = model.objects.get_or_create(user=user)
        if not created and token_expired(token):
            token.delete()
            token = model.objects.create(user=user)
    return token


def token_revoke(*, user: Any) -> None:
    """Delete the user's token, if there is one (revoking twice is no error)."""
    _token_model().objects.filter(user=user).delete()
