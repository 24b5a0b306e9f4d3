"""The Celery app. Broker from `CELERY_BROKER_URL` or `REDIS_URL`; with neither set, tasks
run eagerly in-process (the caller enqueues them on commit, so they still see committed
data). Worker: `celery -A config worker -B`.
"""

import logging
import os

from celery import Celery
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)

app = Celery("rummitab")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _survive_a_redis_restart() -> None:
    """Keep the worker alive when Redis drops its connection while the worker holds
    unacknowledged tasks (acks_late, and the recomputes wait a moment before they run).

    Celery 5.7's worker tears the broker transport down and only then closes the channel,
    whose close puts the held tasks back in the queue through that transport: it finds
    none and the whole worker exits on "AttributeError: 'NoneType' object has no attribute
    'hostname'". Nothing is lost by skipping that step: the tasks are still listed in
    Redis's unacked index and are handed out again after the visibility timeout; a Redis
    that restarted empty lost them anyway, and the periodic standings repair covers that.
    Regression test: tests/integration/test_redis_outage.py (a real worker, a real Redis
    stopped and started again).
    """
    restore_unacked = kombu_redis.QoS.restore_unacked
    if getattr(restore_unacked, "survives_closed_transport", False):
        return

    def restore_unless_closed(self, client=None):
        if client is None and getattr(self.channel.connection, "client", None) is None:
            logger.warning(
                "broker connection already closed: %d unacknowledged task(s) return to the "
                "queue after the visibility timeout",
                len(self._delivered),
            )
            self._delivered.clear()
            return None
        return restore_unacked(self, client)

    restore_unless_closed.survives_closed_transport = True  # type: ignore[attr-defined]
    # A deliberate patch of kombu's method (the docstring says why); mypy forbids it otherwise.
    kombu_redis.QoS.restore_unacked = restore_unless_closed  # type: ignore[method-assign]


_survive_a_redis_restart()
