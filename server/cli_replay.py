"""`korchma replay FILE [--lang LANG]`: a game `korchma export` wrote, played back offline.

No server and no database: the file's seed, options and action log go through today's engine and
presenters (world/replay.py), the transcript is printed in LANG, then the outcome the replay comes
to and whether it is the one the file stored. Exit 0 when it is; 1 when it is not (or the
replay stops at a step the rules refuse, or the file cannot be read). When the game's source
differs from the one that exported the file (its digest in the file's ``engine``), a line says
so: the table's pinned revisions keep a replay exact across most changes, and this says where to
look when one does not.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .cli_export import LANGS, transcript_of
from .config import Config


def register(sub: Any) -> None:
    from .cli import common_flags

    summary = "play back a game file from `korchma export` offline: its transcript, and whether the outcome matches"
    p = sub.add_parser("replay", help=summary, description=summary)
    common_flags(p)
    p.add_argument("file", metavar="FILE", help="the JSON file `korchma export` wrote")
    p.add_argument("--lang", default=None, choices=LANGS,
                   help="the transcript's language (default: server.default_language)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, cfg: Config) -> int:
    from world import replay, replay_load

    path = Path(args.file)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        record = replay_load.from_json(data)
    except OSError as err:
        from .startup import os_reason

        print(f"korchma: cannot read {path}: {os_reason(err)}", file=sys.stderr)
        return 1
    except (ValueError, replay_load.BadFile) as err:  # json.JSONDecodeError is a ValueError
        print(f"korchma: {path} is not a game file korchma export wrote: {err}", file=sys.stderr)
        return 1
    problem, transcript = transcript_of(record)
    if transcript is None:
        print(f"korchma: {problem}", file=sys.stderr)
        return 1
    lang = args.lang or cfg.server["default_language"]
    sys.stdout.write(replay.plain_text(replay.messages(transcript), lang))
    for line in summary(data, record, transcript):
        print(line)
    return 0 if transcript.matches else 1


def summary(data: dict[str, Any], record: Any, transcript: Any) -> list[str]:
    """The last lines: which engine, what the replay came to, and whether it is the stored end."""
    from world import replay_load

    out = []
    exported = (data.get("engine") or {}).get("source_sha256")
    today = replay_load.source_digest(record.game)
    if exported and today and exported != today:
        out.append(f"note: the {record.game} engine's source differs from the one that exported this file "
                   f"(Korchma {(data.get('engine') or {}).get('korchma', '?')}); the table's pinned revisions "
                   f"{json.dumps((data.get('engine') or {}).get('pins') or {}, sort_keys=True)} still apply")
    replayed = transcript.outcome
    if transcript.refused is not None:
        step, err = transcript.refused
        out.append(f"replayed: stopped at step {step}, which the rules refuse ({err.key})")
    elif replayed is None:
        out.append(f"replayed: not over after {len(record.log)} steps")
    else:
        out.append(f"replayed: winners {_names(replayed)}; {replayed['reason']} {json.dumps(replayed['params'], sort_keys=True)}")
    stored = record.outcome or {}
    if record.state == "broken":
        out.append("stored: the table broke (state broken): no result to compare with")
        return out
    out.append(f"stored: winners {_names(stored)}; {stored.get('reason')} {json.dumps(stored.get('params'), sort_keys=True)}")
    out.append("outcome matches the stored one" if transcript.matches else "outcome DIFFERS from the stored one")
    return out


def _names(outcome: dict[str, Any]) -> str:
    return ", ".join(str(n) for n in outcome.get("winners") or []) or "none"
