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
4. clubs — 64 players from 8 clubs of 8: same-club pairs in round 1 (clubs apart, as
   strong as a repeat meeting) for 10 seeds, random and Swiss (by rating, the clubs in
   rating order), and rounds 2 to 6 drawn with the lighter club weight: repeats and
   same-club pairs. Target: 0 same-club pairs in round 1 (possible: 16 tables, no club
   bigger than that), and no repeat bought for a club pair later.

Everything is seeded, so the figures other than seconds are the same on every run.
"""

from __future__ import annotations

import argparse
import random
import time

from scoring.seating import (
    SAME_CLUB_LIGHT,
    design_rounds,
    plan_rounds,
    seat_random,
    seat_swiss,
)

GOLFERS = [(16, 5), (20, 5), (24, 7), (28, 9), (32, 9), (32, 10), (64, 21), (200, 10), (200, 40)]
RANDOM_ROUNDS = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 64: 21, 200: 15}
CLUB_FIELD = 64
CLUB_SIZE = 8
CLUB_SEEDS = 10
CLUB_LATER_ROUNDS = 5


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


def bench_clubs() -> list[tuple]:
    players = list(range(1, CLUB_FIELD + 1))
    clubs = {p: f"club {(p - 1) // CLUB_SIZE}" for p in players}
    rows = []
    for seed in range(CLUB_SEEDS):
        start = time.perf_counter()
        first = seat_random(players, [], 4, seed, clubs=clubs)
        seconds = time.perf_counter() - start
        swiss = seat_swiss(players, [], 4, seed, clubs=clubs)
        history = [first.tables]
        later = []
        for r in range(CLUB_LATER_ROUNDS):
            seating = seat_random(
                players, history, 4, seed * 100 + r, clubs=clubs, same_club_mode=SAME_CLUB_LIGHT
            )
            later.append(seating.quality)
            history.append(seating.tables)
        rows.append(
            (
                seed,
                first.quality["same_club_pairs"],
                first.quality["repeat_pairs"],
                f"{seconds:.3f}",
                swiss.quality["same_club_pairs"],
                " ".join(str(q["repeat_pairs"]) for q in later),
                " ".join(str(q["same_club_pairs"]) for q in later),
                "yes" if first.quality["same_club_pairs"] == 0 else "NO",
            )
        )
    return rows


def quick() -> None:
    """Small sizes: every table is printed, in a second or two (no target is judged)."""
    global GOLFERS, RANDOM_ROUNDS, CLUB_SEEDS, CLUB_LATER_ROUNDS, SWISS_FIELD
    GOLFERS = [(16, 5)]
    RANDOM_ROUNDS = {16: 3}
    CLUB_SEEDS, CLUB_LATER_ROUNDS = 1, 1
    SWISS_FIELD = 40


SWISS_FIELD = 1000


def print_table(title: str, header: tuple, rows: list[tuple]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    print(f"\n{title}")
    print("  ".join(str(h).rjust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description="Seating benchmark (tables of 4).")
    parser.add_argument(
        "--quick", action="store_true", help="small fields and few seeds (the test suite runs it)"
    )
    if parser.parse_args().quick:
        quick()
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
        f"seat_swiss: {SWISS_FIELD:,} players (target: <= 2 s per round)",
        ("players", "round", "repeats", "spread", "spread total", "seconds", "<= 2 s"),
        bench_swiss(SWISS_FIELD),
    )
    print_table(
        f"clubs: {CLUB_FIELD} players from {CLUB_FIELD // CLUB_SIZE} clubs of {CLUB_SIZE} "
        "(target: 0 same-club pairs in round 1)",
        (
            "seed",
            "round 1 club pairs",
            "repeats",
            "seconds",
            "swiss club pairs",
            "rounds 2-6 repeats",
            "rounds 2-6 club pairs",
            "0 reached",
        ),
        bench_clubs(),
    )


if __name__ == "__main__":
    main()
