"""Forum Mafia's words (seed 004, rule versions A, B, C, with the public roles): how the engine's
keys read. Roles, abilities, plays, factions and fates become nested messages
(``i18n.nested("mafia.role_name.boss")``), so each reader sees them in their own language; the
public roles («явные роли») get their names, titles and one-line descriptions per rule version,
and typed names are folded to find them; orders, tallies and outcomes become text.

The presenter (world/presenters/mafia.py: events, the table, the status) and the Mafia commands
(commands/games/mafia.py) use these.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.mafia import public_roles as PR
from games.mafia import roles as R
from games.mafia import versions as V
from games.mafia.bot import LETTER_MARK, LETTERS

from ..i18n import nested, nested_list, t
from . import seat_name

if TYPE_CHECKING:
    from ..table_data import Table

ROLES = V.A_ROLES  # every secret role of any version (A has the most), in A's order
PERSONAS = R.PERSONAS  # the ten roles and the decoys (the version-A roles)
NAMES = PERSONAS + (V.ANONYMOUS,)  # names a result may carry (Аноним(1) too)
FACTIONS = (R.MAFIA, R.LAW, R.NEUTRAL)
MAFIA_ROLES = ("boss", "killer", "agent")
COMMON_ORDER = ("vote", "mail", "healing", "paranoia", "card")
# The public roles' abilities, in the rules' order of their roles.
PUBLIC_ABILITIES: tuple[str, ...] = tuple(dict.fromkeys(
    k for key in PR.PUBLIC_ORDER for k in R.PUBLIC_ROLES[key].abilities))
# Every ability key, in the order of the rules (role by role in version A's order with C's and
# A's abilities, then the common ones, then the public roles').
ABILITIES: tuple[str, ...] = tuple(dict.fromkeys(
    [k for role in ROLES for table in (R.ROLE_ABILITIES.get(role, {}), V.A_ABILITIES.get(role, {}),
                                       V.B_ABILITIES.get(role, {})) for k in table]
    + list(COMMON_ORDER) + list(PUBLIC_ABILITIES)))
# What Улики may name besides abilities: a passive and a card play.
WOUNDS = ("hand_of_fate", "bank")
FATES = ("death", "jail", "spared", "acquitted", "immunity", "free")
REASONS = ("ddd", "legend", "mafia", "law", "stalemate", "spirit", "all_in")
PASSIVES = ("maniac", "genius", "joker", "civilian")  # roles with passives the role whisper describes
FLAG_ORDER = ("hospital", "jail", "unblockable")
ARG_NAMES = ("role", "persona", "personas", "public", "bans", "text", "players", "public_roles",
             "version", "night", "day", "play", "seats", "mapping")


# -- names -----------------------------------------------------------------------------------

def role_name(role: Any) -> Any:
    """A role or persona key as a nested message ("Босс"); other values as they are."""
    if isinstance(role, str) and role in NAMES:
        return nested(f"mafia.role_name.{role}")
    return role if role is not None else "-"


def role_list(items: Any) -> Any:
    if not isinstance(items, (list, tuple)):
        return role_name(items)
    if not items:
        return nested("mafia.view.nothing")
    return nested_list([role_name(r) for r in items])


def ability_name(key: Any) -> Any:
    if isinstance(key, str) and (key in ABILITIES or key == "hand_of_fate"):
        return nested(f"mafia.ability.{key}")
    if key in V.PLAYS:
        return play_name(key)
    return key if key is not None else "-"


def play_name(play: Any) -> Any:
    """A card play of the Ход (A): "Пас", "Банк"..."""
    if isinstance(play, str) and play in V.PLAYS:
        return nested(f"mafia.play.{play}")
    return play if play is not None else "-"


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


# -- public roles («явные роли»): names and one-line descriptions per rule version --------------

# The 34 listed public roles in the rules' order (the tie priority). The engine's
# games/mafia/public_roles.PUBLIC_ORDER must be the same (tests/test_mafia_signup.py checks).
PUBLIC_KEYS: tuple[str, ...] = (
    "highlander", "prosecutor", "strongman", "monk", "patrolman", "sociopath", "avenger", "pensioner",
    "unemployed", "warrior", "acrobat", "authority", "marauder", "drunkard", "grey_cardinal", "politician",
    "hacker", "anonymous", "brewer", "jailer", "journalist", "electrician", "cook", "judge", "ambassador",
    "commissar", "berserk", "medium", "lawyer", "bard", "diplomat", "revolutionary", "millionaire", "gossip")
# The name a listed role is stored under (sign-up, ``public_roles``): the seed's Russian name.
PUBLIC_SEED_NAMES: dict[str, str] = {
    "highlander": "Горец", "prosecutor": "Прокурор", "strongman": "Здоровяк", "monk": "Монах",
    "patrolman": "Патрульный", "sociopath": "Социопат", "avenger": "Мститель", "pensioner": "Пенсионер",
    "unemployed": "Безработный", "warrior": "Воин", "acrobat": "Акробат", "authority": "Авторитет",
    "marauder": "Мародер", "drunkard": "Алкаш", "grey_cardinal": "Серый кардинал", "politician": "Политик",
    "hacker": "Хакер", "anonymous": "Аноним", "brewer": "Пивовар", "jailer": "Тюремщик",
    "journalist": "Журналист", "electrician": "Электрик", "cook": "Повар", "judge": "Судья",
    "ambassador": "Посол", "commissar": "Комиссар", "berserk": "Берсерк", "medium": "Медиум",
    "lawyer": "Адвокат", "bard": "Бард", "diplomat": "Дипломат", "revolutionary": "Революционер",
    "millionaire": "Миллионер", "gossip": "Сплетник"}
# Other names a player may type for a listed role (besides its key and its catalog names).
PUBLIC_EXTRA: dict[str, tuple[str, ...]] = {
    "grey_cardinal": ("Анонимус", "Серый кардинал (Анонимус)", "Анонімус", "Сірий кардинал", "Grey Cardinal",
                      "Gray Cardinal", "Anonymus"),
    "marauder": ("Мародёр",),
    "drunkard": ("Drunk", "Пьяница", "П'яниця"),
    "berserk": ("Berserk", "Berserker"),
    "strongman": ("Здоровань",),
    "commissar": ("Commissioner",),
}
RULESETS = ("A", "B", "C")
# Public roles whose values differ from version C's (4.2): in A; B has C's values for all of them.
PUBLIC_DIFFERS: dict[str, tuple[str, ...]] = {
    "A": ("prosecutor", "avenger", "authority", "grey_cardinal", "politician", "berserk", "diplomat",
          "revolutionary", "millionaire", "gossip"),
    "B": (),
}


def fold_name(text: str) -> str:
    """A public-role name for comparing: any case, ё = е, quotes and extra spaces dropped."""
    text = str(text).replace("ё", "е").replace("Ё", "Е").strip().strip("\"«»“”„'").replace("_", " ")
    return " ".join(text.split()).casefold()


@lru_cache(maxsize=1)
def public_forms() -> dict[str, str]:
    from ..i18n import LANGUAGES, catalog

    forms: dict[str, str] = {}
    for key in PUBLIC_KEYS:
        names = {key, PUBLIC_SEED_NAMES[key], *PUBLIC_EXTRA.get(key, ())}
        names.update(str(catalog(lang).get(f"mafia.public.{key}", key)) for lang in LANGUAGES)
        for name in names:
            forms.setdefault(fold_name(name), key)
    return forms


def public_key_of(name: Any) -> str | None:
    """The listed public role a typed name means (its key), in any language and case; None for
    a custom «(Другой)» name."""
    if not isinstance(name, str) or not name.strip():
        return None
    found = public_forms().get(fold_name(name))
    if found is None:  # the engine's own names and aliases (games.mafia.public_roles.public_key)
        key = PR.public_key(name)
        found = key if key in PUBLIC_KEYS else None
    return found


def seed_name(key: str) -> str:
    return PUBLIC_SEED_NAMES.get(key, key)


def ruleset_of(options: Any = None, view: Any = None) -> str:
    """The rule version of a table: its view's ``version``, else the option ``ruleset`` or
    ``version``; "C" by default."""
    for source, names in ((view, ("version", "ruleset")), (options, ("ruleset", "version"))):
        if isinstance(source, dict):
            for name in names:
                word = str(source.get(name) or "").strip().upper()
                if word in RULESETS:
                    return word
    return "C"


def public_title(key: Any, name: Any = None) -> Any:
    """A public role as the reader says it: a listed role's name in their language, else the
    name as written at sign-up."""
    if isinstance(key, str) and key in PUBLIC_KEYS:
        return nested(f"mafia.public.{key}")
    if key == R.OTHER or key is None:
        found = public_key_of(name)
        if found is not None:
            return nested(f"mafia.public.{found}")
    return name if name is not None else "-"


def public_desc(key: str, ruleset: str = "C") -> Any:
    """A listed role's abilities in one line, with the values of this rule version."""
    if key in PUBLIC_DIFFERS.get(ruleset, ()):
        return nested(f"mafia.public_desc_{ruleset.lower()}.{key}")
    return nested(f"mafia.public_desc.{key}")


def public_line(key: str, ruleset: str = "C", player: Any = None) -> Any:
    if player is not None:
        return nested("mafia.public_list.line_player", name=public_title(key), player=player,
                      text=public_desc(key, ruleset))
    return nested("mafia.public_list.line", name=public_title(key), text=public_desc(key, ruleset))


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


def _in_units(seconds: int) -> tuple[str, int]:
    """Whole hours, minutes or seconds (rounded down below a day): ("minutes", 10)."""
    if seconds >= 7200 or (seconds >= 3600 and seconds % 3600 == 0):
        return "hours", seconds // 3600
    if seconds >= 120 or (seconds >= 60 and seconds % 60 == 0):
        return "minutes", seconds // 60
    return "seconds", seconds


def duration(seconds: Any) -> Any:
    """Seconds as "10 минут", "2 часа", "45 секунд"."""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        return str(seconds)
    unit, n = _in_units(max(0, int(seconds)))
    return nested(f"mafia.time.{unit}", n=n)


def time_left(seconds: Any) -> Any:
    """" (осталась 1 минута)" after a phase's name: the unit as ``duration`` picks it, with the verb
    agreeing with its number and noun; "" when the phase has no deadline."""
    if seconds is None:
        return ""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        return nested("mafia.view.left", time=str(seconds))
    unit, n = _in_units(max(0, int(seconds)))
    return nested(f"mafia.view.left_{unit}", n=n)


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


def spec(role: Any, key: str, public: Any = R.OTHER, version: str = "C", looted: Any = ()) -> R.Ability | None:
    """The ability ``key`` as a seat of ``role`` has it in this rule version (secret role first,
    then the common ones, the public role's, the Мародер's looted ones), or as anyone has it."""
    rs = V.RULESETS.get(version, V.C)
    found = rs.abilities.get(role, {}).get(key) or rs.common.get(key)
    if found is None:
        for pub in (public, *(looted or ())):
            found = R.PUBLIC_ROLES.get(pub, R.PUBLIC_ROLES[R.OTHER]).abilities.get(key) if isinstance(pub, str) else None
            if found is not None:
                break
    if found is None and key == "revolver":
        return R.ROLE_ABILITIES["officer"]["revolver"]
    if found is None:
        tables = (rs.common, *rs.abilities.values(), V.A_COMMON, R.COMMON, *V.A_ABILITIES.values(),
                  *R.ROLE_ABILITIES.values(), *(p.abilities for p in R.PUBLIC_ROLES.values()))
        for table in tables:
            if key in table:
                return table[key]
    return found


def _variant(kind: str, key: str, version: str) -> str:
    """``mafia.<kind>_a.<key>`` (or ``_b``) where the version reads differently, else
    ``mafia.<kind>.<key>``."""
    from ..i18n import catalog

    if version in ("A", "B"):
        special = f"mafia.{kind}_{version.lower()}.{key}"
        if special in catalog("en"):
            return special
    return f"mafia.{kind}.{key}"


def ability_desc(key: str, version: str = "C") -> Any:
    return nested(_variant("desc", key, version)) if key in ABILITIES else ""


def ability_lines(role: Any, keys: Any, version: str = "C", public: Any = R.OTHER) -> Any:
    """The role whisper's list: every ability with its flags and a one-line description."""
    items = []
    for key in keys or ():
        if not isinstance(key, str):
            continue
        items.append(nested("mafia.ability_line", name=ability_name(key),
                            flags=flags_text(spec(role, key, public, version)), text=ability_desc(key, version)))
    if not items:
        return nested("mafia.view.nothing")
    return nested_list(items, sep="\n")


def common_keys(version: str = "C") -> list[str]:
    return list(V.RULESETS.get(version, V.C).common)


def vote_weight(faction: Any, version: str = "C") -> Any:
    weight = V.RULESETS.get(version, V.C).weight.get(faction, 1)
    return int(weight) if float(weight).is_integer() else weight


def passives_text(role: Any, version: str = "C") -> Any:
    if role not in PASSIVES:
        return ""
    key = _variant("passive", role, version)
    from ..i18n import catalog

    return nested(key) if key in catalog("en") else ""


def ddd_plans(version: str = "C") -> int:
    return V.RULESETS.get(version, V.C).ddd


def seat_list(table: "Table", seats: Any) -> str:
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
    if order.get("play") is not None:
        parts.append(play_name(order["play"]))
    if order.get("public") is not None:
        public = order["public"]
        shown = public_title(public) if public in PUBLIC_KEYS else str(public)
        parts.append(nested("mafia.view.quoted", text=shown))
    if isinstance(order.get("seats"), (list, tuple)) and order.get("ability") == "deal":
        parts.append(seat_list(table, order["seats"]))
    if isinstance(order.get("mapping"), (list, tuple)):
        parts.append(mapping_list(table, order["mapping"]))
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
        parts.append(nested("mafia.view.quoted", text=_short(order["text"])))
    for target, text in order.get("more") or ():  # the Бард's further messages
        if isinstance(text, str):
            name = nested("mafia.view.city") if target == "city" else seat_name(table, target)
            parts.append(nested("mafia.more_mail", name=name, text=nested("mafia.view.quoted", text=_short(text))))
    if not parts:
        return ""
    return nested("mafia.details", items=nested_list(parts))


def _short(text: str) -> Any:
    shown = letter_text(text)
    return shown if not isinstance(shown, str) or len(shown) <= 60 else shown[:57] + "..."


def _stock_letter(text: str) -> str | None:
    """The key of a bot's stock letter (LETTER_MARK + key), or None for a letter as typed."""
    key = text[len(LETTER_MARK):] if text.startswith(LETTER_MARK) else None
    return key if key in LETTERS else None


def letter_text(text: str) -> Any:
    """A letter's text as the reader reads it: a bot's stock line in their language, else as typed."""
    key = _stock_letter(text)
    return nested(f"mafia.bot_letter.{key}") if key is not None else text


def gmcp_letters(value: Any, lang: str) -> Any:
    """``value`` (an event's params or a view, as GMCP sends them) with every bot's stock letter
    as its text in ``lang``: the engine keeps the letter's key behind LETTER_MARK, which a client
    would print as a control character and a key. Unchanged parts are shared, not copied (a view
    with no letter in it goes out as it is)."""
    if isinstance(value, str):
        key = _stock_letter(value)
        return t(lang, f"mafia.bot_letter.{key}") if key is not None else value
    if isinstance(value, dict):
        changed = {k: new for k, v in value.items() if (new := gmcp_letters(v, lang)) is not v}
        return {**value, **changed} if changed else value
    if isinstance(value, (list, tuple)):
        items = [gmcp_letters(v, lang) for v in value]
        return items if any(new is not old for new, old in zip(items, value)) else value
    return value


def mapping_list(table: "Table", mapping: Any) -> Any:
    """Ва-банк's mapping (one secret role per seat) as "Анна — Босс, Boris — Киллер"."""
    if not isinstance(mapping, (list, tuple)) or not mapping:
        return nested("mafia.view.nothing")
    return nested_list([nested("mafia.seat_role", name=seat_name(table, s), role=role_name(r))
                        for s, r in enumerate(mapping)])


def vote_count(value: Any) -> Any:
    """A vote count: 3, 1.5 (whole floats as ints); each reader's language writes a fraction its
    own way when the message is rendered («1,5 голоса»: world.i18n.number)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def tally_lists(table: "Table", raw: dict[str, Any]) -> tuple[Any, Any]:
    """``mafia.tally``: the open votes ("Анна → Boris (1 голос)") and the totals per target."""
    votes = [nested("mafia.tally_vote", seat=seat_name(table, v.get("seat")), target=seat_name(table, v.get("target_seat")),
                    n=vote_count(v.get("weight")))
             for v in raw.get("votes") or () if isinstance(v, dict)]
    totals = [nested("mafia.tally_total", seat=seat_name(table, v.get("seat")), n=vote_count(v.get("votes")))
              for v in raw.get("totals") or () if isinstance(v, dict)]
    nothing = nested("mafia.view.nobody")
    return (nested_list(votes) if votes else nothing), (nested_list(totals) if totals else nothing)


def croupier_lists(table: "Table", raw: dict[str, Any]) -> tuple[Any, Any, Any]:
    """``mafia.croupier``: card counts per seat, probed personas, roles of card players."""
    cards = raw.get("cards") if isinstance(raw.get("cards"), list) else []
    counts = [nested("mafia.card_count", name=seat_name(table, s), n=c) for s, c in enumerate(cards)
              if isinstance(c, int) and c > 0]
    personas = [nested("mafia.seat_role", name=seat_name(table, p.get("seat")), role=role_name(p.get("persona")))
                for p in raw.get("personas") or () if isinstance(p, dict)]
    roles = [nested("mafia.seat_role", name=seat_name(table, p.get("seat")), role=role_name(p.get("role")))
             for p in raw.get("roles") or () if isinstance(p, dict)]
    nothing = nested("mafia.view.nobody")
    return tuple(nested_list(x) if x else nothing for x in (counts, personas, roles))  # type: ignore[return-value]


def verdict(ability: Any, correct: Any, role: Any) -> Any:
    ability = ability if ability in ("jury", "informer") else "jury"
    return nested(f"mafia.verdict.{ability}_{'right' if correct else 'wrong'}", role=role_name(role))


def outcome_msg(table: "Table", reason: Any, seats: Any) -> Any:
    if isinstance(reason, str) and reason.startswith("mafia.outcome."):
        reason = reason.rsplit(".", 1)[-1]
    if reason not in REASONS:
        return str(reason) if reason is not None else ""
    return nested(f"mafia.outcome.{reason}", seats=seat_list(table, seats))
