"""REST API for withdrawing a player whose table is in play, and for forfeits
(`games.services.withdrawals`): thin views, the services check everything.

* `POST tournaments/{slug}/players/{id}/withdraw/` `{"unplayed": "plays_on" | "forfeit"}`
  — `unplayed` is required when the player's table in the latest round has unplayed
  games (400 on `unplayed` says which), ignored otherwise.
* `POST games/{id}/forfeit/` `{"player": id, "based_on": n}` — the player's seat forfeits
  this unplayed game; a played game → 409 on `game`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)
from tournaments.api.players import PlayerOutSerializer

from ..models import Absence
from ..selectors.games import results_shown
from ..services import withdrawals as services
from .games import GameScoped, ResultOutSerializer, staff_context


class WithdrawInSerializer(StrictInput):
    unplayed = StrictChoiceField(
        choices=Absence.choices,
        required=False,
        allow_null=True,
        help_text="What happens to the unplayed games at the player's table: `plays_on` "
        "(the others play them without this seat) or `forfeit` (the seat forfeits them, "
        "scored by the tournament's `forfeit_rule`). Required when there are any.",
    )


class WithdrawOutSerializer(serializers.Serializer):
    player = PlayerOutSerializer()
    unplayed = serializers.CharField(
        allow_null=True, help_text="The choice applied, or null when no game was unplayed."
    )
    games = serializers.ListField(
        child=serializers.IntegerField(), help_text="Numbers of the games the seat left."
    )
    forfeits = serializers.ListField(
        child=serializers.IntegerField(), help_text="Ids of the games recorded as forfeits."
    )


class PlayerWithdrawView(TournamentScoped, APIView):
    @extend_schema(
        tags=["players"],
        summary="Withdraw a player, saying what happens to their unplayed games",
        description="Organisers only. The player's played games stay and count. When their "
        "table in the latest round still has unplayed games, `unplayed` is required: "
        "`plays_on` or `forfeit` (400 on `unplayed` otherwise, naming the table and games).",
        request=WithdrawInSerializer,
        responses={200: WithdrawOutSerializer, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample("Forfeit", value={"unplayed": "forfeit"}, request_only=True),
            OpenApiExample(
                "No choice",
                value={
                    "unplayed": [
                        "#4 Ada sits at table 2 of round 1 with games 3, 4 unplayed; say "
                        "what happens to them: plays_on, forfeit."
                    ]
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Any, slug: str, pk: int) -> Response:
        player = self.tournament.players.filter(pk=pk).first()
        if player is None:
            raise Http404(_("No such player in this tournament."))
        data = valid(WithdrawInSerializer, request.data)
        done = services.player_withdraw(player=player, by=request.user, **data)
        return Response(
            WithdrawOutSerializer(
                {
                    "player": done.player,
                    "unplayed": done.seat.absence if done.seat else None,
                    "games": [game.number for game in done.games],
                    "forfeits": [result.game_id for result in done.forfeits],
                }
            ).data
        )


class ForfeitInSerializer(StrictInput):
    player = StrictIntegerField(help_text="Player id of the seat that forfeits.")
    based_on = StrictIntegerField(help_text="The game's latest version (0 for none).")


class GameForfeitView(GameScoped, APIView):
    @extend_schema(
        tags=["results"],
        summary="Record a seat's forfeit of an unplayed game",
        description="Organisers only. Stores a confirmed result version with end `forfeit`, "
        "scored by the tournament's `forfeit_rule`; correctable by a newer version like any "
        "result. A game with a result (confirmed or awaiting confirmation) → 409 on `game`.",
        request=ForfeitInSerializer,
        responses={201: ResultOutSerializer, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Played already",
                value={
                    "game": [
                        "game 1 at table 1 already has a result (version 1, confirmed); it "
                        "was played: correct its result instead of forfeiting it."
                    ]
                },
                response_only=True,
                status_codes=["409"],
            )
        ],
    )
    def post(self, request: Any, pk: int) -> Response:
        game = self.game
        data = valid(ForfeitInSerializer, request.data)
        result = services.game_forfeit(game=game, by=request.user, **data)
        return Response(
            ResultOutSerializer(
                results_shown().get(pk=result.pk),
                context=staff_context(request, game.table.round.tournament),
            ).data,
            status=status.HTTP_201_CREATED,
        )
