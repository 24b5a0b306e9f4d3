from django.apps import AppConfig
from django.utils.translation import gettext, ngettext

from scoring import i18n


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Connects the receivers that count page generations (saved tournaments, rounds).
        from . import events  # noqa: F401

        # The engine's messages in the request's language (scoring/i18n.py).
        i18n.install(gettext, ngettext)
