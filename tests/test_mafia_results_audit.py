"""Forum Mafia, issue 15 audit (results for their own seat), the rows and scenarios the first
table (tests/test_mafia_results.py) leaves out: every version-A result with nothing else
happening ("none"); Лечение, which reads its user's own personas, against Срыв on the healer and
on another seat; a Расследование of the Маньяк (his persona is picked: A Двойная жизнь whispers
it); and version B, where the Маньяк is told of each of his personas really drawn by every
drawing ability (Мозговой центр, В свои руки, Осведомители, Репортаж), and of none by a blocked
order. Pure engine positions, a few milliseconds each."""
from __future__ import annotations

import pytest

from games.mafia import GAME
from tests.test_mafia_engine import keys, order, to, touch
from tests.test_mafia_results import (CASES, JOKER, LAST, MANIAC, REAL, ROWS, SEATS, TRAITOR, drawn_from_maniac,
                                      result, results_position)
from tests.test_mafia_versions import finish, game

# ------------------------------------------------------------------ version A: nothing else happens


@pytest.mark.parametrize("row", sorted({row for row, _ in CASES}))
def test_every_result_is_the_real_one_when_nothing_else_happens(row):
    """The baseline of the table: no Срыв, no block, the Джокер alive and untouched."""
    s = results_position(row, "none")
    events = finish(s)
    assert result(row, s, events) == REAL[row]
    probed = [e.params["persona"] for e in keys(to(events, MANIAC), "mafia.probed")]
    assert probed == drawn_from_maniac(row, REAL[row])


# ------------------------------------------------------------------ version A: Лечение, Расследование of the Маньяк

HEALER = 1  # the Киллер: Killer(12), 1 HP (in Hospital); A reads "own" personas: 12 >= 10
A_SCENARIOS = ("none", "disrupted", "blocked", "last_order_hit", "joker_hit")


def own_order_position(scenario: str):
    """The first table's night-3 position without its orders (the Джокер dead for
    "last_order_hit"), for an order of the test's own; then ``add_scenario``."""
    s = results_position("autopsy", "last_order_hit" if scenario == "last_order_hit" else "none")
    s.orders = [{} for _ in SEATS]
    touch(s)
    return s


def add_scenario(s, scenario: str, seat: int) -> None:
    """The other orders of a scenario of the first table, aimed at ``seat``'s order."""
    if scenario == "disrupted":
        order(s, TRAITOR, "sabotage_investigation", seat)
    elif scenario == "blocked":
        order(s, 0, "interrogation", seat)
    elif scenario == "last_order_hit":
        order(s, TRAITOR, "sabotage_investigation", LAST)
        order(s, LAST, "own_hands", 0)
    elif scenario == "joker_hit":
        order(s, TRAITOR, "sabotage_investigation", JOKER)


@pytest.mark.parametrize("scenario", A_SCENARIOS)
def test_healing_reads_its_own_personas_whatever_the_sabotage_hits(scenario):
    """Лечение has no target: «как если бы у их цели была только одна Личина» does not reach the
    healer's own count (Срыв расследования spoils results of probes), so it heals under Срыв on
    him or on anyone else; a block voids it (it is not Б)."""
    s = own_order_position(scenario)
    s.hp[HEALER] = 1
    touch(s)
    order(s, HEALER, "healing")
    add_scenario(s, scenario, HEALER)
    finish(s)
    assert s.hp[HEALER] == (1 if scenario == "blocked" else 2)


@pytest.mark.parametrize("scenario", A_SCENARIOS)
def test_an_investigation_of_the_maniac_whispers_him_the_persona_it_picked(scenario):
    """Расследование picks the target's most numerous persona; of the A Маньяк (Двойная жизнь)
    that pick is whispered to him, unless the Сыщик saw only Аноним(1) under Срыв or was blocked."""
    s = results_position("investigation", "none" if scenario == "disrupted" else scenario)
    detective = ROWS["investigation"][0]
    s.orders[detective] = {}
    touch(s)
    order(s, detective, "investigation", MANIAC)
    if scenario == "disrupted":
        order(s, TRAITOR, "sabotage_investigation", detective)
    events = finish(s)
    told = [e.params for e in keys(to(events, detective), "mafia.investigation")]
    assert told == ([] if scenario == "blocked" else
                    [{"seat": detective, "ability": "investigation", "target_seat": MANIAC, "mafia": False}])
    probed = [e.params["persona"] for e in keys(to(events, MANIAC), "mafia.probed")]
    assert probed == ([] if scenario in ("disrupted", "blocked") else ["maniac"])


# ------------------------------------------------------------------ version B: the Маньяк told of each real draw

B_SEATS = ["boss", "killer", "agent", "officer", "forensic", "policeman", "vigilante", "civilian", "maniac", "genius"]
B_MANIAC, B_JOURNALIST = 8, 7
# ability: (seat, draws of the Маньяк it makes)
B_ROWS = {"mastermind": (0, 2), "own_hands": (7, 2), "informants": (6, 1), "reportage": (B_JOURNALIST, 1)}


def b_position(row: str, scenario: str):
    seat, _ = B_ROWS[row]
    public = ["Журналист" if x == B_JOURNALIST else f"p{x}" for x in range(len(B_SEATS))]
    s = game("B", B_SEATS, index=3, public=public)
    if row == "reportage":
        order(s, B_JOURNALIST, "reportage", B_MANIAC)
    finish(s)  # day 2: night 3 begins
    assert s.index == 4 and s.personas[B_MANIAC] == {"maniac": 1}
    if row != "reportage":
        order(s, seat, row, B_MANIAC)
    if scenario == "blocked":
        order(s, 5 if seat == 0 else 0, "interrogation", seat)
    return s


@pytest.mark.parametrize("scenario", ("none", "blocked"))
@pytest.mark.parametrize("row", sorted(B_ROWS))
def test_the_b_maniac_is_told_of_each_of_his_personas_really_drawn(row, scenario):
    """B Двойная жизнь: «Всякий раз, как чья-то способность узнаёт его Личину» he learns which;
    each draw of every drawing ability, the Журналист's (a day order) even when he is blocked
    that night, a blocked night order's none."""
    seat, draws = B_ROWS[row]
    s = b_position(row, scenario)
    events = finish(s)
    works = scenario == "none" or row == "reportage"
    got = [e.params["personas"] for e in keys(to(events, seat), "mafia.personas") if e.params["ability"] == row]
    assert got == ([["maniac"] * draws] if works else [])
    probed = [e.params["persona"] for e in keys(to(events, B_MANIAC), "mafia.probed")]
    assert probed == (["maniac"] * draws if works else [])


# ------------------------------------------------------------------ a custom name typed with е for ё

async def test_a_custom_public_role_is_found_with_e_typed_for_yo(monkeypatch):
    """Russian readers fold ё like е, and so do players typing: «баня елка босс» is Кровавая баня
    on the seat signed up as «Ёлка», «пистолет елка» shoots it (as «Ёлка» sorts like «Елка»);
    a name written with е is still told from one written with ё when both are at the table."""
    from commands.games.mafia_parse import _public_name
    from tests.test_mafia_commands import FakeTable, Typist
    from tests.test_mafia_engine import game as c_game

    s = c_game(["boss", "killer", "officer", "civilian", "maniac"], 2, public=["Ёлка", "Жаба", "p2", "p3", "p4"])
    typist = Typist(monkeypatch, FakeTable(s, ["Анна", "Борис", "Вера", "Гоша", "Дина"]))
    (sent,) = await typist.type(4, "ночь баня елка босс")
    assert (sent["ability"], sent["public"], sent["role"]) == ("bloodbath", "Ёлка", "boss")
    (sent,) = await typist.type(1, "ночь пистолет елка")
    assert (sent["ability"], sent["target"]) == ("pistol", 0)
    (sent,) = await typist.type(1, "ночь пистолет ЁЛК")  # a start, in any case
    assert sent["target"] == 0
    assert _public_name("елка", ["Елка", "Ёлка"]) == "Елка" and _public_name("ёлка", ["Елка", "Ёлка"]) == "Ёлка"


# ------------------------------------------------------------------ who is told «ваши заявки не сработали»

# Version A, seat 1 (the Киллер) is the one a block aims at; seat 0 (Босс) and 7 (Полицейский)
# have Допрос, 10 (Злой Гений) Зомбирование, 5 is the Патрульный (Задержание, by day).
BLOCK_SEATS = ["boss", "killer", "agent", "traitor", "officer", "forensic", "detective", "policeman", "vigilante",
               "civilian", "genius", "maniac", "joker"]
HOLDER, VICTIM, PATROLMAN = 1, 6, 5
NIGHT_BLOCKS = {"boss": (0, "interrogation"), "policeman": (7, "interrogation"), "genius": (10, "zombify")}
# holder: (what the seat ordered, the public role, a Мизер in force tonight)
HOLDERS = {"plain": ("pistol", None, False), "only_b": ("mail", None, False), "idle": (None, None, False),
           "berserk": ("pistol", "Берсерк", False), "misere": ("pistol", None, True)}
NIGHT_NOTICE = {"plain": ["mafia.blocked"], "only_b": ["mafia.blocked_some"], "idle": ["mafia.blocked_idle"],
                "berserk": [], "misere": []}


def block_position(holder: str, index: int):
    what, public, misere = HOLDERS[holder]
    names = [f"p{x}" for x in range(len(BLOCK_SEATS))]
    names[PATROLMAN] = "Патрульный"
    if public:
        names[HOLDER] = public
    s = game("A", BLOCK_SEATS, index=index, public=names)
    if misere:  # played last night: works tonight (never by day)
        s.misere[HOLDER] = index if index % 2 == 0 else index + 1
    touch(s)
    if what == "mail":
        GAME.apply(s, HOLDER, {"type": "mail", "target": VICTIM, "text": "привет"})
    elif what == "pistol" and index % 2 == 0:
        order(s, HOLDER, "pistol", VICTIM)
    elif what == "pistol":
        GAME.apply(s, HOLDER, {"type": "vote", "target": VICTIM})
    return s


@pytest.mark.parametrize("holder", sorted(HOLDERS))
@pytest.mark.parametrize("source", sorted(NIGHT_BLOCKS))
def test_a_night_block_notice_is_true_of_the_seat_it_reaches(source, holder):
    """Допрос (Босс, Полицейский) and Зомбирование: «ваши заявки не сработали» only to a seat whose
    orders failed; Б orders that worked are named; a seat with no orders learns only of the
    block; the Берсерк (Ярость) and a Мизер holder are not blocked at all, and their orders work."""
    s = block_position(holder, 2)
    blocker, ability = NIGHT_BLOCKS[source]
    order(s, blocker, ability, HOLDER)
    events = finish(s)
    told = [e.key for e in to(events, HOLDER) if e.key.startswith("mafia.blocked")]
    assert told == NIGHT_NOTICE[holder]
    if HOLDERS[holder][0] == "pistol":
        assert s.hp[VICTIM] == (2 if holder == "plain" else 1)
    if holder == "only_b":
        (some,) = keys(to(events, HOLDER), "mafia.blocked_some")
        assert some.params["abilities"] == ["mail"] and keys(to(events, VICTIM), "mafia.mail")


@pytest.mark.parametrize("holder", sorted(set(HOLDERS) - {"only_b"}))
def test_a_day_block_notice_is_true_of_the_seat_it_reaches(holder):
    """Задержание by day: «днём» and only where the day's orders failed; the Берсерк is not
    blocked; a Мизер (a night card) does not shield its holder by day."""
    s = block_position(holder, 3)
    order(s, PATROLMAN, "detention", HOLDER)
    events = finish(s)
    told = [e.key for e in to(events, HOLDER) if e.key.startswith("mafia.blocked")]
    expected = {"plain": ["mafia.blocked_day"], "misere": ["mafia.blocked_day"], "idle": ["mafia.blocked_idle"],
                "berserk": []}[holder]
    assert told == expected


def test_mail_given_as_an_order_needs_its_text_like_the_mail_action():
    """Found by this audit: {"type": "order", "ability": "mail"} was taken without its text (it
    was dropped even when given) and the night's resolution then failed on the missing text."""
    from games.base import RuleError

    s = game("A", BLOCK_SEATS, index=2)
    with pytest.raises(RuleError) as refused:
        order(s, HOLDER, "mail", VICTIM)
    assert refused.value.key == "mafia.error.bad_arg" and "mail" not in s.orders[HOLDER]
    order(s, HOLDER, "mail", VICTIM, text="привет")
    (got,) = keys(to(finish(s), VICTIM), "mafia.mail")
    assert got.params["text"] == "привет"


@pytest.mark.parametrize("scenario", A_SCENARIOS)
def test_a_jury_reads_the_role_whatever_the_sabotage_hits(scenario):
    """Суд присяжных (A: 1 secret vote, the Гражданский not told) reads the secret role, not
    personas: Срыв on him or on another seat changes nothing; a block voids it."""
    juror = 6
    s = own_order_position(scenario)
    order(s, juror, "jury", 0, role="boss")
    add_scenario(s, scenario, juror)
    day = s.index + 1
    events = finish(s)
    assert s.extra_votes.get(day, {}).get(0) == (None if scenario == "blocked" else 1)
    assert not keys(to(events, juror), "mafia.guess")
