"""Forum Mafia: which abilities a seat has now, whether it may use one, and on whom.

``abilities`` (cached per role, public role, Наган and loot), ``_why_not`` (the one reason an
ability is refused in this phase), target checks (one place with targets.py), order arguments
(``ARG_CHECKS``: version A's extra arguments register here from cards.py), and whether a seat
can act at all in this phase (``_can_act``, which decides whom the phase awaits).
"""
from __future__ import annotations

from typing import Any, Callable

from ..base import Action
from . import public_roles as P
from . import roles as R
from . import targets as T
from . import versions as V
from .state import _err, MafiaState, NAME_LIMIT
from .roles import Ability


def abilities(s: MafiaState, seat: int) -> dict[str, Ability]:
    """Every ability the seat has now (secret role, common, public role, granted Наган).
    The dict is shared (cached): do not change it."""
    public = R.PUBLIC_ROLES[s.public[seat]]
    armed = s.revolver[seat] == s.index
    looted = P.looted(s, seat)  # Мародер: public-role abilities taken from the dead
    key = (s.version, s.roles[seat], id(public), armed, looted)
    found = _ABILITIES.get(key)
    if found is None:
        rs = V.RULESETS[s.version]
        found = dict(rs.common)
        for extra in looted:
            found.update(R.PUBLIC_ROLES[extra].abilities)
        found.update(public.abilities)
        found.update(rs.abilities[s.roles[seat]])
        if armed and "revolver" not in found:
            found["revolver"] = R.ROLE_ABILITIES["officer"]["revolver"]
        _ABILITIES[key] = found
    return found


_ABILITIES: dict[tuple, dict[str, Ability]] = {}


def _why_not(s: MafiaState, seat: int, ab: Ability) -> str | None:
    """Why the seat cannot use the ability in this phase at all (an error name), or None."""
    if ab.phase != "any" and ab.phase != s.phase:
        return "wrong_phase"
    if s.jailed(seat) and s.misere[seat] != s.index and "jail" not in ab.flags and not (ab.key == "vote" and R.PUBLIC_ROLES[s.public[seat]].vote_from_jail) \
            and not P.jail_ok(s, seat, ab):
        return "jailed"
    if s.hospital(seat) and s.misere[seat] != s.index and ab.secret and "hospital" not in ab.flags \
            and not P.hospital_ok(s, seat):
        return "hospital"  # (A: a Мизер played last night lifts Hospital and Jail tonight)
    if ab.once and ab.key in s.used[seat]:
        return "used_up"
    if ab.key == "mail" and s.mail_used[seat] >= R.MAIL_LIMIT[s.faction(seat)] and not P.unlimited_mail(s, seat):
        return "used_up"
    if ab.not_first and s.index == 0:
        return "not_first_night"
    if s.night() and ab.key in s.banned[seat].get(s.index, ()):
        return "banned"
    if ab.key == "legacy" and not any(s.roles[x] == "killer" and (not s.alive[x] or s.jailed(x) or P.spirit(s, x))
                                      for x in range(s.players)):
        return "not_now"
    if ab.key == "card" and (s.cards_off or s.cards[seat] < 1):  # A: the Ход needs a card
        return "cards_off" if s.cards_off else "no_cards"
    for other in ab.not_with:
        if other in s.orders[seat]:
            return "exclusive"
    return P.why_not(s, seat, ab)  # public roles (Spirit, Хакер's day 4, ...)


def _target_ok(s: MafiaState, seat: int, ab: Ability, target: Any) -> bool:
    return target_refusal(s, seat, ab, target) is None


def target_refusal(s: MafiaState, seat: int, ab: Ability, target: Any) -> str | None:
    """Why ``target`` may not be given ``ab`` now (the ``why`` of ``mafia.error.bad_target``),
    None when it may: the one reason that applies, so a refusal names it instead of every rule."""
    kind = ab.target
    if kind == "none":
        return None if target is None else "no_target"
    if kind == "self":
        return None if target == seat else "not_self"
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < s.players:
        return "not_a_player"
    if kind == "dead":  # (Улики: only a character who died last night)
        if s.alive[target]:
            return "alive"
        return None if ab.key != "evidence" or s.dead_at[target] == s.index - 1 else "died_before"
    return T.seat_refusal(s, seat, ab, target, P.refused(s, seat, ab), abilities(s, seat))  # (targets.py)


def _targets(s: MafiaState, seat: int, ab: Ability, living: list[int], refused: dict) -> list[Any]:
    """Every target ``_target_ok`` accepts, computed at once (for legal())."""
    kind = ab.target
    if kind == "none":
        return [None]
    if kind == "self":
        return [seat] if _target_ok(s, seat, ab, seat) else []
    if kind == "dead":
        return [t for t in range(s.players) if not s.alive[t]
                and (ab.key != "evidence" or s.dead_at[t] == s.index - 1)]
    return T.allowed_seats(s, seat, ab, living, refused, abilities(s, seat))  # target_refusal's rules


def _other_not_with(s: MafiaState, seat: int, ab: Ability) -> bool:
    """An ordered ability that excludes this one in the whole phase (``not_with``, the other way)."""
    mine = abilities(s, seat)
    return any(ab.key in mine[k].not_with for k in s.orders[seat] if k in mine)


def _check_args(s: MafiaState, ab: Ability, action: Action, seat: int = -1) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for arg in ab.args:
        if arg == R.ARG_ROLE or arg == R.ARG_ROLE_NONLAW:
            role = action.get("role")
            rs = V.rules(s)
            allowed = rs.non_law if arg == R.ARG_ROLE_NONLAW else rs.roles
            if role not in allowed:
                raise _err("bad_arg", name="role", value=role)
            if rs.grey_mass and s.index == 0 and role in ("civilian", "vigilante"):  # A/B: Серая масса
                raise _err("grey_mass", ability=ab.key, role=role)
            if ab.key == "informer" and rs.informer_distinct_roles and role in s.named[seat]:
                raise _err("already_named", ability=ab.key, role=role)  # A: never one role twice
            out["role"] = role
        elif arg == R.ARG_PERSONA:
            persona = action.get("persona")
            if persona not in R.PERSONAS:
                raise _err("bad_arg", name="persona", value=persona)
            out["persona"] = persona
        elif arg == R.ARG_PERSONAS2:
            names = action.get("personas")
            if (not isinstance(names, (list, tuple)) or len(names) != 2 or names[0] == names[1]
                    or any(n not in R.PERSONAS for n in names)):
                raise _err("bad_arg", name="personas", value=names)
            out["personas"] = list(names)
        elif arg == R.ARG_PUBLIC:
            name = action.get("public")
            if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT:
                raise _err("bad_arg", name="public", value=name)
            out["public"] = name
        elif arg == R.ARG_BANS:
            bans = action.get("bans")
            ok = isinstance(bans, (list, tuple)) and len(bans) == 3
            pairs: list[list[str]] = []
            if ok:
                for pair in bans:
                    if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or pair[0] not in V.rules(s).bannable
                            or pair[1] not in V.rules(s).bannable[pair[0]]):
                        ok = False
                        break
                    pairs.append([pair[0], pair[1]])
                ok = ok and len({p[0] for p in pairs}) == 3
            if not ok:
                raise _err("bad_arg", name="bans", value=bans)
            out["bans"] = pairs
        elif arg in ARG_CHECKS:  # the version-A arguments (cards.py)
            out.update(ARG_CHECKS[arg](s, seat, ab, action))
    return out


def _is_seat(s: MafiaState, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < s.players


def _json_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (int, str))


def _can_act(s: MafiaState, seat: int) -> bool:
    """A living seat with at least one order it could give in this phase (the phase awaits it).
    Cached per phase: within a phase only an "any time" ability changes it (_any_time clears it)."""
    cache = s.actors
    if cache is None or cache[0] != s.index:
        cache = s.actors = (s.index, [_can_act_now(s, x) for x in range(s.players)])
    return cache[1][seat] or bool(s.orders[seat])


def _can_act_now(s: MafiaState, seat: int) -> bool:
    if not s.alive[seat] or s.phase == "over":
        return False
    for key, ab in abilities(s, seat).items():
        if _why_not(s, seat, ab) is None:
            return True
    return False


ARG_CHECKS: dict[str, Callable[..., dict[str, Any]]] = {}
