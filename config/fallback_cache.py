"""The shared cache, or a per-process stand-in while the shared one is unreachable.

The API's throttles keep their counters in the shared cache (Redis in production). When
that Redis is down or hangs, every request would fail on reading a counter; instead they
are counted in this process's memory until Redis answers again, so the API keeps working
and still throttles (per process rather than site-wide: with 3 gunicorn workers a client
gets up to 3 times the rate for as long as the outage lasts).

Terms:
* stand-in — a local-memory cache of this process, used while the shared one fails.
* retry window — after a failure the shared cache is left alone for RETRY_SECONDS, so a
  Redis that hangs costs one socket timeout per window, not one per request.
* the log — a warning when the outage starts, another every LOG_EVERY_SECONDS while it
  lasts (not one per request), and an info line when the shared cache answers again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.dispatch import receiver
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
LOG_EVERY_SECONDS = 60.0
# What an unreachable or hanging Redis raises (a refused or reset socket is an OSError).
CACHE_ERRORS = (RedisError, OSError)


class FallbackCache:
    """The cache methods DRF's throttles use (get, set, add, delete), on the cache named
    `alias` while it answers, on a stand-in of this process while it does not."""

    def __init__(self, alias: str = "default", clock: Callable[[], float] = time.monotonic):
        self.alias = alias
        self.clock = clock
        self.standin = LocMemCache(f"fallback-{alias}-{id(self)}", {"OPTIONS": {}})
        self.reset()

    def reset(self) -> None:
        """Forget any outage: the next call tries the shared cache again."""
        self._down_since: float | None = None
        self._retry_at = 0.0
        self._logged_at = 0.0
        self._served = 0  # calls answered by the stand-in since the last warning

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        now = self.clock()
        if not self.down or now >= self._retry_at:
            try:
                value = getattr(caches[self.alias], method)(*args, **kwargs)
            except CACHE_ERRORS as error:
                self._failed(now, error)
            else:
                if self._down_since is not None:  # was down (self.down, narrowed)
                    logger.info(
                        "shared cache %r is reachable again after %.0f s; throttles count "
                        "there again",
                        self.alias,
                        now - self._down_since,
                    )
                    self.reset()
                return value
        self._served += 1
        return getattr(self.standin, method)(*args, **kwargs)

    def _failed(self, now: float, error: Exception) -> None:
        self._retry_at = now + RETRY_SECONDS
        if self._down_since is None:  # not down yet
            self._down_since = now
        elif now - self._logged_at < LOG_EVERY_SECONDS:
            return
        logger.warning(
            "shared cache %r unreachable (%s: %s) for %.0f s; throttles count per process "
            "meanwhile (%d calls since the last report)",
            self.alias,
            type(error).__name__,
            error,
            now - self._down_since,
            self._served,
        )
        self._logged_at = now
        self._served = 0

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", key, default)

    def set(self, key: str, value: Any, timeout: Any = None) -> None:
        self._call("set", key, value, timeout)

    def add(self, key: str, value: Any, timeout: Any = None) -> bool:
        return self._call("add", key, value, timeout)

    def delete(self, key: str) -> bool:
        return self._call("delete", key)


# The one the throttles use (config.api).
throttle_cache = FallbackCache()


@receiver(setting_changed)
def _caches_changed(*, setting: str, **kwargs: Any) -> None:
    # Tests swap CACHES; an outage seen with the old ones says nothing about the new.
    if setting == "CACHES":
        throttle_cache.reset()
        throttle_cache.standin.clear()
