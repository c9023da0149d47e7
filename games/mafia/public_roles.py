"""Forum Mafia: the 34 listed public roles («Явные роли») of seed 004 (../shared/rules/mafia.md 4.4).

Each role is a :class:`Public` (a ``roles.PublicRole``) registered in ``roles.PUBLIC_ROLES``. This
module holds who they are and how they change the rules' questions, which the engine's core asks
(``in_hospital``, ``refused``, ``why_not``, ``pending``, ``escape_death``...; docs/mafia-protocol.md
"Hook points"); it imports nothing of the engine, so the core can ask it. What they do when a
phase resolves (order handlers, pipeline hooks) is public_handlers.py. Values that differ by
version (4.2) read ``state.version`` ("A" or B/C).

Public-role state lives in ``state.pub`` (a dict; its keys are listed in ``_PUB``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..base import MASTER, Audience, RuleError
from . import roles as R
from .roles import Ability, _f

EVERYONE = Audience.everyone()


@dataclass(frozen=True)
class Public(R.PublicRole):
    """A listed public role: the hooks of ``PublicRole`` plus its names."""

    title: str = ""  # the seed's Russian name
    english: str = ""  # the English title
    aliases: tuple[str, ...] = ()
    vote_public: Callable[[Any, int], bool | None] | None = None  # versions.vote_public (A: Серый кардинал)


def _day(key: str, target: str = "other", **kw: Any) -> Ability:
    return Ability(key, "day", "day", target, secret=False, **kw)


def _a(state: Any) -> bool:
    return getattr(state, "version", "C") == "A"


def _free(s: Any, seat: int) -> bool:
    """A passive without the Т flag works only out of Jail."""
    return not s.jailed(seat)


def _vip_target(s: Any, seat: int) -> bool:
    """The seat votes against a Миллионер: its vote counts without enhancements (VIP)."""
    vote = s.orders[seat].get("vote")
    return vote is not None and s.public[vote["target"]] == "millionaire"


def _bonus(value: Callable[[Any, int], float], jail: bool = False) -> Callable[[Any, int], float]:
    def hook(s: Any, seat: int) -> float:
        if (not jail and not _free(s, seat)) or _vip_target(s, seat):
            return 0
        return value(s, seat)
    return hook


def _diplomat(s: Any, seat: int) -> float:
    return (2 if _a(s) else 3) * -1 if _free(s, seat) else 0


def _monk(s: Any, seat: int) -> None:
    if _free(s, seat) and s.hp[seat] == 1:  # Медитация: 1 HP at the end of a night -> +1
        s.hp[seat] += 1


def _millionaire(s: Any, seat: int) -> None:
    """VIP: two days and nights in a row in Hospital at 1 HP -> +1 HP (counted per phase end)."""
    count = _pub(s, "vip").get(seat, 0)
    if s.hp[seat] == 1 and s.hospital(seat):
        count += 1
        if count >= 4:
            s.hp[seat] += 1
            count = 0
    else:
        count = 0
    _pub(s, "vip")[seat] = count


def _anonymous(s: Any, seat: int, personas: dict) -> dict:
    return {"anonymous": 1}  # Инкогнито (Т,М): always exactly Аноним(1)


def _ambassador(s: Any, seat: int) -> float:
    return max(0, 4 - s.number())  # +3 on day 1, +2 on day 2, +1 on day 3


def _cardinal(s: Any, seat: int) -> float:
    if _a(s):
        return 0.5  # A: +0.5, votes secretly
    return 2 if "open_vote" in s.orders[seat] else 0


def _gossip(s: Any, seat: int) -> float:
    return _pub(s, "bank").get(seat, 0) if "compromise" in s.orders[seat] else 0


def _cardinal_public(s: Any, seat: int) -> bool | None:
    return False if _a(s) else None


_ROLES: list[tuple[str, str, str, tuple[str, ...], dict[str, Any]]] = [
    ("highlander", "Горец", "Highlander", (), {}),
    ("prosecutor", "Прокурор", "Prosecutor", (),
     {"abilities": {"indictment": _day("indictment", once=True)}}),
    ("strongman", "Здоровяк", "Strongman", (), {"hp_bonus": 1}),
    ("monk", "Монах", "Monk", (), {"regen": _monk}),
    ("patrolman", "Патрульный", "Patrolman", (),
     {"abilities": {"detention": _day("detention", flags=_f("Б"), once=True)}}),
    ("sociopath", "Социопат", "Sociopath", (), {}),
    ("avenger", "Мститель", "Avenger", (), {}),
    ("pensioner", "Пенсионер", "Pensioner", (), {"hp_bonus": -1}),
    ("unemployed", "Безработный", "Unemployed", (),
     {"abilities": {"labour_exchange": _day("labour_exchange", "none", args=(R.ARG_PUBLIC,))}}),
    ("warrior", "Воин", "Warrior", (), {"never_jailed": True}),
    ("acrobat", "Акробат", "Acrobat", (),
     {"abilities": {"somersault": Ability("somersault", "night", "protect", "none", secret=False, once=True)}}),
    ("authority", "Авторитет", "Authority", (), {"vote_bonus": _bonus(lambda s, x: 1 if _a(s) else 2)}),
    ("marauder", "Мародер", "Marauder", (),
     {"abilities": {"graverobbing": Ability("graverobbing", "night", "info", "dead", secret=False, once=True),
                    "exhumation": Ability("exhumation", "any", "any", "dead", secret=False, once=True)}}),
    ("drunkard", "Алкаш", "Drunkard", (), {"abilities": {"binge": _day("binge", distinct=True)}}),
    ("grey_cardinal", "Серый кардинал", "Grey Cardinal",
     ("анонимус", "серый кардинал (анонимус)", "gray cardinal"),
     {"abilities": {"open_vote": _day("open_vote", "none", flags=_f("Т"))},
      "vote_bonus": _bonus(_cardinal, jail=True), "vote_from_jail": True, "vote_public": _cardinal_public}),
    ("politician", "Политик", "Politician", (), {"vote_bonus": _bonus(lambda s, x: 0.5 if _a(s) else 1)}),
    ("hacker", "Хакер", "Hacker", (), {"abilities": {"hack": _day("hack", flags=_f("Т"), once=True)}}),
    ("anonymous", "Аноним", "Anonymous", (), {"personas": _anonymous}),
    ("brewer", "Пивовар", "Brewer", (),
     {"abilities": {"beer": _day("beer", "living", distinct=True),
                    "fake_beer": _day("fake_beer", not_with=("beer",))}}),
    ("jailer", "Тюремщик", "Jailer", (), {"never_jailed": True, "abilities": {"abuse": _day("abuse", "none")}}),
    ("journalist", "Журналист", "Journalist", (),
     {"abilities": {"reportage": _day("reportage", distinct=True, not_with=("vote",))}}),
    ("electrician", "Электрик", "Electrician", (), {"abilities": {"diversion": _day("diversion", once=True)}}),
    ("cook", "Повар", "Cook", (), {"abilities": {"cooking": _day("cooking", distinct=True)}}),
    ("judge", "Судья", "Judge", (), {"abilities": {"accusation": _day("accusation", "living")}}),
    ("ambassador", "Посол", "Ambassador", (), {"vote_bonus": _bonus(_ambassador)}),
    ("commissar", "Комиссар", "Commissar", (), {"abilities": {"raid": _day("raid", once=True)}}),
    ("berserk", "Берсерк", "Berserk", ("berserker",), {"unblockable": True, "vote_from_jail": True}),
    ("medium", "Медиум", "Medium", (),
     {"abilities": {"seance": _day("seance", "none", not_with=("vote",)), "aura": _day("aura", "none")}}),
    ("lawyer", "Адвокат", "Lawyer", (), {"abilities": {"acquittal": _day("acquittal", "none", once=True)}}),
    ("bard", "Бард", "Bard", (), {}),
    ("diplomat", "Дипломат", "Diplomat", (), {"votes_against": _diplomat}),
    ("revolutionary", "Революционер", "Revolutionary", (), {"abilities": {"riot": _day("riot")}}),
    ("millionaire", "Миллионер", "Millionaire", (), {"regen": _millionaire}),
    ("gossip", "Сплетник", "Gossip", (),
     {"abilities": {"compromise": _day("compromise", "none", flags=_f("Т"))},
      "vote_bonus": _bonus(_gossip, jail=True)}),
]

PUBLIC_ORDER: tuple[str, ...] = tuple(row[0] for row in _ROLES)  # listing order = tie priority (#12)
ROLES: dict[str, Public] = {}
for _i, (_key, _ru, _en, _aliases, _kw) in enumerate(_ROLES):
    ROLES[_key] = Public(_key, _i + 1, title=_ru, english=_en, aliases=_aliases, **_kw)
R.PUBLIC_ROLES.update(ROLES)

# Public abilities announced to everyone when they resolve (the seed's «публично»).
ANNOUNCED = frozenset(("indictment", "detention", "binge", "beer", "fake_beer", "reportage", "diversion",
                       "cooking", "accusation", "raid", "riot"))
ATTACK_FREE = frozenset(("pistol", "revolver"))  # what Пиво softens
SPIRIT_ORDERS = ("assault", "card", "all_in")  # a Spirit may declare Нападение (A: also Ход, Ва-банк)


def _norm(name: str) -> str:
    return " ".join(name.replace("ё", "е").replace("Ё", "Е").replace("_", " ").casefold().split())


_NAMES: dict[str, str] = {}
for _key, _role in ROLES.items():
    for _name in (_key, _role.title, _role.english) + _role.aliases:
        _NAMES[_norm(_name)] = _key


def public_key(name: Any) -> str:
    """The key of a listed public role named (Russian, English, key; any case, ё = е), else "other"."""
    if not isinstance(name, str):
        return R.OTHER
    if name in R.PUBLIC_ROLES and name != R.OTHER:  # any registered key as is
        return name
    return _NAMES.get(_norm(name), R.OTHER)


def title(key: str) -> str:
    role = ROLES.get(key)
    return role.title if role else key


# ---------------------------------------------------------------------------------- state


def _pub(s: Any, name: str) -> Any:
    """``state.pub[name]``: a dict (lists for ``pals``), created on first use."""
    box = s.pub.get(name)
    if box is None:
        box = s.pub[name] = [] if name == "pals" else {}
    return box


# state.pub keys: spirits {seat: index turned}, looted {seat: [public keys]}, pals [[drunkard, pal,
# first index, last index]], beer {night index: [seats]}, cooked {night index: [seats]}, accused
# {day index: {seat: judge}}, trim {night index: [seats]}, press {night index: [[journalist, target]]},
# aura {seat: uses}, bank {seat: votes}, vip {seat: phases in Hospital}, switch [[seat, key]].
_PUB = ("spirits", "looted", "pals", "beer", "cooked", "accused", "trim", "press", "aura", "bank", "vip")


def pending(s: Any) -> bool:
    """A public role's effect still to come (4.6 #13: a pending timed effect holds off the
    stalemate): beer, a cooked Hospital, the Judge's accusation, trimmed HP, a reportage, a pal."""
    for name in ("beer", "cooked", "accused", "trim", "press"):
        if any(index > s.index for index in s.pub.get(name, {})):
            return True
    return any(last >= s.index for _d, _pal, _first, last in s.pub.get("pals", ()))


def spirit(s: Any, seat: int) -> bool:
    spirits = s.pub.get("spirits")
    return bool(spirits) and seat in spirits and s.alive[seat]


def spirit_win(s: Any) -> tuple[str, tuple[int, ...]] | None:
    """A Spirit wins when nobody else can ever win (a stalemate, or nobody else alive)."""
    spirits = tuple(x for x in s.pub.get("spirits", ()) if s.alive[x])
    return ("spirit", spirits) if spirits else None


def in_hospital(s: Any, seat: int) -> bool:
    """The Hospital status: 1 HP, but never a Пенсионер or a Spirit; Повар's dish forces it (#16)."""
    if not s.alive[seat]:
        return False
    pub = s.pub
    if pub:
        cooked = pub.get("cooked")
        if cooked and seat in cooked.get(s.index, ()):
            return True
    if s.hp[seat] != 1:
        return False
    return not (s.public[seat] == "pensioner" or (pub and seat in pub.get("spirits", ())))


def immortal(s: Any, seat: int) -> bool:
    """Горец (Бессмертие, Т): «в первые две ночи не получает урона» (any damage of nights 1-2)."""
    return s.public[seat] == "highlander" and s.index in (0, 2)


def looted(s: Any, seat: int) -> tuple[str, ...]:
    got = s.pub.get("looted") if s.pub else None
    return tuple(got.get(seat, ())) if got else ()


def hospital_ok(s: Any, seat: int) -> bool:
    """Воин (Неудержимый): every own ability works from Hospital."""
    return s.public[seat] == "warrior"


def _abuse(s: Any) -> bool:
    return any("abuse" in s.orders[x] and s.alive[x] and not s.jailed(x) for x in range(s.players))


def jail_ok(s: Any, seat: int, ab: Ability) -> bool:
    """Берсерк: Голосование and Почта (A: Ход) from Jail; anyone's vote under Злоупотребление."""
    if s.public[seat] == "berserk" and ab.key in ("vote", "mail", "card"):
        return True
    return ab.key == "vote" and s.phase == "day" and _abuse(s)


def unlimited_mail(s: Any, seat: int) -> bool:
    return s.public[seat] == "bard"  # Слухи в таверне


def why_not(s: Any, seat: int, ab: Ability) -> str | None:
    """Refusals of public roles (an error name), after the engine's own."""
    if s.pub and spirit(s, seat) and ab.key not in SPIRIT_ORDERS:
        return "spirit"
    key = ab.key
    if key == "hack" and s.number() < 4:  # "на четвёртый день" (#10)
        return "not_now"
    if key == "acquittal" and s.index == 1:  # no execution on day 1
        return "not_now"
    if key == "aura" and _pub(s, "aura").get(seat, 0) >= 2:
        return "used_up"
    if key == "open_vote" and _a(s):
        return "not_now"
    if key == "compromise" and not s.pub.get("bank", {}).get(seat):
        return "not_now"
    return None


def refused(s: Any, seat: int, ab: Ability) -> dict:
    """Targets the seat may not give this ability now (public roles' protections and limits), each
    with the reason a refusal names (the ``why`` of ``mafia.error.bad_target``): the target's state
    first (Hospital, Jail), then a target used already, then a protection. A dict, read like a set."""
    out: dict = {}
    key = ab.key
    if key in ("beer", "fake_beer", "diversion"):  # not on a character in Hospital (Электрик: nor Jail)
        for x in s.living():
            if s.hospital(x):
                out.setdefault(x, "hospital")
            elif key == "diversion" and s.jailed(x):
                out.setdefault(x, "jailed")
        if key == "fake_beer":
            out.update(dict.fromkeys((x for x in s.used_on[seat].get("beer", ()) if x not in out), "again"))
    if key == "mail" and s.public[seat] == "bard":  # never the same target twice per game
        out.update(dict.fromkeys(s.used_on[seat].get("mail", ()), "again"))
        order = s.orders[seat].get("mail")
        if order:  # tonight's messages: another one to the same target replaces it
            for x in [order["target"]] + [m[0] for m in order.get("more", ())]:
                out.pop(x, None)
    if s.index == 0:  # Социопат (Затворник): no target of others' abilities on night 1
        for x, k in enumerate(s.public):
            if k == "sociopath" and x != seat and not s.jailed(x):
                out.setdefault(x, "protected")
    if ab.phase == "day" and key != "vote":  # Миллионер (VIP): no active day ability but the vote
        for x, k in enumerate(s.public):
            if k == "millionaire" and x != seat:
                out.setdefault(x, "protected")
    if (ab.attack or key == "vote") and s.pub.get("pals"):  # Алкаш: his pals may not attack or vote him
        for d, pal, first, last in s.pub["pals"]:
            if pal == seat and first <= s.index <= last:
                out.setdefault(d, "protected")
    return out


def check_order(s: Any, seat: int, ab: Ability, args: dict[str, Any]) -> None:
    """Arguments checked against the position (raises RuleError)."""
    if ab.key == "labour_exchange":  # a listed public role that no seat holds
        key = public_key(args.get("public"))
        if key == R.OTHER or key in s.public:
            raise RuleError("mafia.error.bad_arg", name="public", value=args.get("public"))
    if ab.key == "abuse":
        s.actors = None  # jailed seats may now vote: the phase awaits them


def more_mail(s: Any, seat: int, old: dict | None, order: dict) -> dict:
    """Бард: several messages a night, one per target (a new one to the same target replaces it)."""
    if old is None or s.public[seat] != "bard":
        return order
    more = [m for m in old.get("more", ()) if m[0] != order["target"]]
    if old["target"] != order["target"]:
        more.append([old["target"], old["text"]])
    if more:
        order["more"] = more
    return order


def extend_view(s: Any, viewer: int, view: dict[str, Any]) -> None:
    n = s.players
    spirits = s.pub.get("spirits", {})
    view["spirits"] = [x in spirits and s.alive[x] for x in range(n)]
    if 0 <= viewer < n:
        key = s.public[viewer]
        if key == "strongman":
            view["own_hp"] = s.hp[viewer]  # ЗОЖ: always knows own HP
        elif key == "gossip":
            view["bank"] = _pub(s, "bank").get(viewer, 0)
        elif key == "bard":  # no limit: the targets not used yet (other living seats, the city)
            used = set(s.used_on[viewer].get("mail", ()))
            view["mail_left"] = sum(1 for x in s.living() if x != viewer and x not in used) + ("city" not in used)
        elif key == "medium":
            view["aura_left"] = 2 - _pub(s, "aura").get(viewer, 0)
        got = looted(s, viewer)
        if got:
            view["looted"] = list(got)
    elif viewer == MASTER:
        view["pub"] = {k: (list(v) if isinstance(v, list) else {str(a): b for a, b in v.items()})
                       for k, v in s.pub.items()}


def escape_death(s: Any, seat: int) -> bool:
    """Мститель (Незавершенное дело, Т): once per game a Spirit with 1 HP instead of dying."""
    if s.public[seat] == "avenger" and "unfinished_business" not in s.used[seat]:
        s.used[seat].add("unfinished_business")
        s.hp[seat] = 1
        _pub(s, "spirits")[seat] = s.index
        return True
    return False
