"""Forum Mafia (seed 004, version C): the verbs, the presenter and the catalogs, offline.

No server here: the verbs run against a table object around a real engine state, with
``game_action`` captured. Checked:

* every legal action of many random positions of seeded bot games (5 to 30 seats): each order
  template filled with valid arguments, each vote, mail, cancel and ready, typed as a player would
  type it in Russian, English or Ukrainian (names of abilities, roles and personas in any case,
  by a unique start, in another grammatical case; players by name, start of name, Russian
  accusative, or public role) parses to exactly that action;
* clear errors: unknown ability (with "did you mean"), ambiguous start, an ability one does not
  have, unknown or ambiguous player, every missing argument, extra words; and every engine
  RuleError key renders in every language;
* every event key of the engine renders in ru/en/uk from parameters that went through a JSON
  round trip (the inbox keeps them), the role whisper lists every ability of its role with its
  description and the starting personas with counts; plurals read right;
* the table view (`look`) and the status line on random positions, in every language;
* the Mafia's team channel, the sign-up `class` (unique public role names) and which command a
  verb reaches at a Mafia table and elsewhere (`почта` is Почта here, the inbox elsewhere).
"""
from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from games.mafia import GAME as ENGINE
from games.mafia import public_roles as PR
from games.mafia import roles as R
from tests.offline import game_commands
from tests.wire import accusative, unique_prefix

LANGS = ("ru", "en", "uk")
LEFTOVER = re.compile(r"mafia\.[a-z]")  # a message key shown instead of its text
NAMES = ["Анна", "Boris", "Бот-Афанасий", "Бот-Глафира", "Дуня", "Ева", "Иван", "Олена", "Пётр", "Zoe",
         "Марфа", "Тихон", "Игнат", "Фёкла", "Савелий", "Устинья", "Прохор", "Пелагея", "Евсей", "Глеб",
         "Дарья", "Кира", "Лев", "Мирон", "Нина", "Оскар", "Ростислав", "Семён", "Ульяна", "Хома"]
PUBLICS = ["Старый продавец", "Пивовар", "Горец", "Монах", "Журналист", "Повар", "Судья", "Посол",
           "Бард", "Медиум", "Адвокат", "Дипломат", "Миллионер", "Сплетник", "Хакер", "Электрик",
           "Комиссар", "Берсерк", "Воин", "Акробат", "Авторитет", "Мародер", "Алкаш", "Политик",
           "Здоровяк", "Прокурор", "Патрульный", "Социопат", "Мститель", "Пенсионер"]
VERBS = {
    "ru": {"night": ["ночь", "ночью", "применить"], "day": ["день", "днём"], "vote": ["голос", "голосовать"],
           "mail": ["почта", "письмо"], "cancel": ["отмена", "отменить"], "ready": ["готов", "готово"]},
    "en": {"night": ["night", "use"], "day": ["day"], "vote": ["vote"], "mail": ["mail", "letter"],
           "cancel": ["cancel", "withdraw"], "ready": ["ready", "done"]},
    "uk": {"night": ["ніч", "вночі"], "day": ["день", "вдень"], "vote": ["голос", "голосувати"],
           "mail": ["пошта", "лист"], "cancel": ["скасувати"], "ready": ["готовий"]},
}
CITY = {"ru": ["город", "городу"], "en": ["city", "City"], "uk": ["місто"]}
TEXTS = {"ru": ["Я знаю, кто ты.", "Встретимся у мельницы «Ветер»", "не верь  Борису!"],
         "en": ["I know who you are.", 'Don\'t trust "Boris"', "meet me at the mill"],
         "uk": ["Я знаю, хто ти.", "Не вір Борисові!"]}
# Russian forms of role names a player may type after a verb (the accusative of the seed's names).
RU_ROLE_FORMS = {"boss": ["Босса"], "killer": ["Киллера"], "agent": ["агента"], "officer": ["Офицера"],
                 "forensic": ["Криминалиста"], "policeman": ["полицейского"], "civilian": ["Гражданского"],
                 "maniac": ["Маньяка"], "genius": ["злого гения", "Гений"], "traitor": ["Предателя"],
                 "detective": ["Сыщика"], "joker": ["Джокера"]}


def text_of(lang: str, key: str, **params: Any) -> str:
    from world.i18n import strip_marks, t

    return strip_marks(t(lang, key, **params))


def render(lang: str, message: Any) -> str:
    return text_of(lang, message.key, **json.loads(json.dumps(message.params)))


# -- a table around a real engine state ------------------------------------------------------------

class FakeTable:
    def __init__(self, state: Any, names: list[str], status: str = "running") -> None:
        self.engine, self.game, self.options = ENGINE, state, {}
        self.number, self.game_name, self.runner = 7, "mafia", object()
        self.state_name = status
        self.room = "table:7"
        self.seats = [SimpleNamespace(number=i, name=n, played_by_bot=n.startswith("Бот"), account_id=100 + i)
                      for i, n in enumerate(names)]

    @property
    def running(self) -> bool:
        return self.state_name == "running"

    def seat_of(self, account_id: int) -> int | None:
        number = account_id - 100
        return number if 0 <= number < len(self.seats) else None


class Typist:
    """Types lines at a table as one seat; what reaches the engine is captured."""

    def __init__(self, monkeypatch: Any, table: FakeTable, world: Any = None) -> None:
        import commands.games.mafia as verbs

        self.table = table
        self.sent: list[dict[str, Any]] = []
        self.replies: list[Any] = []

        async def capture(ctx: Any, action: dict[str, Any]) -> None:
            self.sent.append(action)

        monkeypatch.setattr(verbs, "game_action", capture)
        self.world = world or SimpleNamespace(tables=SimpleNamespace(table_of=lambda _id: table))

    async def type(self, seat: int, text: str) -> list[dict[str, Any]]:
        from commands.base import Ctx, split_args
        from commands.parser import resolve, split_verb

        verb, rest = split_verb(text)
        cmd, _ = resolve(verb, game_commands("mafia"))
        assert cmd is not None, text
        session = SimpleNamespace(lang="ru", send=lambda key, **p: self.replies.append((key, p)),
                                  send_msg=lambda m: self.replies.append((m.key, m.params)))
        account = SimpleNamespace(id=100 + seat, name=self.table.seats[seat].name, muted_until=None)
        ctx = Ctx(session=session, world=self.world, account=account, verb=verb, rest=rest,
                  args=split_args(rest), command=cmd)
        self.sent.clear()
        await cmd.handler(ctx)
        return list(self.sent)

    async def error(self, seat: int, text: str) -> Any:
        from commands.base import CommandError

        with pytest.raises(CommandError) as err:
            await self.type(seat, text)
        assert not self.sent, (text, self.sent)
        return err.value.message


# -- what a player types ---------------------------------------------------------------------------

def _stem_finds(word: str, name: str, names: list[str]) -> bool:
    """The name rule (a start of the name, or the name in another case) finds exactly ``name``."""
    from commands.names import match_name

    return match_name(word, names) == (name, [])


def who(seat: int, names: list[str], publics: list[str], lang: str, rng: random.Random) -> str:
    return rng.choice(_who_forms(seat, tuple(names), tuple(publics), lang))


@lru_cache(maxsize=4096)
def _who_forms(seat: int, names: tuple[str, ...], publics: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """The ways to type the player at ``seat`` (the same for the same table and language: kept)."""
    names = list(names)
    name = names[seat]
    forms = [name, name.lower(), unique_prefix(name, names), "@" + name]
    if lang in ("ru", "uk") and _stem_finds(accusative(name), name, names):
        forms.append(accusative(name))
    public = publics[seat]
    if " " not in public and not any(_stem_finds_any(public, n) for n in names):
        forms.append(public)
    return tuple(forms)


def _stem_finds_any(word: str, name: str) -> bool:
    return any(name.casefold().startswith(word[:len(word) - cut].casefold())
               for cut in (0, 1, 2) if len(word) - cut >= 2)


def ability_words(key: str, lang: str, own: list[str], rng: random.Random) -> str:
    return rng.choice(_ability_forms(key, lang, tuple(own)))


@lru_cache(maxsize=4096)
def _ability_forms(key: str, lang: str, own: tuple[str, ...]) -> tuple[str, ...]:
    """The ways to type ability ``key`` for a seat holding ``own`` (kept: the same each time)."""
    from commands.games.mafia import abilities_vocab, fold

    name = text_of(lang, f"mafia.ability.{key}")
    forms = [name, name.lower(), name.upper()]
    if lang == "en":
        forms.append(key)
    first = fold(name.split()[0])
    others = [(k, w) for k, w in abilities_vocab().forms if k != key]
    for size in range(3, len(first)):
        prefix = first[:size]
        if any(k in own and w[0].startswith(prefix) for k, w in others):
            continue
        if any(w == (prefix,) for _, w in others):  # the whole name of another ability
            continue
        forms.append(prefix)
        break
    return tuple(forms)


def role_words(key: str, lang: str, rng: random.Random) -> str:
    name = text_of(lang, f"mafia.role_name.{key}")
    forms = [name, name.lower()]
    if lang == "ru":
        forms += RU_ROLE_FORMS.get(key, [])
    if rng.random() < 0.15:  # names are understood in any language
        forms.append(text_of(rng.choice(LANGS), f"mafia.role_name.{key}"))
    return rng.choice(forms)


def fill(action: dict[str, Any], lang: str, publics: list[str], rng: random.Random, state: Any = None,
         seat: int = -1) -> dict[str, Any]:
    """A legal template with its arguments filled with valid values (for the position, when
    ``state`` is given: the version's roles, Серая масса, the Информатор's named roles, the free
    listed public roles, the living seats)."""
    from games.mafia import versions as V

    rules = V.rules(state) if state is not None else V.C
    out = {k: v for k, v in action.items() if k not in ("need", "among")}
    among = action.get("among")  # the seats a list or a public name may pick (their protections)
    key = action.get("ability")
    for need in action.get("need", ()):
        if need == "role":
            pool = list(rules.non_law if key == "jury" and rules.key == "C" else rules.roles)
            if state is not None and rules.grey_mass and state.index == 0:
                pool = [r for r in pool if r not in ("civilian", "vigilante")]
            if state is not None and key == "informer" and rules.informer_distinct_roles:
                pool = [r for r in pool if r not in state.named[seat]] or pool
            out["role"] = rng.choice(pool)
        elif need == "persona":
            out["persona"] = rng.choice(R.PERSONAS)
        elif need == "personas":
            out["personas"] = rng.sample(list(R.PERSONAS), 2)
        elif need == "public" and key == "labour_exchange":
            taken = set(state.public) if state is not None else set()
            out["public"] = rng.choice([k for k in PR.PUBLIC_ORDER if k not in taken])
        elif need == "public":
            out["public"] = rng.choice([p for x, p in enumerate(publics) if among is None or x in among])
        elif need == "bans":
            bannable = rules.bannable
            out["bans"] = [[role, rng.choice(bannable[role])] for role in rng.sample(list(bannable), 3)]
        elif need == "text":
            out["text"] = rng.choice(TEXTS[lang])
        elif need == "seats":
            living = [x for x in state.living() if x != seat and (among is None or x in among)]
            out["seats"] = rng.sample(living, rng.randint(1, min(3, len(living))))
        elif need == "mapping":
            out["mapping"] = list(state.roles) if rng.random() < 0.3 else \
                [rng.choice(rules.roles) for _ in range(state.players)]
        else:  # pragma: no cover
            raise AssertionError(need)
    return out


def command_for(action: dict[str, Any], lang: str, names: list[str], publics: list[str], own: list[str],
                rng: random.Random) -> str:
    """The text a player types for ``action`` (a filled template), varied."""
    verbs = VERBS[lang]
    kind = action["type"]
    if kind == "ready":
        return rng.choice(verbs["ready"])
    if kind == "cancel":
        return f"{rng.choice(verbs['cancel'])} {ability_words(action['ability'], lang, own, rng)}"
    if kind == "vote":
        target = who(action["target"], names, publics, lang, rng)
        if rng.random() < 0.25:
            return f"{rng.choice(verbs['day'])} {ability_words('vote', lang, own, rng)} {target}"
        return f"{rng.choice(verbs['vote'])} {target}"
    if kind == "mail":
        target = rng.choice(CITY[lang]) if action["target"] == "city" else who(action["target"], names, publics,
                                                                                lang, rng)
        if rng.random() < 0.25:
            return f"{rng.choice(verbs['night'])} {ability_words('mail', lang, own, rng)} {target} {action['text']}"
        return f"{rng.choice(verbs['mail'])} {target} {action['text']}"
    assert kind == "order", action
    key = action["ability"]
    verb = rng.choice(verbs["day"] if key == "assist" or rng.random() < 0.2 else verbs["night"])
    words = [verb, ability_words(key, lang, own, rng)]
    if key == "card":  # the Ход: the play, then its target (Пас) or persona (Блеф)
        words.append(play_words(action["play"], lang, rng))
        if action["play"] == "pass":
            words.append(who(action["target"], names, publics, lang, rng))
        elif "persona" in action:
            words.append(role_words(action["persona"], lang, rng))
        return " ".join(words)
    if "target" in action:
        if key == "disguise":  # oneself: the target may be left out
            pick = rng.random()
            if pick < 0.3:
                words.append(names[action["target"]])
            elif pick < 0.5:
                words.append({"ru": "себя", "en": "self", "uk": "себе"}[lang])
        else:
            words.append(who(action["target"], names, publics, lang, rng))
    if "public" in action and key == "labour_exchange":  # a listed role, in any language
        pick = rng.random()
        name = text_of(rng.choice(LANGS), f"mafia.public.{action['public']}") if pick < 0.5 else \
            PR.ROLES[action["public"]].title if pick < 0.8 else PR.ROLES[action["public"]].english
        words.append(name.lower() if rng.random() < 0.3 else name)
    elif "public" in action:
        public, role = action["public"], role_words(action["role"], lang, rng)
        shown = public if rng.random() < 0.6 else public.lower()
        if " " in public:
            words.append(rng.choice([f'"{shown}" {role}', f"«{shown}» {role}", f"{shown} | {role}",
                                     f"{shown}|{role}", f"{shown} {role}"]))
        else:
            words.append(rng.choice([f"{shown} {role}", f'"{shown}" {role}', f"{shown} | {role}"]))
    elif "role" in action:
        words.append(role_words(action["role"], lang, rng))
    if "persona" in action:
        words.append(role_words(action["persona"], lang, rng))
    if "personas" in action:
        joiner = rng.choice([" ", {"ru": " и ", "en": " and ", "uk": " і "}[lang], ", "])
        words.append(joiner.join(role_words(p, lang, rng) for p in action["personas"]).replace(" ,", ","))
    if "seats" in action:
        words.append(rng.choice([" ", ", "]).join(who(x, names, publics, lang, rng) for x in action["seats"]))
    if "mapping" in action:
        if rng.random() < 0.3:  # the roles in seat order
            words.append(" ".join(role_words(r, lang, rng) for r in action["mapping"]))
        else:
            pairs = [f"{rng.choice([names[x], names[x].lower()])}{rng.choice(['=', ':', ' = '])}{role_words(r, lang, rng)}"
                     for x, r in enumerate(action["mapping"])]
            rng.shuffle(pairs)
            words.append(rng.choice([" ", ", "]).join(pairs))
    if "text" in action:
        words.append(action["text"])
    if "bans" in action:
        pairs = []
        style = rng.random()
        for role, ability in action["bans"]:
            ab = text_of(lang, f"mafia.ability.{ability}").lower()
            if style < 0.4:
                pairs.append(f"{role_words(role, lang, rng)}:{ab}")
            elif style < 0.7:
                pairs.append(ab)
            else:
                pairs.append(f"{role_words(role, lang, rng)} {ab}")
        words.append(rng.choice([" ", ", "]).join(pairs))
    return " ".join(words)


def play_words(play: str, lang: str, rng: random.Random) -> str:
    name = text_of(lang, f"mafia.play.{play}")
    return rng.choice([name, name.lower(), name.upper(), play] if lang == "en" else [name, name.lower()])


def canon(action: dict[str, Any]) -> str:
    """An action as JSON; a typed text as other players read it (world.text.clean: one space
    where the player typed several)."""
    if isinstance(action.get("text"), str):
        action = {**action, "text": " ".join(action["text"].split())}
    return json.dumps(action, sort_keys=True, ensure_ascii=False)


# -- offline: verbs against every legal action -------------------------------------------------------

LISTED = [PR.ROLES[k].title for k in PR.PUBLIC_ORDER]  # the 34 listed public roles, by the seed's names


async def test_every_legal_action_has_a_verb(monkeypatch):
    """Random positions of seeded bot games, 5 to 30 seats, under each ruleset A, B and C, at
    tables of mixed public roles and tables where every seat holds a listed one: for a seat that
    may act, every legal action (templates filled with valid arguments) typed in ru/en/uk (in turn) parses
    to exactly that action; and what the view says one may use covers what legal offers."""
    from world.presenters import mafia as P

    checked: dict[str, int] = {}
    turn = 0
    for game_no in range(42):
        rng = random.Random(1000 + game_no)
        version = "ABC"[game_no % 3]
        sizes = [5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 30] + ([11, 12, 13, 14, 15, 16] if version == "A" else [])
        players = rng.choice(sizes)
        names = NAMES[:players]
        publics = PUBLICS[:players] if game_no % 2 == 0 else rng.sample(LISTED, players)
        state = ENGINE.new(players, {"public_roles": publics, "ruleset": version}, game_no)
        table = FakeTable(state, names)
        typist = Typist(monkeypatch, table)
        for step in range(400):
            if ENGINE.outcome(state) is not None:
                break
            waits = ENGINE.awaiting(state)
            if not waits:
                break
            seat = rng.choice(waits).seat
            legal = ENGINE.legal(state, seat)
            view = ENGINE.view(state, seat)
            usable = set(P.usable_now(view))
            offered = {a.get("ability", a["type"]) for a in legal if a["type"] in ("order", "vote", "mail")}
            assert offered <= usable, (offered - usable, view["role"], version)
            if rng.random() < 0.3 or step < 3:
                publics = [P.public_name(view, x) for x in range(players)]  # Биржа труда changes them
                own = P.ordered_abilities(view["role"], view["abilities"], version)
                sample = rng.sample(legal, min(len(legal), 10))
                # the rarer kinds first: every kind of order this seat has is tried
                seen: set[str] = set()
                for action in legal:
                    key = action.get("ability", action["type"])
                    if key not in seen and action not in sample:
                        sample.append(action)
                    seen.add(key)
                for template in sample:
                    turn += 1  # one language per template, in turn: each is typed thousands of times
                    for lang in (LANGS[turn % len(LANGS)],):
                        action = fill(template, lang, publics, rng, state, seat)
                        text = command_for(action, lang, names, publics, own, rng)
                        sent = await typist.type(seat, text)
                        assert [canon(a) for a in sent] == [canon(action)], (text, action, sent, view["role"], version)
                        name = action.get("ability") if action["type"] == "order" else action["type"]
                        checked[name] = checked.get(name, 0) + 1
            if rng.random() < 0.04:
                choice = fill(rng.choice(legal), "ru", publics, rng, state, seat)
            else:
                choice = ENGINE.bot_action(view, legal, rng, "normal")
            ENGINE.apply(state, seat, choice)
    every = set(P.ABILITIES) | {"cancel", "ready"}
    # Наследие needs a dead Killer and a living Boss; Ва-банк, the Мародер's Эксгумация and the
    # Сплетник's Компромат (it needs a bank first) are rare in bot play; they are typed in
    # test_version_a_verbs / test_public_role_verbs below.
    missing = every - set(checked) - {"legacy", "all_in", "exhumation", "compromise"}
    assert not missing, (missing, checked)


# -- offline: errors -------------------------------------------------------------------------------

def _seat_of_role(state: Any, role: str) -> int:
    return state.roles.index(role)


@pytest.fixture
def position():
    """A 10-seat game (every secret role once) at night 1, with two Бот- names to clash."""
    names = ["Анна", "Boris", "Бот-Афанасий", "Бот-Глафира", "Дуня", "Ева", "Иван", "Олена", "Пётр", "Zoe"]
    publics = ["Старый продавец", "Пивовар", "Горец", "Монах", "Журналист", "Повар", "Судья", "Посол",
               "Бард", "Медиум"]
    state = ENGINE.new(10, {"public_roles": publics}, 11)
    return state, names, publics


async def test_verbs_say_what_is_wrong(monkeypatch, position):
    state, names, publics = position
    typist = Typist(monkeypatch, FakeTable(state, names))
    killer, forensic = _seat_of_role(state, "killer"), _seat_of_role(state, "forensic")
    maniac, policeman = _seat_of_role(state, "maniac"), _seat_of_role(state, "policeman")
    agent, civilian = _seat_of_role(state, "agent"), _seat_of_role(state, "civilian")
    other = next(s for s in range(10) if s not in (killer, forensic) and not names[s].startswith("Бот"))

    async def check(seat: int, text: str, key: str, *fragments: str, lang: str = "ru") -> str:
        message = await typist.error(seat, text)
        assert message.key == key, (text, message)
        out = render(lang, message)
        for fragment in fragments:
            assert fragment in out, (text, out)
        for each in LANGS:
            shown = render(each, message)
            assert "{" not in shown and not LEFTOVER.search(shown), (each, shown)
        return out

    await check(killer, f"ночь xyz {names[other]}", "mafia.cmd.bad_ability", "Нет способности «xyz»", "Пистолет")
    await check(killer, f"ночь пистолт {names[other]}", "mafia.cmd.bad_ability", "Может быть: Пистолет?")
    await check(killer, "night pistl Anna", "mafia.cmd.bad_ability", "Perhaps: Pistol?", lang="en")
    await check(killer, f"ночь п {names[other]}", "mafia.cmd.ambiguous_ability", "Пистолет", "Паранойя")
    await check(forensic, f"ночь пистолет {names[other]}", "mafia.cmd.not_your_ability", "Пистолет", "Обыск")
    await check(forensic, f"ночь в свои руки {names[other]}", "mafia.cmd.not_your_ability", "В свои руки")
    await check(killer, "ночь пистолет Zed", "mafia.cmd.no_player", "нет игрока Zed")
    await check(killer, "день голосование Бот", "mafia.cmd.ambiguous_player", "Бот-Афанасий, Бот-Глафира")
    await check(killer, "ночь пистолет", "mafia.cmd.need_target", "Пистолет: на кого?")
    await check(killer, f"ночь снайпер {names[other]}", "mafia.cmd.need_role", "назовите тайную роль")
    await check(killer, f"ночь снайпер {names[other]} Король", "mafia.cmd.bad_role", "Нет тайной роли «Король»")
    await check(killer, f"ночь снайпер {names[other]} Предатель", "mafia.cmd.bad_role")  # a decoy is no role
    await check(killer, f"ночь снайпер {names[other]} Босс лишнее", "mafia.cmd.extra", "лишнее")
    await check(forensic, f"ночь обыск {names[other]} Киллер", "mafia.cmd.need_personas", "две разные Личины")
    await check(forensic, f"ночь обыск {names[other]} Киллер Киллера", "mafia.cmd.same_personas")
    await check(forensic, f"ночь обыск {names[other]} Киллер Агент Босс", "mafia.cmd.extra")
    await check(agent, f"ночь клевета {names[other]}", "mafia.cmd.need_persona", "назовите Личину")
    await check(agent, f"ночь клевета {names[other]} м", "mafia.cmd.ambiguous_persona", "Маньяк")
    await check(maniac, "ночь кровавая баня", "mafia.cmd.need_public", "Старый продавец")
    await check(maniac, "ночь баня Пивовар", "mafia.cmd.need_role")
    await check(maniac, "ночь баня Никто агент", "mafia.cmd.no_public", "«Никто»", "Пивовар")
    await check(policeman, f"ночь запрет {names[other]}", "mafia.cmd.need_bans", "агент:саботаж")
    await check(policeman, f"ночь запрет {names[other]} агент:саботаж агент:прикрытие маньяк:нападение",
                "mafia.cmd.ban_same_role", "Агент")
    await check(policeman, f"ночь запрет {names[other]} агент:пистолет киллер:саботаж маньяк:нападение",
                "mafia.cmd.ban_ability", "Агент", "Саботаж")
    await check(policeman, f"ночь запрет {names[other]} допрос пистолет кара", "mafia.cmd.bad_ban", "«кара»")
    await check(civilian, f"ночь суд {names[other]} Офицер", "mafia.cmd.bad_role", "Босс")  # non-Law only
    await check(killer, "ночь", "mafia.cmd.use_usage", "Пистолет")
    await check(killer, f"почта {names[other]}", "mafia.cmd.need_text")
    await check(killer, "отмена", "mafia.cmd.no_orders")
    await check(killer, "свои", "mafia.cmd.team_what")
    await check(forensic, "свои привет", "mafia.cmd.team_only")
    # two orders: `cancel` asks which one, `cancel all` withdraws both
    ENGINE.apply(state, killer, {"type": "order", "ability": "pistol", "target": other})
    ENGINE.apply(state, killer, {"type": "order", "ability": "paranoia"})
    await check(killer, "отмена", "mafia.cmd.which_cancel", "Пистолет", "Паранойя")
    assert await typist.type(killer, "отмена все") == [{"type": "cancel", "ability": "pistol"},
                                                       {"type": "cancel", "ability": "paranoia"}]
    assert await typist.type(killer, "cancel para") == [{"type": "cancel", "ability": "paranoia"}]


async def test_rule_errors_come_back_in_the_readers_language(monkeypatch, position):
    """The engine's RuleErrors: the verb sends the action, the error names the ability, the
    target and the argument in the reader's language."""
    import commands.games.mafia as verbs
    from commands.base import CommandError
    from games.base import RuleError
    from world.i18n import catalog

    state, names, publics = position
    table = FakeTable(state, names)
    typist = Typist(monkeypatch, table)
    killer = _seat_of_role(state, "killer")

    async def refuse(ctx: Any, action: dict[str, Any]) -> None:
        try:
            ENGINE.apply(state.copy(), killer, action)
        except RuleError as err:
            raise CommandError(err.key, **err.params) from err

    monkeypatch.setattr(verbs, "game_action", refuse)
    message = await typist.error(killer, f"ночь снайпер {names[(killer + 1) % 10]} Босс")
    assert message.key == "mafia.error.not_first_night"
    assert render("ru", message) == "Снайперская винтовка нельзя применять в первую ночь."
    assert render("en", message) == "Sniper rifle cannot be used on night 1."
    message = await typist.error(killer, f"ночь пистолет {names[killer]}")
    assert message.key == "mafia.error.bad_target"
    assert render("ru", message) == f"Пистолет: цель {names[killer]} выбрать нельзя — на себя нельзя."
    message = await typist.error(killer, f"голос {names[0]}")
    assert message.key == "mafia.error.wrong_phase"
    assert render("uk", message).startswith("Голосування — не в цю фазу")
    # every error key the engine raises is in every catalog and renders from its parameters
    source = "".join(path.read_text(encoding="utf-8")
                     for path in sorted(Path(__file__).resolve().parents[1].joinpath("games/mafia").glob("*.py")))
    keys = set(re.findall(r'_err\("([a-z_]+)"', source)) | {
        "wrong_phase", "jailed", "hospital", "used_up", "not_first_night", "banned", "not_now", "exclusive",
        "spirit", "no_cards", "cards_off", "grey_mass", "already_named", "duplicate_public_role"}
    from world.presenters.mafia import localize_params

    samples = {"ability": "pistol", "target": 3, "name": "role", "value": "boss", "role": "civilian"}
    for key in sorted(keys):
        for lang in LANGS:
            assert f"mafia.error.{key}" in catalog(lang), (lang, key)
            shown = text_of(lang, f"mafia.error.{key}", **json.loads(json.dumps(localize_params(table, samples))))
            assert "{" not in shown and not LEFTOVER.search(shown), (lang, key, shown)


# -- offline: events -------------------------------------------------------------------------------

def fake_table(names: list[str]) -> Any:
    return SimpleNamespace(number=3, game_name="mafia", options={},
                           seats=[SimpleNamespace(number=i, name=n, played_by_bot=n.startswith("Бот"))
                                  for i, n in enumerate(names)])


EVENT_SAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("mafia.start", {"players": 10, "version": "C"}),
    ("mafia.start", {"players": 21, "version": "C"}),
    ("mafia.news", {"phase": "night", "number": 1}),
    ("mafia.news", {"phase": "day", "number": 2}),
    ("mafia.phase", {"phase": "night", "number": 1, "seconds": 600}),
    ("mafia.phase", {"phase": "day", "number": 3, "seconds": 86400}),
    ("mafia.phase", {"phase": "night", "number": 2, "seconds": 45}),
    ("mafia.died", {"seat": 1}),
    ("mafia.hospital", {"seat": 2}),
    ("mafia.recovered", {"seat": 2}),
    ("mafia.jailed", {"seat": 3, "until": 4}),
    ("mafia.jailed", {"seat": 3, "until": 3}),
    ("mafia.jailed", {"seat": 3, "until": "life"}),
    ("mafia.released", {"seat": 3}),
    ("mafia.tommygun", {"seat": 0}),
    ("mafia.city_mail", {"text": "Я знаю, кто ты {not a key} <b>"}),
    ("mafia.city_spammed", {}),
    ("mafia.vote_result", {"seat": 4, "fate": "death"}),
    ("mafia.vote_result", {"seat": 4, "fate": "jail"}),
    ("mafia.vote_result", {"seat": 4, "fate": "spared"}),
    ("mafia.vote_result", {"seat": 4, "fate": "free"}),
    ("mafia.vote_result", {"seat": 4, "fate": "immunity"}),
    ("mafia.mail", {"seat": 0, "text": "\x1fi_know"}),
    ("mafia.no_execution", {}),
    ("mafia.win", {"reason": "mafia", "seats": [0, 1]}),
    ("mafia.win", {"reason": "law", "seats": [2, 3, 4]}),
    ("mafia.win", {"reason": "legend", "seats": [4]}),
    ("mafia.win", {"reason": "ddd", "seats": [1]}),
    ("mafia.stalemate", {}),
    ("mafia.team", {"seats": [0, 2, 4], "roles": ["boss", "killer", "agent"]}),
    ("mafia.ordered", {"seat": 0, "ability": "pistol", "target_seat": 1}),
    ("mafia.ordered", {"seat": 0, "ability": "paranoia"}),
    ("mafia.cancelled", {"seat": 0, "ability": "vote"}),
    ("mafia.done", {"seat": 0, "ability": "double_life"}),
    ("mafia.blocked", {"seat": 0}),
    ("mafia.blocked_some", {"seat": 0, "abilities": ["assault", "mail"]}),
    ("mafia.blocked_idle", {"seat": 0}),
    ("mafia.blocked_day", {"seat": 0}),
    ("mafia.personas", {"seat": 0, "ability": "own_hands", "target_seat": 1, "personas": ["boss", "traitor"]}),
    ("mafia.personas", {"seat": 0, "ability": "stalking", "target_seat": 1, "personas": []}),
    ("mafia.search", {"seat": 0, "ability": "search", "target_seat": 1, "personas": ["killer", "genius"],
                      "count": 1}),
    ("mafia.autopsy", {"seat": 0, "ability": "autopsy", "target_seat": 1, "role": "policeman"}),
    ("mafia.guess", {"seat": 0, "ability": "jury", "target_seat": 1, "role": "maniac", "correct": True}),
    ("mafia.guess", {"seat": 0, "ability": "jury", "target_seat": 1, "role": "maniac", "correct": False}),
    ("mafia.guess", {"seat": 0, "ability": "informer", "target_seat": 1, "role": "boss", "correct": True}),
    ("mafia.guess", {"seat": 0, "ability": "informer", "target_seat": 1, "role": "boss", "correct": False}),
    ("mafia.armed", {"seat": 2}),
    ("mafia.banned", {"seat": 2, "ability": "sniper"}),
    ("mafia.mail", {"seat": 2, "text": "беги"}),
    ("mafia.spammed", {"seat": 2}),
    ("mafia.plans", {"seat": 1, "plans": 1}),
    ("mafia.plans", {"seat": 1, "plans": 5}),
    ("mafia.dead_role", {"seat": 4, "target_seat": 1, "role": "civilian"}),
    ("mafia.order_log", {"seat": 0, "ability": "ban", "target_seat": 1,
                         "bans": [["agent", "sabotage"], ["killer", "pistol"], ["maniac", "assault"]]}),
    ("mafia.order_log", {"seat": 0, "ability": "mail", "target": "city", "text": "hi"}),
    ("mafia.order_log", {"seat": 0, "ability": "bloodbath", "public": "Пивовар", "role": "agent"}),
    ("mafia.order_log", {"seat": 0, "ability": "search", "target_seat": 1, "personas": ["boss", "joker"]}),
    # version A and B
    ("mafia.start", {"players": 13, "version": "A"}),
    ("mafia.voted", {"seat": 0, "target_seat": 3}),
    ("mafia.voted", {"seat": 0, "target_seat": None}),
    ("mafia.tally", {"votes": [{"seat": 0, "target_seat": 3, "weight": 1}, {"seat": 1, "target_seat": 3, "weight": 1.5}],
                     "totals": [{"seat": 3, "votes": 2.5}]}),
    ("mafia.tally", {"votes": [], "totals": []}),
    ("mafia.all_in", {"seat": 4, "mapping": ["boss", "killer", "officer", "civilian", "joker"], "correct": True}),
    ("mafia.all_in", {"seat": 4, "mapping": ["boss", "killer", "officer", "civilian", "joker"], "correct": False}),
    ("mafia.search", {"seat": 0, "ability": "search", "target_seat": 1, "personas": ["killer"], "found": True}),
    ("mafia.search", {"seat": 0, "ability": "search", "target_seat": 1, "personas": ["killer", "agent"],
                      "found": False}),
    ("mafia.investigation", {"seat": 0, "ability": "investigation", "target_seat": 2, "mafia": True}),
    ("mafia.investigation", {"seat": 0, "ability": "investigation", "target_seat": 2, "mafia": False}),
    ("mafia.evidence", {"seat": 0, "ability": "evidence", "target_seat": 2,
                        "abilities": ["pistol", "bloodbath", "hand_of_fate", "bank"]}),
    ("mafia.evidence", {"seat": 0, "ability": "evidence", "target_seat": 2, "abilities": []}),
    ("mafia.cards", {"seat": 1, "cards": 1}),
    ("mafia.cards", {"seat": 1, "cards": 5}),
    ("mafia.fate", {"seat": 4, "target_seat": 1, "role": "traitor"}),
    ("mafia.croupier", {"seat": 4, "cards": [0, 2, 1, 0, 3], "personas": [{"seat": 1, "persona": "anonymous"}],
                        "roles": [{"seat": 2, "role": "detective"}]}),
    ("mafia.croupier", {"seat": 4, "cards": [0, 0, 0, 0, 1], "personas": [], "roles": []}),
    ("mafia.call", {"seat": 2, "text": "сдавайся {now}"}),
    ("mafia.probed", {"seat": 3, "persona": "genius"}),
    ("mafia.order_log", {"seat": 0, "ability": "card", "target_seat": 0, "play": "bluff", "persona": "boss"}),
    ("mafia.order_log", {"seat": 4, "ability": "all_in", "mapping": ["boss", "killer", "officer", "civilian", "joker"]}),
    ("mafia.order_log", {"seat": 4, "ability": "deal", "seats": [1, 2]}),
    ("mafia.ordered", {"seat": 0, "ability": "card", "target_seat": 1}),
    ("mafia.win", {"reason": "all_in", "seats": [4]}),
    # public roles
    ("mafia.announced", {"seat": 1, "ability": "indictment", "target_seat": 3}),
    ("mafia.announced", {"seat": 1, "ability": "riot", "target_seat": 3}),
    ("mafia.role_changed", {"seat": 2, "key": "highlander", "name": "Горец"}),
    ("mafia.looted", {"seat": 2, "target_seat": 4, "key": "cook"}),
    ("mafia.looted", {"seat": 2, "target_seat": 4, "key": "other"}),
    ("mafia.spirit", {"seat": 3}),
    ("mafia.open_vote", {"seat": 3, "target_seat": 0}),
    ("mafia.dossier", {"seat": 0, "ability": "hack", "target_seat": 1, "role": "maniac"}),
    ("mafia.aura", {"seat": 0, "ability": "aura", "count": 1}),
    ("mafia.aura", {"seat": 0, "ability": "aura", "count": 5}),
    ("mafia.personas", {"seat": 0, "ability": "seance", "target_seat": 1, "personas": ["anonymous"]}),
    ("mafia.autopsy", {"seat": 0, "ability": "exhumation", "target_seat": 1, "role": "joker"}),
    ("mafia.vote_result", {"seat": 4, "fate": "acquitted"}),
    ("mafia.win", {"reason": "spirit", "seats": [3]}),
    ("mafia.order_log", {"seat": 0, "ability": "labour_exchange", "public": "highlander"}),
    ("mafia.order_log", {"seat": 0, "ability": "mail", "target": 1, "text": "a",
                         "more": [["city", "b"], [2, "c"]]}),
]


def _engine_event_keys() -> set[str]:
    import games.mafia.engine as engine

    folder = Path(engine.__file__).parent
    text = "".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.py")))
    keys = set(re.findall(r'"(mafia\.[a-z_]+)"', text))
    return {k for k in keys if not k.startswith(("mafia.error", "mafia.outcome"))}


def _role_events() -> list[tuple[str, dict[str, Any]]]:
    state = ENGINE.new(10, None, 5)  # ten seats: every secret role once
    return [(e.key, e.params) for e in ENGINE.start_events(state) if e.key == "mafia.role"]


def test_every_event_renders_per_reader_and_survives_json():
    from world.i18n import catalog
    from world.presenters import present_params

    samples = EVENT_SAMPLES + _role_events()
    sampled = {key for key, _ in samples}
    assert _engine_event_keys() <= sampled, _engine_event_keys() - sampled
    table = fake_table(["Анна", "Boris", "Бот-Евсей", "Дуня", "Ева"] + NAMES[10:15])
    for key, raw in samples:
        params = json.loads(json.dumps(present_params(table, raw)))  # as an inbox item keeps it
        for lang in LANGS:
            assert key in catalog(lang), (lang, key)
            text = text_of(lang, key, **params)
            assert "$msg" not in text and "'$list'" not in text and not LEFTOVER.search(text), (lang, key, text)
            assert "{" not in text.replace("{not a key}", "").replace("{now}", ""), (lang, key, text)

    def shown(lang: str, key: str, raw: dict[str, Any]) -> str:
        return text_of(lang, key, **json.loads(json.dumps(present_params(table, raw))))

    assert shown("ru", "mafia.jailed", {"seat": 3, "until": 4}) == "Дуня попадает в Тюрьму до конца ночи 3."
    assert shown("en", "mafia.jailed", {"seat": 3, "until": "life"}) == "Дуня goes to Jail for the rest of the game."
    assert shown("uk", "mafia.jailed", {"seat": 3, "until": 3}) == "Дуня потрапляє до В'язниці до кінця дня 2."
    assert shown("ru", "mafia.vote_result", {"seat": 4, "fate": "death"}) == "Итог Вече: Ева отправляется в Морг."
    assert shown("ru", "mafia.phase", {"phase": "night", "number": 1, "seconds": 600}).startswith(
        "Наступает ночь 1. На заявки — 10 минут.")
    assert shown("en", "mafia.phase", {"phase": "day", "number": 3, "seconds": 86400}).startswith(
        "Day 3 begins. Orders: 24 hours.")
    assert shown("uk", "mafia.phase", {"phase": "day", "number": 3, "seconds": 7200}).startswith(
        "Настає день 3. На заявки — 2 години.")
    assert shown("ru", "mafia.news", {"phase": "night", "number": 2}) == "Утро. Итоги ночи 2:"
    assert shown("ru", "mafia.team", {"seats": [0, 2], "roles": ["boss", "killer"]}) == (
        "Мастер шепчет: Мафия открывает глаза. Свои: Анна — Босс, Бот-Евсей — Киллер. Говорить со своими: свои ТЕКСТ.")
    assert shown("ru", "mafia.personas", {"seat": 0, "ability": "own_hands", "target_seat": 1,
                                          "personas": ["boss", "genius"]}) == (
        "Мастер шепчет (В свои руки): Личины игрока Boris — Босс, Злой Гений.")
    assert shown("en", "mafia.guess", {"seat": 0, "ability": "jury", "target_seat": 1, "role": "maniac",
                                       "correct": True}) == (
        "The Master whispers (Jury): Boris — right, Maniac: next day 2 votes go against the target in secret.")
    assert shown("ru", "mafia.win", {"reason": "law", "seats": [1, 3]}) == "Игра окончена. Побеждает Закон: Boris, Дуня."
    assert shown("ru", "mafia.ordered", {"seat": 0, "ability": "sniper", "target_seat": 4}) == (
        "Заявка принята: Снайперская винтовка → Ева.")
    assert shown("ru", "mafia.city_mail", {"text": "<b>жирный?</b>"}) == "Письмо городу: <b>жирный?</b>"
    # plurals: 1 хитрый план, 2 хитрых плана, 5 хитрых планов; 1 голос, 2 голоса, 3 голоса
    for lang, n, form in (("ru", 1, "1 хитрый план"), ("ru", 2, "2 хитрых плана"), ("ru", 5, "5 хитрых планов"),
                          ("uk", 2, "2 хитрі плани"), ("en", 1, "1 cunning plan"), ("en", 6, "6 cunning plans")):
        assert form in shown(lang, "mafia.plans", {"seat": 1, "plans": n}), (lang, n)
    for lang, n, form in (("ru", 1, "1 голос"), ("ru", 2, "2 голоса"), ("ru", 5, "5 голосов"),
                          ("uk", 5, "5 голосів"), ("en", 1, "1 vote"), ("en", 3, "3 votes")):
        assert text_of(lang, "mafia.view.role", role="X", faction="Y", weight=n).endswith(f"{form}."), (lang, n)


def test_the_role_whisper_lists_every_ability_with_a_description_and_the_personas():
    from world.presenters import present_params

    table = fake_table(NAMES[:10])
    events = _role_events()
    assert {raw["role"] for _, raw in events} == set(R.ROLE_ORDER)
    for key, raw in events:
        params = json.loads(json.dumps(present_params(table, raw)))
        for lang in LANGS:
            text = text_of(lang, key, **params)
            role = text_of(lang, f"mafia.role_name.{raw['role']}")
            assert role in text.splitlines()[0], (lang, text)
            lines = text.splitlines()
            for ability in R.ROLE_ABILITIES[raw["role"]]:
                name = text_of(lang, f"mafia.ability.{ability}")
                desc = text_of(lang, f"mafia.desc.{ability}")
                assert any(line.strip().startswith(f"• {name}") and line.endswith(desc) for line in lines), \
                    (lang, ability, text)
            for common in ("vote", "mail", "healing", "paranoia"):
                assert text_of(lang, f"mafia.desc.{common}") in text, (lang, common)
            for persona, count in raw["personas"].items():
                assert f"{text_of(lang, f'mafia.role_name.{persona}')}({count})" in text, (lang, persona, text)
    boss = next(raw for _, raw in events if raw["role"] == "boss")
    text = text_of("ru", "mafia.role", **json.loads(json.dumps(present_params(table, boss))))
    assert "Ваш голос на Вече — 1 голос." in text
    assert "Ваши стартовые Личины: Босс(1), Криминалист(1), Полицейский(1), Злой Гений(1), Гражданский(1)." in text
    assert "  • Допрос (Б) — ночью заблокировать цель" in text
    assert "  • Паранойя (Г, Т, раз за игру) — " in text
    maniac = next(raw for _, raw in events if raw["role"] == "maniac")
    text = text_of("en", "mafia.role", **json.loads(json.dumps(present_params(table, maniac))))
    assert "Schizophrenia" in text and "I am legend" in text and "Double life (H, J, any time, once per game)" in text


# -- offline: the table view and the status line ---------------------------------------------------------

def test_look_and_status_on_random_positions():
    """`look` for every seat, a spectator and the dead, in every language, on positions of bot
    games under each ruleset (mixed and all-listed public roles); the status line once per
    phase, nothing for the dead; HP only for the Здоровяк."""
    from world.presenters import mafia as P

    for game_no in range(9):
        rng = random.Random(game_no)
        version = "ABC"[game_no % 3]
        players = rng.choice([5, 7, 10, 13])
        names = NAMES[:players]
        publics = PUBLICS[:players] if game_no % 2 == 0 else rng.sample(LISTED, players)
        state = ENGINE.new(players, {"public_roles": publics, "ruleset": version}, game_no)
        table = fake_table(names)
        P._LAST_STATUS.clear()
        for step in range(600):
            waits = ENGINE.awaiting(state)
            if ENGINE.outcome(state) is not None or not waits:
                break
            if step % 25 == 0:
                awaited = {w.seat for w in waits}
                for seat in [*range(players), -1, -2]:  # the players, a spectator, the Master
                    view = ENGINE.view(state, seat)
                    viewer = None if seat < 0 else seat
                    lines = P.describe(table, view, viewer, 300, awaited)
                    status = P.status(table, view, viewer, 300, awaited)
                    if viewer is not None and not state.alive[viewer]:
                        assert status == []
                    for lang in LANGS:
                        text = "\n".join(render(lang, m) for m in lines + status)
                        assert "{" not in text and not LEFTOVER.search(text) and "$msg" not in text, (lang, text)
                        if viewer is not None:
                            role = text_of(lang, f"mafia.role_name.{state.roles[viewer]}")
                            assert role in text
                        hp_line = text_of(lang, "mafia.view.own_hp", n=state.hp[viewer]) if viewer is not None else None
                        if viewer is not None and state.alive[viewer]:
                            assert (hp_line in text) == (state.public[viewer] == "strongman"), (lang, text)
                    assert P.status(table, view, viewer, 300, awaited) == []  # once per phase
            seat = rng.choice(waits).seat
            ENGINE.apply(state, seat, ENGINE.bot_action(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng,
                                                        "normal"))
        view = ENGINE.view(state, 0)
        for lang in LANGS:
            text = "\n".join(render(lang, m) for m in P.describe(table, view, 0, None, set()))
            assert "{" not in text and not LEFTOVER.search(text), text


def test_view_lines_read_well():
    from world.presenters import mafia as P

    names = ["Анна", "Boris", "Вера", "Дуня", "Ева"]
    state = ENGINE.new(5, {"public_roles": ["Пивовар", "Boris", "Горец", "Монах", "Повар"]}, 2)
    table = fake_table(names)
    boss = state.roles.index("boss")
    other = (boss + 1) % 5
    ENGINE.apply(state, boss, {"type": "order", "ability": "interrogation", "target": other})
    text = "\n".join(render("ru", m) for m in P.describe(table, ENGINE.view(state, boss), boss, 540, {boss}))
    assert text.splitlines()[0] == "Стол 3: «Мафия» (версия C), ночь 1 (осталось 9 минут). Живы 5 из 5."
    assert f"  {names[boss]} «{['Пивовар', 'Boris', 'Горец', 'Монах', 'Повар'][boss]}»: жив (это вы)" in text \
        or (names[boss] == "Boris" and "  Boris: жив (это вы)" in text)
    assert "Ваша тайная роль: Босс (Мафия); голос на Вече — 1 голос." in text
    assert f"Ваши заявки: Допрос → {names[other]}." in text
    assert "Закончив с заявками, наберите: готов (осталось 9 минут)." in text
    assert "Сейчас можно: Допрос, Мозговой центр, Обрез под столом, Почта (осталось 3), Лечение, Паранойя." in text
    killer = state.roles.index("killer")
    assert f"свой: Киллер" in text or killer == boss


# -- the team channel, sign-up and verb routing ----------------------------------------------------------

async def test_team_speaks_to_the_living_mafia_only(monkeypatch):
    names = NAMES[:8]
    state = ENGINE.new(8, None, 4)
    table = FakeTable(state, names)
    delivered: list[tuple[int, str]] = []
    kept: list[tuple[int, str]] = []
    online = {100 + s for s in range(8)} - {100 + state.roles.index("agent")}

    async def keep(account_id: int, message: Any, kind: str, table_id: int | None = None) -> None:
        kept.append((account_id, message.key))

    ignoring: set[tuple[int, int]] = set()  # (owner, ignored), as world/social.py answers

    class Social:
        async def ignores(self, owner_id: int, sender_id: int) -> bool:
            return (owner_id, sender_id) in ignoring

    world = SimpleNamespace(tables=SimpleNamespace(table_of=lambda _id: table),
                            deliver=lambda a, m: (delivered.append((a, m.key)) or True) if a in online else False,
                            keep=keep, social=Social())
    typist = Typist(monkeypatch, table, world)
    boss, killer, agent = (state.roles.index(r) for r in ("boss", "killer", "agent"))
    await typist.type(boss, "свои стреляй в Анну")
    assert delivered == [(100 + killer, "mafia.cmd.team_say")]
    assert kept == [(100 + agent, "mafia.cmd.team_say")]
    assert typist.replies[-1] == ("mafia.cmd.team_you", {"text": "стреляй в Анну"})
    ignoring.add((100 + killer, 100 + boss))  # the killer ignores the boss: his team lines skip her
    delivered.clear()
    kept.clear()
    await typist.type(boss, "свои второй раз")
    assert delivered == [] and kept == [(100 + agent, "mafia.cmd.team_say")]
    ignoring.clear()
    state.alive[killer] = False
    state.public_cache = None
    delivered.clear()
    kept.clear()
    await typist.type(boss, "team hi")
    assert delivered == [] and kept == [(100 + agent, "mafia.cmd.team_say")]
    message = await typist.error(killer, "свои я жив?")
    assert message.key == "mafia.cmd.team_dead"
    civilian = state.roles.index("civilian")
    assert (await typist.error(civilian, "свои привет")).key == "mafia.cmd.team_only"


def test_signup_names_are_unique_per_table_case_insensitively():
    from commands.games.mafia_signup import normalize_public, signup_problem

    names = ["Анна", "Boris", "Вера"]
    signup = {"Анна": "Пивовар", "Boris": "Старый продавец"}
    assert signup_problem("Горец", signup, 2, names) is None
    assert signup_problem("пивовар", signup, 2, names) == ("mafia.cmd.class_taken", {"name": "Пивовар", "player": "Анна"})
    assert signup_problem("СТАРЫЙ ПРОДАВЕЦ", signup, 2, names)[0] == "mafia.cmd.class_taken"
    assert signup_problem("Пивовар", signup, 0, names) is None  # one's own choice again
    assert signup_problem("boris", signup, 2, names) == ("title.like_player", {"title": "boris", "name": "Boris"})
    assert signup_problem("Вера", signup, 2, names) is None  # one's own name
    assert signup_problem("", signup, 2, names)[0] == "mafia.cmd.class_empty"
    assert signup_problem("x" * 33, signup, 2, names) == ("title.too_long", {"n": 32})
    assert signup_problem("Старый | продавец", {}, 2, names)[0] == "mafia.cmd.class_bad_chars"
    assert normalize_public('  "Старый   продавец" ') == "Старый продавец"
    assert normalize_public("«Горец»") == "Горец"
    for key in ("mafia.cmd.class_taken", "title.like_player", "mafia.cmd.class_empty", "title.too_long",
                "mafia.cmd.class_bad_chars"):
        for lang in LANGS:
            text = text_of(lang, key, name="X", player="Y", title="Z", n=32)
            assert "{" not in text and not LEFTOVER.search(text)
    assert text_of("ru", "title.too_long", n=32) == "Слишком длинное название: не больше 32 символов."


async def test_class_at_an_open_mafia_table():
    import commands.load_all  # noqa: F401
    from commands.base import CommandError, Ctx, split_args
    from commands.games.mafia_signup import class_

    table = FakeTable(None, ["Анна", "Boris", "Вера"], status="open")
    table.game = None
    said: list[Any] = []
    rooms: list[Any] = []

    async def update_options(t: Any, **updates: Any) -> None:
        t.options = {**t.options, **updates}

    world = SimpleNamespace(tables=SimpleNamespace(table_of=lambda _id: table, update_options=update_options),
                            broadcast=lambda room, m, exclude=(): rooms.append(m.key))

    async def run(seat: int, rest: str) -> None:
        session = SimpleNamespace(lang="ru", send=lambda k, **p: said.append((k, p)),
                                  send_msg=lambda m: said.append((m.key, m.params)))
        ctx = Ctx(session=session, world=world, account=SimpleNamespace(id=100 + seat, name=table.seats[seat].name),
                  verb="класс", rest=rest, args=split_args(rest), command=None)
        await class_(ctx)

    await run(0, "Пивовар")
    assert table.options["signup"] == {"Анна": "Пивовар"}
    assert said[-1] == ("mafia.cmd.class_set", {"name": {"$msg": "mafia.public.brewer", "params": {}}}) and rooms == ["mafia.cmd.class_other"]
    with pytest.raises(CommandError) as err:
        await run(1, "ПИВОВАР")
    assert err.value.message.key == "mafia.cmd.class_taken"
    await run(1, '"Старый продавец"')
    await run(0, "Горец")  # a new choice replaces the old one
    assert table.options["signup"] == {"Анна": "Горец", "Boris": "Старый продавец"}
    await run(2, "")
    key, params = said[-1]
    assert key == "mafia.cmd.class_list"
    assert render("ru", SimpleNamespace(key=key, params=json.loads(json.dumps(params)))) == (
        "Явные роли за столом 7: Анна — «Горец», Boris — «Старый продавец», Вера — своё имя. "
        "Выбрать: класс НАЗВАНИЕ.")
    await run(0, "-")
    assert table.options["signup"] == {"Boris": "Старый продавец"}
    table.game_name = "coup"
    with pytest.raises(CommandError) as err:
        await run(0, "Горец")
    assert err.value.message.key == "mafia.cmd.class_not_mafia"


def test_verbs_reach_the_mafia_commands_only_at_a_mafia_table():
    from commands.parser import resolve

    mafia, coup, hall = game_commands("mafia"), game_commands("coup"), game_commands(None)
    for verb, key in (("почта", "mail"), ("пошта", "mail"), ("mail", "mail"), ("ночь", "night"), ("ніч", "night"),
                      ("night", "night"), ("день", "day"), ("голос", "vote"), ("vote", "vote"), ("готов", "ready"),
                      ("готовий", "ready"), ("заявки", "orders"), ("отмена", "cancel"), ("скасувати", "cancel"),
                      ("свои", "team"), ("свої", "team"), ("класс", "class"), ("inbox", "inbox")):
        cmd, _ = resolve(verb, mafia)
        assert cmd is not None and cmd.key == key, verb
        assert cmd.game in (None, "mafia")
    for verb, key in (("почта", "inbox"), ("пошта", "inbox"), ("класс", "class"), ("ночь", None), ("vote", None)):
        for commands in (coup, hall):
            cmd, _ = resolve(verb, commands)
            assert (cmd.key if cmd else None) == key, verb


async def test_mail_alone_is_the_inbox(monkeypatch):
    import commands.games.mafia as mafia_verbs

    called: list[str] = []

    async def fake_inbox(ctx: Any) -> None:
        called.append(ctx.verb)

    monkeypatch.setattr(mafia_verbs, "inbox", fake_inbox)
    state = ENGINE.new(5, None, 1)
    typist = Typist(monkeypatch, FakeTable(state, NAMES[:5]))
    assert await typist.type(0, "почта") == [] and called == ["почта"]
    assert await typist.type(0, "почта 2") == [] and await typist.type(0, "почта стол 3") == []  # inbox pages
    assert called == ["почта"] * 3
    assert await typist.type(0, "почта город «Привет», город!") == [
        {"type": "mail", "target": "city", "text": "«Привет», город!"}]



# -- versions A/B and the public roles: the rarer verbs -----------------------------------------------

async def test_version_a_verbs(monkeypatch):
    """Ва-банк (pairs in any order, or roles in seat order), the Ход's plays, Звонок, Раздача;
    and what is wrong with them."""
    names = NAMES[:13]
    state = ENGINE.new(13, {"ruleset": "A"}, 7)
    typist = Typist(monkeypatch, FakeTable(state, names))
    joker, boss = state.roles.index("joker"), state.roles.index("boss")
    other = next(x for x in range(13) if x not in (joker, boss) and not names[x].startswith("Бот"))
    ru = {r: text_of("ru", f"mafia.role_name.{r}") for r in state.roles}
    pairs = [f"{names[x]}={ru[r]}" for x, r in enumerate(state.roles)]
    expected = [{"type": "order", "ability": "all_in", "mapping": list(state.roles)}]
    assert await typist.type(joker, "ночь ва-банк " + " ".join(reversed(pairs))) == expected
    assert await typist.type(joker, "day all-in " + ", ".join(f"{names[x]}: {text_of('en', f'mafia.role_name.{r}')}"
                                                             for x, r in enumerate(state.roles))) == expected
    assert await typist.type(joker, "ночь вабанк " + " ".join(ru[r] for r in state.roles)) == expected
    message = await typist.error(joker, "ночь ва-банк " + " ".join(pairs[:-1]))
    assert message.key == "mafia.cmd.mapping_missing" and names[12] in render("ru", message)
    message = await typist.error(joker, "ночь ва-банк " + " ".join(pairs + pairs[:1]))
    assert message.key == "mafia.cmd.mapping_twice"
    assert (await typist.error(joker, "ночь ва-банк Босс Киллер")).key == "mafia.cmd.mapping_count"
    assert (await typist.error(joker, "ночь ва-банк")).key == "mafia.cmd.need_mapping"
    # the Ход
    assert await typist.type(boss, f"ночь ход пас {names[other]}") == [
        {"type": "order", "ability": "card", "play": "pass", "target": other}]
    assert await typist.type(boss, "night move bank") == [
        {"type": "order", "ability": "card", "play": "bank", "target": boss}]
    assert await typist.type(boss, "ніч хід блеф Маніяк") == [
        {"type": "order", "ability": "card", "play": "bluff", "target": boss, "persona": "maniac"}]
    assert await typist.type(boss, "ночь ход мизер") == [
        {"type": "order", "ability": "card", "play": "misere", "target": boss}]
    assert (await typist.error(boss, "ночь ход")).key == "mafia.cmd.need_play"
    assert (await typist.error(boss, "ночь ход шмяк")).key == "mafia.cmd.bad_play"
    assert (await typist.error(boss, "ночь ход пас")).key == "mafia.cmd.need_target"
    assert (await typist.error(boss, "ночь ход блеф")).key == "mafia.cmd.need_persona"
    # Звонок: the text as typed, cleaned like all player text (runs of spaces collapse)
    assert await typist.type(boss, f"ночь звонок {names[other]} Сдавайся,  «друг»!") == [
        {"type": "order", "ability": "call", "target": other, "text": "Сдавайся, «друг»!"}]
    assert (await typist.error(boss, f"ночь звонок {names[other]}")).key == "mafia.cmd.need_call_text"
    # Раздача: one to three players
    a, b = [x for x in range(13) if x != joker and not names[x].startswith("Бот")][:2]
    assert await typist.type(joker, f"ночь раздача {names[a]}, {names[b]}") == [
        {"type": "order", "ability": "deal", "seats": [a, b]}]
    assert (await typist.error(joker, f"ночь раздача {names[a]} {names[a]}")).key == "mafia.cmd.same_seat"
    assert (await typist.error(joker, "ночь раздача " + " ".join(names[x] for x in range(13) if x != joker)[:200])
            ).key in ("mafia.cmd.too_many_seats", "mafia.cmd.ambiguous_player")


async def test_a_deal_on_the_sociopath_on_night_one_is_one_clear_line(monkeypatch):
    """Раздача lists the Социопат on night 1 (Затворник): the verb sends it, the engine refuses it,
    the player reads one line naming the ability, the seat and the reason, in ru/en/uk."""
    import commands.games.mafia as verbs
    from commands.base import CommandError
    from games.base import RuleError

    names = NAMES[:13]
    probe = ENGINE.new(13, {"ruleset": "A"}, 7)
    joker = probe.roles.index("joker")
    hermit = next(x for x in range(13) if x != joker and not names[x].startswith("Бот"))
    publics = [("Социопат" if x == hermit else f"Роль {x}") for x in range(13)]
    state = ENGINE.new(13, {"ruleset": "A", "public_roles": publics}, 7)
    assert state.roles.index("joker") == joker
    typist = Typist(monkeypatch, FakeTable(state, names))

    async def refuse(ctx: Any, action: dict[str, Any]) -> None:
        try:
            ENGINE.apply(state.copy(), joker, action)
        except RuleError as err:
            raise CommandError(err.key, **err.params) from err

    monkeypatch.setattr(verbs, "game_action", refuse)
    message = await typist.error(joker, f"ночь раздача {names[hermit]}")
    assert message.key == "mafia.error.bad_target"
    assert render("ru", message) == f"Раздача: цель {names[hermit]} выбрать нельзя — её защищает явная роль."
    for lang in LANGS:
        shown = render(lang, message)
        assert names[hermit] in shown and "{" not in shown and not LEFTOVER.search(shown), (lang, shown)


async def test_public_role_verbs(monkeypatch):
    """Биржа труда takes a free listed role in any language (its key); Эксгумация a dead seat;
    public day abilities take their target; `class` refuses «Highlander» after «Горец»."""
    names = NAMES[:8]
    publics = ["Безработный", "Мародер", "Прокурор", "Пивовар", "Горец", "Медиум", "Сплетник", "Старый продавец"]
    state = ENGINE.new(8, {"public_roles": publics}, 3)
    typist = Typist(monkeypatch, FakeTable(state, names))
    for text, key in (("день биржа труда Highlander", None), ("day job centre monk", "monk"),
                      ("день биржа Серый кардинал", "grey_cardinal"), ("день біржа праці Пліткар", None),
                      ("день биржа «Тюремщик»", "jailer"), ("день биржа аноним", "anonymous")):
        if key is None:
            message = await typist.error(0, text)
            assert message.key == "mafia.cmd.bad_listed_public", (text, message)
            assert "{" not in render("ru", message)
        else:
            assert await typist.type(0, text) == [{"type": "order", "ability": "labour_exchange", "public": key}], text
    assert (await typist.error(0, "день биржа")).key == "mafia.cmd.need_listed_public"
    state.alive[2] = False
    state.public_cache = None
    assert await typist.type(1, f"ночь эксгумация {names[2]}") == [
        {"type": "order", "ability": "exhumation", "target": 2}]
    assert await typist.type(2 if state.alive[2] else 3, f"день пиво {names[4]}") == [
        {"type": "order", "ability": "beer", "target": 4}]
    assert await typist.type(6, "день компромат") == [{"type": "order", "ability": "compromise"}]
    assert await typist.type(5, "day aura") == [{"type": "order", "ability": "aura"}]


def test_signup_refuses_one_listed_role_twice_in_any_language():
    from commands.games.mafia_signup import signup_problem

    names = ["Анна", "Boris", "Вера"]
    assert signup_problem("Highlander", {"Анна": "Горец"}, 1, names)[0] == "mafia.cmd.class_taken"
    assert signup_problem("Горець", {"Анна": "Горец"}, 1, names)[0] == "mafia.cmd.class_taken"
    assert signup_problem("gray cardinal", {"Анна": "Серый кардинал"}, 1, names)[0] == "mafia.cmd.class_taken"
    assert signup_problem("Анонимус", {"Анна": "Grey Cardinal"}, 1, names)[0] == "mafia.cmd.class_taken"
    assert signup_problem("Горец", {"Анна": "Монах"}, 1, names) is None


def test_master_line_names_public_role_state_in_the_readers_language():
    from world.presenters.mafia import master_pub_lines

    table = SimpleNamespace(seats=[SimpleNamespace(name=n) for n in ("Анна", "Boris", "Вера")])
    (line,) = master_pub_lines(table, {"beer": {"3": [1]}, "bank": {"2": 4}})
    assert "Пиво" in render("ru", line) and "Копилка Сплетника" in render("ru", line)
    assert "Beer" in render("en", line) and "Gossip's bank" in render("en", line)
    assert "beer:" not in render("en", line) and "; bank:" not in render("en", line)  # no raw keys
