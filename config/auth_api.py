"""The token endpoint of the REST API: a username and password for an API token."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from config.api import StrictJSONParser, TokenThrottle
from tournaments.api.common import errors


class TokenView(ObtainAuthToken):
    """`POST /api/v1/auth/token/`: a username and password for the user's API token."""

    throttle_classes = [TokenThrottle]
    parser_classes = [StrictJSONParser, FormParser, MultiPartParser]

    @extend_schema(
        operation_id="auth_token",
        tags=["auth"],
        summary="Get an API token",
        description=(
            "Exchange a username and password for the user's API token; send it as "
            "`Authorization: Token <token>`. Wrong credentials answer 400. Limited to a "
            "few attempts a minute per IP address (429 beyond)."
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
        ],
    )
    def post(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)
