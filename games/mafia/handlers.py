"""Forum Mafia: the secret roles' and common abilities' night handlers, one small function per
ability key, called at its pipeline step (``Ability.step`` in roles.py; 4.6 #7).

Public roles' handlers are in public_handlers.py, version A/B cards' in cards.py.
"""
from __future__ import annotations


from ..base import Event
from . import targets as T
from . import versions as V
from .night import handler, _jail, _Night
from .state import _add, corresponding, EVERYONE
from .roles import Ability, LAW, LIFE, MAFIA


# -- persona step


@handler("slander")
def _slander(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    if not V.no_gain(n.s, o["target"]):  # (A/B: not on the Маньяк, see Двойная жизнь)
        _add(n.s.personas[o["target"]], o["persona"], 3)  # Клевета: +3, tonight too


@handler("disguise")
def _disguise(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    _add(n.s.temp[seat], o["persona"], 20)  # Маскировка: +20 tonight only


@handler("disinformation")
def _disinformation(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    if not V.no_gain(n.s, o["target"]):
        _add(n.s.temp[o["target"]], "genius", 2 * n.s.number())
    n.disinfo.append((seat, o["target"]))


# -- attack step


@handler("pistol", "revolver", "legacy", "assault")
def _one(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.attack(seat, o["target"], 1, ab.key)


@handler("tommygun")
def _tommygun(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.attack(seat, o["target"], 2, ab.key)
    n.public.append(Event(EVERYONE, "mafia.tommygun", {"seat": seat}))


@handler("sniper")
def _sniper(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    if n.s.roles[o["target"]] == o["role"]:
        n.attack(seat, o["target"], 2, ab.key)


@handler("punishment")
def _punishment(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    if n.s.roles[t] == o["role"] or n.s.faction(t) == LAW:
        n.attack(seat, t, 2, ab.key)


@handler("sabotage")
def _sabotage(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    if n.seen(seat, t).get(o["persona"], 0) >= V.rules(n.s).sabotage:
        n.attack(seat, t, 1, ab.key)


@handler("sawnoff")
def _sawnoff(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    hit: list[int] = []
    for user, uab, order in n.effective:
        if (uab.key != "mail" and user != seat and user not in hit and s.faction(user) != MAFIA
                and seat in T.named_seats(s, order)):  # a list of seats or a public name counts too
            hit.append(user)
    for user in hit:
        n.attack(seat, user, 1, ab.key)


@handler("bloodbath")
def _bloodbath(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    name = o["public"].strip().casefold()
    assault = next((order["target"] for u, a, order in n.effective if u == seat and a.key == "assault"), None)
    for t in range(s.players):
        if s.alive[t] and s.names[t].strip().casefold() == name and s.roles[t] == o["role"] and t != assault:
            n.harm[t] = n.harm.get(t, 0) + 2  # not an attack (4.6 #7)


# -- protect / kidnap step


@handler("cover")
def _cover(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.covered.add(o["target"])


@handler("patrol")
def _patrol(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.patrolled[o["target"]] = n.patrolled.get(o["target"], 0) + 1


@handler("paranoia")
def _paranoia(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.paranoid.add(seat)


@handler("kidnap")
def _kidnap(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    n.kidnap.setdefault(o["target"], []).append(seat)


# -- grants (effects on later phases)


@handler("militia")
def _militia(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    n.s.revolver[t] = n.s.index + 2
    n.tell(t, "mafia.armed", {"seat": t})


@handler("ban")
def _ban(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    for role, ability in o["bans"]:
        if s.roles[t] == role:
            s.banned[t].setdefault(s.index + 2, set()).add(ability)
            n.tell(t, "mafia.banned", {"seat": t, "ability": ability})


@handler("propaganda")
def _propaganda(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t, day = n.s, o["target"], n.s.index + 1
    votes = s.extra_votes.setdefault(day, {})
    votes[t] = votes.get(t, 0) + V.rules(s).propaganda_votes
    s.propaganda.setdefault(day, {})[t] = seat


# -- jail step


@handler("arrest")
def _arrest(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    if (s.alive[t] and s.roles[t] == o["role"] and seat not in n.disrupted
            and corresponding(s, t) >= V.rules(s).arrest):
        _jail(s, t, LIFE, n.public)


@handler("bribe")
def _bribe(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    if s.alive[t]:
        _jail(s, t, s.index + 2, n.public)  # the next day and night


# -- regeneration


@handler("healing")
def _healing(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    rs = V.rules(s)
    if s.alive[seat] and s.hp[seat] == 1 and (s.roles[seat] in rs.heal_exempt
                                               or corresponding(s, seat) >= rs.heal[s.faction(seat)]):
        s.hp[seat] += 1


# -- information


@handler("mastermind", "own_hands")
def _two_personas(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    found = [n.draw(seat, t) for _ in range(1 if n.s.roles[seat] == "traitor" else 2)]  # A: the Предатель's, 1
    n.tell(seat, "mafia.personas", {"seat": seat, "ability": ab.key, "target_seat": t,
                                    "personas": [p for p in found if p is not None]})


@handler("informants", "stalking")
def _one_persona(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    found = n.draw(seat, t, exclude="civilian" if ab.key == "stalking" else None)
    n.tell(seat, "mafia.personas", {"seat": seat, "ability": ab.key, "target_seat": t,
                                    "personas": [found] if found is not None else []})


@handler("search")
def _search(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    seen = n.seen(seat, t)
    names = o["personas"] if "personas" in o else [o["persona"]]  # A: one name
    count = sum(1 for name in names if seen.get(name, 0) > 0)
    result = {"count": count} if V.rules(n.s).search == "count" else {"found": count > 0}  # A/B: yes/no
    n.tell(seat, "mafia.search", {"seat": seat, "ability": ab.key, "target_seat": t,
                                  "personas": list(names), **result})


@handler("autopsy")
def _autopsy(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    n.tell(seat, "mafia.autopsy", {"seat": seat, "ability": ab.key, "target_seat": t, "role": n.s.roles[t]})


@handler("informer")
def _informer(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    correct = s.roles[t] == o["role"]
    if V.rules(s).informer_distinct_roles:
        s.named[seat].append(o["role"])
    if correct:
        s.plans[seat] += 1
    n.tell(seat, "mafia.guess", {"seat": seat, "ability": ab.key, "target_seat": t, "role": o["role"],
                                 "correct": correct})


@handler("jury")
def _jury(n: _Night, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    correct = s.roles[t] == o["role"]
    if correct:
        votes = s.extra_votes.setdefault(s.index + 1, {})
        votes[t] = votes.get(t, 0) + V.rules(s).jury_votes
    if V.rules(s).jury_learns:  # (A: the Гражданский is not told)
        n.tell(seat, "mafia.guess", {"seat": seat, "ability": ab.key, "target_seat": t, "role": o["role"],
                                     "correct": correct})
