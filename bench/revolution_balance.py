#!/usr/bin/env python3
"""«Революция» fight balance: how often bot fighters win, before and after issue 14's tuning.

    python bench/revolution_balance.py              (about 10 s of CPU)
    python bench/revolution_balance.py --games 400 --players 5

Plays seeded bot games ("normal" bots, straight on the engine, no server) twice with the same
seeds: BEFORE = the deck as it was (revision 1 of the default deck: default.json with the overlay
default.rev1.json, as a table started before issue 14 plays it) with the bots' old fight policy
(bot.BASELINE); AFTER = games/revolution/decks/default.json with bot.POLICY.
Every fight is recorded when it starts (opponent level, the fighter's attack) and when it ends:
won alone, won with a helper, lost (then escaped or caught), or called off.

Printed: the win rate by opponent level, and by the opponent's strength against the fighter's
own attack (d = opponent's total - fighter's attack when the fight starts; d >= 0 means the
fighter cannot win without a card or a helper). Target (docs/decisions.md, "Bot balance (issue
14)"): an opponent of the fighter's own strength (d = 0..1) is won 50-65% of the time, a strong
one (d >= 4) seldom alone. Prints numbers, asserts nothing.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.revolution import GAME  # noqa: E402
from games.revolution import bot as B  # noqa: E402
from games.revolution import engine as E  # noqa: E402

BEFORE_DECK = {"deck": "default", "deck_rev": 1}  # the numbers before issue 14's tuning
AFTER_DECK = {"deck": "default"}
MAX_STEPS = 20_000


def play(seed: int, players: int, deck: dict, policy: B.Policy) -> tuple[list[dict], int]:
    """One bot game; its fights and the number of turns."""
    rng = random.Random(seed)
    s = GAME.new(players, deck, seed)
    fights: list[dict] = []
    current: dict | None = None
    steps = 0
    while s.stage != "over" and steps < MAX_STEPS:
        steps += 1
        waits = GAME.awaiting(s)
        seat = waits[rng.randrange(len(waits))].seat
        action = B.bot_action(GAME.view(s, seat), GAME.legal(s, seat), rng, "normal", policy)
        for ev in GAME.apply(s, seat, action):
            key, p = ev.key, ev.params
            if key == "revolution.fight":
                current = {"opp": E._card(s, p["card"]).effect("opponent")["level"],
                           "d": E._totals(s)[1] - E._attack(s, p["seat"])}
            elif current is None:
                continue
            elif key == "revolution.won":
                current["end"] = "helped" if "helper_seat" in p else "alone"
                fights.append(current)
                current = None
            elif key == "revolution.cancelled":
                current["end"] = "off"
                fights.append(current)
                current = None
            elif key == "revolution.lost":
                current["end"] = "lost"
            elif key in ("revolution.escaped", "revolution.caught") and current.get("end") == "lost":
                current["caught"] = key == "revolution.caught"
                fights.append(current)
                current = None
    return fights, s.turn_no


def run(games: int, players: int, seed: int, deck: dict, policy: B.Policy) -> dict:
    by_level: dict[int, Counter] = defaultdict(Counter)
    by_d: dict[int, Counter] = defaultdict(Counter)
    turns = []
    t0 = time.process_time()
    for g in range(games):
        fights, n = play(seed + g, players, deck, policy)
        turns.append(n)
        for f in fights:
            for table, k in ((by_level, f["opp"]), (by_d, max(-3, min(6, f["d"])))):
                table[k][f["end"]] += 1
                table[k]["caught"] += bool(f.get("caught"))
    return {"level": by_level, "d": by_d, "turns": sum(turns) / len(turns), "cpu": time.process_time() - t0}


def _cell(c: Counter | None) -> str:
    if not c:
        return f"{'-':>18}"
    n = c["alone"] + c["helped"] + c["lost"] + c["off"]
    won = (c["alone"] + c["helped"]) / n
    return f"{won:5.0%} ({c['alone'] / n:4.0%} alone) n={n:<4}"


def report(title: str, before: dict, after: dict, key: str, label) -> None:
    print(f"\n{title}")
    print(f"{'':>12}  {'BEFORE: won (alone)':<28}  {'AFTER: won (alone)':<28}")
    for k in sorted(set(before[key]) | set(after[key])):
        print(f"{label(k):>12}  {_cell(before[key].get(k)):<28}  {_cell(after[key].get(k)):<28}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    before = run(args.games, args.players, args.seed, BEFORE_DECK, B.BASELINE)
    after = run(args.games, args.players, args.seed, AFTER_DECK, B.POLICY)
    print(f"«Революция»: {args.games} bot games of {args.players} players each, seeds {args.seed}..."
          f"{args.seed + args.games - 1}; fights won by the fighter (with or without a helper)")
    report("by opponent level", before, after, "level", lambda k: f"level {k}")
    report("by d = opponent - fighter's attack (d >= 0: cannot win alone without a card)", before, after, "d",
           lambda k: {-3: "d <= -3", 6: "d >= 6"}.get(k, f"d = {k:+d}"))
    for name, r in (("BEFORE", before), ("AFTER", after)):
        caught = sum(c["caught"] for c in r["level"].values())
        lost = sum(c["lost"] for c in r["level"].values())
        total = sum(c["alone"] + c["helped"] + c["lost"] + c["off"] for c in r["level"].values())
        print(f"{name}: {total} fights, {lost} lost ({caught} caught: penalty applied), "
              f"{r['turns']:.1f} turns a game, {r['cpu']:.1f} s CPU")


if __name__ == "__main__":
    main()
