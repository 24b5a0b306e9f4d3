from django.apps import AppConfig


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = "Circuits: national rankings and qualification"

    def ready(self) -> None:
        # The receivers that follow the tournaments, and the Celery task the lower
        # layers ask for by name (`tournaments.services.people.CIRCUIT_TASK`).
        from . import signals, tasks  # noqa: F401
