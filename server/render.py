"""Turn a localized message into what one kind of terminal shows: wrapped, coloured or not."""
from __future__ import annotations

from functools import lru_cache

from wcwidth import wcswidth, wcwidth

from world.i18n import MARK

ANSI = {"b": "\x1b[1m", "y": "\x1b[33m", "g": "\x1b[32m", "r": "\x1b[31m", "c": "\x1b[36m",
        "m": "\x1b[35m", "d": "\x1b[2m", "0": "\x1b[0m"}


def _char_width(ch: str) -> int:
    w = wcwidth(ch)
    return w if w > 0 else 0


def visible_width(text: str) -> int:
    out, i = 0, 0
    while i < len(text):
        if text[i] == MARK:
            i += 2
            continue
        out += _char_width(text[i])
        i += 1
    return out


def _tokens(line: str) -> list[str]:
    """Split a line into words and the spaces between them, keeping markers with their word."""
    tokens: list[str] = []
    current = ""
    for ch in line:
        if (ch == " ") != (current[-1:] == " ") and current and not current.endswith(MARK):
            tokens.append(current)
            current = ""
        current += ch
    if current:
        tokens.append(current)
    return tokens


def wrap_line(line: str, width: int) -> list[str]:
    if width <= 0 or visible_width(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    indent = indent if indent < width // 2 else 0
    lines: list[str] = []
    current, current_w = "", 0
    for token in _tokens(line):
        w = visible_width(token)
        if token.startswith(" "):
            if current_w + w <= width:
                current, current_w = current + token, current_w + w
            continue
        if current_w + w > width and current.strip():
            lines.append(current.rstrip(" "))
            current, current_w = " " * indent, indent
        while w > width - current_w and w > 0:  # a word longer than the line: cut it
            room = max(1, width - current_w)
            head, rest = _cut(token, room)
            lines.append(current + head)
            current, current_w = " " * indent, indent
            token, w = rest, visible_width(rest)
        current, current_w = current + token, current_w + w
    if current.strip() or not lines:
        lines.append(current.rstrip(" "))
    return lines


def _cut(token: str, room: int) -> tuple[str, str]:
    used, i = 0, 0
    while i < len(token):
        if token[i] == MARK:
            i += 2
            continue
        w = _char_width(token[i])
        if used + w > room:
            break
        used += w
        i += 1
    return token[:i], token[i:]


def apply_style(text: str, color: bool) -> str:
    out: list[str] = []
    i = 0
    styled = False
    while i < len(text):
        ch = text[i]
        if ch == MARK and i + 1 < len(text):
            if color:
                code = text[i + 1]
                out.append(ANSI.get(code, ""))
                styled = code != "0"
            i += 2
            continue
        out.append(ch)
        i += 1
    if color and styled:
        out.append(ANSI["0"])
    return "".join(out)


def layout(text: str, width: int, color: bool, newline: str = "\r\n") -> str:
    """Wrap every line of ``text`` to ``width`` columns, then colour or strip the markers."""
    lines: list[str] = []
    for line in text.split("\n"):
        lines.extend(wrap_line(line, width))
    return newline.join(apply_style(line, color) for line in lines)


@lru_cache(maxsize=256)
def rule(width: int) -> str:
    return "-" * max(10, min(width, 80))


__all__ = ["layout", "visible_width", "wrap_line", "apply_style", "wcswidth"]
