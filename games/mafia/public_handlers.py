"""Forum Mafia: what the 34 public roles (public_roles.py) do when a phase resolves: their
order handlers (registered in night.HANDLERS) and the pipeline hooks (before damage, on damage,
at the end of the night, at the start and end of the day), as docs/mafia-protocol.md "Hook
points" lists them. Who they are, and what they change in the rules' questions (the Hospital,
refusals, stalemate), is public_roles.py.
"""
from __future__ import annotations

from typing import Any

from ..base import Audience, Event
from . import roles as R
from .abilities import abilities
from .night import AFTER_STEP, ANY_TIME, DAMAGE_HOOKS, _die, handler, _jail, tell_blocked
from .public_roles import _a, _abuse, ATTACK_FREE, _free, immortal, looted, _pub, public_key, ROLES, _vip_target
from .state import draw_persona, EVERYONE
from .roles import Ability, LAW, LIFE


# ---------------------------------------------------------------------------------- handlers


def _announce(n: Any, seat: int, ab: Ability, o: dict) -> None:
    params: dict[str, Any] = {"seat": seat, "ability": "beer" if ab.key == "fake_beer" else ab.key}
    if isinstance(o.get("target"), int):
        params["target_seat"] = o["target"]
    n.public.append(Event(EVERYONE, "mafia.announced", params))


def _extra_votes(s: Any, day: int, target: int, votes: float) -> None:
    box = s.extra_votes.setdefault(day, {})
    box[target] = box.get(target, 0) + votes


@handler("indictment")
def _indictment(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # Обвинительный приговор: +5 votes today (A: +3)
    _extra_votes(n.s, n.s.index, o["target"], 3 if _a(n.s) else 5)


@handler("detention")
def _detention(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # the block itself is applied by day_start


@handler("binge")
def _binge(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # Попойка: the next night and day
    _pub(n.s, "pals").append([seat, o["target"], n.s.index + 1, n.s.index + 2])


@handler("beer")
def _beer(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)
    _pub(n.s, "beer").setdefault(n.s.index + 1, []).append(o["target"])


@handler("fake_beer")
def _fake_beer(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # Суррогат: announced as Пиво, does nothing
    n.s.used_on[seat].setdefault("beer", []).append(o["target"])


@handler("reportage")
def _reportage(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # after the next night: one persona of the target
    _pub(n.s, "press").setdefault(n.s.index + 1, []).append([seat, o["target"]])


@handler("diversion")
def _diversion(n: Any, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    _announce(n, seat, ab, o)
    if s.alive[t] and s.public[t] != "pensioner" and not s.hospital(t) and not s.jailed(t):
        s.hp[t] -= 1  # Диверсия: 1 damage (Пенсионер: immune)
        if s.hp[t] <= 0:
            _die(s, t)


@handler("cooking")
def _cooking(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # the target lies in Hospital next night
    _pub(n.s, "cooked").setdefault(n.s.index + 1, []).append(o["target"])


@handler("accusation")
def _accusation(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # Обвинение: about the next day's vote
    _pub(n.s, "accused").setdefault(n.s.index + 2, {})[o["target"]] = seat


@handler("raid")
def _raid(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # Маски-шоу: Jail for the next night and day
    if n.s.alive[o["target"]]:
        _jail(n.s, o["target"], n.s.index + 2, n.public)


@handler("riot")
def _riot(n: Any, seat: int, ab: Ability, o: dict) -> None:
    _announce(n, seat, ab, o)  # Бунт: +3 votes next day (A: +1.5)
    _extra_votes(n.s, n.s.index + 2, o["target"], 1.5 if _a(n.s) else 3)


@handler("hack")
def _hack(n: Any, seat: int, ab: Ability, o: dict) -> None:
    t = o["target"]
    n.tell(seat, "mafia.dossier", {"seat": seat, "ability": ab.key, "target_seat": t, "role": n.s.roles[t]})


@handler("seance")
def _seance(n: Any, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    for x in range(s.players):  # one persona of each character who died last night
        if not s.alive[x] and s.dead_at[x] == s.index - 1:
            found = draw_persona(s, x)
            n.tell(seat, "mafia.personas", {"seat": seat, "ability": ab.key, "target_seat": x,
                                            "personas": [found] if found is not None else []})


@handler("aura")
def _aura(n: Any, seat: int, ab: Ability, o: dict) -> None:
    s = n.s
    uses = _pub(s, "aura")
    uses[seat] = uses.get(seat, 0) + 1
    dead = [x for x in range(s.players) if not s.alive[x]]
    law = {x for x in dead if s.faction(x) == LAW}
    if dead and s.rng.random() < 0.5:  # one random dead character's side is flipped
        law ^= {s.rng.choice(dead)}
    n.tell(seat, "mafia.aura", {"seat": seat, "ability": ab.key, "count": len(law)})


@handler("acquittal")
def _acquittal(n: Any, seat: int, ab: Ability, o: dict) -> None:
    n.acquittal = seat  # read by execute()


@handler("open_vote")
def _open_vote(n: Any, seat: int, ab: Ability, o: dict) -> None:
    vote = n.s.orders[seat].get("vote")
    if vote is not None:  # "X votes for Y", without the weight (#4)
        n.public.append(Event(EVERYONE, "mafia.open_vote", {"seat": seat, "target_seat": vote["target"]}))


@handler("labour_exchange")
def _labour_exchange(n: Any, seat: int, ab: Ability, o: dict) -> None:
    n.s.pub.setdefault("switch", []).append([seat, public_key(o["public"])])  # at the end of the day


@handler("abuse", "compromise")
def _nothing(n: Any, seat: int, ab: Ability, o: dict) -> None:
    pass  # read where they act (jail_ok/day_start, the Сплетник's vote bonus)


@handler("somersault")
def _somersault(n: Any, seat: int, ab: Ability, o: dict) -> None:
    n.__dict__.setdefault("somersault", set()).add(seat)  # Кульбит: no damage from attacks tonight


@handler("graverobbing")
def _graverobbing(n: Any, seat: int, ab: Ability, o: dict) -> None:
    s, t = n.s, o["target"]
    got = _pub(s, "looted").setdefault(seat, [])
    for key in (s.public[t],) + looted(s, t):
        if key != R.OTHER and key not in got and R.PUBLIC_ROLES[key].abilities:
            got.append(key)
    if not got:
        del s.pub["looted"][seat]
    n.public.append(Event(EVERYONE, "mafia.looted", {"seat": seat, "target_seat": t, "key": s.public[t]}))


def _exhumation(s: Any, seat: int, order: dict, events: list) -> None:
    """Эксгумация (any time, once): the dead target's secret role, at once."""
    t = order["target"]
    params = {"seat": seat, "ability": "exhumation", "target_seat": t, "role": s.roles[t]}
    s.knowledge[seat].append({"index": s.index, "key": "mafia.autopsy", **params})
    events.append(Event(Audience.only(seat), "mafia.autopsy", params))


# ---------------------------------------------------------------------------------- pipeline hooks


def _bard_used(n: Any) -> None:
    """The Бард's targets are spent (never the same target twice per game)."""
    s = n.s
    for seat, ab, order in n.effective:
        if ab.key == "mail" and s.public[seat] == "bard":
            used = s.used_on[seat].setdefault("mail", [])
            used.extend([order["target"]] + [m[0] for m in order.get("more", ())])


def _jail_for_life(s: Any, seat: int, public: list) -> None:
    if s.alive[seat] and (s.jail[seat] is None or s.jail[seat] < LIFE):
        s.jail[seat] = LIFE  # even a Воин or Тюремщик
        public.append(Event(EVERYONE, "mafia.jailed", {"seat": seat, "until": "life"}))


def before_damage(n: Any) -> None:
    """Step 4, before Прикрытие: Горец, Кульбит, Алкаш's pals, Пенсионер (Обрез, Уважение)."""
    s = n.s
    safe = n.__dict__.get("somersault", ())
    pals = s.pub.get("pals", ())
    for target in sorted(set(n.attacks) | set(n.harm) | set(n.fate)):
        if not s.alive[target]:
            continue
        key = s.public[target]
        attacks = n.attacks.get(target, [])
        if immortal(s, target):  # Бессмертие: no damage on nights 1-2
            for a in attacks:
                a[1] = 0
            n.harm.pop(target, None)
            n.fate.discard(target)  # (A: Рука судьбы is not an attack either)
        if target in safe:
            for a in attacks:
                a[1] = 0
        if pals:
            friends = {pal for d, pal, first, last in pals if d == target and first <= s.index <= last}
            attacks[:] = [a for a in attacks if a[0] not in friends]
        if key == "pensioner":
            attacks[:] = [a for a in attacks if a[2] != "sawnoff"]  # immune to Обрез
            for source in sorted({a[0] for a in attacks}):  # Уважение
                if source != target:
                    _jail_for_life(s, source, n.public)


def late_damage(n: Any, target: int, attacks: list, total: Any) -> Any:
    """After Дозор, with Паранойя (an engine DAMAGE_HOOK, run first): Пиво, -1 from each Пистолет
    and Наган on the target."""
    beer = n.s.pub.get("beer")
    if beer and target in beer.get(n.s.index, ()):
        for a in attacks:
            if a[2] in ATTACK_FREE and a[1] > 0:
                a[1] -= 1
                total -= 1
    return total


def _spirit_news(n: Any) -> None:
    for seat, index in n.s.pub.get("spirits", {}).items():
        if index == n.s.index and n.s.alive[seat]:
            n.public.append(Event(EVERYONE, "mafia.spirit", {"seat": seat}))


def night_end(n: Any) -> None:
    """Step 8 (information, tonight's personas): Журналист; then the Судья's trim; effects end."""
    s = n.s
    _bard_used(n)
    for seat, t in s.pub.get("press", {}).pop(s.index, ()):
        if s.alive[seat]:
            found = n.draw(None, t)  # a day ability's result: Срыв (night abilities) never touches it
            n.tell(seat, "mafia.personas", {"seat": seat, "ability": "reportage", "target_seat": t,
                                            "personas": [found] if found is not None else []})
    for t in s.pub.get("trim", {}).pop(s.index, ()):
        if s.alive[t] and s.hp[t] > 2:
            s.hp[t] = 2
    for name in ("beer", "cooked"):
        s.pub.get(name, {}).pop(s.index, None)
    if s.pub.get("pals"):
        s.pub["pals"] = [p for p in s.pub["pals"] if p[3] > s.index]
    _spirit_news(n)


def day_start(n: Any) -> None:
    """Before the day's orders are collected: Задержание blocks; votes from Jail need Злоупотребление."""
    s = n.s
    blocked = sorted({o["target"] for x in s.living() for k, o in s.orders[x].items() if k == "detention"})
    for seat in blocked:
        if not s.alive[seat] or R.PUBLIC_ROLES[s.public[seat]].unblockable:
            continue
        mine = abilities(s, seat)
        ordered = [k for k in s.orders[seat] if k in mine and mine[k].phase == "day"]
        s.orders[seat] = {k: o for k, o in s.orders[seat].items()
                          if k in mine and "unblockable" in mine[k].flags}
        worked = [k for k in ordered if k in s.orders[seat]]
        tell_blocked(n, seat, worked, [k for k in ordered if k not in worked], day=True)
    if not _abuse(s):
        for seat in s.living():
            if s.jailed(seat) and "vote" in s.orders[seat] and not R.PUBLIC_ROLES[s.public[seat]].vote_from_jail:
                del s.orders[seat]["vote"]


def execute(s: Any, n: Any, leader: int) -> str:
    """The leader of a day vote after day 1: Адвокат, Политик, else death (Мститель: a Spirit)."""
    lawyer = n.__dict__.get("acquittal")
    if lawyer is not None:
        n.acquitted = True
        return "acquitted"
    if s.public[leader] == "politician" and _free(s, leader):  # Иммунитет: Jail for a night and a day
        _jail(s, leader, s.index + 2, n.public)
        return "immunity"
    _die(s, leader)
    return "death"


def day_end(n: Any) -> None:
    """After the vote: Судья, Сплетник, Миллионер, Безработный, an unused Адвокат, Spirits."""
    s = n.s
    lawyer = n.__dict__.get("acquittal")
    if lawyer is not None and not n.__dict__.get("acquitted"):
        s.used[lawyer].discard("acquittal")  # nothing was cancelled: not used up
    accused = s.pub.get("accused", {}).pop(s.index, {})
    vote = s.last_vote
    if vote and vote["day"] == s.number() and vote["seat"] in accused and s.alive[vote["seat"]]:
        s.hp[vote["seat"]] += 1  # Обвинение: +1 HP; after the next night, nothing above 2
        _pub(s, "trim").setdefault(s.index + 1, []).append(vote["seat"])
    for seat in s.living():
        key = s.public[seat]
        if key == "gossip":
            bank = _pub(s, "bank")
            if "vote" in s.orders[seat]:
                if "compromise" in s.orders[seat] and not _vip_target(s, seat):
                    bank[seat] = 0
            else:  # Компромат: a day without voting banks the faction's weight (A: 1)
                bank[seat] = bank.get(seat, 0) + (1 if _a(s) else R.FACTION_WEIGHT[s.faction(seat)])
        elif key == "millionaire":
            vip = _pub(s, "vip")
            vip[seat] = vip.get(seat, 0) + 1 if s.hp[seat] == 1 and s.hospital(seat) else 0
    for seat, key in s.pub.pop("switch", ()):  # Биржа труда: the new role from the end of the day
        if s.alive[seat] and key not in s.public:
            s.public[seat] = key
            s.names[seat] = ROLES[key].title
            if key == "strongman":
                s.hp[seat] += 1
            n.public.append(Event(EVERYONE, "mafia.role_changed", {"seat": seat, "key": key,
                                                                   "name": ROLES[key].title}))
    _spirit_news(n)


# ---------------------------------------------------------------------------------- registration

AFTER_STEP.setdefault("kidnap", []).append(before_damage)  # the last step before damage
AFTER_STEP.setdefault("info", []).append(night_end)
DAMAGE_HOOKS.insert(0, late_damage)
ANY_TIME["exhumation"] = _exhumation
