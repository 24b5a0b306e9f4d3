"""Routes of the standings fragment and exports, the rules panel and the rack value."""

from django.urls import path

from . import views

T = "t/<slug:slug>/"

urlpatterns = [
    path(T + "standings/live/", views.standings_live, name="standings-live"),
    path(T + "standings.csv", views.standings_csv, name="standings-csv"),
    path(T + "rack-value/", views.rack_value, name="rack-value"),
    path("rules/preview/", views.rules_preview, name="rules-preview"),
]
