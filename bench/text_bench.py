#!/usr/bin/env python3
"""What cleaning and wrapping player text costs per line (issue 13, "Text that cannot pretend").

    .venv/bin/python bench/text_bench.py

Every typed line goes through world.text.clean (commands.parser.parse_line) and every message through
server.render.layout once per kind of terminal. Printed beside each figure, measured in the same
run: clean_controls (what every line cost before: escapes and controls only) and layout at width 0
(no wrapping). No target: the figures show the cost stays in microseconds per line.
"""
from __future__ import annotations

import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.render import layout  # noqa: E402
from world.i18n import t  # noqa: E402
from world.text import clean, clean_controls  # noqa: E402

LINES = {
    "ASCII say": "say hello there, how are you doing tonight at the tavern?",
    "Cyrillic say": "say Привет всем! Кто сегодня играет в Мафию за третьим столом?",
    "emoji say": "say ура 👨\u200d👩\u200d👧 🏳\ufe0f\u200d🌈 👍🏽 1\ufe0f\u20e3 ❤\ufe0f 🇺🇦 победа!",
    "hostile 2000 chars": "say " + ("a\u200b\u0301\u0301\u0301\u0301\U000e0041  " * 250)[:1996],
}


def per_call(fn, arg, number: int) -> float:
    return min(timeit.repeat(lambda: fn(arg), number=number, repeat=5)) / number * 1e6


def main() -> None:
    print(f"{'line':<22}{'clean µs':>12}{'controls only µs':>20}")
    for name, line in LINES.items():
        n = 200 if len(line) > 500 else 5000
        print(f"{name:<22}{per_call(clean, line, n):>12.1f}{per_call(clean_controls, line, n):>20.1f}")
    print(f"\n{'message':<22}{'layout 80 µs':>12}{'width 0 µs':>20}")
    for name, line in LINES.items():
        message = t("ru", "say.other", name="Борис", text=clean(line[4:]))
        n = 200 if len(message) > 500 else 5000
        wrapped = per_call(lambda m: layout(m, 80, True), message, n)
        flat = per_call(lambda m: layout(m, 0, True), message, n)
        print(f"{name:<22}{wrapped:>12.1f}{flat:>20.1f}")


if __name__ == "__main__":
    main()
