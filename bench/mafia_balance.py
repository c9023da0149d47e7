#!/usr/bin/env python3
"""Forum Mafia (version C) balance: who wins bot games, by faction and table size, before and
after issue 14's bot work (the Злой Гений hunt, then the Мафия's team play).

    python bench/mafia_balance.py                 (about 50 s of CPU)
    python bench/mafia_balance.py --games 200 --sizes 11 15

Plays seeded bot games straight on the engine (no server; a random waiting seat answers next),
four times with the same seeds: BEFORE with the bots as they were (games/mafia/bot.py at commit
BEFORE_COMMIT, just before issue 14, read with git show and loaded in its package; without
git history that row is left out); PASS1 with the bots of issue 14's first pass (PASS1_REF: the
Гений hunt, and a Киллер that never shot after night 1, as a Снайпер passed over disarmed him);
FIXES with today's bots told not to hunt (``hunt=False``: the bot fixes of issue 14, no
hunt, no common mark); AFTER with the bots' default (genius_hunt.py: every faction hunts a seat its
own evidence marks as the Злой Гений or the Маньяк, more eagerly as the Гений's public plan floor
nears DDD; team_play.py: the Мафия shoot one common mark and, from bot.BIG_TABLE seats, vote it
as a bloc). Prints the share of games each side won: Закон, Мафия, Злой Гений (DDD), Маньяк («Я
легенда»), and games nobody won. Prints numbers, asserts nothing.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
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


BEFORE_COMMIT = "6d82c67dd672776661b9b6acae11e4c1d2703492"  # main just before issue 14's bot work
PASS1_REF = "d95c05d07434876bb6edce3dc94e803c2ab06d76"  # main after issue 14's first bot pass (the Гений hunt), before the team play


def load_before(commit: str = BEFORE_COMMIT, name: str = "bot_before_i14"):
    """games/mafia/bot.py as it was at ``commit``, as games.mafia.<name> (so its relative imports
    work), or None without the git history."""
    try:
        source = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:games/mafia/bot.py"],
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        print(f"(no git history: the row of {commit[:7]} is left out)")
        return None
    spec = importlib.util.spec_from_loader(f"games.mafia.{name}", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "games.mafia"
    exec(compile(source, "games/mafia/bot.py@" + commit[:7], "exec"), module.__dict__)
    return module


def play(seed: int, seats: int, answer) -> str:
    """One version-C bot game, ``answer(view, legal, rng)`` for every seat; the reason it ended
    (law, mafia, ddd, legend, stalemate, ...)."""
    rng = random.Random(seed)
    s = GAME.new(seats, {"version": "C"}, seed)
    for _ in range(MAX_STEPS):
        if GAME.outcome(s) is not None:
            break
        waits = GAME.awaiting(s)
        seat = waits[rng.randrange(len(waits))].seat
        GAME.apply(s, seat, answer(GAME.view(s, seat), GAME.legal(s, seat), rng))
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
    before = load_before()
    pass1 = load_before(PASS1_REF, "bot_pass1_i14")
    bots = ((("BEFORE", lambda v, lg, r: before.bot_action(v, lg, r, "normal")),) if before else ()) + (
        (("PASS1", lambda v, lg, r: pass1.bot_action(v, lg, r, "normal")),) if pass1 else ()) + (
        ("FIXES", lambda v, lg, r: B.bot_action(v, lg, r, "normal", False)),
        ("AFTER", lambda v, lg, r: B.bot_action(v, lg, r, "normal")))
    for seats in args.sizes:
        for label, answer in bots:
            t0 = time.process_time()
            won = Counter(play(args.seed + g, seats, answer) for g in range(args.games))
            cells = "  ".join(f"{won[key] / args.games:>10.0%}" for key, _ in SIDES)
            other = {k: v for k, v in won.items() if k not in dict(SIDES)}
            print(f"{seats:>5}  {label:6}  {cells}  {time.process_time() - t0:5.1f} s"
                  + (f"  other: {other}" if other else ""))


if __name__ == "__main__":
    main()
