"""Routes of the scorekeeper's pages, under the tournament's /t/<slug>/."""

from django.urls import path

from .views import entry, overview  # importing them registers the "num" converter

T = "t/<slug:slug>/"
TABLE = T + "rounds/<num:number>/tables/<num:table>/"

urlpatterns = [
    path(TABLE, entry.table_entry, name="table-entry"),
    path(TABLE + "timer/", entry.table_timer, name="table-timer"),
    path(TABLE + "games/<num:game>/timeout/", entry.timeout_record, name="timeout-record"),
    path(T + "confirm/", overview.confirm_queue, name="confirm-queue"),
    path(T + "confirm/<num:pk>/", overview.confirm_result, name="confirm-result"),
    path(T + "missing/", overview.results_missing, name="results-missing"),
    path(T + "results.csv", overview.results_csv, name="results-csv"),
]
