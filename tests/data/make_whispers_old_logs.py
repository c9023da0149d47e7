"""Writes tests/data/whispers_old_logs.json: «Шептуны» games played by the code before issue 15's
revision of rule 3 (commit 578d4ee^), for tests/test_whispers_interactions.py: logged games must
replay as they were played.

    .venv/bin/python tests/data/make_whispers_old_logs.py [--commit 578d4ee^]

The old ``games/`` is taken from git (``git archive``) into a temporary folder and played there in
a child process, so nothing of today's engine takes part. Random legal moves; kept are the first
games in which some round had two returns (the old reading: the next card holder returned too),
each with its options as the old server stored them (no ``rules_rev``), its seed, its actions and
a digest of every event the old engine sent.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "whispers_old_logs.json"
GAMES = 8

CHILD = r'''
import hashlib, json, random, sys
from games.whispers import GAME

def digest(events):
    return hashlib.sha256(json.dumps(events, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

def two_returns(keys):
    count = 0
    for key in keys:
        count = 0 if key == "whispers.round" else count + (key == "whispers.returned")
        if count >= 2:
            return True
    return False

out = []
for i in range(2000):
    r = random.Random(i)
    n = r.choice([5, 5, 6, 7, 8])
    options = GAME.validate_options({"return_rule": r.choice(["all", "one"])})
    seed = r.getrandbits(40)
    s = GAME.new(n, options, seed)
    events = [[e.key, e.params] for e in GAME.start_events(s)]
    actions = []
    while GAME.outcome(s) is None and len(actions) < 300:
        seat = GAME.awaiting(s)[0].seat
        legal = GAME.legal(s, seat)
        action = legal[r.randrange(len(legal))]
        actions.append([seat, action])
        events += [[e.key, e.params] for e in GAME.apply(s, seat, action)]
    if two_returns([k for k, _ in events]) and len(actions) < 80:
        out.append({"players": n, "options": options, "seed": seed, "actions": actions,
                    "events": digest(json.loads(json.dumps(events)))})
    if len(out) == int(sys.argv[1]):
        break
print(json.dumps(out))
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commit", default="578d4ee^")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", args.commit, "games"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        result = subprocess.run([sys.executable, "-c", CHILD, str(GAMES)], cwd=tmp, check=True,
                                capture_output=True, text=True)
    games = json.loads(result.stdout)
    OUT.write_text(json.dumps({"commit": args.commit, "games": games}, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(games)} games")


if __name__ == "__main__":
    main()
