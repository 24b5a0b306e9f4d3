"""Routes of the tournament pages: the list of tournaments, creating and editing one, its
staff, its players and their check-in per round. Tournaments are addressed by slug under
/t/; players by their start number (`player_number`). The pages of rounds, tables and
standings are the games app's (`games.urls`)."""

from django.urls import path

from .views import checkin, organise, public  # importing them registers the "num" converter

T = "t/<slug:slug>/"

urlpatterns = [
    path("", public.home, name="home"),
    path("new/", organise.tournament_create, name="tournament-create"),
    path("rules/preview/", organise.rules_preview, name="rules-preview"),
    path(T + "edit/", organise.tournament_edit, name="tournament-edit"),
    path(T + "staff/", organise.staff, name="tournament-staff"),
    path(T + "players/", organise.players, name="tournament-players"),
    path(T + "players/import/", organise.players_import, name="tournament-players-import"),
    path(T + "players.csv", organise.players_csv, name="tournament-players-csv"),
    path(T + "players/<num:player_number>/status/", organise.player_status, name="player-status"),
    path(T + "players/<num:player_number>/delete/", organise.player_delete, name="player-delete"),
    path(
        T + "players/<num:player_number>/fixed-table/",
        organise.player_fixed_table,
        name="player-fixed-table",
    ),
    path(T + "checkin/", checkin.checkin_next, name="checkin-next"),
    path(T + "checkin/<num:round_number>/", checkin.checkin, name="checkin"),
    path(
        T + "checkin/<num:round_number>/everyone/",
        checkin.checkin_everyone,
        name="checkin-everyone",
    ),
]
