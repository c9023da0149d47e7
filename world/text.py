"""Player-typed text is data: clean it before anyone else sees it.

Two levels:

* :func:`clean_controls` takes out what would act on a terminal: escape sequences, C0/C1 control
  characters, bidi overrides. Every typed line gets it on arrival (passwords too: they are
  compared as typed, so nothing more may be taken from them).
* :func:`clean` is for text other players will read (``say``, ``tell``, names, labels...): on top
  of that it drops invisible and format characters, caps the combining marks on one letter
  (Zalgo text), turns every kind of space and line separator into one plain space and collapses
  runs of spaces. Emoji sequences keep the joiners, selectors and tags that make them one picture.

Grapheme clusters and Unicode properties come from the ``regex`` module (its Unicode data is
newer than the interpreter's, so a recent emoji is not mistaken for an unassigned code point).
"""
from __future__ import annotations

import re
import unicodedata

import regex

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

# At most this many combining marks (nonspacing or enclosing) in a row on a letter, counted in the
# decomposed form so "й" typed precomposed or as и + U+0306 counts the same. Three keeps
# Vietnamese (two), polytonic Greek (up to three: ᾇ) and every Cyrillic or Latin letter; Zalgo
# text stacks dozens.
MAX_MARKS = 3

ZWJ = "\u200d"
VS15, VS16 = "\ufe0e", "\ufe0f"
KEYCAP = "\u20e3"
BLACK_FLAG = "\U0001f3f4"
CANCEL_TAG = "\U000e007f"
# A flag's subdivision code in tag letters (gbsct, usca): ISO 3166-2 has at most 3+3 of them.
_FLAG_TAGS = regex.compile(r"[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f")

# Anything clean() has to look at more closely than the two regular expressions above: a mark,
# an invisible or format character, private use, a surrogate, an unassigned code point, any
# space but the plain one, a line or paragraph separator, the blank Braille pattern (a common
# "invisible" name), the emoji components.
_SUSPECT = regex.compile(r"[\p{M}\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cs}\p{Cn}"
                         r"[\p{Zs}--\x20]\p{Zl}\p{Zp}\u2800\p{Emoji_Modifier}\p{Regional_Indicator}]", regex.V1)
_SPACE = regex.compile(r"[\p{Zs}\p{Zl}\p{Zp}\u2800]", regex.V1)
_HIDDEN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cs}\p{Cn}]", regex.V1)
_MARK = regex.compile(r"[\p{Mn}\p{Me}]", regex.V1)
_EMOJI = regex.compile(r"[\p{Emoji}\p{Extended_Pictographic}]", regex.V1)
_PICTOGRAPH = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Presentation}]", regex.V1)
# A grapheme cluster that is (or starts) an emoji: a pictograph, a regional indicator, a keycap.
_EMOJI_CLUSTER = regex.compile(r"(?:(?=[\p{Extended_Pictographic}\p{Regional_Indicator}])|(?=[0-9#*]\uFE0F?\u20E3))\X",
                               regex.V1)
_MARK_RUN = regex.compile(r"[\p{Mn}\p{Me}]{%d,}" % (MAX_MARKS + 1), regex.V1)
_SPACES = re.compile(r" {2,}")


def clean_controls(text: str) -> str:
    """Remove escape sequences, control characters and bidi overrides; keep tabs as spaces."""
    text = text.replace("\t", " ")
    text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub("", text)
    return unicodedata.normalize("NFC", text)


def clean(text: str) -> str:
    """Text another player will read: :func:`clean_controls`, then no invisible or format
    characters outside an emoji, at most :data:`MAX_MARKS` marks in a row on a letter, and one
    plain space wherever any run of spaces or line separators was."""
    return clean_typed(clean_controls(text))


def clean_typed(text: str) -> str:
    """:func:`clean` of a typed line :func:`clean_controls` has cleaned already (the session does
    that first: a password is compared with only its controls removed)."""
    if not text.isascii() and _SUSPECT.search(text):
        decomposed = unicodedata.normalize("NFD", _SPACE.sub(" ", text))
        pieces: list[str] = []
        at = 0
        for m in _EMOJI_CLUSTER.finditer(decomposed):  # only emoji need a look inside
            pieces.append(_clean_plain(decomposed[at:m.start()]))
            pieces.append(_clean_emoji(m.group()))
            at = m.end()
        pieces.append(_clean_plain(decomposed[at:]))
        text = unicodedata.normalize("NFC", "".join(pieces))
    return _SPACES.sub(" ", text)


def clean_line(text: str) -> str:
    return clean(text).strip()


def _clean_plain(text: str) -> str:
    """Decomposed text with no emoji in it: every hidden character goes, long runs of marks are cut."""
    text = _HIDDEN.sub("", text)
    return _MARK_RUN.sub(lambda m: m.group()[:MAX_MARKS], text)


def _clean_emoji(cluster: str) -> str:
    """One emoji grapheme cluster: keep what draws it, drop what hides or stacks on it."""
    if len(cluster) == 1:
        return "" if _HIDDEN.match(cluster) else cluster
    out: list[str] = []
    marks = 0
    i, n = 0, len(cluster)
    while i < n:
        ch = cluster[i]
        prev = out[-1] if out else ""
        if ch in (VS15, VS16):
            # A presentation selector right after an emoji character (❤️, 1️⃣, 🏳️): part of it.
            if prev and _EMOJI.match(prev):
                out.append(ch)
        elif ch == ZWJ:
            # Joins two emoji into one picture (👨‍👩‍👧, 🏳️‍🌈); anywhere else it hides.
            if prev and (_EMOJI.match(prev) or prev in (VS16, CANCEL_TAG) or _is_skin_tone(prev)) \
                    and i + 1 < n and _PICTOGRAPH.match(cluster[i + 1]):
                out.append(ch)
        elif "\U000e0000" <= ch <= "\U000e007f":
            # Tag characters spell a subdivision flag after 🏴 (🏴󠁧󠁢󠁳󠁣󠁴󠁿) and end with the cancel tag;
            # any other run of them is invisible text, dropped whole.
            m = _FLAG_TAGS.match(cluster, i)
            if prev == BLACK_FLAG and m is not None:
                out.append(m.group())
                i = m.end()
                continue
            while i + 1 < n and "\U000e0000" <= cluster[i + 1] <= "\U000e007f":
                i += 1
        elif ch == KEYCAP and (prev in "0123456789#*" and prev
                               or prev == VS16 and len(out) > 1 and out[-2] in "0123456789#*"):
            out.append(ch)
        elif _HIDDEN.match(ch):
            pass  # CGJ, the other variation selectors, soft hyphen, fillers...
        elif _MARK.match(ch):
            if marks < MAX_MARKS:
                out.append(ch)
            marks += 1
        else:
            out.append(ch)
            marks = 0
        i += 1
    return "".join(out)


def _is_skin_tone(ch: str) -> bool:
    return "\U0001f3fb" <= ch <= "\U0001f3ff"


__all__ = ["clean", "clean_line", "clean_controls", "MAX_MARKS"]
