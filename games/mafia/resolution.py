"""Forum Mafia: resolving a phase (the night pipeline of 4.6 #7, the day vote), the stalemate
counter, wins (4.6 #14) and moving on to the next phase.
"""
from __future__ import annotations

from typing import Any

from ..base import Audience, Event
from ..collation import name_key
from . import public_handlers as PH
from . import public_roles as P
from . import roles as R
from . import stalemate as Q
from . import versions as V
from .abilities import abilities, _can_act
from .night import AFTER_STEP, ANY_TIME, DAMAGE_HOOKS, _die, HANDLERS, _jail, _Night, PIPELINE, tell_blocked
from .state import _add, EVERYONE, _grow, MafiaState, _phase_event
from .roles import Ability, LAW, MAFIA


def _effective(s: MafiaState, n: _Night) -> set[int]:
    """Collect this phase's orders; drop what blocked seats declared (except Б); return the blocked."""
    blocked: set[int] = set()
    failed: dict[int, list[str]] = {}  # a blocked seat's voided orders
    for seat in s.living():
        for key, order in s.orders[seat].items():
            if key in ("interrogation", "zombify"):
                blocked.add(order["target"])
    for seat in s.living():
        mine = abilities(s, seat)
        unblockable = R.PUBLIC_ROLES[s.public[seat]].unblockable or s.misere[seat] == s.index  # (A: Мизер)
        if unblockable:
            blocked.discard(seat)  # Ярость, Мизер: a block does not touch it (nor is it told of one)
        for key, order in s.orders[seat].items():
            ab = mine.get(key)
            if ab is None or ab.phase == "any":
                continue
            if seat in blocked and "unblockable" not in ab.flags:
                failed.setdefault(seat, []).append(key)
                continue
            n.effective.append((seat, ab, order))
    for seat in sorted(blocked):
        if s.alive[seat]:
            tell_blocked(n, seat, [ab.key for x, ab, _ in n.effective if x == seat], failed.get(seat, []))
    return blocked


def _use_up(s: MafiaState, n: _Night) -> None:
    """Limits are spent only by orders that took effect (a blocked once-per-game is not used up)."""
    for seat, ab, order in n.effective:
        if ab.once:
            s.used[seat].add(ab.key)
        if ab.distinct and isinstance(order.get("target"), int):
            s.used_on[seat].setdefault(ab.key, []).append(order["target"])
        if ab.key == "mail":
            s.mail_used[seat] += 1


def resolve_night(s: MafiaState) -> list[Event]:
    """The night pipeline (4.6 #7). Returns the morning's events."""
    n = _Night(s)
    _effective(s, n)
    _use_up(s, n)
    by_step: dict[str, list[tuple[int, Ability, dict]]] = {}
    for item in n.effective:
        by_step.setdefault(item[1].step, []).append(item)
    for step in PIPELINE:  # 1 persona modifiers; later-phase grants; 4 attacks and protections
        for seat, ab, order in by_step.get(step, ()):
            if ab.key in HANDLERS:
                n.run(seat, ab, order)
        for hook in AFTER_STEP.get(step, ()):
            hook(n)
    before_hp = list(s.hp)
    before_status = _statuses(s)
    _damage(s, n)  # 4 damage, 5 Похищение and deaths
    for seat in s.living():  # 6 regeneration: public-role hooks, then Лечение
        hook = R.PUBLIC_ROLES[s.public[seat]].regen
        if hook:
            hook(s, seat)
    for seat, ab, order in by_step.get("regen", ()):
        n.run(seat, ab, order)
    for seat, ab, order in by_step.get("jail", ()):  # 7 jail starts
        n.run(seat, ab, order)
    for seat, ab, order in by_step.get("info", ()):  # 8 information (tonight's personas) and mail
        if ab.key in HANDLERS:  # (mail and Звонок are delivered by _mail)
            n.run(seat, ab, order)
    _mail(s, n, by_step.get("info", ()))
    for hook in AFTER_STEP.get("info", ()):  # (A: Крупье)
        hook(n)
    for genius, target in n.disinfo:  # Дезинформация: >= 2 personas of the target learned tonight
        if n.learned.get(target, 0) >= 2:
            s.plans[genius] += 1
    for seat in s.living():  # Хитрый план: +1 at the end of every night
        if s.roles[seat] == "genius":
            s.plans[seat] += 1
            n.tell(seat, "mafia.plans", {"seat": seat, "plans": s.plans[seat]})
    return _finish_phase(s, n, before_hp, before_status)


def _damage(s: MafiaState, n: _Night) -> None:
    for target in sorted(set(n.attacks) | set(n.harm) | n.fate | n.banked):
        if not s.alive[target]:
            continue
        attacks = n.attacks.get(target, [])
        hook = R.PUBLIC_ROLES[s.public[target]].damage
        if hook:
            hook(s, target, attacks)  # Горец, Кульбит...
        if target in n.covered:  # Прикрытие: no damage from attacks
            for a in attacks:
                a[1] = 0
        for _ in range(n.patrolled.get(target, 0)):  # Дозор: the strongest attack is dropped
            live = [a for a in attacks if a[1] > 0]
            if live:
                attacks.remove(max(live, key=lambda a: a[1]))
        if target in n.paranoid:  # Паранойя: -1 from every attack
            for a in attacks:
                a[1] = max(0, a[1] - 1)
        total = sum(a[1] for a in attacks) + n.harm.get(target, 0)
        for hook in DAMAGE_HOOKS:  # A: Рука судьбы, Банк; A/B: Похищение stops damage; Улики
            total = hook(n, target, attacks, total)
        s.hp[target] -= total
    for target in range(s.players):
        if s.alive[target] and s.hp[target] <= 0:
            saviours = n.kidnap.get(target)
            if saviours:  # Похищение: survives with 1 HP, the genius gets a plan
                s.hp[target] = 1
                for genius in saviours:
                    s.plans[genius] += 1
            else:
                _die(s, target)


def _mail(s: MafiaState, n: _Night, infos: Any) -> None:
    """Почта: anonymous; more than 3 to one target (the city counts as one) → "spammed" (4.6 #15)."""
    box: dict[Any, list[str]] = {}
    for seat, ab, order in infos:
        if ab.key in ("mail", "call"):  # (A: Звонок, signed "от Босса", counts for the spam rule)
            box.setdefault(order["target"], []).append((ab.key, order["text"]))
            for target, text in order.get("more", ()):  # Бард: several messages a night
                box.setdefault(target, []).append((ab.key, text))
    for target, texts in box.items():
        spam = len(texts) > R.SPAM_LIMIT
        if target == "city":
            if spam:
                n.public.append(Event(EVERYONE, "mafia.city_spammed", {}))
            else:
                for _key, text in texts:
                    n.public.append(Event(EVERYONE, "mafia.city_mail", {"text": text}))
        elif spam:
            n.tell(target, "mafia.spammed", {"seat": target}, learn=False)
        else:
            for key, text in texts:
                n.tell(target, "mafia." + key, {"seat": target, "text": text}, learn=False)


def _statuses(s: MafiaState) -> list[tuple[bool, bool, bool]]:
    return [(s.alive[x], s.hospital(x), s.jailed(x)) for x in range(s.players)]


def _finish_phase(s: MafiaState, n: _Night, before_hp: list[int], before_status: list) -> list[Event]:
    """Status news, persona growth, messages to the living only, stalemate counter."""
    events: list[Event] = []
    died = [x for x in range(s.players) if before_status[x][0] and not s.alive[x]]
    events.extend(n.lead)  # the vote's result comes before the deaths it caused
    for x in died:
        events.append(Event(EVERYONE, "mafia.died", {"seat": x}))
    events.extend(n.public)
    for x in range(s.players):
        if s.alive[x] and before_status[x][0]:
            if s.hospital(x) and not before_status[x][1]:
                events.append(Event(EVERYONE, "mafia.hospital", {"seat": x}))
            elif before_status[x][1] and not s.hospital(x):
                events.append(Event(EVERYONE, "mafia.recovered", {"seat": x}))
    # +1 persona at the end of every phase (4.3, 4.6 #1); tonight's personas are gone
    for x in range(s.players):
        s.temp[x] = {}
        if s.alive[x]:
            _grow(s, x, 1)
    # Шизофрения: the Маньяк knows the secret roles of the dead
    for m in s.living():
        if s.roles[m] == "maniac":
            for x in died:
                n.tell(m, "mafia.dead_role", {"seat": m, "target_seat": x, "role": s.roles[x]})
    # the dead, including those who died in this phase, get no messages (4.3)
    for seats, key, params in n.tells:
        living = tuple(x for x in seats if s.alive[x])
        if living:
            events.append(Event(Audience.only(*living), key, params))
    for x in died:
        s.knowledge[x] = [k for k in s.knowledge[x] if k["index"] != s.index]
    changed = bool(died) or before_hp != s.hp or before_status != _statuses(s) or any(
        s.alive[x] and s.roles[x] == "genius" for x in range(s.players))
    s.quiet = Q.next_quiet(s, changed)
    for x in range(s.players):
        s.orders[x] = {}
        s.ready[x] = False
    return events


def resolve_day(s: MafiaState) -> list[Event]:
    """The day: Помощь следствию, then the secret weighted vote; only the outcome is published."""
    n = _Night(s)
    PH.day_start(n)  # Задержание blocks; votes from Jail only under Злоупотребление
    for seat in s.living():
        mine = abilities(s, seat)
        for key, order in s.orders[seat].items():
            ab = mine.get(key)
            if ab is not None and ab.phase == "day":
                n.effective.append((seat, ab, order))
    _use_up(s, n)
    before_hp, before_status = list(s.hp), _statuses(s)
    for seat, ab, order in n.effective:
        if ab.key == "assist":  # +3 personas corresponding to the target's secret role
            _grow(s, order["target"], 3)
        elif ab.step == "day" and ab.key in HANDLERS:
            HANDLERS[ab.key](n, seat, ab, order)
    totals = tally(s)
    if V.rules(s).public_vote:  # A: the votes and their totals are public (4.6 #4)
        n.public.append(_tally_event(s))
    leader = None
    if totals:
        top = max(totals.values())
        if top > 0:
            leader = min((t for t, v in totals.items() if v == top), key=lambda t: tie_key(s, t))
    if leader is None:
        s.last_vote = None
        n.public.append(Event(EVERYONE, "mafia.no_execution", {}))
    else:
        genius = s.propaganda.get(s.index, {}).get(leader)
        if genius is not None:
            s.plans[genius] += V.rules(s).propaganda_plans
            if s.alive[genius]:
                n.tell(genius, "mafia.plans", {"seat": genius, "plans": s.plans[genius]})
        if s.index == 1:  # day 1: jail for night 2, day 2 and night 3 instead of death (4.6 #20)
            fate = "jail" if _jail(s, leader, 4, n.public) else "free"  # Воин, Тюремщик: never jailed
        elif genius is not None:
            fate = "spared"  # Пропаганда: does not die
        else:
            fate = PH.execute(s, n, leader)  # death; public roles: acquitted (Адвокат), jail (Политик)
        s.last_vote = {"seat": leader, "fate": fate, "day": s.number()}
        n.lead.append(Event(EVERYONE, "mafia.vote_result", {"seat": leader, "fate": fate}))
    PH.day_end(n)  # Судья, Сплетник, Миллионер, Безработный, Spirits
    s.extra_votes.pop(s.index, None)
    s.propaganda.pop(s.index, None)
    return _finish_phase(s, n, before_hp, before_status)


def vote_weight(s: MafiaState, seat: int) -> int:
    hook = R.PUBLIC_ROLES[s.public[seat]].vote_bonus
    return V.rules(s).weight[s.faction(seat)] + (hook(s, seat) if hook else 0)


def _tally_event(s: MafiaState) -> Event:
    """A: every open vote (seat, target, weight) and the open totals per target; secret additions
    (Суд присяжных, Вист, Скользкий ублюдок, a secret voter) are not shown."""
    votes: list[dict[str, Any]] = []
    totals: dict[int, Any] = {}
    for seat in s.living():
        order = s.orders[seat].get("vote")
        if order is not None and s.alive[order["target"]] and V.vote_public(s, seat):
            weight = vote_weight(s, seat)
            votes.append({"seat": seat, "target_seat": order["target"], "weight": weight})
            totals[order["target"]] = totals.get(order["target"], 0) + weight
    return Event(EVERYONE, "mafia.tally", {"votes": votes, "totals": [{"seat": t, "votes": v}
                                                                      for t, v in sorted(totals.items())]})


def tally(s: MafiaState) -> dict[int, int]:
    """Secret totals per living target (4.6 #4, #5): faction weights, secret extra votes, hooks."""
    totals: dict[int, int] = {}
    for seat in s.living():
        order = s.orders[seat].get("vote")
        if order is not None and s.alive[order["target"]]:
            totals[order["target"]] = totals.get(order["target"], 0) + vote_weight(s, seat)
    for t, extra in s.extra_votes.get(s.index, {}).items():
        if s.alive[t]:
            totals[t] = totals.get(t, 0) + extra
    dead = s.players - len(s.living())
    for t in s.living():
        hook = R.PUBLIC_ROLES[s.public[t]].votes_against
        delta = hook(s, t) if hook else 0
        if s.roles[t] == "maniac":  # Скользкий ублюдок (A: 2 + 0.5 per dead; B: 3 + 1 per dead; C: 1 per dead)
            base, per = V.rules(s).slippery
            shed = base + per * dead
            delta -= int(shed) if shed == int(shed) else shed  # (A: halves)
        if delta:
            totals[t] = totals.get(t, 0) + delta
    return totals


def tie_key(s: MafiaState, seat: int) -> tuple:
    """Tie priority: listed public roles in rule order, then custom names alphabetically (4.6 #12),
    as a Russian reader sorts them («Ёлка» before «Жаба»: games.collation)."""
    return (R.PUBLIC_ROLES[s.public[seat]].order, name_key(s.names[seat]), seat)


def check_win(s: MafiaState, end_of_day: bool) -> tuple[str, tuple[int, ...]] | None:
    """The first win that holds, by the priority of 4.6 #14; a stalemate ends with no winner."""
    living = [x for x in s.living() if not P.spirit(s, x)]  # a Spirit counts as dead (Мститель)
    if not living:
        return P.spirit_win(s) or ("stalemate", ())
    if end_of_day:
        ddd = tuple(x for x in living if s.roles[x] == "genius" and s.plans[x] >= V.rules(s).ddd)
        if ddd:
            return ("ddd", ddd)
    if len(living) == 1 and s.roles[living[0]] == "maniac":
        return ("legend", (living[0],))
    mafia = tuple(x for x in living if s.faction(x) == MAFIA)
    law = tuple(x for x in living if s.faction(x) == LAW)
    maniac = any(s.roles[x] == "maniac" for x in living)
    if not maniac and mafia and not law:
        return ("mafia", mafia)
    if not maniac and law and not mafia:
        return ("law", law)
    if s.quiet >= Q.STALEMATE_PHASES:
        return P.spirit_win(s) or ("stalemate", ())
    return None


def _end(s: MafiaState, won: tuple[str, tuple[int, ...]], events: list[Event]) -> None:
    s.reason, s.winners = won[0], tuple(sorted(won[1]))
    s.phase = "over"
    s.actors = None
    for x in range(s.players):
        s.orders[x] = {}
        s.ready[x] = False
    if s.reason == "stalemate":
        events.append(Event(EVERYONE, "mafia.stalemate", {}))
    else:
        events.append(Event(EVERYONE, "mafia.win", {"reason": s.reason, "seats": list(s.winners)}))


def _resolve_and_advance(s: MafiaState, events: list[Event]) -> None:
    """Resolve the phase, check wins, start the next phase (and resolve at once a phase nobody can act in)."""
    while True:
        night = s.night()
        # The Мастер's news post opens what the phase brought: morning news after a night,
        # evening news after a day (the seat's results follow it, then the next phase).
        events.append(Event(EVERYONE, "mafia.news", {"phase": s.phase, "number": s.number()}))
        events.extend(resolve_night(s) if night else resolve_day(s))
        won = check_win(s, end_of_day=not night)
        if won:
            _end(s, won, events)
            return
        s.index += 1
        s.phase = "night" if s.index % 2 == 0 else "day"
        for x in range(s.players):  # jail terms that ended
            if s.alive[x] and s.jail[x] is not None and s.jail[x] == s.index - 1:
                events.append(Event(EVERYONE, "mafia.released", {"seat": x}))
        events.append(_phase_event(s))
        won = check_win(s, end_of_day=False)  # and at the start of each phase
        if won:
            _end(s, won, events)
            return
        if any(_can_act(s, x) for x in s.living()):
            return


def _any_time(s: MafiaState, seat: int, ab: Ability, order: dict[str, Any], events: list[Event]) -> None:
    """An "any time" ability: resolves at once, cannot be cancelled (4.3)."""
    if ab.once:
        s.used[seat].add(ab.key)
    s.actors = None
    if ab.key == "double_life":  # Двойная жизнь: C +10 of one kind; A/B: every own persona becomes that kind
        if V.rules(s).double_life == "replace":
            s.personas[seat] = {order["persona"]: max(1, sum(s.personas[seat].values()))}
        else:
            _add(s.personas[seat], order["persona"], 10)
        events.append(Event(Audience.only(seat), "mafia.done", {"seat": seat, "ability": ab.key}))
    elif ab.key in ANY_TIME:  # (A: Ва-банк)
        ANY_TIME[ab.key](s, seat, order, events)
