"""Routes of the tournament pages. Tournaments are addressed by slug under /t/, rounds
and players by their number within the tournament."""

from django.urls import path

from .views import organise, public  # importing them registers the "num" converter

T = "t/<slug:slug>/"

urlpatterns = [
    path("", public.home, name="home"),
    path("new/", organise.tournament_create, name="tournament-create"),
    path(T, public.tournament_detail, name="tournament-detail"),
    path(T + "edit/", organise.tournament_edit, name="tournament-edit"),
    path(T + "staff/", organise.staff, name="tournament-staff"),
    path(T + "players/", organise.players, name="tournament-players"),
    path(T + "players/import/", organise.players_import, name="tournament-players-import"),
    path(T + "players.csv", organise.players_csv, name="tournament-players-csv"),
    path(T + "players/<num:number>/", public.player_detail, name="player-detail"),
    path(T + "players/<num:number>/status/", organise.player_status, name="player-status"),
    path(T + "rounds/new/", organise.round_open, name="round-open"),
    path(T + "rounds/<num:number>/", public.round_detail, name="round-detail"),
    path(T + "rounds/<num:number>/swap/", organise.seat_swap, name="seat-swap"),
    path(T + "rounds/<num:number>/sheets/", organise.round_sheets, name="round-sheets"),
]
