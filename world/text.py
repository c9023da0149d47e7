"""Player-typed text is data: clean it before anyone else sees it."""
from __future__ import annotations

import re
import unicodedata

# Whole escape sequences first (so "ESC[31m" disappears, not just the ESC):
# CSI (ESC [ or C1 0x9B) ... final byte; OSC/DCS/PM/APC/SOS (ESC ] P ^ _ X or C1) ... BEL or ST;
# and two-byte ESC sequences.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[\x20-\x3f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]P^_X]|[\x90\x98\x9d\x9e\x9f]).*?(?:\x07|\x1b\\|\x9c|$)"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?",
    re.DOTALL,
)
# C0 and C1 control characters, DEL, and the bidi embedding/override/isolate characters.
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def clean(text: str) -> str:
    """Remove escape sequences, control characters and bidi overrides; keep tabs as spaces."""
    text = text.replace("\t", " ")
    text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub("", text)
    return unicodedata.normalize("NFC", text)


def clean_line(text: str) -> str:
    return clean(text).strip()
