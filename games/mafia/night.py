"""Forum Mafia: what one resolution collects (``_Night``) and the registries it runs.

``HANDLERS`` (one small function per ability key, registered with ``@handler``: handlers.py,
public_handlers.py, cards.py), the pipeline steps before damage (``PIPELINE``), and the hooks
other modules add (``AFTER_STEP``, ``DAMAGE_HOOKS``, ``ANY_TIME``). Also the three acts every
layer uses: jail a seat, let a seat die, tell a blocked seat what it may know.
"""
from __future__ import annotations

from typing import Any, Callable

from ..base import Event
from . import public_roles as P
from . import roles as R
from . import versions as V
from .state import draw_persona, EVERYONE, MafiaState, personas_seen
from .roles import Ability, LIFE


class _Night:
    """What one resolution collects: private messages (sent only to seats alive at its end)."""

    def __init__(self, s: MafiaState) -> None:
        self.s = s
        self.tells: list[tuple[tuple[int, ...], str, dict[str, Any]]] = []
        self.public: list[Event] = []
        self.lead: list[Event] = []  # public news told before the deaths (the day's vote result)
        self.attacks: dict[int, list[list[Any]]] = {}  # target -> [[source, damage, ability], ...]
        self.harm: dict[int, int] = {}  # target -> damage that is not an attack (Кровавая баня)
        self.covered: set[int] = set()
        self.patrolled: dict[int, int] = {}  # target -> how many Дозоры
        self.paranoid: set[int] = set()
        self.kidnap: dict[int, list[int]] = {}  # target -> genius seats
        self.learned: dict[int, int] = {}  # target -> personas learned of it tonight
        self.disinfo: list[tuple[int, int]] = []  # (genius, target)
        self.effective: list[tuple[int, Ability, dict[str, Any]]] = []
        self.disrupted: set[int] = set()  # A: seats whose abilities see only Аноним(1) tonight
        self.fate: set[int] = set()  # A: struck by Рука судьбы (not an attack)
        self.banked: set[int] = set()  # A: Банк (all damage blocked tonight)
        self.wounds: dict[int, list[str]] = {}  # target -> abilities that damaged it (Улики)

    def tell(self, seat: int, key: str, params: dict[str, Any], learn: bool = True) -> None:
        self.tells.append(((seat,), key, params))
        if learn:
            self.s.knowledge[seat].append({"index": self.s.index, "key": key, **params})

    def attack(self, source: int, target: int, damage: int, ability: str) -> None:
        self.attacks.setdefault(target, []).append([source, damage, ability])

    def draw(self, by: int | None, target: int, exclude: str | None = None) -> str | None:
        """A random persona of ``target`` drawn for seat ``by``'s night ability (None: a day
        ability's result, which Срыв never touches). Always the seat the result belongs to,
        never whichever order resolved last (issue 15)."""
        self.learned[target] = self.learned.get(target, 0) + 1
        if by in self.disrupted:  # A: Срыв расследования, the target shows only Аноним(1)
            return V.ANONYMOUS
        found = draw_persona(self.s, target, exclude)
        if found is not None and self.s.roles[target] == "maniac" and V.rules(self.s).double_life == "replace":
            self.tell(target, "mafia.probed", {"seat": target, "persona": found})  # A/B: Двойная жизнь
        return found

    def seen(self, by: int, target: int) -> dict[str, int]:
        """The target's personas as seat ``by``'s night ability sees them (A: Аноним(1) under Срыв)."""
        return {V.ANONYMOUS: 1} if by in self.disrupted else personas_seen(self.s, target)

    def run(self, seat: int, ab: Ability, order: dict[str, Any]) -> None:
        HANDLERS[ab.key](self, seat, ab, order)


Handler = Callable[[_Night, int, Ability, dict[str, Any]], None]


HANDLERS: dict[str, Handler] = {}


def handler(*keys: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for key in keys:
            HANDLERS[key] = fn
        return fn
    return register


# -- effects with no handler of their own: blocks (interrogation, zombify) are read by the
#    pipeline itself; mail is delivered by it; vote and assist are day steps.

PIPELINE = ("persona", "grant", "cards", "attack", "protect", "kidnap")  # before damage; then regen, jail, info


# Version machinery (cards.py fills these): hooks run after a pipeline step (and after "info"),
# on each target's damage total, for extra order arguments, and for "any time" abilities.
AFTER_STEP: dict[str, list[Callable[[_Night], None]]] = {}


DAMAGE_HOOKS: list[Callable[[_Night, int, list, Any], Any]] = []


ANY_TIME: dict[str, Callable[..., None]] = {}


def _jail(s: MafiaState, seat: int, until: int, public: list[Event]) -> bool:
    """Jail ``seat`` until phase ``until``; False if it can never be jailed (Воин, Тюремщик)."""
    if R.PUBLIC_ROLES[s.public[seat]].never_jailed:
        return False
    if s.jail[seat] is not None and s.jail[seat] >= until:
        return True  # jailed for as long already
    s.jail[seat] = until
    public.append(Event(EVERYONE, "mafia.jailed", {"seat": seat, "until": "life" if until >= LIFE else until}))
    return True


def tell_blocked(n: _Night, seat: int, worked: list[str], failed: list[str], day: bool = False) -> None:
    """A blocked seat learns it was blocked (not by whom), and only what is true of its orders:
    its Б orders worked all the same; none worked (by day: `mafia.blocked_day`); or it had
    ordered nothing the block could void ("your orders did not work" would be untrue)."""
    if worked:
        n.tell(seat, "mafia.blocked_some", {"seat": seat, "abilities": sorted(set(worked))})
    elif failed:
        n.tell(seat, "mafia.blocked_day" if day else "mafia.blocked", {"seat": seat})
    else:
        n.tell(seat, "mafia.blocked_idle", {"seat": seat})


def _die(s: MafiaState, seat: int) -> None:
    if P.escape_death(s, seat):  # Мститель: a Spirit instead (once per game)
        return
    s.alive[seat] = False
    s.dead_at[seat] = s.index
