"""The token endpoint of the REST API: a username and password for an API token
(`POST`), and revoking it (`DELETE`). Lifetime and revocation: config/tokens.py; failed
passwords count towards the sign-in lockout: config/login_guard.py."""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from config.api import StrictJSONParser, TokenThrottle
from config.login_guard import lockout_minutes
from config.tokens import EXPIRED, token_issue, token_revoke
from tournaments.api.common import errors


def locked_out(request: Any) -> exceptions.Throttled:
    """429 for a sign-in that django-axes refused (the password is not even checked)."""
    by_address = getattr(request, "login_locked_by_address", False)
    minutes = lockout_minutes(request)
    # Whole sentences, one per case (never joined from pieces).
    if minutes is None:
        detail = (
            _(
                "Sign-in from this address is locked after too many failed attempts. "
                "An administrator has to unlock it."
            )
            if by_address
            else _(
                "This account is locked after too many failed sign-ins. "
                "An administrator has to unlock it."
            )
        )
        return exceptions.Throttled(detail=detail)
    detail = (
        _("Sign-in from this address is locked after too many failed attempts. Try again later.")
        if by_address
        else _("This account is locked after too many failed sign-ins. Try again later.")
    )
    return exceptions.Throttled(wait=minutes * 60, detail=detail)


class TokenView(ObtainAuthToken):
    """`POST /api/v1/auth/token/`: a username and password for the user's API token;
    `DELETE`: revoke the token the request was made with (or the session user's)."""

    parser_classes = [StrictJSONParser, FormParser, MultiPartParser]

    def get_permissions(self) -> list:
        return [IsAuthenticated()] if self.request.method == "DELETE" else []

    def get_throttles(self) -> list:
        # Password guesses are limited per address; a revoke is an ordinary request.
        if self.request.method == "POST":
            return [TokenThrottle()]
        # api_settings imports the named classes; the stubs type them as their dotted names.
        classes: list[type[BaseThrottle]] = api_settings.DEFAULT_THROTTLE_CLASSES  # type: ignore[assignment]
        return [throttle() for throttle in classes]

    def perform_authentication(self, request: Any) -> None:
        # Signing in needs no credentials, and an expired token sent out of habit must
        # not stand in the way of getting a new one.
        if request.method != "POST":
            super().perform_authentication(request)

    @extend_schema(
        operation_id="auth_token",
        tags=["auth"],
        summary="Get an API token",
        description=(
            "Exchange a username and password for the user's API token; send it as "
            "`Authorization: Token <token>`. A token lasts `API_TOKEN_DAYS` days (30 unless "
            "the site says otherwise) from when it was issued; after that requests with it "
            "answer 401 saying it expired, and this endpoint issues a new one. Until then "
            "it answers the same token. Wrong credentials answer 400. Limited to a few "
            "attempts a minute per IP address; after repeated wrong passwords the account "
            "(or, for many accounts, the address) is locked for a while — 429 either way, "
            "with `Retry-After`."
        ),
        request=inline_serializer(
            "TokenRequest",
            {"username": serializers.CharField(), "password": serializers.CharField()},
        ),
        responses={
            200: inline_serializer("TokenResponse", {"token": serializers.CharField()}),
            **errors(400, 429),
        },
        examples=[
            OpenApiExample(
                "Sign in",
                value={"username": "bob", "password": "bob-pass-123"},
                request_only=True,
            ),
            OpenApiExample(
                "Token",
                value={"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
                response_only=True,
            ),
            OpenApiExample(
                "Locked",
                value={
                    "detail": "This account is locked after too many failed sign-ins. "
                    "Try again later. Expected available in 900 seconds."
                },
                response_only=True,
                status_codes=["429"],
            ),
        ],
    )
    def post(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except exceptions.ValidationError:
            # django-axes marks the request when it refused (or just locked) the sign-in.
            if getattr(request, "axes_locked_out", False):
                raise locked_out(request) from None
            raise
        token = token_issue(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(
        operation_id="auth_token_revoke",
        tags=["auth"],
        summary="Revoke your API token",
        description=(
            "Deletes the caller's own API token (the one sent in `Authorization`, or the "
            "signed-in user's with a browser session), e.g. when a phone is lost or a "
            "script retired. Requests with it answer 401 from then on; `POST` issues a new "
            "one. Answers 204 also when there was no token left to revoke."
        ),
        request=None,
        responses={204: None, **errors(401)},
        examples=[
            OpenApiExample(
                "Expired",
                value={"detail": EXPIRED},
                response_only=True,
                status_codes=["401"],
            )
        ],
    )
    def delete(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
