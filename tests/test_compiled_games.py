"""The compiled copies of the Coup engine and bots (setup.py, games/compiled.py): used when current,
never when stale, and playing exactly as their sources do.

Each check runs a fresh interpreter, because which copy runs is decided once, at import.
"""
from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.compiled import PURE_ENV, implementation
from games.coup import bot, engine

ROOT = Path(__file__).resolve().parent.parent
COUP = ROOT / "games" / "coup"
BUILT = {name: [COUP / f"{name}{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES
                if (COUP / f"{name}{suffix}").exists()] for name in ("engine", "bot")}
NOT_BUILT = "the Coup engine is not compiled here (no C compiler or Cython at install: see setup.py)"

# Plays seeded games at both levels, all sizes and options, and prints which copies ran and one
# digest of everything the callers see: awaits, legal lists, seat and Master views, events.
PLAY = """
import hashlib, random
from games.base import MASTER
from games.compiled import implementation
from games.coup import GAME, bot, engine
options = [{"role": "advisor"}, {"role": "investigator"},
           {"role": "advisor", "challenge_order": "first"},
           {"role": "investigator", "challenge_order": "first", "examine": "always_swap"}]
digest = hashlib.sha256()
for seed in range(GAMES):
    for level in ("easy", "normal"):
        rng = random.Random(seed)
        state = GAME.new(2 + seed % 9, options[seed % 4], seed)
        digest.update(repr(GAME.start_events(state)).encode())
        while GAME.outcome(state) is None:
            waits = GAME.awaiting(state)
            seat = waits[int(rng.random() * len(waits))].seat
            legal, view = GAME.legal(state, seat), GAME.view(state, seat)
            digest.update(repr((waits, legal, view)).encode())
            if rng.random() < 0.05:
                digest.update(repr(GAME.view(state, MASTER)).encode())
            events = GAME.apply(state, seat, GAME.bot_action(view, legal, rng, level))
            digest.update(repr(events).encode())
        digest.update(repr(GAME.outcome(state)).encode())
print(implementation(engine), "|", implementation(bot), "|", digest.hexdigest())
"""


def run(code: str, *, pure: bool = False, path: Path = ROOT) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if pure:
        env[PURE_ENV] = "1"
    env["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-c", code], cwd=path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().split(" | ")


def test_the_coup_engine_and_bots_run_compiled():
    if os.environ.get(PURE_ENV):
        pytest.skip(f"{PURE_ENV} is set: the sources run on purpose")
    assert BUILT["engine"] and BUILT["bot"], NOT_BUILT + "; `make` builds it"
    assert implementation(engine) == "compiled", "the compiled engine is older than engine.py: run `make`"
    assert implementation(bot) == "compiled", "the compiled bots are older than bot.py: run `make`"
    assert engine.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_compiled_and_source_play_the_same_games():
    if not (BUILT["engine"] and BUILT["bot"]):
        pytest.skip(NOT_BUILT)
    code = PLAY.replace("GAMES", "150")
    compiled = run(code)
    source = run(code, pure=True)
    assert compiled[:2] == ["compiled", "compiled"]
    assert source[:2] == ["source (switched off)", "source (switched off)"]
    assert compiled[2] == source[2]


WHICH = ("from games.compiled import implementation\n"
         "from games.coup import bot, engine, GAME\n"
         "GAME.new(3, None, 1)\n"
         "print(implementation(engine), '|', implementation(bot), '|', engine._bots is bot)")


def copy_of_games(tmp_path: Path) -> Path:
    """games/ with its compiled copies, in a folder of its own (first on the path in run())."""
    shutil.copytree(ROOT / "games", tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "games" / "coup"


def test_an_edited_source_runs_instead_of_its_stale_compiled_copy(tmp_path):
    if not (BUILT["engine"] and BUILT["bot"]):
        pytest.skip(NOT_BUILT)
    coup = copy_of_games(tmp_path)
    assert run(WHICH, path=tmp_path) == ["compiled", "compiled", "True"]
    with open(coup / "bot.py", "a") as source:
        source.write("\n# an edit after the build\n")
    # The engine stays compiled and plays with the bots' source (the module the package loaded).
    assert run(WHICH, path=tmp_path) == ["compiled", "source (stale)", "True"]
    for digest in coup.glob("engine*.source-sha256"):
        digest.unlink()
    assert run(WHICH, path=tmp_path) == ["source (stale)", "source (stale)", "True"]


def test_without_compiled_copies_the_sources_run(tmp_path):
    coup = copy_of_games(tmp_path)
    for built in [*coup.glob("*.so"), *coup.glob("*.pyd"), *coup.glob("*.source-sha256")]:
        built.unlink()
    assert run(WHICH, path=tmp_path) == ["source", "source", "True"]
