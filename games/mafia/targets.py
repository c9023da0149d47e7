"""Forum Mafia: which seats an order names, and whether an order may touch a seat.

One place for both questions (legality in one place, like python-chess's move generator):

- ``named_seats(s, order)``: every seat an order names, whatever the form it names them in: its
  ``target``, a list of ``seats`` (Раздача), the Бард's further letters (``more``), or a public-role
  name that picks a character (Кровавая баня). Effects that react to "an order on X" (the Обрез
  под столом) ask this, so an order with a list of seats is seen like one with a single target.
- ``seat_refusal(s, seat, ab, target)``: why ``seat``'s ability ``ab`` may not name ``target`` now
  (the ``why`` of ``mafia.error.bad_target``), None when it may. ``abilities.target_refusal`` (a
  single target), ``abilities._targets`` (legal()), ``order_refusal`` (the other seats an order
  names) and the Ход's legal entries all ask it, so a protection written here covers every card
  and every ability that picks seats.
- ``protection(s, seat, ab, target)``: the target's own protections and the public roles' limits
  (Социопат on night 1, Миллионер by day, Алкаш's pal, ...: ``public_roles.refused``).

A Ва-банк's ``mapping`` names no seat: it is a claim about the whole table, made "at any time",
that touches nobody (docs/mafia-protocol.md, Decisions, "Orders that name seats").

The module sits below the engine (no import of the engine's modules or public_roles.py): a caller passes ``refused``, the public roles' refusals of this ability
(``public_roles.refused``), and ``mine``, the seat's abilities (``abilities.abilities``).
"""
from __future__ import annotations

from typing import Any

from .roles import Ability
from .versions import ARG_SEATS

# Abilities whose ``public`` argument picks a character: the living seat signed up under that name
# (Кровавая баня: «может назвать Явную и Тайную роль. Если совпало, наносит этой роли 2 урона»).
# (Биржа труда's ``public`` names a listed role that no seat holds: no seat.)
NAMES_BY_PUBLIC = frozenset({"bloodbath"})


def _is_seat(s: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < s.players


def by_public_name(s: Any, name: Any) -> list[int]:
    """The seats signed up under this public-role name (as Кровавая баня compares it)."""
    if not isinstance(name, str):
        return []
    wanted = name.strip().casefold()
    return [t for t in range(s.players) if s.names[t].strip().casefold() == wanted]


def named_seats(s: Any, order: dict[str, Any]) -> list[int]:
    """Every seat the order names, in order, each once."""
    out: list[int] = []
    target = order.get("target")
    if _is_seat(s, target):
        out.append(target)
    out.extend(t for t in order.get("seats", ()) if _is_seat(s, t))  # Раздача
    out.extend(m[0] for m in order.get("more", ()) if _is_seat(s, m[0]))  # the Бард's letters
    if order.get("ability") in NAMES_BY_PUBLIC:
        out.extend(by_public_name(s, order.get("public")))
    return list(dict.fromkeys(out))


def protection(s: Any, ab: Ability, target: int, refused: dict) -> str | None:
    """The target's protections against this ability of this seat now, as the reason a refusal
    names: ``refused`` (``public_roles.refused``: Социопат, Миллионер, Алкаш, Пиво/Диверсия, the
    Бард's used targets) gives each refused seat with its own reason, so a Почта to the Социопат
    on night 1 is refused as "protected", not as a letter sent already."""
    return refused.get(target)


def taken(s: Any, seat: int, ab: Ability, mine: dict[str, Ability]) -> set:
    """Targets of the seat's own orders this one may not share (``not_with_target``, both ways)."""
    out: set = set()
    for key, order in s.orders[seat].items():
        if key == ab.key:
            continue
        theirs = mine.get(key)
        if key in ab.not_with_target or (theirs is not None and ab.key in theirs.not_with_target):
            out.add(order.get("target"))
    return out


def _rules(s: Any, seat: int, ab: Ability, refused: dict, mine: dict[str, Ability], kind: str,
           shared: set | None = None) -> list[tuple[str, Any]]:
    """The rules that keep living seats from this order, in the order a refusal names them: (reason,
    the seats it refuses); the last, the target's protections (``protection`` names its reason)."""
    out: list[tuple[str, Any]] = []
    if kind == "other" or ab.key == "militia" or (ab.key == "patrol" and s.hospital(seat)):
        out.append(("self", (seat,)))  # (Дозор: «Из Госпиталя нельзя применять на себя»)
    if ab.distinct:
        out.append(("again", s.used_on[seat].get(ab.key, ())))
    if ab.key == "militia" and s.roles[seat] == "killer":  # «кроме себя, Босса и Киллера»
        out.append(("own_team", [x for x in range(s.players) if s.roles[x] in ("boss", "killer")]))
    out.append(("taken", taken(s, seat, ab, mine) if shared is None else shared))
    out.append(("protected", refused))
    return out


def seat_refusal(s: Any, seat: int, ab: Ability, target: Any, refused: dict, mine: dict[str, Ability],
                 kind: str | None = None, shared: set | None = None) -> str | None:
    """Why ``seat``'s ``ab`` may not name the seat ``target`` (a living seat is wanted; ``kind``
    "other" also refuses the user), None when it may. ``shared``: ``taken(...)``, computed once
    by a caller that asks for many targets."""
    if not _is_seat(s, target):
        return "not_a_player"
    if not s.alive[target]:
        return "dead"
    for reason, seats in _rules(s, seat, ab, refused, mine, kind or ab.target, shared):
        if target in seats:
            return protection(s, ab, target, refused) if reason == "protected" else reason
    return None


def _allowed(s: Any, seat: int, ab: Ability, living: list[int], refused: dict, mine: dict[str, Ability],
             kind: str) -> list[int]:
    skip: set = set()
    for _, seats in _rules(s, seat, ab, refused, mine, kind):
        skip.update(seats)
    return [t for t in living if t not in skip] if skip else living


def order_refusal(s: Any, seat: int, ab: Ability, order: dict[str, Any], refused: dict,
                  mine: dict[str, Ability]) -> tuple[int, str] | None:
    """The first seat an order names besides its ``target`` that it may not touch, with the reason:
    each seat of a list is a target of its own (Раздача: other living seats); a character picked
    by its public name may be the user or dead (nothing happens then) but keeps its protections."""
    shared = taken(s, seat, ab, mine)
    for t in order.get("seats", ()):
        why = seat_refusal(s, seat, ab, t, refused, mine, kind="other", shared=shared)
        if why is not None:
            return t, why
    if ab.key in NAMES_BY_PUBLIC:
        for t in by_public_name(s, order.get("public")):
            if t != seat and s.alive[t]:
                why = protection(s, ab, t, refused)
                if why is not None:
                    return t, why
    return None


def allowed_seats(s: Any, seat: int, ab: Ability, living: list[int], refused: dict,
                  mine: dict[str, Ability]) -> list[int]:
    """The living seats ``seat_refusal`` accepts for this ability now (legal())."""
    return _allowed(s, seat, ab, living, refused, mine, ab.target)


def nameable(s: Any, seat: int, ab: Ability, living: list[int], refused: dict,
             mine: dict[str, Ability]) -> list[int] | None:
    """For a legal() template whose arguments pick seats (a list of ``seats``, a public name that
    picks a character): the seats it may name (its ``among``); None for any other template."""
    if ARG_SEATS in ab.args:
        return _allowed(s, seat, ab, living, refused, mine, "other")
    if ab.key in NAMES_BY_PUBLIC:
        return [t for t in living if t == seat or protection(s, ab, t, refused) is None]
    return None


def obsolete(s: Any, seat: int, action: Any, mine: dict[str, Ability], refused_of: Any) -> bool:
    """A logged order that older code took although a seat it lists or names by public name was
    protected (before issue 15: a night-1 Раздача or Кровавая баня on the Социопат): skipped on
    replay (world/upgrades.py), so a table started before the upgrade goes on. ``refused_of(ab)``
    gives ``refused`` for one of the seat's abilities."""
    if not isinstance(action, dict) or action.get("type") != "order":
        return False
    key = action.get("ability")
    ab = mine.get(key) if isinstance(key, str) else None
    if ab is None or not (ARG_SEATS in ab.args or key in NAMES_BY_PUBLIC):
        return False
    seats = action.get("seats")
    order = {"ability": key, "seats": [t for t in seats if _is_seat(s, t)] if isinstance(seats, list) else [],
             "public": action.get("public")}
    refusal = order_refusal(s, seat, ab, order, refused_of(ab), mine)
    return refusal is not None and refusal[1] == "protected"
