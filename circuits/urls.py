"""The circuit's public pages (`circuits.views.pages`)."""

from django.urls import path

from .views import pages, people

C = "circuits/<slug:slug>/"

urlpatterns = [
    path("circuits/", pages.circuit_list, name="circuit-list"),
    path(C, pages.circuit_ranking, name="circuit-ranking"),
    path(C + "calendar/", pages.circuit_calendar_page, name="circuit-calendar"),
    path(C + "calendar.ics", pages.circuit_calendar_feed, name="circuit-calendar-feed"),
    path(C + "qualified/", pages.circuit_qualified, name="circuit-qualified"),
    path(C + "people/<int:person_id>/", pages.circuit_person, name="circuit-person"),
    # The registration desk's people page of a tournament.
    path("t/<slug:slug>/people/", people.tournament_people, name="tournament-people"),
    path("t/<slug:slug>/people/new/", people.person_new, name="tournament-person-new"),
    path(
        "t/<slug:slug>/people/<int:player_number>/",
        people.player_person,
        name="tournament-player-person",
    ),
]
