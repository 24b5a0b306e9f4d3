from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games, results and standings"

    def ready(self) -> None:
        # Registers the Celery tasks in every process that loads Django (web, worker,
        # commands): the lower layers enqueue the standings job by its name alone
        # (`tournaments.events`), so the job must be known before anything asks for it.
        # The sheets job lives with the sheets' templates (`games.sheets`), above the
        # services; it is registered the same way.
        from . import sheets, tasks  # noqa: F401
