"""A line chart drawn as SVG coordinates on the server: no chart library, no script.

Terms:
* baseline — the value the chart starts from and draws a dashed line at (0 for a
  score).
* point — one (label, value) pair, e.g. ("R2", 57): a player's cumulative score after
  round 2. Points are drawn left to right in the order given, from a starting 0.
* plot box — the drawing area inside the margins that hold the axis labels.

Pure Python: the template draws the `Chart` it gets (a polyline, dots, labels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import pgettext

WIDTH, HEIGHT = 600, 300
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 20, 40


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str
    value: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    dots: tuple[Dot, ...]
    zero_y: float  # where the 0 line runs
    top_value: int
    bottom_value: int
    baseline: int = 0
    left: int = LEFT
    right_x: int = WIDTH - RIGHT
    top_y: int = TOP
    bottom_y: int = HEIGHT - BOTTOM

    @property
    def zero_label(self) -> bool:
        """Label the 0 line unless it sits on the top or bottom label."""
        return min(abs(self.zero_y - self.top_y), abs(self.zero_y - self.bottom_y)) > 24

    @property
    def polyline(self) -> str:
        return " ".join(f"{dot.x:.1f},{dot.y:.1f}" for dot in self.dots)


def line_chart(points: Sequence[tuple[str, int]], *, baseline: int = 0) -> Chart:
    """Place the points (after a leading ("start", baseline)) in the plot box; the value
    range always includes the baseline (0 for a score, 1000 for a new member's rating) so
    gains and losses read against the same line."""
    series = [(pgettext("chart: the point before the first", "start"), baseline), *points]
    values = [value for _, value in series]
    high, low = max(values), min(values)
    if high == low:
        high, low = high + 1, low - 1
    span_x = (WIDTH - RIGHT - LEFT) / max(len(series) - 1, 1)
    span_y = HEIGHT - BOTTOM - TOP

    def y_of(value: int) -> float:
        return TOP + (high - value) / (high - low) * span_y

    dots = tuple(
        Dot(x=LEFT + index * span_x, y=y_of(value), label=label, value=value)
        for index, (label, value) in enumerate(series)
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        dots=dots,
        zero_y=y_of(baseline),
        top_value=high,
        bottom_value=low,
        baseline=baseline,
    )
