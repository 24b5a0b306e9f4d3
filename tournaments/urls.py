"""Routes of the tournament pages: the list of tournaments, creating and editing one, its
staff (and the invitation page an invitee opens, outside /t/), its players and their
check-in per round. Tournaments are addressed by slug under /t/; players by their start
number (`player_number`). The pages of rounds, tables and standings are the games app's
(`games.urls`)."""

from django.urls import path

from .views import (  # importing them registers the "num" converter
    backups,
    calendar,
    checkin,
    clubs,
    divisions,
    formats,
    organise,
    players,
    public,
    staff,
    webhooks,
)

T = "t/<slug:slug>/"
# A club's organiser pages sit beside its public pages (`games.urls`), under words that
# cannot be a season slug or a member number there.
CLUB = "clubs/<slug:club_slug>/"

urlpatterns = [
    path("", public.home, name="home"),
    path("new/", organise.tournament_create, name="tournament-create"),
    path("new/format/", formats.tournament_from_format_page, name="tournament-from-format"),
    path("rules/preview/", organise.rules_preview, name="rules-preview"),
    path("new-club/", clubs.club_create, name="club-create"),
    path(CLUB + "members/", clubs.club_members, name="club-members"),
    path(CLUB + "members/import/", clubs.members_import, name="club-members-import"),
    path(CLUB + "members.csv", clubs.members_csv_view, name="club-members-csv"),
    path(CLUB + "members/<num:member_id>/edit/", clubs.member_edit, name="member-edit"),
    path(CLUB + "organisers/", clubs.club_organiser_add, name="club-organiser-add"),
    path(CLUB + "new-season/", clubs.season_create, name="season-create"),
    path(T + "club/", clubs.tournament_club, name="tournament-club"),
    path(T + "club/players/", clubs.tournament_members, name="tournament-members"),
    path(T + "club/players/confirm/", clubs.links_confirm, name="links-confirm"),
    path(T + "club/players/<num:player_number>/", clubs.player_link, name="player-link"),
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
    path("backups/", backups.site_backups, name="site-backups"),
    path("backups/<str:name>.zip", backups.backup_download, name="backup-download"),
    path(T + "backups/", backups.tournament_backups, name="tournament-backups"),
    path(T + "webhooks/", webhooks.webhooks, name="tournament-webhooks"),
    path(T + "webhooks/<num:pk>/delete/", webhooks.webhook_delete, name="webhook-delete"),
    path(T + "divisions/", divisions.divisions, name="tournament-divisions"),
    path(
        T + "divisions/<str:division_slug>/",
        divisions.division_edit,
        name="division-edit",
    ),
    path(
        T + "divisions/<str:division_slug>/delete/",
        divisions.division_delete,
        name="division-delete",
    ),
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
