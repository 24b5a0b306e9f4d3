"""Routes of the tournament pages: the list of tournaments, creating and editing one, its
staff (and the invitation page an invitee opens, outside /t/), its players and their
check-in per round. Tournaments are addressed by slug under /t/; players by their start
number (`player_number`). The pages of rounds, tables and standings are the games app's
(`games.urls`)."""

from django.urls import path

from .views import (
    calendar,
    checkin,
    organise,
    players,
    public,
    staff,
    webhooks,
)  # registers the "num" converter

T = "t/<slug:slug>/"

urlpatterns = [
    path("", public.home, name="home"),
    path("new/", organise.tournament_create, name="tournament-create"),
    path("rules/preview/", organise.rules_preview, name="rules-preview"),
    path(T + "edit/", organise.tournament_edit, name="tournament-edit"),
    path(T + "staff/", staff.staff, name="tournament-staff"),
    path(T + "staff/accounts/", staff.staff_account, name="staff-account"),
    path(T + "staff/<num:member_id>/role/", staff.staff_role, name="staff-role"),
    path(T + "staff/<num:member_id>/remove/", staff.staff_remove, name="staff-remove"),
    path(T + "staff/invitations/", staff.invitation_create, name="staff-invitation-create"),
    path(
        T + "staff/invitations/<num:pk>/revoke/",
        staff.invitation_revoke,
        name="staff-invitation-revoke",
    ),
    path("invitations/<str:token>/", staff.invitation_accept, name="invitation-accept"),
    path(T + "calendar.ics", calendar.tournament_calendar, name="tournament-calendar"),
    path(
        "clubs/<slug:club>/seasons/<slug:season>/calendar.ics",
        calendar.season_calendar,
        name="season-calendar",
    ),
    path(T + "webhooks/", webhooks.webhooks, name="tournament-webhooks"),
    path(T + "webhooks/<num:pk>/delete/", webhooks.webhook_delete, name="webhook-delete"),
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
    path(T + "players/<num:player_number>/edit/", players.player_edit, name="player-edit"),
]
