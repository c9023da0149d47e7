"""Forum Mafia, issue 15: results computed for the seat they belong to (every information or
result ability × its own seat hit by Срыв / blocked / another seat's disrupted order resolving
last / the Джокер hit by Срыв), custom names in a Russian reader's order, block notices only
where orders failed, fractional votes as each language writes them."""
from __future__ import annotations

import pytest

from games.mafia import GAME
from games.mafia import resolution as RES
from games.mafia import state as MS
from games.mafia import roles as R
from games.mafia import versions as V
from tests.test_mafia_engine import keys, order, to, touch
from tests.test_mafia_versions import finish, game

# ------------------------------------------------------------------ results for their own seat

# Version A (Срыв расследования is the Предатель's), one seat of each role whose ability has a
# result; seat 11 is a second Гражданский whose Своими руками resolves after every other
# information order; seat 12 died on night 1 (for Аутопсия). Seat 6 is also the Журналист.
SEATS = ["boss", "killer", "traitor", "forensic", "detective", "policeman", "civilian", "maniac",
         "agent", "joker", "genius", "civilian", "officer"]
TRAITOR, JOKER, LAST, MANIAC, DEAD = 2, 9, 11, 7, 12
PUBLIC = ["Журналист" if x == 6 else f"p{x}" for x in range(len(SEATS))]

# ability: (seat, target, arguments, is a night ability whose result Срыв turns to Аноним(1))
ROWS = {
    "mastermind": (0, MANIAC, {}, True),
    "own_hands": (6, MANIAC, {}, True),  # the Гражданский: two draws
    "own_hands_traitor": (TRAITOR, MANIAC, {}, True),  # the Предатель: one draw
    "stalking": (MANIAC, 6, {}, True),
    "search": (3, 0, {"persona": "boss"}, True),
    "investigation": (4, 0, {}, True),
    "sabotage": (8, 3, {"persona": "forensic"}, True),
    "arrest": (5, 1, {"role": "killer"}, True),
    "croupier": (JOKER, MANIAC, None, True),  # a passive of the Джокер: every morning
    "reportage": (6, MANIAC, None, False),  # a day order, its result after the next night
    "autopsy": (3, DEAD, {}, False),  # roles, not personas
    "informer": (10, 0, {"role": "boss"}, False),
}
SCENARIOS = ("disrupted", "blocked", "last_order_hit", "joker_hit")
# What the seat learns or does when all goes well (Аноним(1) under Срыв where it applies).
REAL = {"mastermind": ["maniac", "maniac"], "own_hands": ["maniac", "maniac"], "own_hands_traitor": ["maniac"],
        "stalking": ["officer"], "search": True, "investigation": True, "sabotage": 1, "arrest": R.LIFE,
        "croupier": [{"seat": MANIAC, "persona": "maniac"}], "reportage": ["maniac"], "autopsy": "officer",
        "informer": True}
ANON = {"mastermind": [V.ANONYMOUS] * 2, "own_hands": [V.ANONYMOUS] * 2, "stalking": [V.ANONYMOUS],
        "search": False, "investigation": False, "sabotage": 2, "arrest": None,
        "croupier": [{"seat": MANIAC, "persona": V.ANONYMOUS}]}
NOTHING = {"sabotage": 2, "arrest": None}  # a blocked order: no result (no whisper, no effect)
PASSIVE_OR_DAY = ("croupier", "reportage")  # no night order to block


def results_position(row: str, scenario: str) -> MS.MafiaState:
    seat, target, args, _ = ROWS[row]
    s = game("A", SEATS, index=3, public=PUBLIC)
    s.alive[DEAD], s.dead_at[DEAD] = False, 0
    touch(s)
    if row == "reportage":
        order(s, 6, "reportage", target)
    finish(s)  # day 2 (nobody votes): night 3 begins
    assert s.index == 4
    s.personas[0] = {"boss": 3}
    s.personas[1] = {"killer": 12}
    s.personas[3] = {"forensic": 12}
    s.personas[6] = {"officer": 3, "civilian": 5}  # Преследование never draws Гражданский
    s.cards = [0] * len(SEATS)
    s.cards[JOKER] = 1
    if row == "croupier":
        s.cards[MANIAC] = 2  # the Крупье probes a living seat holding 2 cards (else nobody)
    if scenario == "last_order_hit":
        s.alive[JOKER], s.dead_at[JOKER] = False, 0  # no Крупье: the last information order is seat 11's
    touch(s)
    if args is not None:
        order(s, seat, row.removesuffix("_traitor"), target, **args)
    if scenario == "disrupted":
        order(s, TRAITOR, "sabotage_investigation", seat)
    elif scenario == "blocked":
        order(s, 5 if seat == 0 else 0, "interrogation", seat)
    elif scenario == "last_order_hit":
        order(s, TRAITOR, "sabotage_investigation", LAST)
        order(s, LAST, "own_hands", 0)  # resolves last among the information orders, sees Аноним(1)
    elif scenario == "joker_hit":
        order(s, TRAITOR, "sabotage_investigation", JOKER)  # his Крупье runs after every order
    return s


def result(row: str, s: MS.MafiaState, events: list) -> object:
    seat, target, _, _ = ROWS[row]
    mine = to(events, seat)
    if row == "sabotage":
        return s.hp[target]
    if row == "arrest":
        return s.jail[target]
    if row == "croupier":
        got = keys(mine, "mafia.croupier")
        return got[0].params["personas"] if got else None
    key = {"search": "mafia.search", "investigation": "mafia.investigation", "autopsy": "mafia.autopsy",
           "informer": "mafia.guess"}.get(row, "mafia.personas")
    got = [e.params for e in keys(mine, key) if e.params["ability"] == row.removesuffix("_traitor")]
    if not got:
        return None
    field = {"search": "found", "investigation": "mafia", "autopsy": "role", "informer": "correct"}.get(row, "personas")
    return got[0][field]


CASES = [(row, scenario) for row in ROWS for scenario in SCENARIOS
         if not (row == "own_hands_traitor" and scenario == "disrupted")  # the one Предатель makes the Срыв
         and not (row == "croupier" and scenario in ("last_order_hit", "joker_hit"))]  # (its own: "disrupted")


@pytest.mark.parametrize(("row", "scenario"), CASES)
def test_every_result_is_computed_for_the_seat_it_belongs_to(row, scenario):
    """«Все ночные способности цели в эту ночь работают, как если бы у их цели была только одна
    Личина: Аноним(1)» (Срыв расследования): only the target's own night abilities, never another
    seat's result because its order resolved after the target's; a day order (Журналист) and
    role results are untouched; a blocked seat's orders give nothing, a passive still works."""
    s = results_position(row, scenario)
    events = finish(s)
    night_ability = ROWS[row][3]
    if scenario == "disrupted":
        expected = ANON[row] if night_ability else REAL[row]
    elif scenario == "blocked":
        expected = REAL[row] if row in PASSIVE_OR_DAY else NOTHING.get(row)
    else:
        expected = REAL[row]
    assert result(row, s, events) == expected
    # A/B Двойная жизнь: each persona of his really drawn is whispered to the Маньяк, no other
    probed = [e.params["persona"] for e in keys(to(events, MANIAC), "mafia.probed")]
    assert probed == drawn_from_maniac(row, expected)


def drawn_from_maniac(row: str, expected: object) -> list[str]:
    if ROWS[row][1] != MANIAC or not isinstance(expected, list):
        return []
    names = [p["persona"] if isinstance(p, dict) else p for p in expected]
    return [p for p in names if p != V.ANONYMOUS]


def test_the_journalist_whose_night_ends_after_a_disrupted_order_gets_a_real_persona():
    """The issue's example: the Журналист's draw used to take the Срыв of the last information
    order's seat (or of the Джокер after his Крупье) and gave «Аноним»."""
    for scenario in ("last_order_hit", "joker_hit"):
        s = results_position("reportage", scenario)
        events = finish(s)
        (got,) = [e for e in keys(to(events, 6), "mafia.personas") if e.params["ability"] == "reportage"]
        assert got.params["personas"] == ["maniac"]
        assert [e.params["persona"] for e in keys(to(events, MANIAC), "mafia.probed")] == ["maniac"]


# ------------------------------------------------------------------ names as a Russian reader sorts them


def test_name_key_sorts_russian_and_ukrainian_names_as_their_readers_do():
    """Code-point order puts «Ё» and the Ukrainian «Ґ Є І Ї» after «Я»; readers do not."""
    from games.collation import name_key

    ru = ["Яша", "Жаба", "Ёлка", "Емеля", "Елка", "ёжик", "Ежевика", "Аист", "Zoe", "bob"]
    assert sorted(ru, key=name_key) == ["bob", "Zoe", "Аист", "Ежевика", "ёжик", "Елка", "Ёлка", "Емеля",
                                        "Жаба", "Яша"]
    uk = ["Йосип", "Їжак", "Іра", "Ігор", "Иван", "Жанна", "Євген", "Дмитро", "Ґанна", "Галина"]
    assert sorted(uk, key=name_key) == ["Галина", "Ґанна", "Дмитро", "Євген", "Жанна", "Иван", "Ігор", "Іра",
                                        "Їжак", "Йосип"]
    assert name_key("  Ёлка  ") == name_key("Ёлка") and name_key("ЁЛКА") < name_key("Жаба")
    assert name_key("Émile") < name_key("Fred")


def test_a_tie_between_custom_names_goes_to_the_first_as_a_russian_reader_sorts_them():
    """«(Другой)»: «Приоритет повешения - по алфавиту» (decision #12): «Ёлка» before «Жаба»,
    though «Ё» comes after «Я» in code points."""
    from tests.test_mafia_engine import game as c_game

    s = c_game(["boss", "killer", "officer", "civilian", "maniac"], 3, public=["Жаба", "Ёлка", "p2", "p3", "p4"])
    assert sorted(range(2), key=lambda x: RES.tie_key(s, x)) == [1, 0]
    s.roles = ["boss", "boss", "boss", "boss", "maniac"]  # every vote weighs 1
    touch(s)
    GAME.apply(s, 2, {"type": "vote", "target": 0})
    GAME.apply(s, 3, {"type": "vote", "target": 1})
    finish(s)
    assert s.last_vote["seat"] == 1  # day 1: the Ёлка goes to Jail, not the Жаба
    s = c_game(["boss", "killer", "officer", "civilian", "maniac"], 3, public=["Ґава", "Дід", "p2", "p3", "p4"])
    assert RES.tie_key(s, 0) < RES.tie_key(s, 1)


def test_the_roles_list_shows_custom_names_in_the_tie_order():
    """`roles` at a running table: listed roles in the rules' order, then custom names as the
    tie-break orders them («Елена», «Ёлка», «Жаба», «Яша»)."""
    from types import SimpleNamespace

    from commands.games.mafia import public_in_play
    from tests.test_mafia_commands import text_of

    from tests.test_mafia_engine import game as c_game

    names = ["Яша", "Жаба", "Горец", "Ёлка", "Елена"]
    s = c_game(["boss", "killer", "officer", "civilian", "maniac"], 3, public=names)
    view = GAME.view(s, 0)
    table = SimpleNamespace(number=1, options={}, seats=[SimpleNamespace(number=i, name=f"P{i}")
                                                          for i in range(5)])
    lines = [text_of("ru", m["$msg"], **m["params"]) for m in public_in_play(table, view)]
    order_ = [next(n for n in names if n in line) for line in lines]
    assert order_ == ["Горец", "Елена", "Ёлка", "Жаба", "Яша"]


# ------------------------------------------------------------------ block notices that are true


def test_a_block_notice_says_only_what_is_true_of_the_orders():
    """Not «ваши заявки не сработали» to a seat whose orders worked or that ordered nothing:
    a Мизер holder and an unblockable Берсерк are not blocked at all; a blocked seat with no
    order learns of the block without that claim; a day block (Задержание) says «днём»."""
    from tests.test_mafia_public_roles import pos
    from tests.test_mafia_versions import card, cards_game

    s = pos({1: "Берсерк"}, 2)
    order(s, 0, "interrogation", 1)
    order(s, 1, "pistol", 2)
    events = finish(s)
    assert s.hp[2] == 1 and not [e for e in to(events, 1) if e.key.startswith("mafia.blocked")]
    s = cards_game()
    card(s, 2, "misere")
    finish(s)
    finish(s)
    order(s, 2, "revolver", 1)
    order(s, 0, "interrogation", 2)
    events = finish(s)
    assert s.hp[1] == 1 and not [e for e in to(events, 2) if e.key.startswith("mafia.blocked")]
    s = pos({}, 2)
    order(s, 0, "interrogation", 3)  # the Гражданский ordered nothing
    events = finish(s)
    assert [(e.key, e.params) for e in to(events, 3)] == [("mafia.blocked_idle", {"seat": 3})]
    s = pos({3: "Патрульный", 1: "Берсерк"}, 3)
    GAME.apply(s, 2, {"type": "vote", "target": 4})
    order(s, 3, "detention", 2)
    events = finish(s)
    assert [e.key for e in to(events, 2) if e.key.startswith("mafia.blocked")] == ["mafia.blocked_day"]
    s = pos({3: "Патрульный", 1: "Берсерк"}, 3)
    GAME.apply(s, 1, {"type": "vote", "target": 4})
    order(s, 3, "detention", 1)  # Ярость: a day block does not touch him either
    events = finish(s)
    assert not [e for e in to(events, 1) if e.key.startswith("mafia.blocked")] and s.last_vote["seat"] == 4


def test_the_new_block_notices_read_true_in_every_language():
    from tests.test_mafia_commands import text_of

    idle = {lang: text_of(lang, "mafia.blocked_idle", seat=0) for lang in ("ru", "en", "uk")}
    assert "не сработали" not in idle["ru"] and "did not work" not in idle["en"] and "не спрацювали" not in idle["uk"]
    assert "днём" in text_of("ru", "mafia.blocked_day", seat=0) and "вдень" in text_of("uk", "mafia.known.blocked_day")


# ------------------------------------------------------------------ fractional votes


@pytest.mark.parametrize(("lang", "vote", "total"), [
    ("ru", "Жаба → Ёлка (1,5 голоса)", "Ёлка — 2,5 голоса"),
    ("en", "Жаба → Ёлка (1.5 votes)", "Ёлка — 2.5 votes"),
    ("uk", "Жаба → Ёлка (1,5 голосу)", "Ёлка — 2,5 голосу"),
])
def test_a_fractional_vote_reads_as_the_language_writes_it(lang, vote, total):
    """Version A: the Политик's vote weighs 1.5 (+0.5); the open tally prints «1,5 голоса» in
    Russian (Babel's number format, the plural form of a fraction), "1.5 votes" in English."""
    from world.presenters import present_params

    from tests.test_mafia_commands import fake_table, text_of

    s = game("A", ["boss", "killer", "officer", "civilian", "maniac"], index=3,
             public=["Политик", "Ёлка", "p2", "p3", "p4"])
    GAME.apply(s, 0, {"type": "vote", "target": 1})
    GAME.apply(s, 2, {"type": "vote", "target": 1})
    (tally,) = keys(finish(s), "mafia.tally")
    assert {"seat": 0, "target_seat": 1, "weight": 1.5} in tally.params["votes"]
    params = present_params(fake_table(["Жаба", "Ёлка", "Вера", "Гоша", "Дина"]), tally.params)
    text = text_of(lang, "mafia.tally", **params)
    assert vote in text and total in text and "1.5 голос" not in text
