"""Turn a localized message into what one kind of terminal shows: wrapped, coloured or not."""
from __future__ import annotations

import re
from functools import lru_cache

from wcwidth import iter_graphemes, wcswidth, wcwidth

from world.i18n import MARK
from world.text import VS16

ANSI = {"b": "\x1b[1m", "y": "\x1b[33m", "g": "\x1b[32m", "r": "\x1b[31m", "c": "\x1b[36m",
        "m": "\x1b[35m", "d": "\x1b[2m", "0": "\x1b[0m"}


# Continuation lines of a wrapped line start this many columns further in than the line itself,
# so no wrapped text (a player's above all) can start a line at column 0 and pass for a line
# of its own, such as «Мастер шепчет вам: …» (docs/decisions.md, "Wrapped lines").
HANG = 2


@lru_cache(maxsize=4096)
def _char_width(ch: str) -> int:
    w = wcwidth(ch)
    return w if w > 0 else 0


@lru_cache(maxsize=1024)
def _widened_by_vs16(ch: str) -> bool:
    """A narrow character that VS16 turns into a wide emoji (❤ + VS16, 1 + VS16 + keycap)."""
    return _char_width(ch) == 1 and wcswidth(ch + VS16) == 2


def _width_step(ch: str, prev: str) -> int:
    """The columns ``ch`` adds after ``prev``. Each character counts on its own (a terminal that
    does not join an emoji sequence draws every part of it), and VS16 widens the character
    before it: the count is never less than any terminal draws, so the terminal never wraps a
    line before we do (its own wrap would put the rest of the line at column 0)."""
    if ch == VS16:
        return 1 if prev and _widened_by_vs16(prev) else 0
    return _char_width(ch)


def visible_width(text: str) -> int:
    if text.isascii():
        return len(text) - 2 * text.count(MARK)
    out, i, prev = 0, 0, ""
    while i < len(text):
        if text[i] == MARK:
            i += 2
            continue
        out += _width_step(text[i], prev)
        prev = text[i]
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
    """``line`` cut into lines of at most ``width`` columns, at spaces (a longer word is cut
    between its characters). Every continuation line is indented by the line's own indent plus
    :data:`HANG`, or by :data:`HANG` alone where that indent would leave too little room."""
    if width <= 0 or visible_width(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" ")) + HANG
    indent = indent if indent < width // 2 else HANG
    lines: list[str] = []
    current, current_w = "", 0
    for token in _tokens(line):
        w = visible_width(token)
        if token.startswith(" "):
            if current_w + w <= width:
                current, current_w = current + token, current_w + w
            elif current.strip():  # the spaces fill the line: the next word starts the next one
                lines.append(current.rstrip(" "))
                current, current_w = " " * indent, indent
            continue
        if current_w + w > width and current.strip():
            lines.append(current.rstrip(" "))
            current, current_w = " " * indent, indent
        while w > width - current_w and w > 0:  # a word longer than the line: cut it
            head, rest = _cut(token, width - current_w, force=not current.strip())
            if not visible_width(head):  # not even its first character fits after the text here
                lines.append(current.rstrip(" "))
                current, current_w = " " * indent, indent
                continue
            lines.append(current + head)
            current, current_w = " " * indent, indent
            token, w = rest, visible_width(rest)
        current, current_w = current + token, current_w + w
    if current.strip() or not lines:
        lines.append(current.rstrip(" "))
    return lines


_MARKED = re.compile(MARK + ".", re.DOTALL)


def _cut(token: str, room: int, force: bool) -> tuple[str, str]:
    """The longest start of ``token`` at most ``room`` columns wide that ends between two
    user-perceived characters (an emoji sequence or a letter with its accents stays whole),
    and the rest; with ``force``, at least one such character even if it is wider."""
    used, at, prev = 0, 0, ""
    pieces = _MARKED.split(token)
    markers = _MARKED.findall(token)
    for k, piece in enumerate(pieces):
        for cluster in iter_graphemes(piece):
            w = 0
            for ch in cluster:
                w += _width_step(ch, prev)
                prev = ch
            if used + w > room and (used or not force):
                return token[:at], token[at:]
            used += w
            at += len(cluster)
        if k < len(markers):
            at += len(markers[k])
    return token[:at], token[at:]


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
