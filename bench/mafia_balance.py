#!/usr/bin/env python3
"""Forum Mafia (version C) balance: who wins bot games, by faction and table size, before and
after issue 14's Злой Гений hunt.

    python bench/mafia_balance.py                 (about 30 s of CPU)
    python bench/mafia_balance.py --games 200 --sizes 11 15

Plays seeded bot games straight on the engine (no server; a random waiting seat answers next),
twice with the same seeds: BEFORE with ``bot_action(..., hunt=False)`` (the bots as they were:
suspects by seat order, probes at random), AFTER with the bots' default (games/mafia/
genius_hunt.py: every faction hunts a seat its own evidence marks as the Злой Гений or the Маньяк,
more eagerly as the Гений's public plan floor nears DDD; probes spread over seats not looked at
yet). Prints the share of games each side won: Закон, Мафия, Злой Гений (DDD), Маньяк («Я
легенда»), and games nobody won. Prints numbers, asserts nothing.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.mafia import GAME  # noqa: E402
from games.mafia import bot as B  # noqa: E402

SIDES = (("law", "Закон"), ("mafia", "Мафия"), ("ddd", "Злой Гений"), ("legend", "Маньяк"), ("stalemate", "nobody"))
MAX_STEPS = 100_000


def play(seed: int, seats: int, hunt: bool) -> str:
    """One version-C bot game; the reason it ended (law, mafia, ddd, legend, stalemate, ...)."""
    rng = random.Random(seed)
    s = GAME.new(seats, {"version": "C"}, seed)
    for _ in range(MAX_STEPS):
        if GAME.outcome(s) is not None:
            break
        waits = GAME.awaiting(s)
        seat = waits[rng.randrange(len(waits))].seat
        GAME.apply(s, seat, B.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "normal", hunt))
    return s.reason or "unfinished"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 11, 15])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Mafia version C: {args.games} bot games per table size, seeds {args.seed}..."
          f"{args.seed + args.games - 1}; share of games won")
    print(f"{'seats':>5}  {'':6}  " + "  ".join(f"{name:>10}" for _, name in SIDES) + "     CPU")
    for seats in args.sizes:
        for label, hunt in (("BEFORE", False), ("AFTER", True)):
            t0 = time.process_time()
            won = Counter(play(args.seed + g, seats, hunt) for g in range(args.games))
            cells = "  ".join(f"{won[key] / args.games:>10.0%}" for key, _ in SIDES)
            other = {k: v for k, v in won.items() if k not in dict(SIDES)}
            print(f"{seats:>5}  {label:6}  {cells}  {time.process_time() - t0:5.1f} s"
                  + (f"  other: {other}" if other else ""))


if __name__ == "__main__":
    main()
