"""Routes of the games pages, under the tournament's /t/<slug>/: the standings, rounds,
players' games, the scorekeeper's tables and the exports.

URL arguments say what they number: `round_number`, `table_number`, `game_number` and
`player_number` are numbers within the tournament (round, table in the round, game at the
table, start number); `pk` is a database id.
"""

from django.urls import path

from .views import (
    clubs,
    entry,
    event_files,
    overview,
    players,
    projector,
    rounds,
    seasons,
    stage_entrants,
    stages,
    standings,
    table_links,
    tournament,
)

T = "t/<slug:slug>/"
ROUND = T + "rounds/<num:round_number>/"
TABLE = ROUND + "tables/<num:table_number>/"

CLUB = "clubs/<slug:club_slug>/"

urlpatterns = [
    path("event-files/import/", event_files.event_file_import_page, name="event-file-import"),
    path(
        "event-files/import/jobs/<int:job_id>/",
        event_files.event_file_import_job,
        name="event-file-import-job",
    ),
    path(CLUB, clubs.club_detail, name="club-detail"),
    path(CLUB + "members/<num:member_id>/", clubs.member_detail, name="member-detail"),
    path(CLUB + "seasons/<slug:season_slug>/", seasons.season_detail, name="season-detail"),
    path(CLUB + "seasons/<slug:season_slug>.csv", seasons.season_csv_view, name="season-csv"),
    path(T, tournament.tournament_detail, name="tournament-detail"),
    path(T + "standings/live/", standings.standings_live, name="standings-live"),
    path(T + "standings.csv", standings.standings_csv, name="standings-csv"),
    path(T + "ranking.csv", standings.ranking_csv, name="ranking-csv"),
    path(T + "qualified.csv", standings.qualified_csv, name="qualified-csv"),
    path(T + "event.json", standings.event_file_download, name="event-file"),
    path(T + "projector/", projector.projector, name="projector"),
    path(T + "projector/live/", projector.projector_live, name="projector-live"),
    path(T + "players/<num:player_number>/", players.player_detail, name="player-detail"),
    path(
        T + "players/<num:player_number>/withdraw/",
        players.player_withdraw_page,
        name="player-withdraw",
    ),
    path(T + "rounds/new/", rounds.round_open, name="round-open"),
    path(T + "stages/new/", stages.stage_new, name="stage-new"),
    path(T + "stages/<num:stage_number>/", stages.stage_detail, name="stage-detail"),
    path(T + "stages/<num:stage_number>/close/", stages.stage_close_view, name="stage-close"),
    path(
        T + "stages/<num:stage_number>/entrants/",
        stage_entrants.stage_entrants_view,
        name="stage-entrants",
    ),
    path(T + "stages/<num:stage_number>/side/", stages.stage_side_view, name="stage-side"),
    path(
        T + "stages/<num:stage_number>/projector/",
        projector.stage_projector,
        name="stage-projector",
    ),
    path(
        T + "stages/<num:stage_number>/projector/live/",
        projector.stage_projector_live,
        name="stage-projector-live",
    ),
    path(ROUND, rounds.round_detail, name="round-detail"),
    path(ROUND + "cancel/", rounds.round_cancel, name="round-cancel"),
    path(ROUND + "swap/", rounds.seat_swap, name="seat-swap"),
    path(ROUND + "clock/", rounds.round_clock, name="round-clock"),
    path(ROUND + "sheets/", rounds.round_sheets, name="round-sheets"),
    path(ROUND + "sheets.pdf", rounds.round_sheets_pdf, name="round-sheets-pdf"),
    path(ROUND + "sheets/pdf-job", rounds.round_sheets_job, name="round-sheets-job"),
    path(T + "exports/<int:job_id>/", rounds.export_job_status, name="export-job"),
    path(
        T + "exports/<int:job_id>/download", rounds.export_job_download, name="export-job-download"
    ),
    path(ROUND + "links/revoke/", rounds.table_links_revoke, name="table-links-revoke"),
    # The address in a table sheet's QR code: signs a phone in as that table's scorekeeper.
    path(TABLE + "link/<str:token>/", table_links.table_link, name="table-link"),
    path(TABLE, entry.table_entry, name="table-entry"),
    path(TABLE + "timer/", entry.table_timer, name="table-timer"),
    path(TABLE + "games/<num:game_number>/timeout/", entry.timeout_record, name="timeout-record"),
    path(TABLE + "games/<num:game_number>/undo/", entry.timeout_undo, name="timeout-undo"),
    path(
        TABLE + "games/<num:game_number>/extension/",
        entry.extension_record,
        name="extension-record",
    ),
    path(T + "rack-value/", entry.rack_value, name="rack-value"),
    path(T + "confirm/", overview.confirm_queue, name="confirm-queue"),
    path(T + "confirm/<num:pk>/", overview.confirm_result, name="confirm-result"),
    path(T + "missing/", overview.results_missing, name="results-missing"),
    path(T + "results.csv", overview.results_csv, name="results-csv"),
]
