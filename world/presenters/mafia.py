"""How Forum Mafia (seed 004, rule versions A, B, C, with the public roles) reads: the table (phase, number and time left, every
seat with its public role and public status: alive, Hospital, Jail with its term, Morgue), and
for the viewer their secret role, faction, what they may use now, uses left, their orders of
this phase, whether they are ready, the Mafia team, the genius's plans, the dead's roles (the
Маньяк's Шизофрения) and the last results they learned.

The engine speaks in keys (roles ``boss``, abilities ``pistol``, factions ``law``, fates
``jail``) and seat numbers; their words are in mafia_names.py. Event parameters pass through
:func:`event_params`, which turns the keys into nested messages (``i18n.nested("mafia.role_name.boss")``) so each reader sees the names in
their own language; they stay JSON-able, since an event may wait in the inbox.

HP is hidden (4.6 #8): nothing here shows it, except a Здоровяк's own (ЗОЖ: the view's
``own_hp``). Readiness of others is not public either:
the table lines never say who is still thinking (the runner's ``awaited`` set would tell).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.mafia import public_roles as PR
from games.mafia import roles as R
from games.mafia import versions as V

from ..i18n import has, nested, nested_list
from ..messages import Msg, msg
from . import LastShown, present_params, seat_name
from .mafia_names import (
    ABILITIES, ARG_NAMES, COMMON_ORDER, FATES, PERSONAS, PUBLIC_ABILITIES, PUBLIC_KEYS,
    ROLES, RULESETS, ability_lines, ability_list, ability_name, arg_name, common_keys, croupier_lists,
    ddd_plans, duration, faction_name, gmcp_letters, letter_text, mapping_list, order_details, outcome_msg, passives_text,
    persona_counts, phase_when, public_desc, public_key_of, public_title, role_list, role_name,
    ruleset_of, seat_list, spec, tally_lists, team_list, time_left, until_text, verdict, vote_count, vote_weight,
    when,
)

if TYPE_CHECKING:
    from ..table_data import Table

KNOWN_SHOWN = 6  # results shown by `look` (the latest ones)


# -- events ----------------------------------------------------------------------------------

def gmcp_text(value: Any, lang: str) -> Any:
    """GMCP payloads as a client shows them (world/presenters gmcp_readable): bots' letters as text."""
    return gmcp_letters(value, lang)


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
    if "abilities" in raw and "faction" in raw:  # the role whisper
        role = raw.get("role")
        version = table_version(table, raw)
        public, looted = _seat_public(table, raw.get("seat"))
        out["abilities"] = ability_lines(role, raw.get("abilities"), version)
        out["passives"] = passives_text(role, version)
        out["common"] = ability_lines(role, common_keys(version), version)
        out["weight"] = vote_weight(raw.get("faction"), version)
        pub_keys = [k for k in R.PUBLIC_ROLES.get(public, R.PUBLIC_ROLES[R.OTHER]).abilities]
        orders = nested("mafia.role_public_orders", abilities=ability_lines(role, pub_keys, version, public)) \
            if pub_keys else ""
        out["public"] = nested("mafia.role_public", name=public_title(public), text=public_desc(public, version),
                               orders=orders) if public in PUBLIC_KEYS else ""
        out["version"] = version
    elif "abilities" in raw:  # Улики: what damaged the target
        wounds = [k for k in raw.get("abilities") or () if isinstance(k, str)]
        out["abilities"] = nested_list([ability_name(k) for k in wounds]) if wounds \
            else nested("mafia.view.found_nothing")
    if "roles" in raw and "seats" in raw:  # the team whisper
        out["members"] = team_list(table, raw.get("seats"), raw.get("roles"))
    if "mapping" in raw:  # Ва-банк
        out["mapping"] = mapping_list(table, raw.get("mapping"))
        out["verdict"] = nested(f"mafia.all_in_{'right' if raw.get('correct') else 'wrong'}")
    if "totals" in raw:  # A: the open votes of the day
        out["votes"], out["totals"] = tally_lists(table, raw)
    if isinstance(raw.get("cards"), list):  # Крупье
        out["cards"], out["personas"], out["roles"] = croupier_lists(table, raw)
    elif "cards" in raw:
        out["cards"] = raw["cards"] if isinstance(raw["cards"], int) else 0
    if "key" in raw:  # a public role (Безработный's new one, the Мародер's loot)
        out["public"] = public_title(raw["key"], raw.get("name")) if raw["key"] != R.OTHER \
            else nested("mafia.public.other")
        out.pop("key", None)  # i18n.t(lang, key, **params): a parameter may not be called "key"
        out["public_key"] = raw["key"]
    if "mafia" in raw:  # Расследование
        out["answer"] = nested(f"mafia.investigation_{'yes' if raw.get('mafia') else 'no'}")
    if "persona" in raw:
        out["persona"] = role_name(raw["persona"])
    if isinstance(raw.get("text"), str):  # a letter: a bot's stock line in the reader's language
        out["text"] = letter_text(raw["text"])
    if "found" in raw or "count" in raw:  # Обыск: a count (C) or yes/no (A, B)
        if "found" in raw:
            out["result"] = nested(f"mafia.search_{'yes' if raw.get('found') else 'no'}")
        else:
            count = raw.get("count") if isinstance(raw.get("count"), int) else 0
            out["result"] = nested("mafia.search_count", count=count)
    if "fate" in raw:
        fate = raw["fate"] if raw["fate"] in FATES else "death"
        out["outcome"] = nested(f"mafia.fate.{fate}", seat=seat_name(table, raw.get("seat")))
    if "reason" in raw:
        out["result"] = outcome_msg(table, raw.get("reason"), raw.get("seats"))
    if "correct" in raw and "mapping" not in raw:
        out["verdict"] = verdict(raw.get("ability"), raw.get("correct"), raw.get("role"))
    if "target_seat" in raw and raw["target_seat"] is None:  # A: a public vote withdrawn
        out["target"] = ""
        out["target_seat"] = "-"
    elif "target_seat" in raw:
        out["target"] = nested("mafia.arrow", name=seat_name(table, raw["target_seat"]))
    elif raw.get("target") == "city":
        out["target"] = nested("mafia.arrow", name=nested("mafia.view.city"))
    else:
        out["target"] = ""
    if "ability" in raw and "seat" in raw:  # ordered, order_log: what the order names
        out["details"] = order_details(table, raw)
    if "seat" in raw and set(raw) <= {"seat", "target_seat"} and "target_seat" in raw:  # mafia.voted
        out["vote"] = nested("mafia.vote_given", name=seat_name(table, raw["target_seat"])) \
            if raw["target_seat"] is not None else nested("mafia.vote_withdrawn")
    for name in ("plans", "count", "players"):
        if name in raw and not isinstance(raw[name], (int, float)):
            out[name] = 0
    return out


def _table_view(table: Any) -> dict[str, Any]:
    """The public view of a table's game (spectator's), or {} when there is none."""
    engine, game = getattr(table, "engine", None), getattr(table, "game", None)
    if engine is None or game is None:
        return {}
    try:
        return engine.view(game, -1)
    except Exception:  # pragma: no cover - a presenter never fails on a strange table
        return {}


def table_version(table: Any, raw: dict[str, Any] | None = None) -> str:
    """The rule version of an event: its own ``version``, the game's, else the table options'."""
    if isinstance(raw, dict) and str(raw.get("version") or "").upper() in RULESETS:
        return str(raw["version"]).upper()
    version = getattr(getattr(table, "game", None), "version", None)
    if isinstance(version, str) and version in RULESETS:
        return version
    return ruleset_of(getattr(table, "options", None))


def _seat_public(table: Any, seat: Any) -> tuple[str, tuple[str, ...]]:
    """A seat's listed public role (key) and the Мародер's loot, from the table's game."""
    if not isinstance(seat, int):
        return R.OTHER, ()
    view = _table_view(table)
    return (public_key_at(view, seat) if view else R.OTHER), ()


def localize_params(table: "Table | None", params: dict[str, Any]) -> dict[str, Any]:
    """Rule-error parameters as names in the reader's language: ``ability``, ``target`` (a
    seat), ``name`` of a bad argument, its ``value`` (a role or persona key)."""
    out = dict(params)
    if "ability" in out:
        out["ability"] = ability_name(out["ability"])
    if "role" in out:
        out["role"] = role_name(out["role"])
    if "target" in out:
        target = out["target"]
        if target == "city":
            out["target"] = nested("mafia.view.city")
        elif isinstance(target, int) and not isinstance(target, bool) and table is not None:
            out["target"] = seat_name(table, target)
        elif target is None:
            out["target"] = "-"
    if "why" in out or "target" in out:  # bad_target: the one reason (mafia_targets.toml)
        why = f"mafia.target_why.{out.get('why')}"
        out["why"] = nested(why if has(why) else "mafia.target_why.other")
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


def public_key_at(view: dict[str, Any], seat: int) -> str:
    """The listed public role of a seat (its key), or "other" for a custom name."""
    item = at_seat(view, "public_roles", seat) or {}
    if not isinstance(item, dict):
        return R.OTHER
    key = item.get("key")
    if isinstance(key, str) and key in PUBLIC_KEYS:
        return key
    return public_key_of(item.get("name")) or R.OTHER


def public_shown(view: dict[str, Any], seat: int) -> Any:
    """A seat's public role as the reader says it (a listed role in their language)."""
    key = public_key_at(view, seat)
    return public_title(key) if key != R.OTHER else public_name(view, seat)


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


def view_version(view: dict[str, Any]) -> str:
    return ruleset_of(None, view)


def view_spec(view: dict[str, Any], key: str) -> R.Ability | None:
    """The viewer's ability ``key`` (their role, public role and loot, in the view's version)."""
    seat = view.get("viewer")
    public = public_key_at(view, seat) if isinstance(seat, int) else R.OTHER
    return spec(view.get("role"), key, public, view_version(view), view.get("looted") or ())


def usable_now(view: dict[str, Any]) -> list[str]:
    """The abilities the viewer may order in this phase, from their view alone (what
    ``legal`` offers, before targets: phase, Hospital and Jail flags, once-per-game and mail
    uses, night 1, bans, Наследие's condition, "only without", the cards of version A and the
    public roles' own limits)."""
    seat = view.get("viewer")
    role = view.get("role")
    if not isinstance(seat, int) or role not in ROLES or view.get("phase") not in ("night", "day"):
        return []
    if not at_seat(view, "alive", seat):
        return []
    public = public_key_at(view, seat)
    pub = R.PUBLIC_ROLES.get(public, R.PUBLIC_ROLES[R.OTHER])
    version = view_version(view)
    jailed, hospital = at_seat(view, "jailed", seat), at_seat(view, "hospital", seat)
    spirit = at_seat(view, "spirits", seat)
    used, orders = set(view.get("used") or ()), view.get("orders") or {}
    number = view.get("number") or 1
    jailer = any(public_key_at(view, x) == "jailer" and at_seat(view, "alive", x, True) and not at_seat(view, "jailed", x)
                 for x in range(view.get("players", 0)))  # Злоупотребление may let the jailed vote
    out = []
    for key in ordered_abilities(role, view.get("abilities") or (), version):
        ab = view_spec(view, key)
        if ab is None:
            continue
        if ab.phase != "any" and ab.phase != view["phase"]:
            continue
        if spirit and key not in PR.SPIRIT_ORDERS:
            continue
        # (a Мизер played last night lifts Hospital and Jail: the view does not say, so a jailed
        # or hospitalised seat is not refused here for abilities it may still have tonight)
        if jailed and "jail" not in ab.flags and not (key == "vote" and (pub.vote_from_jail or jailer)) \
                and not (public == "berserk" and key in ("vote", "mail", "card")) and not view.get("misere"):
            continue
        if hospital and ab.secret and "hospital" not in ab.flags and public != "warrior" and not view.get("misere"):
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
                                                                     or at_seat(view, "jailed", m.get("seat", -1))
                                                                     or at_seat(view, "spirits", m.get("seat", -1)))
                                       for m in view.get("team") or ()):
            continue
        if key == "card" and not view.get("cards"):
            continue
        if key == "hack" and number < 4:
            continue
        if key == "acquittal" and view.get("index") == 1:
            continue
        if key == "aura" and view.get("aura_left", 2) <= 0:
            continue
        if key == "open_vote" and version == "A":
            continue
        if key == "compromise" and not view.get("bank"):
            continue
        if any(other in orders for other in ab.not_with):
            continue
        if any(key in (view_spec(view, k) or R.Ability(k, "", "")).not_with for k in orders):
            continue
        out.append(key)
    return out


def ordered_abilities(role: Any, keys: Any, version: str = "C") -> list[str]:
    """Ability keys in the rules' order: the role's (in this version), a granted Наган, the
    common ones, the public role's, others."""
    keys = list(keys)
    rs = V.RULESETS.get(version, V.C)
    first = list(dict.fromkeys([*rs.abilities.get(role, {}), *R.ROLE_ABILITIES.get(role, {}),
                                *V.A_ABILITIES.get(role, {}), "revolver", *COMMON_ORDER, *PUBLIC_ABILITIES]))
    return [k for k in first if k in keys] + sorted(k for k in keys if k not in first)


def header(table: "Table", view: dict[str, Any], seconds: int | None) -> Msg:
    if view.get("phase") == "over":
        return msg("mafia.view.header_over", number=table.number, version=view.get("version", "C"),
                   result=outcome_msg(table, view.get("reason"), view.get("winners")))
    left = time_left(seconds)
    return msg("mafia.view.header", number=table.number, version=view.get("version", "C"),
               when=phase_when(view.get("phase"), view.get("number")), left=left,
               alive=sum(1 for a in view.get("alive") or () if a), players=view.get("players", 0))


def question(table: "Table", view: dict[str, Any], seat: int) -> tuple[Msg, Msg]:
    """For ``present_question``: the phase (its header), and what a phase lets one type."""
    phase = view.get("phase")
    return header(table, view, None), msg(f"mafia.hint.{phase}" if phase in ("night", "day") else "mafia.hint.over")


def seat_line(table: "Table", view: dict[str, Any], number: int, seat: int | None) -> Msg:
    info = table.seats[number] if number < len(table.seats) else None
    name = info.name if info else str(number)
    bot = nested("mafia.view.bot") if info is not None and getattr(info, "played_by_bot", False) else ""
    public = public_name(view, number)
    shown = nested("mafia.view.public", name=public_shown(view, number)) \
        if public and public.casefold() != name.casefold() else ""
    notes: list[Any] = []
    if number == seat:
        notes.append(nested("mafia.view.you"))
    for member in view.get("team") or ():
        if member.get("seat") == number and number != seat:
            notes.append(nested("mafia.view.teammate", role=role_name(member.get("role"))))
    if at_seat(view, "spirits", number):
        notes.append(nested("mafia.view.spirit"))
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
    votes = view.get("votes")
    if isinstance(votes, list) and view.get("phase") == "day":  # A: the open votes so far
        items = [nested("mafia.tally_pair", seat=seat_name(table, v[0]), target=seat_name(table, v[1]))
                 for v in votes if isinstance(v, (list, tuple)) and len(v) == 2]
        out.append(msg("mafia.view.votes", votes=nested_list(items) if items else nested("mafia.view.nobody")))
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
        extras: list[Any] = []
        if role == "genius" and number < len(plans):
            extras.append(nested("mafia.view.master_plans", plans=plans[number]))
        cards = view.get("cards")
        if view_version(view) == "A" and isinstance(cards, list) and number < len(cards):
            extras.append(nested("mafia.view.master_cards", n=cards[number]))
        if at_seat(view, "spirits", number):
            extras.append(nested("mafia.view.spirit"))
        extra = nested_list(extras, sep="") if extras else ""
        state = nested("mafia.view.master_ready") if number < len(ready) and ready[number] else (
            nested("mafia.view.master_waiting") if number in awaited else "")
        out.append(msg("mafia.view.master_seat", name=seat_name(table, number), role=role_name(role), extra=extra,
                       orders=nested_list(items, sep="; ") if items else nested("mafia.view.nothing"), state=state))
    pub = view.get("pub")
    if isinstance(pub, dict):
        out.extend(master_pub_lines(table, pub))
    return out


SEAT_KEYED = ("spirits", "looted", "bank", "aura", "vip")  # state.pub entries keyed by seat
INDEX_KEYED = ("beer", "cooked", "trim", "press", "accused")  # keyed by phase index


def _pub_value(table: "Table", value: Any) -> str:
    """A value of ``pub`` as plain text: seats as names, public-role keys as titles."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return seat_name(table, value)
    if isinstance(value, str):
        return str(public_title_text(value))
    if isinstance(value, dict):
        return ", ".join(f"{_pub_value(table, _int(k))} ({_pub_value(table, v)})" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " + ".join(_pub_value(table, v) for v in value)
    return str(value).replace("{", "(").replace("}", ")")


def _int(key: Any) -> Any:
    return int(key) if isinstance(key, str) and key.lstrip("-").isdigit() else key


PUB_LABELS = frozenset(("spirits", "looted", "pals", "beer", "cooked", "accused", "trim", "press", "aura",
                        "bank", "vip", "switch"))


def master_pub_lines(table: "Table", pub: dict[str, Any]) -> list[Msg]:
    """The public roles' lasting state for the Master (``pub``): Spirits, loot, banks, auras,
    pals, tonight's beer and dishes, reportages, accusations, role switches."""
    items: list[Any] = []
    for name, value in sorted(pub.items()):
        if not value:
            continue
        if name in SEAT_KEYED and isinstance(value, dict):
            text = "; ".join(f"{seat_name(table, _int(k))}: {v if isinstance(v, (int, float)) else _pub_value(table, v)}"
                             for k, v in value.items())
        elif name in INDEX_KEYED and isinstance(value, dict):
            text = "; ".join(f"#{k}: {_pub_value(table, v)}" for k, v in value.items())
        elif name == "pals" and isinstance(value, list):
            text = "; ".join(f"{seat_name(table, p[0])} + {seat_name(table, p[1])} (#{p[2]}..#{p[3]})"
                             for p in value if isinstance(p, (list, tuple)) and len(p) == 4)
        elif isinstance(value, list):
            text = "; ".join(_pub_value(table, v) for v in value)
        else:
            text = _pub_value(table, value)
        label = nested(f"mafia.view.pub.{name}") if name in PUB_LABELS else name
        items.append(nested("mafia.view.master_pub_item", name=label, text=text))
    if not items:
        return []
    return [msg("mafia.view.master_pub", items=nested_list(items, sep="; "))]


def public_title_text(key: Any) -> Any:
    return PR.title(key) if isinstance(key, str) else key


def private_lines(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
                  awaited: set[int]) -> list[Msg]:
    """The viewer's secret side: role, team, plans, what they may use, orders, readiness, results."""
    if seat is None or "role" not in view:
        return []
    role = view["role"]
    version = view_version(view)
    out = [msg("mafia.view.role", role=role_name(role), faction=faction_name(view.get("faction")),
               weight=vote_weight(view.get("faction"), version))]
    alive = at_seat(view, "alive", seat, True)
    if not alive:
        out.append(msg("mafia.view.you_dead"))
        return out
    team = [m for m in view.get("team") or () if m.get("seat") != seat]
    if "team" in view:
        out.append(msg("mafia.view.team", members=team_list(table, team, None) if team else nested("mafia.view.nothing")))
    if "plans" in view:
        out.append(msg("mafia.view.plans", plans=view.get("plans") or 0, need=ddd_plans(version)))
    if at_seat(view, "spirits", seat):
        out.append(msg("mafia.view.you_spirit"))
    if isinstance(view.get("own_hp"), int):  # Здоровяк (ЗОЖ): the only HP ever shown
        out.append(msg("mafia.view.own_hp", n=view["own_hp"]))
    if "bank" in view:  # Сплетник (Компромат)
        out.append(msg("mafia.view.bank", n=vote_count(view.get("bank"))))
    if "aura_left" in view:  # Медиум (Аура мёртвых)
        out.append(msg("mafia.view.aura_left", n=view.get("aura_left") or 0))
    if view.get("looted"):  # Мародер: abilities of robbed public roles
        out.append(msg("mafia.view.looted", publics=nested_list([public_title(k) for k in view["looted"]])))
    if version == "A" and "cards" in view:  # the Ход
        out.append(msg("mafia.view.cards", n=view.get("cards") or 0))
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
        out.append(msg("mafia.view.used", abilities=ability_list(ordered_abilities(role, used, version))))
    out.append(orders_msg(table, view))
    if view.get("ready"):
        out.append(msg("mafia.view.ready"))
    elif seat in awaited:
        left = time_left(seconds)
        out.append(msg("mafia.view.not_ready", left=left))
    out.extend(known_lines(table, view))
    return out


def orders_msg(table: "Table", view: dict[str, Any]) -> Msg:
    orders = view.get("orders") or {}
    if not orders:
        return msg("mafia.view.no_orders")
    role = view.get("role")
    items = [nested("mafia.order_line", ability=ability_name(key), details=order_details(table, orders[key]))
             for key in ordered_abilities(role, orders, view_version(view))]
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
KNOWN = ("blocked", "blocked_some", "blocked_idle", "blocked_day", "personas", "search", "autopsy", "guess", "armed",
         "banned", "plans", "dead_role",
         "dossier", "aura", "investigation", "evidence", "fate", "croupier", "probed", "cards", "call", "mail")


# -- the status after every change -------------------------------------------------------------

# The window (phase) each viewer was last shown, per (table, seat): Mafia's status speaks only
# when a phase begins (orders inside a phase would repeat it many times).
_LAST_STATUS = LastShown()


def status(table: "Table", view: dict[str, Any], seat: int | None, seconds: int | None,
           awaited: set[int]) -> list[Msg]:
    """After every change (world.runner calls it): once per phase, a short line of the public
    statuses, and for a living player who can act, what to type. A dead seat gets nothing."""
    if seat is not None and not at_seat(view, "alive", seat, True):
        return []
    key = (getattr(table, "number", 0), seat)
    window = str(view.get("window") or "")
    if _LAST_STATUS.swap(key, window) == window:
        return []
    if not window:  # the game is over: mafia.win / mafia.stalemate said it
        return []
    out = [status_line(table, view)]
    if seat is not None and seat in awaited and usable_now(view):
        left = time_left(seconds)
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
        parts.append(nested("mafia.status.hospital", names=seat_list(table, hospital)))
    if jail:
        parts.append(nested("mafia.status.jail", names=seat_list(table, jail)))
    if morgue:
        parts.append(nested("mafia.status.morgue", names=seat_list(table, morgue)))
    return msg("mafia.status.line", when=phase_when(view.get("phase"), view.get("number")),
               alive=n - len(morgue), players=n,
               statuses=nested_list(parts, sep=". ") if parts else nested("mafia.status.all_well"))


# A phase that runs out is how a phase ends, and the orders given stand: a timed-out `ready` is
# announced to nobody (world/presenters/absence.py).
TIMEOUT_FORMS: dict[str, str] = {}
TIMEOUT_LEAD = False
