"""Points, groups and rounds: the vocabulary the seating engines share.

The engines work on *points* ``0..n-1`` (the draw and the plan map player ids to points
and back) and on *groups* (a table before its seat order is chosen: a list of points). A
*round* is a list of groups that seats every point once.
"""

from __future__ import annotations

Group = list[int]
Round = list[Group]
