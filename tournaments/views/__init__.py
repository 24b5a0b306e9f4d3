"""The tournament pages: `public` (anyone who may see the tournament) and `organise`
(the organiser's pages). Routes are in tournaments/urls.py."""
