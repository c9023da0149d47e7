#!/usr/bin/env python3
"""What aliases cost per typed line (issue 17, "Your own shortcuts").

    .venv/bin/python bench/alias_bench.py

commands.parse now looks a line's first word up in the account's aliases before parsing it.
Printed beside each figure, measured in the same run: what commands.parse did before aliases
(parse_line among the session's commands) on the line that runs (for the chain, its `say`). Rows: an account without aliases; one with the most (50)
typing a line that is no alias; and a line that goes through a chain of 5 aliases to `say`.
No target: the figures show the cost stays in microseconds per line.
"""
from __future__ import annotations

import sys
import timeit
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from commands import load_all  # noqa: E402,F401  (registers every command)
from commands import parse  # noqa: E402
from commands.parser import available, parse_line  # noqa: E402
from world.aliases import AliasBooks  # noqa: E402


def session_with(book: dict[str, str]) -> SimpleNamespace:
    books = AliasBooks()
    books.books[1] = {key: (key, text) for key, text in book.items()}
    books._texts[1] = dict(book)
    world = SimpleNamespace(aliases=books, tables=None)
    return SimpleNamespace(world=world, account=SimpleNamespace(id=1, role="player"), max_line=2000)


def per_call(fn, number: int = 5000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=7)) / number * 1e6


def main() -> None:
    many = {f"s{i}": f"say shortcut {i}" for i in range(45)}
    chain = {"c0": "say deep", **{f"c{i}": f"c{i - 1}" for i in range(1, 5)}}
    rows = [
        ("no aliases, say", session_with({}), "say hello there", "say hello there"),
        ("50 aliases, say", session_with({**many, **chain}), "say hello there", "say hello there"),
        ("50 aliases, chain of 5", session_with({**many, **chain}), "c4 hello there", "say deep hello there"),
    ]
    print(f"{'line':<26}{'parse µs':>12}{'before µs':>16}")
    for name, session, line, runs in rows:
        with_aliases = per_call(lambda: parse(session, line))
        before = per_call(lambda: parse_line(runs, available(session)))  # commands.parse before
        print(f"{name:<26}{with_aliases:>12.1f}{before:>16.1f}")


if __name__ == "__main__":
    main()
