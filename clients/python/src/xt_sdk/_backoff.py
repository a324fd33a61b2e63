"""When to try again: full jitter under an exponential cap, never sooner than Retry-After."""

from __future__ import annotations

import random
from email.utils import parsedate_to_datetime
from typing import Callable, Optional
import time


def backoff_delay(
    attempt: int,
    base: float,
    cap: float,
    retry_after: Optional[float] = None,
    rand: Callable[[], float] = random.random,
) -> float:
    """Seconds to wait before try ``attempt + 1``; the service's Retry-After is a floor."""
    jittered = min(cap, base * 2**attempt) * rand()
    if retry_after is None:
        return jittered
    return min(cap, max(retry_after, jittered))


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` in seconds: delay-seconds or an HTTP date; None when absent or bad."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))
