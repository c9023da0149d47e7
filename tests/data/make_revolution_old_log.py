"""Writes tests/data/revolution_old_log.json: a «Революция» table's log made by the code before
issue 14 (commit 6d82c67), stopped mid-fight, for tests/test_revolution_upgrade.py.

    .venv/bin/python tests/data/make_revolution_old_log.py [--commit 6d82c67]

The old ``games/`` is taken from git (``git archive``) into a temporary folder and played there in
a child process, so nothing of today's engine takes part. Two seats, played by the old bots, with
one habit of the old code's players: in a fight window the seats that have something to say answer
first, and a seat whose only answer is pass passes last (the old engine waited for every seat; the
new one closes the window before that pass, which then finds no window). The log stops when a
fight against an opponent whose numbers issue 14 changed is open, after such a late pass happened
in an earlier fight, with the fighter (pass-only) passed and the other seat still to answer.
The fixture also holds what the old engine shows then, and what one more pass of the other seat
does, so the test can check the upgraded server resumes the same game.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "revolution_old_log.json"
OPTIONS = {"deck": "default", "hand": 5, "escape": 5, "turn": 600, "reaction": 600}
PLAYERS = 2


def changed_opponents() -> list[str]:
    """Opponents whose numbers differ between revision 1 and today (from the overlay)."""
    overlay = json.loads((ROOT / "games/revolution/decks/default.rev1.json").read_text(encoding="utf-8"))
    return sorted(cid for cid, fields in overlay["cards"].items()
                  if any(e.get("effect") == "opponent" for e in fields.get("effects", [])))


def play(seed: int, changed: list[str]) -> dict | None:
    """In the child process (old games/ first on sys.path): one game by the rules above, or None
    when this seed never gets there."""
    from games.revolution.engine import GAME

    state = GAME.new(PLAYERS, dict(OPTIONS), seed)
    rng = random.Random(seed)
    log: list[dict] = []
    late_passes = 0

    def pass_only(seat: int) -> bool:
        return all(a["type"] == "pass" for a in GAME.legal(state, seat))

    def act(seat: int, action: dict) -> None:
        GAME.apply(state, seat, action)
        log.append({"step": len(log) + 1, "seat": seat, "action": action})

    while len(log) < 400 and GAME.outcome(state) is None:
        waiting = [a.seat for a in GAME.awaiting(state)]
        if state.stage in ("fight", "counter"):
            talkers = [seat for seat in waiting if not pass_only(seat)]
            f = state.fight
            if (state.stage == "fight" and late_passes and f["card"] in changed and f["helper"] is None
                    and pass_only(f["fighter"]) and f["fighter"] in state.passed and talkers
                    and all(seat != f["fighter"] for seat in talkers)):
                return {"seed": seed, "log": log, "late_passes": late_passes}
            if not talkers:
                seat = waiting[0]
                if len(waiting) == 1 and len(state.passed) > 0:
                    late_passes += 1  # today's engine closed this window at the previous pass
                act(seat, {"type": "pass"})
                continue
            if state.stage == "fight" and f["card"] in changed and late_passes and f["fighter"] in waiting:
                if pass_only(f["fighter"]):  # the fighter, with nothing to play, passes first here
                    act(f["fighter"], {"type": "pass"})
                    continue
            seat = talkers[0]
        else:
            seat = waiting[0]
        legal = GAME.legal(state, seat)
        action = GAME.bot_action(GAME.view(state, seat), legal, rng, "normal")
        if action.get("type") == "buyout":  # the old and new engines pick a buyout's cards differently
            action = next((a for a in legal if a["type"] == "roll"), action)
        act(seat, action)
    return None


def snapshot(seed: int, log: list[dict]) -> dict:
    """In the child: what the old engine shows at the end of the log, and after the other seat's pass."""
    from games.revolution.engine import GAME

    state = GAME.new(PLAYERS, dict(OPTIONS), seed)
    for entry in log:
        GAME.apply(state, entry["seat"], entry["action"])
    f = state.fight
    card = GAME.deck_of("default").cards[f["card"]]
    other = 1 - f["fighter"]
    before = {"levels": list(state.levels), "fighter": f["fighter"], "card": f["card"],
              "opponent_level": card.effect("opponent")["level"], "hands": [list(h) for h in state.hands],
              "other": other}
    events = GAME.apply(state, other, {"type": "pass"})
    after = {"levels": list(state.levels), "stage": state.stage,
             "events": [e.key for e in events]}
    return {"before": before, "after_pass": after}


def child(seeds: int, changed: list[str]) -> None:
    for seed in range(1, seeds + 1):
        game = play(seed, changed)
        if game is not None:
            game.update(snapshot(seed, game["log"]))
            print(json.dumps(game, ensure_ascii=False))
            return
    raise SystemExit("no seed reached a fight against a changed opponent after a late pass")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="6d82c67")
    parser.add_argument("--seeds", type=int, default=500)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    changed = changed_opponents()
    if args.child:
        child(args.seeds, changed)
        return
    with tempfile.TemporaryDirectory(prefix="revolution-old-") as old:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.commit, "games"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        out = subprocess.run([sys.executable, __file__, "--child", "--seeds", str(args.seeds)],
                             cwd=old, env={"PYTHONPATH": old, "PATH": "/usr/bin:/bin"},
                             capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(out.stderr)
        out = out.stdout
    game = json.loads(out)
    fixture = {"made_by": f"tests/data/make_revolution_old_log.py --commit {args.commit}",
               "commit": args.commit, "game": "revolution", "options": OPTIONS, "players": PLAYERS,
               **game}
    OUT.write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: seed {game['seed']}, {len(game['log'])} steps, "
          f"{game['late_passes']} late passes, fight against {game['before']['card']}")


if __name__ == "__main__":
    main()
