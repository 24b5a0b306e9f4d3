from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Connects the receivers that count page generations (saved tournaments, rounds).
        from . import events  # noqa: F401
