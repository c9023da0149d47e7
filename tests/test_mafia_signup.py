"""Forum Mafia: the 34 listed public roles at the sign-up and in the rules, offline.

Checked: the presenter's list of public roles is the engine's ``PUBLIC_ORDER`` (once
games/mafia/public_roles.py exists) and its seed names are what the engine's ``public_key``
knows; every role has a name and a one-line description in ru/en/uk, with version A's values
where they differ; a listed name typed in any language and case is one role, stored under the
seed's Russian name, and cannot be taken twice, while other names stay custom «(Другой)» names;
`roles` lists the free roles at an open table (the list shrinks as players sign up), the roles in
play at a running one and all of them elsewhere; `rules mafia A|B|C` give texts whose numbers
differ.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import re
from types import SimpleNamespace
from typing import Any

import pytest

from world.i18n import catalog, strip_marks, t
from world.presenters import mafia as P
from world.presenters import mafia_names as N

LANGS = ("ru", "en", "uk")
LEFTOVER = re.compile(r"(mafia|rules)\.[a-z]")  # a message key shown instead of its text


def text_of(lang: str, key: str, **params: Any) -> str:
    return strip_marks(t(lang, key, **json.loads(json.dumps(params))))


def said_text(lang: str, item: tuple[str, dict[str, Any]]) -> str:
    return text_of(lang, item[0], **item[1])


def render(lang: str, value: Any) -> str:
    from world.i18n import render_value

    return strip_marks(str(render_value(lang, json.loads(json.dumps(value)))))


# -- the list ----------------------------------------------------------------------------------------

def test_public_keys_are_the_engines_order():
    assert len(P.PUBLIC_KEYS) == 34 and len(set(P.PUBLIC_KEYS)) == 34
    assert set(N.PUBLIC_SEED_NAMES) == set(P.PUBLIC_KEYS)
    assert P.PUBLIC_KEYS[:3] == ("highlander", "prosecutor", "strongman") and P.PUBLIC_KEYS[-1] == "gossip"
    try:
        found = importlib.util.find_spec("games.mafia.public_roles")
    except ImportError:  # the engine package does not import right now (being edited)
        found = None
    if found is None:
        pytest.skip("games/mafia/public_roles.py is not there yet")
    engine = importlib.import_module("games.mafia.public_roles")
    assert tuple(engine.PUBLIC_ORDER) == P.PUBLIC_KEYS
    for key, name in N.PUBLIC_SEED_NAMES.items():  # what `class` stores, the engine understands
        assert engine.public_key(name) == key, name


def test_every_public_role_has_a_name_and_descriptions_in_every_language():
    for lang in LANGS:
        names = set()
        for key in (*P.PUBLIC_KEYS, "other"):
            name = text_of(lang, f"mafia.public.{key}")
            assert name and not LEFTOVER.search(name), (lang, key)
            names.add(name.casefold())
            for version in P.RULESETS:
                text = render(lang, P.public_desc(key, version) if key != "other"
                              else {"$msg": "mafia.public_desc.other", "params": {}})
                assert len(text) > 15 and "{" not in text and not LEFTOVER.search(text), (lang, key, version)
        assert len(names) == 35, lang  # 34 different names and «(Другой)»
    for lang in LANGS:
        ab = catalog(lang)
        assert {k.rsplit(".", 1)[1] for k in ab if k.startswith("mafia.public_desc_a.")} == set(N.PUBLIC_DIFFERS["A"])
        assert not any(k.startswith("mafia.public_desc_b.") for k in ab)  # B has C's values
    # the numbers of 4.2: A differs, B = C
    for key, c_number, a_number in (("prosecutor", "5", "3"), ("authority", "+2", "+1"), ("diplomat", "3", "2"),
                                    ("revolutionary", "3", "1,5"), ("politician", "+1", "+0,5")):
        c_text, a_text = render("ru", P.public_desc(key, "C")), render("ru", P.public_desc(key, "A"))
        assert c_number in c_text and a_number in a_text and c_text != a_text, key
        assert render("ru", P.public_desc(key, "B")) == c_text
    assert "3 more votes" in render("en", P.public_desc("prosecutor", "A"))
    assert render("uk", P.public_desc("highlander", "A")) == render("uk", P.public_desc("highlander", "C"))


# -- names as typed -----------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, key", [
    ("Горец", "highlander"), ("горец", "highlander"), ("ГОРЕЦ", "highlander"), ("«Горец»", "highlander"),
    ("Highlander", "highlander"), ("highlander", "highlander"), ("Горець", "highlander"),
    ("Серый кардинал", "grey_cardinal"), ("серый   КАРДИНАЛ", "grey_cardinal"), ("Анонимус", "grey_cardinal"),
    ("Серый кардинал (Анонимус)", "grey_cardinal"), ("grey cardinal", "grey_cardinal"),
    ("grey_cardinal", "grey_cardinal"), ("Сірий кардинал (Анонімус)", "grey_cardinal"),
    ("Аноним", "anonymous"), ("Anonymous", "anonymous"), ("Анонім", "anonymous"),
    ("Мародёр", "marauder"), ("мародер", "marauder"), ("Brewer", "brewer"), ("пивовар", "brewer"),
    ("Berserker", "berserk"), ("Берсерк", "berserk"), ("Сплетник", "gossip"), ("Пліткар", "gossip"),
])
def test_a_listed_name_in_any_language_is_one_role(typed, key):
    assert P.public_key_of(typed) == key


@pytest.mark.parametrize("typed", ["Старый продавец", "Гор", "Горцы", "(Другой)", "Другой", "Аноним Аноним",
                                   "Vasya", "", "  "])
def test_other_names_stay_custom(typed):
    assert P.public_key_of(typed) is None


def test_no_name_means_two_roles():
    from world.i18n import LANGUAGES

    seen: dict[str, str] = {}
    for key in P.PUBLIC_KEYS:
        names = {key, N.PUBLIC_SEED_NAMES[key], *N.PUBLIC_EXTRA.get(key, ())}
        names.update(str(catalog(lang)[f"mafia.public.{key}"]) for lang in LANGUAGES)
        for name in names:
            folded = N.fold_name(name)
            assert seen.setdefault(folded, key) == key, (name, key, seen[folded])
        assert P.public_key_of(N.seed_name(key)) == key


def test_signup_problem_knows_listed_roles_in_any_language():
    from commands.games.mafia_signup import signup_problem

    names = ["Анна", "Boris", "Вера"]
    signup = {"Анна": "Горец", "Boris": "Старый продавец"}
    assert signup_problem("Highlander", signup, 2, names) == ("mafia.cmd.class_taken", {"name": "Горец", "player": "Анна"})
    assert signup_problem("горець", signup, 2, names)[0] == "mafia.cmd.class_taken"
    assert signup_problem("Highlander", signup, 0, names) is None  # one's own choice again
    assert signup_problem("Пивовар", signup, 2, names) is None


# -- a table -------------------------------------------------------------------------------------------

class FakeTable:
    def __init__(self, names: list[str], status: str = "open", view: dict[str, Any] | None = None,
                 options: dict[str, Any] | None = None) -> None:
        self.options = dict(options or {})
        self.number, self.game_name, self.state_name, self.room = 7, "mafia", status, "table:7"
        self.seats = [SimpleNamespace(number=i, name=n, played_by_bot=False, account_id=100 + i)
                      for i, n in enumerate(names)]
        self.game = view
        self.engine = SimpleNamespace(view=lambda game, seat: game)

    @property
    def running(self) -> bool:
        return self.state_name == "running"

    def seat_of(self, account_id: int) -> int | None:
        number = account_id - 100
        return number if 0 <= number < len(self.seats) else None


class Player:
    """Types `class` and `roles` at a table as one seat; replies are kept as (key, params)."""

    def __init__(self, table: FakeTable | None, lang: str = "ru") -> None:
        self.table, self.lang = table, lang
        self.said: list[tuple[str, dict[str, Any]]] = []
        self.rooms: list[tuple[str, dict[str, Any]]] = []

        async def update_options(t: Any, **updates: Any) -> None:
            t.options = {**t.options, **updates}

        self.world = SimpleNamespace(
            tables=SimpleNamespace(table_of=lambda _id: table, update_options=update_options),
            broadcast=lambda room, m, exclude=(): self.rooms.append((m.key, m.params)))

    async def type(self, seat: int, verb: str, rest: str = "") -> None:
        import commands.load_all  # noqa: F401
        from commands.base import Ctx, split_args
        from commands.games.mafia import roles
        from commands.games.mafia_signup import class_

        session = SimpleNamespace(lang=self.lang, send=lambda k, **p: self.said.append((k, p)),
                                  send_msg=lambda m: self.said.append((m.key, m.params)))
        name = self.table.seats[seat].name if self.table else "Гость"
        ctx = Ctx(session=session, world=self.world, account=SimpleNamespace(id=100 + seat, name=name),
                  verb=verb, rest=rest, args=split_args(rest), command=None)
        await (class_ if verb in ("class", "класс", "клас") else roles)(ctx)

    def last(self, lang: str | None = None) -> str:
        key, params = self.said[-1]
        return text_of(lang or self.lang, key, **params)


async def test_class_stores_the_seed_name_and_a_role_has_one_holder():
    from commands.base import CommandError

    table = FakeTable(["Анна", "Boris", "Вера", "Zoe"])
    player = Player(table)
    await player.type(0, "class", "highlander")
    assert table.options["signup"] == {"Анна": "Горец"}
    assert player.said[-1] == ("mafia.cmd.class_set", {"name": {"$msg": "mafia.public.highlander", "params": {}}})
    assert player.said[-2][0] == "mafia.public_list.chosen"
    assert said_text("en", player.said[-2]).startswith("Highlander — Immortality")
    assert said_text("en", player.rooms[-1]) == "Анна takes the public role «Highlander»."
    for typed in ("Горец", "ГОРЕЦ", "Highlander", "горець", "«горец»"):
        with pytest.raises(CommandError) as err:
            await player.type(1, "класс", typed)
        assert err.value.message.key == "mafia.cmd.class_taken", typed
    await player.type(1, "класс", "Серый кардинал (Анонимус)")
    await player.type(2, "класс", "Мародёр")
    with pytest.raises(CommandError):
        await player.type(3, "class", "Анонимус")
    await player.type(3, "class", "Старый продавец")  # a custom name, as typed
    assert table.options["signup"] == {"Анна": "Горец", "Boris": "Серый кардинал", "Вера": "Мародер",
                                       "Zoe": "Старый продавец"}
    await player.type(0, "class", "brewer")  # a new choice frees the old one
    await player.type(3, "class", "горец")
    assert table.options["signup"]["Zoe"] == "Горец" and table.options["signup"]["Анна"] == "Пивовар"
    await player.type(1, "class")
    assert player.last("en") == ("Public roles at table 7: Анна: «Brewer», Boris: «Grey Cardinal (Anonymus)», "
                                 "Вера: «Marauder», Zoe: «Highlander». To choose: class NAME.")
    assert player.last("ru").startswith("Явные роли за столом 7: Анна — «Пивовар», Boris — «Серый кардинал (Анонимус)»")


async def test_the_free_list_shrinks_as_players_sign_up():
    table = FakeTable(["Анна", "Boris", "Вера"])
    player = Player(table, lang="en")

    async def free() -> tuple[int, str]:
        await player.type(0, "roles")
        key, params = player.said[-1]
        assert key == "mafia.public_list.free" and params["version"] == "C"
        return params["n"], text_of("en", key, **params)

    n, text = await free()
    assert n == 34 and "Highlander — Immortality" in text and "Gossip — " in text
    lines = text.splitlines()[1:-1]
    assert [line.split(" — ")[0] for line in lines] == [text_of("en", f"mafia.public.{k}") for k in P.PUBLIC_KEYS]
    await player.type(0, "class", "Горец")
    n, text = await free()
    assert n == 33 and "Highlander" not in text and text.splitlines()[1].startswith("Prosecutor — ")
    await player.type(1, "class", "Gossip")
    await player.type(2, "class", "Старый продавец")  # a custom name takes nothing from the list
    n, text = await free()
    assert n == 32 and "Gossip" not in text and "Millionaire — " in text
    await player.type(0, "class", "-")
    n, _ = await free()
    assert n == 33
    # the table's rule version gives its values; `roles A` asks for another
    table.options["version"] = "A"
    await player.type(0, "roles")
    assert "Prosecutor — Guilty verdict: once per game, by day, publicly adds 3 more votes" in player.last()
    table.options["version"] = "C"
    await player.type(0, "роли", "А")  # a Cyrillic А
    assert "adds 3 more votes" in player.last() and "(version A)" in player.last()
    # every role taken: "(Другой)" is left
    table.options["signup"] = {f"p{i}": N.seed_name(k) for i, k in enumerate(P.PUBLIC_KEYS)}
    await player.type(0, "roles")
    assert player.said[-1][1]["n"] == 0 and "every listed public role is taken" in player.last()


async def test_roles_in_play_and_elsewhere():
    from commands.base import CommandError

    view = {"version": "B", "public_roles": [{"key": "other", "name": "Старый продавец"},
                                             {"key": "gossip", "name": "Сплетник"},
                                             {"key": "other", "name": "Горец"},  # an engine without the roles yet
                                             {"key": "other", "name": "Анна"}]}
    table = FakeTable(["Анна", "Boris", "Вера", "Zoe"], status="running", view=view)
    player = Player(table, lang="en")
    await player.type(0, "roles")
    assert player.said[-1][0] == "mafia.public_list.in_play"
    assert player.last().splitlines()[1:] == [
        "Highlander (Вера) — Immortality (J): takes no damage on the first two nights.",
        "Gossip (Boris) — " + render("en", P.public_desc("gossip", "B")),
        "«Анна» (Zoe) — " + text_of("en", "mafia.public_desc.other"),
        "«Старый продавец» (Анна) — " + text_of("en", "mafia.public_desc.other")]
    await player.type(0, "class")  # the running table's list, in the reader's language
    assert said_text("en", player.said[-1]) == (
        "Public roles in the game: Анна: «Старый продавец», Boris: «Gossip», Вера: «Highlander», Zoe: «Анна».")

    hall = Player(None, lang="ru")
    await hall.type(0, "roles")
    key, params = hall.said[-1]
    assert key == "mafia.public_list.all" and params["version"] == "C"
    text = hall.last()
    assert len(text.splitlines()) == 36
    assert "Прокурор — Обвинительный приговор: раз за игру днём публично вносит ещё 5 голосов" in text
    await hall.type(0, "roles", "a")
    assert "ещё 3 голоса" in hall.last() and "(версия A)" in hall.last()
    await hall.type(0, "roles", "B")
    assert "ещё 5 голосов" in hall.last()
    with pytest.raises(CommandError) as err:
        await hall.type(0, "roles", "D")
    assert err.value.message.key == "mafia.public_list.bad_version"


def test_a_seat_shows_a_listed_role_in_the_readers_language():
    view = {"public_roles": [{"key": "highlander", "name": "Горец"}, {"key": "other", "name": "Старый продавец"}],
            "alive": [True, True], "hospital": [False, False], "jailed": [False, False]}
    table = SimpleNamespace(seats=[SimpleNamespace(number=0, name="Анна"), SimpleNamespace(number=1, name="Boris")],
                            number=7)
    first = P.seat_line(table, view, 0, None)
    second = P.seat_line(table, view, 1, None)
    assert "Highlander" in text_of("en", first.key, **first.params)
    assert "Горець" in text_of("uk", first.key, **first.params)
    assert "Старый продавец" in text_of("en", second.key, **second.params)


def test_a_public_role_named_in_another_language_finds_its_holder():
    from commands.games.mafia_parse import _public_name

    publics = ["Горец", "Старый продавец", "Серый кардинал"]
    assert _public_name("Highlander", publics) == "Горец"
    assert _public_name("Анонимус", publics) == "Серый кардинал"
    assert _public_name("старый", publics) == "Старый продавец"


# -- the rules -------------------------------------------------------------------------------------------

async def rules_text(lang: str, rest: str, world: Any = None) -> list[str]:
    import commands.load_all  # noqa: F401
    from commands.base import Ctx, split_args
    from commands.hall import rules

    said: list[tuple[str, dict[str, Any]]] = []
    session = SimpleNamespace(lang=lang, send=lambda k, **p: said.append((k, p)),
                              send_msg=lambda m: said.append((m.key, m.params)))
    ctx = Ctx(session=session, world=world or SimpleNamespace(), account=SimpleNamespace(id=1, name="X"),
              verb="rules", rest=rest, args=split_args(rest), command=None)
    await rules(ctx)
    # (a long text opens with the list of its sections: tests/test_pager.py reads that)
    return [key for key, _ in said if key != "rules.sections"]


async def test_rules_mafia_a_b_c_differ_in_their_numbers():
    from commands.base import CommandError

    assert await rules_text("ru", "мафия") == ["rules.mafia", "rules.mafia_versions"]
    assert await rules_text("ru", "мафия C") == ["rules.mafia", "rules.mafia_versions"]
    assert await rules_text("en", "mafia A") == ["rules.mafia_a", "rules.mafia_versions"]
    assert await rules_text("ru", "мафия А") == ["rules.mafia_a", "rules.mafia_versions"]  # Cyrillic А
    assert await rules_text("uk", "мафія b") == ["rules.mafia_b", "rules.mafia_versions"]
    assert await rules_text("ru", "мафия Б") == ["rules.mafia_b", "rules.mafia_versions"]
    assert await rules_text("en", "coup") == ["rules.coup"]
    # At a table, `rules mafia` is the ruleset that table plays.
    at_b = SimpleNamespace(game_name="mafia", options={"version": "B"})
    world = SimpleNamespace(tables=SimpleNamespace(table_of=lambda account_id: at_b))
    assert await rules_text("ru", "мафия", world) == ["rules.mafia_b", "rules.mafia_versions"]
    assert await rules_text("ru", "мафия A", world) == ["rules.mafia_a", "rules.mafia_versions"]
    with pytest.raises(CommandError) as err:  # a game without versions: the word names a section
        await rules_text("en", "coup A")
    assert err.value.message.key == "rules.unknown_section"
    with pytest.raises(CommandError) as err:
        await rules_text("en", "mafia D")
    assert err.value.message.key == "rules.unknown_version"
    assert "A, B, C" in text_of("en", err.value.message.key, **err.value.message.params)

    for lang in LANGS:
        texts = {v: text_of(lang, k) for v, k in (("A", "rules.mafia_a"), ("B", "rules.mafia_b"), ("C", "rules.mafia"))}
        assert len(set(texts.values())) == 3
        for text in texts.values():
            assert not LEFTOVER.search(text) and "{" not in text
    ru = {v: text_of("ru", k) for v, k in (("A", "rules.mafia_a"), ("B", "rules.mafia_b"), ("C", "rules.mafia"))}
    # thresholds: A/B 10 (Law 12), C 8 (Law 10); DDD: A/B 8, C 6
    assert "10 Личин своей роли (Закону 12)" in ru["A"] and "10 соответствующих Личин (Закону 12; Маньяку порог не нужен)" in ru["B"]
    assert "8 соответствующих Личин (Закону 10)" in ru["C"]
    assert "8 хитрых планов" in ru["A"] and "8 хитрых планов" in ru["B"] and "6 хитрых планов" in ru["C"]
    # vote weights: A one vote each, openly; B and C by faction
    assert "Мафия 1, Закон 2, нейтралы 3" in ru["B"] and "Мафия 1, Закон 2, нейтралы 3" in ru["C"]
    assert "Закон 2" not in ru["A"] and "у каждого один голос" in ru["A"]
    # the deal table: A has the Traitor, the Detective, the Joker, two Vigilantes and two Civilians
    for word in ("11 — Предатель", "12 — Сыщик", "13 — Джокер", "второй Вигиланте", "второй Гражданский"):
        assert word in ru["A"]
    for version in ("B", "C"):
        assert "Предатель" not in ru[version] and "Джокер" not in ru[version] and "10 — Злой Гений" in ru[version]
    # public roles: A's values
    assert "Прокурор +3" in ru["A"] and "Паранойя" in ru["B"] and "Паранойи нет" in ru["A"]
    en = text_of("en", "rules.mafia_a")
    assert "at least 10 personas of your own role (Law 12)" in en and "8 cunning plans" in en
    assert "8 cunning plans" in text_of("en", "rules.mafia_b") and "6 cunning plans" in text_of("en", "rules.mafia")
    uk = text_of("uk", "rules.mafia_a")
    assert "13 — Джокер" in uk and "8 хитрих планів" in uk


def test_help_for_roles_in_every_language():
    for lang in LANGS:
        for key in ("help.short.roles", "help.usage.roles", "rules.mafia_versions"):
            assert key in catalog(lang), (lang, key)


def test_a_rematch_keeps_the_signup_but_deals_public_roles_again():
    from games.mafia import GAME

    options = GAME.validate_options({"signup": {"Анна": "Горец"}})
    _, added = GAME.start_plan(options, 5, names=["Анна", "Boris", "Вера", "Глеб", "Дина"])
    assert set(added) == {"public_roles"}
    kept, seats = GAME.rematch_plan({**options, **added}, 5)
    assert seats == 5 and "public_roles" not in kept and kept["signup"] == {"Анна": "Горец"}
