"""Seating benchmark: ``python -m bench.seating``.

Prints three tables (tables of 4 throughout):

1. plan — the whole schedule at once for the social golfer counts (16 → 5 rounds,
   20 → 5, 24 → 7, 28 → 9, 32 → 10, 64 → 21; also 32 → 9, the most we construct) and for
   200 players (10 and 40 rounds): the rounds reached without any repeat, total
   repeats, seconds, and whether a constructed design was used. Target: every count
   reached, each within 60 s.
2. random — round by round with ``seat_random``, each round seeing the earlier ones as
   history: rounds reached without a repeat and seconds per round. Target ≤ 1 s per
   round at 200 players.
3. swiss — 1,000 players after 3 random rounds, 3 Swiss rounds on standings that move
   a few dozen places each round: repeats, rank spread, seconds per round. Target ≤ 2 s
   per round.

Everything is seeded, so the figures other than seconds are the same on every run.
"""

from __future__ import annotations

import random
import time

from scoring.seating import design_rounds, plan_rounds, seat_random, seat_swiss

GOLFERS = [(16, 5), (20, 5), (24, 7), (28, 9), (32, 9), (32, 10), (64, 21), (200, 10), (200, 40)]
RANDOM_ROUNDS = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 64: 21, 200: 15}


def leading_zero_rounds(qualities: list[dict[str, int]]) -> int:
    """How many rounds from the first have no repeat meeting."""
    reached = 0
    for q in qualities:
        if q["repeat_pairs"]:
            break
        reached += 1
    return reached


def bench_plan() -> list[tuple]:
    rows = []
    for n, rounds in GOLFERS:
        start = time.perf_counter()
        schedule = plan_rounds(range(1, n + 1), rounds, 4, seed=1)
        seconds = time.perf_counter() - start
        qualities = [s.quality for s in schedule]
        design = len(design_rounds(n, 4))
        rows.append(
            (
                n,
                rounds,
                leading_zero_rounds(qualities),
                sum(q["repeat_pairs"] for q in qualities),
                f"{seconds:.2f}",
                f"design ({design} rounds)" if design else "search",
                "yes" if leading_zero_rounds(qualities) == rounds and seconds <= 60 else "NO",
            )
        )
    return rows


def bench_random() -> list[tuple]:
    rows = []
    for n, rounds in RANDOM_ROUNDS.items():
        history: list = []
        qualities, times = [], []
        for r in range(rounds):
            start = time.perf_counter()
            seating = seat_random(range(1, n + 1), history, 4, seed=r)
            times.append(time.perf_counter() - start)
            qualities.append(seating.quality)
            history.append(seating.tables)
        rows.append(
            (
                n,
                rounds,
                leading_zero_rounds(qualities),
                f"{sum(times) / len(times):.3f}",
                f"{max(times):.3f}",
                "yes" if max(times) <= 1 else "NO",
            )
        )
    return rows


def bench_swiss(n: int = 1000, rounds: int = 3) -> list[tuple]:
    players = list(range(1, n + 1))
    history = [seat_random(players, [], 4, seed=s).tables for s in range(3)]
    rng = random.Random(2024)  # not a seat_random seed: its first shuffle would match
    ranked = list(players)
    rng.shuffle(ranked)
    rows = []
    for r in range(rounds):
        # Standings move between rounds: each player drifts by a few dozen places.
        position = {p: i + rng.gauss(0, 25) for i, p in enumerate(ranked)}
        ranked.sort(key=position.__getitem__)
        start = time.perf_counter()
        seating = seat_swiss(ranked, history, 4, seed=r)
        seconds = time.perf_counter() - start
        history.append(seating.tables)
        q = seating.quality
        rows.append(
            (
                n,
                len(history),
                q["repeat_pairs"],
                q["rank_spread"],
                q["rank_spread_total"],
                f"{seconds:.3f}",
                "yes" if seconds <= 2 else "NO",
            )
        )
    return rows


def print_table(title: str, header: tuple, rows: list[tuple]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    print(f"\n{title}")
    print("  ".join(str(h).rjust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)))


def main() -> None:
    print("Seating benchmark (tables of 4; seconds are wall-clock on this machine)")
    print_table(
        "plan_rounds: whole schedule at once (target: all rounds repeat-free, <= 60 s)",
        ("players", "rounds", "repeat-free", "repeats", "seconds", "source", "target met"),
        bench_plan(),
    )
    print_table(
        "seat_random: round by round (target: <= 1 s per round at 200 players)",
        ("players", "rounds", "repeat-free", "mean s/round", "max s/round", "<= 1 s"),
        bench_random(),
    )
    print_table(
        "seat_swiss: 1,000 players (target: <= 2 s per round)",
        ("players", "round", "repeats", "spread", "spread total", "seconds", "<= 2 s"),
        bench_swiss(),
    )


if __name__ == "__main__":
    main()
