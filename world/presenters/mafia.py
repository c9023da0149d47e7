"""How Forum Mafia (seed 004, version C) reads: the table (phase, number and time left, every
seat with its public role and public status: alive, Hospital, Jail with its term, Morgue), and
for the viewer their secret role, faction, what they may use now, uses left, their orders of
this phase, whether they are ready, the Mafia team, the genius's plans, the dead's roles (the
Маньяк's Шизофрения) and the last results they learned.

The engine speaks in keys (roles ``boss``, abilities ``pistol``, factions ``law``, fates
``jail``) and seat numbers. Event parameters pass through :func:`event_params`, which turns the
keys into nested messages (``i18n.nested("mafia.role_name.boss")``) so each reader sees the names in
their own language; they stay JSON-able, since an event may wait in the inbox.

HP is hidden (4.6 #8): nothing here ever shows it. Readiness of others is not public either:
the table lines never say who is still thinking (the runner's ``awaited`` set would tell).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.mafia import roles as R

from ..i18n import nested, nested_list
from ..messages import Msg, msg
from . import present_params, seat_name

if TYPE_CHECKING:
    from ..tables import Table

ROLES = R.ROLE_ORDER
PERSONAS = R.PERSONAS  # the ten roles and the decoys
FACTIONS = (R.MAFIA, R.LAW, R.NEUTRAL)
MAFIA_ROLES = ("boss", "killer", "agent")
COMMON_ORDER = ("vote", "mail", "healing", "paranoia")
# Every ability key, in the order of the rules (role by role, then the common ones).
ABILITIES: tuple[str, ...] = tuple(dict.fromkeys(
    [k for role in ROLES for k in R.ROLE_ABILITIES[role]] + list(COMMON_ORDER)))
FATES = ("death", "jail", "spared")
REASONS = ("ddd", "legend", "mafia", "law", "stalemate")
PASSIVES = ("maniac", "genius")  # roles with passive abilities the role whisper describes
FLAG_ORDER = ("hospital", "jail", "unblockable")
ARG_NAMES = ("role", "persona", "personas", "public", "bans", "text", "players", "public_roles",
             "version", "night", "day")
KNOWN_SHOWN = 6  # results shown by `look` (the latest ones)


# -- names -----------------------------------------------------------------------------------

def role_name(role: Any) -> Any:
    """A role or persona key as a nested message ("Босс"); other values as they are."""
    if isinstance(role, str) and role in PERSONAS:
        return nested(f"mafia.role_name.{role}")
    return role if role is not None else "-"


def role_list(items: Any) -> Any:
    if not isinstance(items, (list, tuple)):
        return role_name(items)
    if not items:
        return nested("mafia.view.nothing")
    return nested_list([role_name(r) for r in items])


def ability_name(key: Any) -> Any:
    if isinstance(key, str) and key in ABILITIES:
        return nested(f"mafia.ability.{key}")
    return key if key is not None else "-"


def ability_list(keys: Any, with_left: dict[str, Any] | None = None) -> Any:
    keys = [k for k in keys or ()]
    if not keys:
        return nested("mafia.view.nothing")
    items = []
    for key in keys:
        if with_left and key in with_left:
            items.append(nested("mafia.view.ability_left", name=ability_name(key), n=with_left[key]))
        else:
            items.append(ability_name(key))
    return nested_list(items)


def faction_name(faction: Any) -> Any:
    if isinstance(faction, str) and faction in FACTIONS:
        return nested(f"mafia.faction.{faction}")
    return faction if faction is not None else "-"


def arg_name(name: Any) -> Any:
    if isinstance(name, str) and name in ARG_NAMES:
        return nested(f"mafia.arg.{name}")
    return name if name is not None else "-"


def when(index: Any) -> Any:
    """A phase index as "ночь 2" / "день 1" (0 = night 1, 1 = day 1, ...)."""
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        return str(index)
    phase = "night" if index % 2 == 0 else "day"
    return nested(f"mafia.when.{phase}", n=index // 2 + 1)


def phase_when(phase: Any, number: Any) -> Any:
    if phase in ("night", "day"):
        return nested(f"mafia.when.{phase}", n=number)
    return nested("mafia.when.over")


def until_text(until: Any) -> Any:
    """A jail term: "до конца ночи 3" or "пожизненно"."""
    if until == "life" or (isinstance(until, int) and not isinstance(until, bool) and until >= R.LIFE):
        return nested("mafia.until.life")
    if isinstance(until, int) and not isinstance(until, bool) and until >= 0:
        phase = "night" if until % 2 == 0 else "day"
        return nested(f"mafia.until.{phase}", n=until // 2 + 1)
    return nested("mafia.until.unknown")


def duration(seconds: Any) -> Any:
    """Seconds as "10 минут", "2 часа", "45 секунд" (whole units, rounded down below a day)."""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        return str(seconds)
    seconds = max(0, int(seconds))
    if seconds >= 7200 or (seconds >= 3600 and seconds % 3600 == 0):
        return nested("mafia.time.hours", n=seconds // 3600)
    if seconds >= 120 or (seconds >= 60 and seconds % 60 == 0):
        return nested("mafia.time.minutes", n=seconds // 60)
    return nested("mafia.time.seconds", n=seconds)


def persona_counts(personas: Any) -> Any:
    """{"boss": 1, "forensic": 2} as "Босс(1), Криминалист(2)" in the rules' order of the dict."""
    if not isinstance(personas, dict) or not personas:
        return nested("mafia.view.nothing")
    return nested_list([nested("mafia.persona_count", name=role_name(k), n=v) for k, v in personas.items()])


def flags_text(ability: R.Ability | None) -> Any:
    """The flags of an ability as the seed writes them, with its limits: " (Г, Б; раз за игру)";
    "" when it has none."""
    if ability is None:
        return ""
    letters = [nested(f"mafia.flag.{f}") for f in FLAG_ORDER if f in ability.flags]
    if ability.phase in ("any", "day"):
        letters.append(nested(f"mafia.flag.{ability.phase}"))
    for limit in ("once", "distinct", "not_first"):
        if getattr(ability, limit):
            letters.append(nested(f"mafia.flag.{limit}"))
    if not letters:
        return ""
    return nested("mafia.flags", flags=nested_list(letters))


def spec(role: Any, key: str, public: Any = R.OTHER) -> R.Ability | None:
    """The ability ``key`` as a seat of ``role`` has it (or as any role has it)."""
    found = R.ability_of(role, public if public in R.PUBLIC_ROLES else R.OTHER, key) if role in ROLES else None
    if found is None and key == "revolver":
        return R.ROLE_ABILITIES["officer"]["revolver"]
    if found is None:
        for table in (R.COMMON, *R.ROLE_ABILITIES.values()):
            if key in table:
                return table[key]
    return found


def ability_lines(role: Any, keys: Any) -> Any:
    """The role whisper's list: every ability with its flags and a one-line description."""
    items = []
    for key in keys or ():
        if not isinstance(key, str):
            continue
        items.append(nested("mafia.ability_line", name=ability_name(key), flags=flags_text(spec(role, key)),
                            text=nested(f"mafia.desc.{key}") if key in ABILITIES else ""))
    if not items:
        return nested("mafia.view.nothing")
    return nested_list(items, sep="\n")


def _seat_list(table: "Table", seats: Any) -> str:
    if not isinstance(seats, (list, tuple)) or not seats:
        return "-"
    return ", ".join(seat_name(table, s) for s in seats)


def team_list(table: "Table", seats: Any, roles: Any) -> Any:
    """[seats], [roles] (or [{seat, role}]) as "Вася — Босс, Петя — Киллер"."""
    pairs: list[tuple[Any, Any]] = []
    if isinstance(seats, (list, tuple)) and seats and isinstance(seats[0], dict):
        pairs = [(item.get("seat"), item.get("role")) for item in seats]
    elif isinstance(seats, (list, tuple)):
        roles = list(roles) if isinstance(roles, (list, tuple)) else []
        pairs = [(s, roles[i] if i < len(roles) else None) for i, s in enumerate(seats)]
    if not pairs:
        return nested("mafia.view.nothing")
    return nested_list([nested("mafia.seat_role", name=seat_name(table, s), role=role_name(r)) for s, r in pairs])


def order_details(table: "Table", order: dict[str, Any]) -> Any:
    """What an order names after its ability: " → Вася, Босс" (target, then the arguments)."""
    parts: list[Any] = []
    target = order.get("target_seat", order.get("target"))
    if target == "city":
        parts.append(nested("mafia.view.city"))
    elif isinstance(target, int) and not isinstance(target, bool):
        parts.append(seat_name(table, target))
    if order.get("public") is not None:
        parts.append(nested("mafia.view.quoted", text=str(order["public"])))
    if order.get("role") is not None:
        parts.append(role_name(order["role"]))
    if order.get("persona") is not None:
        parts.append(role_name(order["persona"]))
    if isinstance(order.get("personas"), (list, tuple)):
        parts.append(nested_list([role_name(p) for p in order["personas"]], sep=" + "))
    if isinstance(order.get("bans"), (list, tuple)):
        parts.append(nested_list([nested("mafia.ban_pair", role=role_name(p[0]), ability=ability_name(p[1]))
                                  for p in order["bans"] if isinstance(p, (list, tuple)) and len(p) == 2],
                                 sep="; "))
    if isinstance(order.get("text"), str):
        text = order["text"]
        parts.append(nested("mafia.view.quoted", text=text if len(text) <= 60 else text[:57] + "..."))
    if not parts:
        return ""
    return nested("mafia.details", items=nested_list(parts))


def verdict(ability: Any, correct: Any, role: Any) -> Any:
    ability = ability if ability in ("jury", "informer") else "jury"
    return nested(f"mafia.verdict.{ability}_{'right' if correct else 'wrong'}", role=role_name(role))


def outcome_msg(table: "Table", reason: Any, seats: Any) -> Any:
    if isinstance(reason, str) and reason.startswith("mafia.outcome."):
        reason = reason.rsplit(".", 1)[-1]
    if reason not in REASONS:
        return str(reason) if reason is not None else ""
    return nested(f"mafia.outcome.{reason}", seats=_seat_list(table, seats))


# -- events ----------------------------------------------------------------------------------

def event_params(table: "Table", raw: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The runner's hook (world.presenters.present_params): role, persona, ability, faction,
    phase and fate keys become nested messages in the reader's language; composite parameters
    (``details``, ``target``, ``verdict``, ``outcome``, ``result``...) are filled for every
    template. Stays JSON-able: it may wait in an inbox."""
    out = dict(params)
    if "role" in raw:
        out["role"] = role_name(raw["role"])
    if "faction" in raw:
        out["faction"] = faction_name(raw["faction"])
        out["weight"] = R.FACTION_WEIGHT.get(raw["faction"], 1)
    if "ability" in raw:
        out["ability"] = ability_name(raw["ability"])
        out["ability_key"] = raw["ability"]
    if "phase" in raw:
        out["when"] = phase_when(raw["phase"], raw.get("number"))
        phase = raw["phase"] if raw["phase"] in ("night", "day") else "night"
        out["title"] = nested(f"mafia.news_title.{phase}", n=raw.get("number", 1))
        out["hint"] = nested(f"mafia.hint.{raw['phase']}" if raw["phase"] in ("night", "day") else "mafia.hint.over")
    if "seconds" in raw:
        out["time"] = duration(raw["seconds"])
    if "until" in raw:
        out["until"] = until_text(raw["until"])
    personas = raw.get("personas")
    if isinstance(personas, dict):
        out["personas"] = persona_counts(personas)
    elif isinstance(personas, (list, tuple)):
        out["personas"] = role_list(list(personas)) if personas else nested("mafia.view.found_nothing")
        out["personas_n"] = len(personas)
    if "abilities" in raw:  # the role whisper
        role = raw.get("role")
        out["abilities"] = ability_lines(role, raw.get("abilities"))
        out["passives"] = nested(f"mafia.passive.{role}") if role in PASSIVES else ""
        out["common"] = ability_lines(role, COMMON_ORDER)
    if "roles" in raw:  # the team whisper
        out["members"] = team_list(table, raw.get("seats"), raw.get("roles"))
    if "fate" in raw:
        fate = raw["fate"] if raw["fate"] in FATES else "death"
        out["outcome"] = nested(f"mafia.fate.{fate}", seat=seat_name(table, raw.get("seat")))
    if "reason" in raw:
        out["result"] = outcome_msg(table, raw.get("reason"), raw.get("seats"))
    if "correct" in raw:
        out["verdict"] = verdict(raw.get("ability"), raw.get("correct"), raw.get("role"))
    if "target_seat" in raw:
        out["target"] = nested("mafia.arrow", name=seat_name(table, raw["target_seat"]))
    elif raw.get("target") == "city":
        out["target"] = nested("mafia.arrow", name=nested("mafia.view.city"))
    else:
        out["target"] = ""
    if "ability" in raw and "seat" in raw:  # ordered, order_log: what the order names
        out["details"] = order_details(table, raw)
    for name in ("plans", "count", "players"):
        if name in raw and not isinstance(raw[name], (int, float)):
            out[name] = 0
    return out


def localize_params(table: "Table | None", params: dict[str, Any]) -> dict[str, Any]:
    """Rule-error parameters as names in the reader's language: ``ability``, ``target`` (a
    seat), ``name`` of a bad argument, its ``value`` (a role or persona key)."""
    out = dict(params)
    if "ability" in out:
        out["ability"] = ability_name(out["ability"])
    if "target" in out:
        target = out["target"]
        if target == "city":
            out["target"] = nested("mafia.view.city")
        elif isinstance(target, int) and not isinstance(target, bool) and table is not None:
            out["target"] = seat_name(table, target)
        elif target is None:
            out["target"] = "-"
    if "name" in out and out["name"] in ARG_NAMES:
        value = out.get("value")
        out["name"] = arg_name(out["name"])
        if isinstance(value, str) and value in PERSONAS:
            out["value"] = role_name(value)
        elif value is None:
            out["value"] = "-"
        elif isinstance(value, (list, tuple)):
            out["value"] = ", ".join(str(v) for v in value)
    return out


# -- the view ----------------------------------------------------------------------------------

def at_seat(view: dict[str, Any], field: str, seat: int, default: Any = None) -> Any:
    values = view.get(field) or []
    return values[seat] if isinstance(values, list) and 0 <= seat < len(values) else default


def public_name(view: dict[str, Any], seat: int) -> str:
    item = at_seat(view, "public_roles", seat) or {}
    return str(item.get("name", "")) if isinstance(item, dict) else ""


def status_of(view: dict[str, Any], seat: int) -> Any:
    """A seat's public status: alive, Hospital, Jail (with its term), both, or Morgue."""
    if not at_seat(view, "alive", seat, True):
        return nested("mafia.status_name.morgue")
    parts = []
    if at_seat(view, "hospital", seat):
        parts.append(nested("mafia.status_name.hospital"))
    if at_seat(view, "jailed", seat):
        parts.append(nested("mafia.status_name.jail", until=until_text(at_seat(view, "jail_until", seat))))
    if not parts:
        return nested("mafia.status_name.alive")
    return nested_list(parts)


def usable_now(view: dict[str, Any]) -> list[str]:
    """The abilities the viewer may order in this phase, from their view alone (what
    ``legal`` offers, before targets: phase, Hospital and Jail flags, once-per-game and mail
    uses, night 1, bans, Наследие's condition, "only without")."""
    seat = view.get("viewer")
    role = view.get("role")
    if not isinstance(seat, int) or role not in ROLES or view.get("phase") not in ("night", "day"):
        return []
    if not at_seat(view, "alive", seat):
        return []
    public = (at_seat(view, "public_roles", seat) or {}).get("key", R.OTHER)
    pub = R.PUBLIC_ROLES.get(public, R.PUBLIC_ROLES[R.OTHER])
    jailed, hospital = at_seat(view, "jailed", seat), at_seat(view, "hospital", seat)
    used, orders = set(view.get("used") or ()), view.get("orders") or {}
    out = []
    for key in ordered_abilities(role, view.get("abilities") or ()):
        ab = spec(role, key, public)
        if ab is None:
            continue
        if ab.phase != "any" and ab.phase != view["phase"]:
            continue
        if jailed and "jail" not in ab.flags and not (key == "vote" and pub.vote_from_jail):
            continue
        if hospital and ab.secret and "hospital" not in ab.flags:
            continue
        if ab.once and key in used:
            continue
        if key == "mail" and (view.get("mail_left") or 0) <= 0:
            continue
        if ab.not_first and view.get("index") == 0:
            continue
        if key in (view.get("banned") or ()):
            continue
        if key == "legacy" and not any(m.get("role") == "killer" and (not at_seat(view, "alive", m.get("seat", -1), True)
                                                                     or at_seat(view, "jailed", m.get("seat", -1)))
                                       for m in view.get("team") or ()):
            continue
        if any(other in orders for other in ab.not_with):
            continue
        if any(key in (spec(role, k, public) or R.Ability(k, "", "")).not_with for k in orders):
            continue
        out.append(key)
    return out


def ordered_abilities(role: Any, keys: Any) -> list[str]:
    """Ability keys in the rules' order: the role's, a granted Наган, the common ones, others."""
    keys = list(keys)
    first = list(dict.fromkeys([*R.ROLE_ABILITIES.get(role, {}), "revolver", *COMMON_ORDER]))
    return [k for k in first if k in keys] + sorted(k for k in keys if k not in first)


def header(table: "Table", view: dict[str, Any], seconds: int | None) -> Msg:
    if view.get("phase") == "over":
        return msg("mafia.view.header_over", number=table.number, version=view.get("version", "C"),
                   result=outcome_msg(table, view.get("reason"), view.get("winners")))
    left = nested("mafia.view.left", time=duration(seconds)) if seconds is not None else ""
    return msg("mafia.view.header", number=table.number, version=view.get("version", "C"),
               when=phase_when(view.get("phase"), view.get("number")), left=left,
               alive=sum(1 for a in view.get("alive") or () if a), players=view.get("players", 0))


def seat_line(table: "Table", view: dict[str, Any], number: int, seat: int | None) -> Msg:
    info = table.seats[number] if number < len(table.seats) else None
    name = info.name if info else str(number)
    bot = nested("mafia.view.bot") if info is not None and getattr(info, "played_by_bot", False) else ""
    public = public_name(view, number)
    shown = nested("mafia.view.public", name=public) if public and public.casefold() != name.casefold() else ""
    notes: list[Any] = []
    if number == seat:
        notes.append(nested("mafia.view.you"))
    for member in view.get("team") or ():
        if member.get("seat") == number and number != seat:
            notes.append(nested("mafia.view.teammate", role=role_name(member.get("role"))))
    for dead in view.get("dead_roles") or ():
        if dead.get("seat") == number:
            notes.append(nested("mafia.view.dead_role", role=role_name(dead.get("role"))))
    if view.get("phase") == "over" and number in (view.get("winners") or ()):
        notes.append(nested("mafia.view.winner"))
    note = nested("mafia.view.notes", notes=nested_list(notes)) if notes else ""
    return msg("mafia.view.seat", name=name, public=shown, status=status_of(view, number), notes=note, bot=bot)


def describe(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
             awaited: set[int]) -> list[Msg]:
    """The whole table, for `look` and `hand`."""
    out = [header(table, view, seconds)]
    for number in range(view.get("players", len(table.seats))):
        out.append(seat_line(table, view, number, seat))
    last = view.get("last_vote")
    if isinstance(last, dict) and last.get("fate") in FATES:
        out.append(msg("mafia.view.last_vote", day=last.get("day", 1),
                       outcome=nested(f"mafia.fate.{last['fate']}", seat=seat_name(table, last.get("seat")))))
    out.extend(private_lines(table, view, seat, seconds, awaited))
    if seat is None and isinstance(view.get("roles"), list):
        out.extend(master_lines(table, view, awaited))
    return out


def master_lines(table: "Table", view: dict[str, Any], awaited: set[int]) -> list[Msg]:
    """The observer Master's view (``view(MASTER)``): every seat's secret role, orders of this
    phase and readiness, the genius's plans. Still no HP."""
    out = [msg("mafia.view.master_header")]
    roles, orders = view.get("roles") or [], view.get("orders") or []
    plans, ready = view.get("plans") or [], view.get("ready") or []
    for number in range(view.get("players", len(table.seats))):
        if not at_seat(view, "alive", number, True):
            continue
        role = roles[number] if number < len(roles) else None
        mine = orders[number] if number < len(orders) and isinstance(orders[number], dict) else {}
        items = [nested("mafia.order_line", ability=ability_name(k), details=order_details(table, mine[k]))
                 for k in ordered_abilities(role, mine)]
        extra = ""
        if role == "genius" and number < len(plans):
            extra = nested("mafia.view.master_plans", plans=plans[number])
        state = nested("mafia.view.master_ready") if number < len(ready) and ready[number] else (
            nested("mafia.view.master_waiting") if number in awaited else "")
        out.append(msg("mafia.view.master_seat", name=seat_name(table, number), role=role_name(role), extra=extra,
                       orders=nested_list(items, sep="; ") if items else nested("mafia.view.nothing"), state=state))
    return out


def private_lines(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
                  awaited: set[int]) -> list[Msg]:
    """The viewer's secret side: role, team, plans, what they may use, orders, readiness, results."""
    if seat is None or "role" not in view:
        return []
    role = view["role"]
    out = [msg("mafia.view.role", role=role_name(role), faction=faction_name(view.get("faction")),
               weight=R.FACTION_WEIGHT.get(view.get("faction"), 1))]
    alive = at_seat(view, "alive", seat, True)
    if not alive:
        out.append(msg("mafia.view.you_dead"))
        return out
    team = [m for m in view.get("team") or () if m.get("seat") != seat]
    if "team" in view:
        out.append(msg("mafia.view.team", members=team_list(table, team, None) if team else nested("mafia.view.nothing")))
    if "plans" in view:
        out.append(msg("mafia.view.plans", plans=view.get("plans") or 0, need=R.DDD_PLANS))
    if view.get("phase") == "over":
        return out
    if view.get("revolver"):
        out.append(msg("mafia.view.revolver"))
    if view.get("banned"):
        out.append(msg("mafia.view.banned", abilities=ability_list(view["banned"])))
    usable = usable_now(view)
    if usable:
        left = {"mail": view.get("mail_left", 0)}
        out.append(msg("mafia.view.usable", abilities=ability_list(usable, with_left=left)))
    else:
        out.append(msg("mafia.view.nothing_now"))
    used = [k for k in view.get("used") or () if k in ABILITIES]
    if used:
        out.append(msg("mafia.view.used", abilities=ability_list(ordered_abilities(role, used))))
    out.append(orders_msg(table, view))
    if view.get("ready"):
        out.append(msg("mafia.view.ready"))
    elif seat in awaited:
        left = nested("mafia.view.left", time=duration(seconds)) if seconds is not None else ""
        out.append(msg("mafia.view.not_ready", left=left))
    out.extend(known_lines(table, view))
    return out


def orders_msg(table: "Table", view: dict[str, Any]) -> Msg:
    orders = view.get("orders") or {}
    if not orders:
        return msg("mafia.view.no_orders")
    role = view.get("role")
    items = [nested("mafia.order_line", ability=ability_name(key), details=order_details(table, orders[key]))
             for key in ordered_abilities(role, orders)]
    return msg("mafia.view.orders", orders=nested_list(items, sep="; "))


def known_lines(table: "Table", view: dict[str, Any], limit: int = KNOWN_SHOWN) -> list[Msg]:
    """The latest results whispered to the viewer (``knowledge``), each with its phase."""
    known = [k for k in view.get("knowledge") or () if isinstance(k, dict) and isinstance(k.get("key"), str)
             and k["key"] != "mafia.plans"]  # the plans are a line of their own
    if not known:
        return []
    out = [msg("mafia.view.known_header", n=len(known), shown=min(limit, len(known)))]
    for item in known[-limit:]:
        raw = {k: v for k, v in item.items() if k not in ("index", "key")}
        name = item["key"].rsplit(".", 1)[-1]
        key = f"mafia.known.{name}" if name in KNOWN else item["key"]
        out.append(msg("mafia.view.known", when=when(item.get("index")),
                       text={"$msg": key, "params": present_params(table, raw)}))
    return out


# Results a seat learns (``knowledge``): `look` shows them without the whisper's "The Master
# whispers" (mafia.known.<name>, the same parameters as the event mafia.<name>).
KNOWN = ("blocked", "personas", "search", "autopsy", "guess", "armed", "banned", "plans", "dead_role")


# -- the status after every change -------------------------------------------------------------

# The window (phase) each viewer was last shown, per (table, seat): Mafia's status speaks only
# when a phase begins (orders inside a phase would repeat it many times).
_LAST_STATUS: dict[tuple[int, int | None], str] = {}


def status(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
           awaited: set[int]) -> list[Msg]:
    """After every change (world.runner calls it): once per phase, a short line of the public
    statuses, and for a living player who can act, what to type. A dead seat gets nothing."""
    if seat is not None and not at_seat(view, "alive", seat, True):
        return []
    key = (getattr(table, "number", 0), seat)
    window = str(view.get("window") or "")
    if len(_LAST_STATUS) > 20000:
        _LAST_STATUS.clear()
    if _LAST_STATUS.get(key) == window:
        return []
    _LAST_STATUS[key] = window
    if not window:  # the game is over: mafia.win / mafia.stalemate said it
        return []
    out = [status_line(table, view)]
    if seat is not None and seat in awaited and usable_now(view):
        left = nested("mafia.view.left", time=duration(seconds)) if seconds is not None else ""
        out.append(msg(f"mafia.status.{'night' if view.get('phase') == 'night' else 'day'}", left=left,
                       abilities=ability_list(usable_now(view), with_left={"mail": view.get("mail_left", 0)})))
    return out


def status_line(table: "Table", view: dict[str, Any]) -> Msg:
    n = view.get("players", len(table.seats))
    hospital = [s for s in range(n) if at_seat(view, "alive", s, True) and at_seat(view, "hospital", s)]
    jail = [s for s in range(n) if at_seat(view, "alive", s, True) and at_seat(view, "jailed", s)]
    morgue = [s for s in range(n) if not at_seat(view, "alive", s, True)]
    parts: list[Any] = []
    if hospital:
        parts.append(nested("mafia.status.hospital", names=_seat_list(table, hospital)))
    if jail:
        parts.append(nested("mafia.status.jail", names=_seat_list(table, jail)))
    if morgue:
        parts.append(nested("mafia.status.morgue", names=_seat_list(table, morgue)))
    return msg("mafia.status.line", when=phase_when(view.get("phase"), view.get("number")),
               alive=n - len(morgue), players=n,
               statuses=nested_list(parts, sep=". ") if parts else nested("mafia.status.all_well"))

