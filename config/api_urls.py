"""Routes of the REST API, mounted at /api/v1/ (docs/api/reference.md)."""

from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView

from circuits.api import circuits, people
from config.api_schema import SchemaView
from config.auth_api import TokenView
from games.api import clubs as club_reads
from games.api import (
    event_files,
    extensions,
    games,
    penalties,
    results,
    rounds,
    stages,
    standings,
    withdrawals,
)
from tournaments.api import (
    checkin,
    clubs,
    divisions,
    formats,
    players,
    staff,
    tournaments,
    webhooks,
)

T = "tournaments/<slug:slug>/"

C = "clubs/<slug:club>/"

CI = "circuits/<slug:slug>/"

urlpatterns = [
    path("people/", people.PersonListView.as_view(), name="api-people"),
    path("people/<id:pk>/", people.PersonDetailView.as_view(), name="api-person"),
    path("people/<id:pk>/merge/", people.PersonMergeView.as_view(), name="api-person-merge"),
    path(
        T + "players/<id:pk>/person/",
        people.PlayerPersonView.as_view(),
        name="api-player-person",
    ),
    path(
        C + "members/<id:pk>/person/", people.MemberPersonView.as_view(), name="api-member-person"
    ),
    path("circuits/", circuits.CircuitListView.as_view(), name="api-circuits"),
    path(CI, circuits.CircuitDetailView.as_view(), name="api-circuit"),
    path(CI + "events/", circuits.CircuitEventsView.as_view(), name="api-circuit-events"),
    path(
        CI + "events/<slug:tournament>/",
        circuits.CircuitEventView.as_view(),
        name="api-circuit-event",
    ),
    path(CI + "ranking/", circuits.CircuitRankingView.as_view(), name="api-circuit-ranking"),
    path(CI + "qualified/", circuits.CircuitQualifiedView.as_view(), name="api-circuit-qualified"),
    path(CI + "people/<id:pk>/", circuits.CircuitPersonView.as_view(), name="api-circuit-person"),
    path("clubs/", clubs.ClubListView.as_view(), name="api-clubs"),
    path(C, club_reads.ClubDetailView.as_view(), name="api-club"),
    path(C + "organisers/", clubs.ClubOrganiserListView.as_view(), name="api-club-organisers"),
    path(C + "members/", clubs.MemberListView.as_view(), name="api-members"),
    path(C + "members/<id:pk>/", club_reads.MemberDetailView.as_view(), name="api-member"),
    path(C + "seasons/", clubs.SeasonListView.as_view(), name="api-seasons"),
    path(
        C + "seasons/<slug:season>/standings/",
        club_reads.SeasonStandingsView.as_view(),
        name="api-season-standings",
    ),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path(
        "event-file.schema.json",
        event_files.EventFileSchemaView.as_view(),
        name="api-event-file-schema",
    ),
    path("event-files/", event_files.EventFileImportView.as_view(), name="api-event-files"),
    path(
        "event-files/import-jobs/<int:job_id>/",
        event_files.EventFileImportJobView.as_view(),
        name="api-event-file-import-job",
    ),
    # Built once per process, anonymous callers throttled (config/api_schema.py).
    path("schema/", SchemaView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file (?script): no inline script,
    # as the Content-Security-Policy wants; templates/drf_spectacular/ drops the <style>.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="api-tournaments"),
    path("formats/", formats.FormatListView.as_view(), name="api-formats"),
    path("formats/tournament/", formats.FromFormatView.as_view(), name="api-from-format"),
    path(T, tournaments.TournamentDetailView.as_view(), name="api-tournament"),
    path(T + "staff/", staff.StaffView.as_view(), name="api-staff"),
    path(T + "webhooks/", webhooks.WebhookListView.as_view(), name="api-webhooks"),
    path(T + "webhooks/<id:pk>/", webhooks.WebhookDetailView.as_view(), name="api-webhook"),
    path(
        T + "webhooks/<id:pk>/deliveries/",
        webhooks.WebhookDeliveriesView.as_view(),
        name="api-webhook-deliveries",
    ),
    path(T + "staff/<id:pk>/", staff.StaffMemberView.as_view(), name="api-staff-member"),
    path(T + "staff/accounts/", staff.StaffAccountView.as_view(), name="api-staff-accounts"),
    path(
        T + "staff/invitations/",
        staff.InvitationListView.as_view(),
        name="api-staff-invitations",
    ),
    path(
        T + "staff/invitations/<id:pk>/",
        staff.InvitationView.as_view(),
        name="api-staff-invitation",
    ),
    path(T + "divisions/", divisions.DivisionListView.as_view(), name="api-divisions"),
    path(
        T + "divisions/<str:division>/",
        divisions.DivisionDetailView.as_view(),
        name="api-division",
    ),
    path(T + "players/", players.PlayerListView.as_view(), name="api-players"),
    path(T + "players/import/", players.PlayerImportView.as_view(), name="api-players-import"),
    path(T + "players/<id:pk>/", players.PlayerDetailView.as_view(), name="api-player"),
    path(
        T + "players/<id:pk>/withdraw/",
        withdrawals.PlayerWithdrawView.as_view(),
        name="api-player-withdraw",
    ),
    path(T + "rounds/", rounds.RoundListView.as_view(), name="api-rounds"),
    path(T + "rounds/<id:number>/", rounds.RoundDetailView.as_view(), name="api-round"),
    path(T + "rounds/<id:number>/checkin/", checkin.CheckInView.as_view(), name="api-checkin"),
    path(
        T + "rounds/<id:number>/checkin/everyone/",
        checkin.CheckInEveryoneView.as_view(),
        name="api-checkin-everyone",
    ),
    path(T + "games/", games.GameListView.as_view(), name="api-tournament-games"),
    path(T + "stages/", stages.StageListView.as_view(), name="api-stages"),
    path(T + "stages/<id:number>/", stages.StageDetailView.as_view(), name="api-stage"),
    path(
        T + "stages/<id:number>/standings/",
        stages.StageStandingsView.as_view(),
        name="api-stage-standings",
    ),
    path(T + "stages/<id:number>/cut/", stages.StageCutView.as_view(), name="api-stage-cut"),
    path(T + "stages/<id:number>/side/", stages.StageSideView.as_view(), name="api-stage-side"),
    path(
        T + "stages/<id:number>/entrants/",
        stages.StageEntrantsView.as_view(),
        name="api-stage-entrants",
    ),
    path(T + "standings/", standings.StandingsView.as_view(), name="api-standings"),
    path(T + "event-file/", event_files.EventFileView.as_view(), name="api-event-file"),
    path(T + "club/", clubs.TournamentClubView.as_view(), name="api-tournament-club"),
    path(
        T + "players/<id:pk>/member/",
        clubs.PlayerMemberView.as_view(),
        name="api-player-member",
    ),
    path(
        "tournaments/<slug:slug>/standings.csv",
        standings.StandingsCSVView.as_view(),
        name="api-standings-csv",
    ),
    path(
        "tournaments/<slug:slug>/ranking.csv",
        standings.RankingCSVView.as_view(),
        name="api-ranking-csv",
    ),
    path(
        "tournaments/<slug:slug>/qualified.csv",
        standings.QualifiedCSVView.as_view(),
        name="api-qualified-csv",
    ),
    path("games/<id:pk>/", games.GameDetailView.as_view(), name="api-game"),
    path("games/<id:pk>/results/", results.ResultListView.as_view(), name="api-results"),
    path(
        "games/<id:pk>/results/<id:version>/confirm/",
        results.ResultConfirmView.as_view(),
        name="api-result-confirm",
    ),
    path("games/<id:pk>/forfeit/", withdrawals.GameForfeitView.as_view(), name="api-forfeit"),
    path("games/<id:pk>/penalties/", penalties.PenaltyListView.as_view(), name="api-penalties"),
    path(
        "games/<id:pk>/extensions/", extensions.ExtensionListView.as_view(), name="api-extensions"
    ),
    path("penalties/<id:pk>/", penalties.PenaltyDetailView.as_view(), name="api-penalty"),
]
