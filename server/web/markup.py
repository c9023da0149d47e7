"""What a web frame's ``text`` holds: the localized text, HTML-escaped, with the catalogs' style
marks (world/i18n.py MARK + a code) as ``<span class="k-CODE">`` runs.

Everything that is not a style mark is escaped (``& < > "``), so no player's text can become
markup in the page: the page may set a line's ``innerHTML`` from it, and a client that wants plain
text drops the tags and unescapes the four entities. The codes are the ones telnet shows as ANSI
colour (server/render.py ANSI): b bold, y yellow, g green, r red, c cyan, m magenta, d dim; 0 ends
the run. With colour off (``color off``) the marks are dropped and no span is made.
"""
from __future__ import annotations

import html

from world.i18n import MARK

from ..render import ANSI

#: Style codes a span may carry (server/render.py ANSI, less the reset).
CODES = frozenset(code for code in ANSI if code != "0")


def to_html(text: str, color: bool) -> str:
    """``text`` (marks and all) as escaped HTML, line by line (``\n`` between them): each line
    is whole in itself, every span closed within it, as telnet resets the colour at each line's
    end (server/render.py layout), so a page may show each line as an element of its own."""
    return "\n".join(_line_html(line, color) for line in text.split("\n"))


def _line_html(text: str, color: bool) -> str:
    """One line: a span per styled run; a new mark closes the run before it, as a new ANSI
    colour replaces the old one."""
    out: list[str] = []
    open_span = False
    pieces = text.split(MARK)
    out.append(html.escape(pieces[0], quote=True))
    for piece in pieces[1:]:
        code, rest = piece[:1], piece[1:]
        if color:
            if open_span:
                out.append("</span>")
                open_span = False
            if code in CODES:
                out.append(f'<span class="k-{code}">')
                open_span = True
        out.append(html.escape(rest, quote=True))
    if open_span:
        out.append("</span>")
    return "".join(out)
