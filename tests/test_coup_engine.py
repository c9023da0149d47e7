"""Coup («Переворот») engine: one test per rule of docs/coup-protocol.md and of
../shared/rules/coup.md (rows #1-#29), each quoting the seed line or the row it checks;
then whole random games: one winner, replay, conservation, and no leaks of face-down cards."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from games.base import MASTER, SPECTATOR, Audience, Outcome, RuleError
from games.coup import GAME, CoupState
from games.coup import engine as E

ALLOW = {"type": "allow"}
CHALLENGE = {"type": "challenge"}
PROVE = {"type": "prove"}
CONCEDE = {"type": "concede"}
INCOME = {"type": "income"}
EVERYONE = Audience.everyone()


def A(kind: str, **params) -> dict:  # noqa: N802 (reads like the constants)
    return {"type": kind, **params}


def lose(role: str) -> dict:
    return {"type": "lose", "role": role}


def block(role: str) -> dict:
    return {"type": "block", "role": role}


# ----------------------------------------------------------------------------------- helpers


def position(hands, coins=None, court=None, active=0, fifth="ambassador", face_up=None, options=None,
             seed=0) -> CoupState:
    """Any position at the start of ``active``'s turn: face-down hands, coins, Court (top = last),
    face-up cards. A seat with no face-down card is out. The Court defaults to the rest of the deck."""
    n = len(hands)
    opts = {"role": "advisor" if fifth == "ambassador" else "investigator", **(options or {})}
    s = GAME.new(n, opts, seed)
    s.hands = [list(h) for h in hands]
    s.face_up = [list(f) for f in (face_up or [[] for _ in range(n)])]
    s.coins = list(coins if coins is not None else [2] * n)
    if court is None:
        deck = Counter({role: 4 if n >= 7 else 3 for role in s.roles})
        deck.subtract(Counter(r for h in s.hands + s.face_up for r in h))
        court = [role for role in s.roles for _ in range(max(0, deck[role]))]
    s.court = list(court)
    s.alive = [bool(h) for h in s.hands]
    s.living = sum(s.alive)
    s.treasury = E.box_coins(n) - sum(s.coins)
    s.active = active
    s.picked = None
    E._enter(s, "turn")
    return s


def play(s: CoupState, *moves) -> list:
    """Apply (seat, action) pairs in order; return all the events."""
    events = []
    for seat, action in moves:
        events += GAME.apply(s, seat, action)
    return events


def keys(events) -> list[str]:
    return [e.key for e in events]


def find(events, key: str) -> list:
    return [e for e in events if e.key == key]


def params(events, key: str) -> list[dict]:
    return [e.params for e in events if e.key == key]


def raises(key: str, s: CoupState, seat: int, action, /, **expected) -> None:
    before = s.data()
    with pytest.raises(RuleError) as info:
        GAME.apply(s, seat, action)
    assert info.value.key == key, info.value.key
    assert info.value.params == expected
    assert s.data() == before  # a refused action changes nothing


def waiting(s: CoupState) -> list[int]:
    return [w.seat for w in GAME.awaiting(s)]


def total_coins(s: CoupState) -> int:
    return sum(s.coins) + s.treasury


# ----------------------------------------------------------------------------------- setup


def test_options():
    defaults = {"role": "advisor", "challenge_order": "seat", "examine": "choose", "turn": 60, "reaction": 20,
                "first": None}
    assert GAME.default_options == defaults
    assert GAME.validate_options(None) == defaults
    assert GAME.validate_options({"role": "Investigator", "turn": "90", "reaction": " 7 "}) == {
        **defaults, "role": "investigator", "turn": 90, "reaction": 7}
    assert GAME.validate_options({"role": "inquisitor"})["role"] == "investigator"
    assert GAME.validate_options({"role": "ambassador"})["role"] == "advisor"
    assert GAME.validate_options({"challenge_order": "first", "examine": "always_swap"}) == {
        **defaults, "challenge_order": "first", "examine": "always_swap"}
    for name, bad in [("role", "duke"), ("role", 3), ("challenge_order", "fast"), ("examine", "never"),
                      ("turn", 9), ("turn", "3601"), ("turn", True), ("reaction", 4), ("reaction", "x"),
                      ("reaction", 5.5), ("speed", 1)]:
        with pytest.raises(RuleError) as info:
            GAME.validate_options({name: bad})
        assert info.value.key == "coup.error.bad_option"
        assert info.value.params == {"name": name, "value": bad}
    for seats in (1, 11):
        with pytest.raises(RuleError) as info:
            GAME.new(seats, {}, 1)
        assert info.value.params == {"name": "players", "value": seats}
    assert (GAME.min_players, GAME.max_players, GAME.default_seats, GAME.name) == (2, 10, 8, "coup")


def test_deal_for_3_to_6_players():
    # 000: "Раздайте по две карты каждому игроку. Остальные карты поместите в центр стола — это Общая колода."
    # 000: "Сдайте по 2 монеты каждому игроку."
    # #2: "15 cards, Ambassador or Inquisitor"; #3: 50 coins, 2 each.
    for n in range(3, 7):
        for option, fifth in (("advisor", "ambassador"), ("investigator", "inquisitor")):
            s = GAME.new(n, {"role": option}, seed=n)
            cards = Counter(r for h in s.hands + [s.court] for r in h)
            assert cards == Counter({r: 3 for r in ("duke", "assassin", "captain", fifth, "contessa")})
            assert all(len(h) == 2 for h in s.hands) and len(s.court) == 15 - 2 * n
            assert s.coins == [2] * n and s.treasury == 50 - 2 * n
            assert s.stage == "turn" and s.fifth == fifth
            view = GAME.view(s, SPECTATOR)
            assert view["fifth"] == fifth and view["court"] == 15 - 2 * n


def test_seven_and_eight_players_use_four_copies():
    # 001: "Правила ті ж самі, за винятком того, що використовується 4 копії кожного з 5 обраних символів (замість 3 копій)."
    # #27: "accept 001's rule"; #3 (revised): the box is still 50 coins.
    for n in (7, 8):
        s = GAME.new(n, {}, seed=n)
        cards = Counter(r for h in s.hands + [s.court] for r in h)
        assert sum(cards.values()) == 20 and set(cards.values()) == {4}
        assert len(s.court) == 20 - 2 * n and s.coins == [2] * n and total_coins(s) == 50


def test_nine_and_ten_players_use_five_copies():
    # coup.md #1: "2–6 standard, 7–8 with 4 copies per 001. Optional 9–10 with 5 copies, as
    # Reformation allows." A table seats 8 unless opened with seats=9 or seats=10 (the option).
    # #3 (revised): "the treasury holds 50 coins (75 for 9-10 players)".
    for n in (9, 10):
        for option, fifth in (("advisor", "ambassador"), ("investigator", "inquisitor")):
            s = GAME.new(n, {"role": option}, seed=n)
            cards = Counter(r for h in s.hands + [s.court] for r in h)
            assert cards == Counter({r: 5 for r in ("duke", "assassin", "captain", fifth, "contessa")})
            assert all(len(h) == 2 for h in s.hands) and len(s.court) == 25 - 2 * n
            assert s.coins == [2] * n and total_coins(s) == 75
            assert GAME.view(s, n - 1)["players"] == n


def test_first_player_is_random_and_seeded():
    # 000: "Определите первого игрока произвольным образом."  #4: random in game 1.
    firsts = {GAME.new(5, {}, seed).active for seed in range(60)}
    assert firsts == set(range(5))
    assert GAME.new(5, {}, 42).data() == GAME.new(5, {}, 42).data()


def test_two_player_draft_and_one_coin():
    # 001: "- Розділіть картки на 3 стопки, що містять по одній копії кожного персонажа."
    # 001: "- Перетасувавши одну з цих колод, роздайте кожному гравцеві по карті персонажа з цієї колоди
    #      лицьовою стороною донизу, а інші три карти покладіть посередині, щоб сформувати Суд"
    # 001: "- Після того, як гравці подивилися свої карти, вони беруть по одній карті з купки, що
    #      залишилася, і можуть вибрати іншого персонажа. Решта 4 карти з кожної купки не використовуються."
    # #26: "plus the starting player starts with 1 coin [2P]".
    s = GAME.new(2, {}, seed=3)
    assert s.stage == "draft" and [len(h) for h in s.hands] == [1, 1] and len(s.court) == 3
    assert sorted(s.hands[0] + s.hands[1] + s.court) == sorted(s.roles)  # one pile of one of each
    first = s.active
    assert s.coins[first] == 1 and s.coins[1 - first] == 2 and total_coins(s) == 50
    events = GAME.start_events(s)
    assert keys(events) == ["coup.start", "coup.hand", "coup.hand", "coup.draft_start"]
    assert events[1].audience == Audience.only(0) and events[1].params == {"seat": 0, "roles": s.hands[0]}
    waits = GAME.awaiting(s)
    assert [w.seat for w in waits] == [0, 1] and len({w.window for w in waits}) == 1
    assert all(w.default == {"type": "draft", "role": "duke"} for w in waits)
    assert GAME.legal(s, 0) == [A("draft", role=r) for r in ("duke", "assassin", "captain", "ambassador", "contessa")]
    raises("coup.error.not_in_deck", s, 0, A("draft", role="inquisitor"), role="inquisitor")
    raises("coup.error.no_such_action", s, 0, INCOME)
    own = s.hands[0][0]
    events = GAME.apply(s, 0, A("draft", role=own))  # the same role as the dealt card is allowed
    assert keys(events) == ["coup.hand"] and events[0].audience == Audience.only(0)
    assert s.hands[0] == [own, own] and waiting(s) == [1]
    raises("coup.error.already_answered", s, 0, A("draft", role="duke"))
    assert GAME.legal(s, 0) == []
    events = GAME.apply(s, 1, A("draft", role="contessa"))
    assert keys(events) == ["coup.hand", "coup.turn"]
    assert events[-1].params == {"seat": first, "coins": 1}
    assert s.stage == "turn" and len(s.court) == 3 and [len(h) for h in s.hands] == [2, 2]


def test_start_events_and_first_turn():
    s = GAME.new(4, {"role": "investigator"}, seed=9)
    events = GAME.start_events(s)
    assert keys(events) == ["coup.start"] + ["coup.hand"] * 4 + ["coup.turn"]
    assert events[0].params == {"players": 4, "fifth": "inquisitor"} and events[0].audience == EVERYONE
    for seat in range(4):
        assert events[1 + seat].audience == Audience.only(seat)
        assert events[1 + seat].params == {"seat": seat, "roles": s.hands[seat]}
    assert events[-1].params == {"seat": s.active, "coins": 2}
    assert s.data() == GAME.new(4, {"role": "investigator"}, seed=9).data()  # start_events changes nothing


def test_state_copy_and_deepcopy():
    s = GAME.new(4, {}, seed=2)
    for twin in (s.copy(), copy.deepcopy(s)):
        assert twin.data() == s.data()
        GAME.apply(twin, twin.active, INCOME)
        assert twin.data() != s.data() and s.coins == [2] * 4
    a, b = s.copy(), s.copy()
    a.rng.random()
    assert b.rng.getstate() == s.rng.getstate()  # each copy has its own RNG


# ----------------------------------------------------------------------------------- general actions


def test_income():
    # 000: "- Получить доход: возьмите из Казны одну монету. Это действие не может быть никем блокировано;"
    # 001: "А) Доходи: візьміть 1 монету скарбу (дія не може бути відмінена)"
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]], coins=[2, 2, 2])
    events = GAME.apply(s, 0, INCOME)
    assert keys(events) == ["coup.declare", "coup.income", "coup.turn"]
    assert events[0].params == {"actor_seat": 0, "action": "income"}
    assert events[1].params == {"seat": 0, "coins": 1, "total": 3}
    assert s.coins == [3, 2, 2] and s.treasury == 50 - 7 and s.active == 1 and s.stage == "turn"
    assert s.turn == 2


def test_foreign_aid_takes_two_coins():
    # 000: "- Получить иностранную помощь: возьмите из Казны две монеты. Это действие может быть блокировано Губернатором;"
    # #5: "2 coins [R]. The «три» in 000 is a typo."
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    events = GAME.apply(s, 0, A("foreign_aid"))
    assert s.stage == "block" and waiting(s) == [1, 2]  # no challenge window: it claims nothing
    assert all(w.kind == "reaction" and w.default == ALLOW for w in GAME.awaiting(s))
    assert GAME.legal(s, 1) == [block("duke"), ALLOW]
    raises("coup.error.no_such_action", s, 1, CHALLENGE)
    events = play(s, (1, ALLOW), (2, ALLOW))
    assert params(events, "coup.foreign_aid") == [{"seat": 0, "coins": 2, "total": 4}]
    assert s.coins == [4, 2, 2] and s.active == 1


def test_foreign_aid_blocked_by_any_duke():
    # 000: "Получение иностранной помощи может быть заблокировано любым другим игроком."
    # 000: "- Губернатор может заблокировать получение иностранной помощи."  #9: "Foreign Aid: anyone".
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"], ["captain", "captain"]])
    GAME.apply(s, 0, A("foreign_aid"))
    events = GAME.apply(s, 2, block("duke"))  # seat 2 is not before seat 1, but seat 1 may still block
    assert keys(events) == ["coup.queued"] and events[0].audience == Audience.only(2)
    events = play(s, (1, ALLOW))
    assert params(events, "coup.block") == [{"blocker_seat": 2, "role": "duke", "actor_seat": 0}]
    assert s.stage == "challenge_block" and waiting(s) == [0, 1, 3]  # the active player first (#7)
    events = play(s, (0, ALLOW), (1, ALLOW), (3, ALLOW))
    assert params(events, "coup.blocked") == [{"actor_seat": 0, "action": "foreign_aid"}]
    assert s.coins == [2, 2, 2, 2] and s.active == 1


def test_block_first_in_priority_is_not_told_to_wait():
    # coup.md #7: "pick by seat order from the claimant's left": the first seat in that order has
    # nobody to wait for, so its block takes effect at once and no "queued" whisper is sent.
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"], ["captain", "captain"]])
    GAME.apply(s, 0, A("foreign_aid"))
    events = GAME.apply(s, 1, block("duke"))
    assert "coup.queued" not in keys(events)
    assert params(events, "coup.block") == [{"blocker_seat": 1, "role": "duke", "actor_seat": 0}]


def test_duke_block_challenged_and_false_lets_aid_through():
    # 000: "Блок ролью также относится к ролевым действиям и тоже может быть подвергнут проверке легальности
    #      любым игроком (в т. ч. и третьей стороной)."
    # #14: "Block challenged and proven a bluff: the action happens".
    s = position([["duke", "captain"], ["contessa", "assassin"], ["captain", "contessa"]])
    play(s, (0, A("foreign_aid")), (1, block("duke")))
    events = play(s, (0, ALLOW), (2, CHALLENGE))  # a third party challenges the block
    assert params(events, "coup.challenge") == [{"challenger_seat": 2, "target_seat": 1, "role": "duke"}]
    assert s.stage == "prove" and waiting(s) == [1] and GAME.legal(s, 1) == [CONCEDE]
    assert GAME.awaiting(s)[0].default == CONCEDE
    raises("coup.error.no_such_card", s, 1, PROVE, role="duke")
    events = play(s, (1, CONCEDE), (1, lose("assassin")))
    assert keys(events) == ["coup.concede", "coup.must_lose", "coup.lost", "coup.foreign_aid", "coup.turn"]
    assert s.coins[0] == 4 and s.face_up[1] == ["assassin"]


def test_duke_block_challenged_and_true_stands():
    # 000: "вы либо показываете всем, что нужная карта у вас действительно есть (затем замешиваете ее в колоду,
    #      берете себе новую, а инициатор проверки в качестве «наказания за недоверие» теряет одного персонажа)"
    s = position([["duke", "captain"], ["duke", "assassin"], ["captain", "contessa"]])
    play(s, (0, A("foreign_aid")), (1, block("duke")))
    events = play(s, (0, CHALLENGE))  # the active player has priority: wins at once
    assert s.stage == "prove" and s.challenger == 0
    events = play(s, (1, PROVE))
    assert keys(events)[:3] == ["coup.proven", "coup.new_card", "coup.must_lose"]
    events += play(s, (0, lose("captain")))
    assert params(events, "coup.blocked") == [{"actor_seat": 0, "action": "foreign_aid"}]
    assert s.coins[0] == 2 and s.face_up[0] == ["captain"] and s.active == 1


def test_coup_costs_seven_and_cannot_be_blocked_or_challenged():
    # 000: "- Совершить переворот в адрес другого игрока: оплатите в Казну семь монет и укажите игрока,
    #      который немедленно теряет одного своего персонажа. Это действие не может быть никем блокировано."
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]], coins=[6, 2, 2])
    raises("coup.error.not_enough_coins", s, 0, A("coup", target=1), need=7)
    assert not any(a["type"] == "coup" for a in GAME.legal(s, 0))
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]], coins=[7, 2, 2])
    raises("coup.error.bad_target", s, 0, A("coup", target=0))
    raises("coup.error.bad_target", s, 0, A("coup", target=3))
    raises("coup.error.bad_target", s, 0, A("coup", target="1"))
    raises("coup.error.bad_target", s, 0, A("coup"))
    events = GAME.apply(s, 0, A("coup", target=1))
    assert keys(events) == ["coup.declare", "coup.must_lose"]
    assert events[0].params == {"actor_seat": 0, "action": "coup", "target_seat": 1}
    assert s.coins[0] == 0 and s.treasury == 50 - 4 and s.stage == "lose" and waiting(s) == [1]
    events = GAME.apply(s, 1, lose("contessa"))
    assert keys(events) == ["coup.lost", "coup.turn"] and s.face_up[1] == ["contessa"]


def test_forced_coup_at_ten_coins():
    # 000: "- Обязательный переворот: если у вас на руках десять монет, вы обязаны совершить переворот в адрес
    #      другого игрока. Вы не можете делать никаких других действий. Обязательный переворот, так же, как и
    #      обычный, стоит семь монет."
    # 001: "Якщо персонаж починає свій хід з 10 монетами, він повинен здійснити переворот (дія С)."
    # #6: "10 (or more) coins they must launch a Coup".
    hands = [["duke", "captain"], [], ["contessa", "assassin"], ["duke", "captain"]]
    face_up = [[], ["duke", "captain"], [], []]
    for coins in (10, 12):
        s = position(hands, coins=[coins, 0, 2, 2], face_up=face_up)
        assert GAME.legal(s, 0) == [A("coup", target=2), A("coup", target=3)]
        wait = GAME.awaiting(s)[0]
        assert wait.kind == "turn" and wait.default == A("coup", target=2)  # first living to the left
        for action in (INCOME, A("tax"), A("steal", target=2), A("exchange")):
            raises("coup.error.must_coup", s, 0, action)
        GAME.apply(s, 0, wait.default)
        assert s.coins[0] == coins - 7 and s.stage == "lose"
    s = position([["duke", "captain"], ["contessa", "assassin"]], coins=[9, 2])
    assert GAME.awaiting(s)[0].default == INCOME and INCOME in GAME.legal(s, 0)


def test_no_passing_one_action_a_turn():
    # 000: "В свой ход игрок обязан совершить одно действие, пропускать ход нельзя."  #28: not allowed.
    # 000: "в свой ход вы можете совершить либо Малый обмен, либо Допрос, но не оба действия сразу."  #25.
    s = position([["duke", "captain"], ["contessa", "assassin"]], fifth="inquisitor")
    assert {a["type"] for a in GAME.legal(s, 0)} == {"income", "foreign_aid", "tax", "steal", "exchange", "examine"}
    raises("coup.error.no_such_action", s, 0, ALLOW)
    raises("coup.error.no_such_action", s, 0, {"type": "pass"})
    raises("coup.error.no_such_action", s, 0, "income")
    raises("coup.error.no_such_action", s, 0, {"type": ["income"]})
    raises("coup.error.not_your_turn", s, 1, INCOME)
    raises("coup.error.not_your_turn", s, SPECTATOR, INCOME)
    raises("coup.error.not_your_turn", s, MASTER, INCOME)
    play(s, (0, A("exchange")), (1, ALLOW))
    assert s.stage == "exchange"
    raises("coup.error.no_such_action", s, 0, A("examine", target=1))


# ----------------------------------------------------------------------------------- role actions


def test_tax():
    # 000: "- Получение налогов (Губернатор): возьмите из Казны три монеты. Это действие не может быть никем блокировано;"
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    events = GAME.apply(s, 0, A("tax"))
    assert events[0].params == {"actor_seat": 0, "action": "tax", "claim": "duke"}
    assert s.stage == "challenge_action" and waiting(s) == [1, 2]
    events = play(s, (1, ALLOW), (2, ALLOW))
    assert keys(events) == ["coup.allowed", "coup.allowed", "coup.tax", "coup.turn"]  # no block window
    assert s.coins[0] == 5 and total_coins(s) == 50


def test_anyone_may_challenge():
    # 000: "Проверку легальности в адрес любого игрока может объявлять любой другой игрок, даже тот, кого не
    #      затрагивает возникший конфликт."  #8: "Anyone, including uninvolved players".
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    GAME.apply(s, 0, A("steal", target=1))
    assert GAME.legal(s, 2) == [CHALLENGE, ALLOW]
    play(s, (1, ALLOW), (2, CHALLENGE))
    assert s.stage == "prove" and s.challenger == 2


def test_assassinate_pays_three_and_target_loses_a_card():
    # 000: "- Убийство (Убийца): оплатите в Казну три монеты и укажите игрока, который теряет одного своего
    #      персонажа. Это действие может блокировать Княжна;"
    s = position([["assassin", "captain"], ["contessa", "duke"], ["duke", "captain"]], coins=[2, 2, 2])
    raises("coup.error.not_enough_coins", s, 0, A("assassinate", target=1), need=3)
    s = position([["assassin", "captain"], ["contessa", "duke"], ["duke", "captain"]], coins=[3, 2, 2])
    GAME.apply(s, 0, A("assassinate", target=1))
    assert s.coins[0] == 0 and s.treasury == 50 - 4  # paid at once (#10)
    play(s, (1, ALLOW), (2, ALLOW))
    assert s.stage == "block" and waiting(s) == [1] and GAME.legal(s, 1) == [block("contessa"), ALLOW]
    events = play(s, (1, ALLOW))
    assert keys(events) == ["coup.allowed", "coup.must_lose"] and s.stage == "lose"
    events = play(s, (1, lose("duke")))
    assert keys(events) == ["coup.lost", "coup.turn"] and s.hands[1] == ["contessa"]


def test_blocked_assassination_keeps_coins_spent():
    # 000: "- Княжна может заблокировать убийство. В этом случае игрок, пытавшийся совершить убийство, все равно
    #      уплачивает в казну три монеты;"
    # 001: "- Графиня : відповідає Вбивця. Дія не вдається, але монети все одно втрачаються."  #13.
    s = position([["assassin", "captain"], ["contessa", "duke"], ["duke", "captain"]], coins=[5, 2, 2])
    play(s, (0, A("assassinate", target=1)), (1, ALLOW), (2, ALLOW), (1, block("contessa")))
    events = play(s, (0, ALLOW), (2, ALLOW))
    assert keys(events)[-2:] == ["coup.blocked", "coup.turn"]
    assert s.coins == [2, 2, 2] and s.hands[1] == ["contessa", "duke"] and "coup.refund" not in keys(events)


def test_double_loss_lost_challenge_then_assassination():
    # 000: "В результате одна из ваших карт переворачивается вследствие убийства, другую же вы теряете как
    #      «наказание за недоверие»."  #14 "double dangers of assassination".
    s = position([["assassin", "captain"], ["duke", "captain"], ["duke", "captain"]], coins=[3, 2, 2])
    play(s, (0, A("assassinate", target=1)), (1, CHALLENGE), (0, PROVE))
    assert s.stage == "lose" and s.losing == 1
    play(s, (1, lose("duke")))
    assert s.stage == "block" and waiting(s) == [1]  # #17: may still block with a card left
    events = play(s, (1, ALLOW))
    assert params(events, "coup.lost") == [{"seat": 1, "role": "captain"}]  # the only card, at once
    assert params(events, "coup.eliminated") == [{"seat": 1, "coins": 2}]
    assert s.alive == [True, False, True] and s.active == 2


def test_double_loss_bluffed_contessa():
    # 000: "Другой случай: вас пытаются убить, но вы заявляете, что ваша Княжна блокирует убийство. Оппонент
    #      выполняет проверку в ваш адрес, но у вас в действительности нет Княжны. В этой ситуации одна ваша
    #      карта вскрывается из-за убийства, а вторая — в качестве «наказания за обман»."
    s = position([["assassin", "captain"], ["duke", "captain"], ["duke", "captain"]], coins=[3, 2, 2])
    play(s, (0, A("assassinate", target=1)), (1, ALLOW), (2, ALLOW), (1, block("contessa")), (0, CHALLENGE))
    events = play(s, (1, CONCEDE), (1, lose("duke")))
    assert keys(events) == ["coup.concede", "coup.must_lose", "coup.lost", "coup.must_lose", "coup.lost",
                            "coup.eliminated", "coup.turn"]
    assert s.face_up[1] == ["duke", "captain"] and not s.alive[1] and s.coins[0] == 0


def test_target_who_lost_a_challenge_still_blocks():
    # #17: "Decision: a target with a card left may still block."
    s = position([["assassin", "captain"], ["contessa", "captain"], ["duke", "captain"]], coins=[3, 2, 2])
    play(s, (0, A("assassinate", target=1)), (1, CHALLENGE), (0, PROVE), (1, lose("captain")))
    assert s.stage == "block"
    events = play(s, (1, block("contessa")), (0, ALLOW), (2, ALLOW))
    assert keys(events)[-2:] == ["coup.blocked", "coup.turn"] and s.hands[1] == ["contessa"]


def test_assassination_of_a_target_already_out_ends_quietly():
    # Decision (docs/coup-protocol.md): a target out after losing a challenge gets no block window.
    s = position([["assassin", "captain"], ["duke"], ["duke", "captain"]], coins=[3, 2, 2],
                 face_up=[[], ["contessa"], []])
    events = play(s, (0, A("assassinate", target=1)), (1, CHALLENGE), (0, PROVE))
    assert params(events, "coup.eliminated") == [{"seat": 1, "coins": 2}]
    assert keys(events)[-1] == "coup.turn" and s.active == 2 and s.coins[0] == 0


def test_steal_two_one_or_zero():
    # 000: "- Воровство (Полицейский): украдите две монеты у другого игрока. Если у него только одна монета,
    #      заберите ее."
    # #19: "from 0 coins the steal gets 0 but can still be challenged or blocked".
    for theirs, taken in ((5, 2), (2, 2), (1, 1), (0, 0)):
        s = position([["captain", "duke"], ["contessa", "assassin"], ["duke", "duke"]], coins=[2, theirs, 2])
        play(s, (0, A("steal", target=1)), (1, ALLOW), (2, ALLOW))
        assert s.stage == "block" and waiting(s) == [1]
        events = play(s, (1, ALLOW))
        assert params(events, "coup.steal") == [{"actor_seat": 0, "target_seat": 1, "amount": taken}]
        assert s.coins == [2 + taken, theirs - taken, 2] and total_coins(s) == 50


def test_steal_blockers_follow_the_deck():
    # 000: "Это действие могут блокировать другой Полицейский, Советник или Следователь;"
    # 001: "- Капітан / Посол / Інквізитор Пояснення: всі вони протистоять Капітану, таким чином не даючи йому вкрасти 2 монети."
    # #20: "Captain, or Ambassador/Inquisitor, whichever is in the deck".
    for fifth, other in (("ambassador", "inquisitor"), ("inquisitor", "ambassador")):
        for role in ("captain", fifth):
            s = position([["captain", "duke"], ["contessa", "assassin"], ["duke", "duke"]], fifth=fifth)
            play(s, (0, A("steal", target=1)), (1, ALLOW), (2, ALLOW))
            assert GAME.legal(s, 1) == [block("captain"), block(fifth), ALLOW]
            raises("coup.error.not_in_deck", s, 1, block(other), role=other)
            raises("coup.error.cannot_block", s, 1, block("contessa"))
            raises("coup.error.cannot_block", s, 1, block("duke"))
            events = play(s, (1, block(role)), (0, ALLOW), (2, ALLOW))
            assert params(events, "coup.block")[0]["role"] == role
            assert keys(events)[-2:] == ["coup.blocked", "coup.turn"] and s.coins == [2, 2, 2]


def test_only_the_target_blocks_steal_or_assassination():
    # 000: "Убийство или воровство могут быть блокированы только тем игроком, против которого они направлены.
    #      Третий игрок не имеет права вмешиваться в атаку одного на другого."  #9.
    s = position([["captain", "assassin"], ["contessa", "assassin"], ["captain", "contessa"]], coins=[3, 2, 2])
    play(s, (0, A("steal", target=1)), (1, ALLOW), (2, ALLOW))
    raises("coup.error.cannot_block", s, 2, block("captain"))
    assert GAME.legal(s, 2) == []
    s = position([["captain", "assassin"], ["contessa", "assassin"], ["captain", "contessa"]], coins=[3, 2, 2])
    GAME.apply(s, 0, A("assassinate", target=1))
    raises("coup.error.cannot_block", s, 1, block("contessa"))  # a challenge comes first (#10)
    play(s, (1, ALLOW), (2, ALLOW))
    raises("coup.error.cannot_block", s, 2, block("contessa"))
    raises("coup.error.not_your_turn", s, 2, ALLOW)


def test_challenge_comes_before_block():
    # 000: "Если действие вызывает одновременно проверку легальности и блок ролью — в первую очередь
    #      проводится проверка легальности."  #10: action -> challenge window -> block window -> challenge on block.
    s = position([["captain", "duke"], ["contessa", "assassin"], ["duke", "duke"]])
    GAME.apply(s, 0, A("steal", target=1))
    assert s.stage == "challenge_action"
    play(s, (1, ALLOW), (2, ALLOW))
    assert s.stage == "block"
    GAME.apply(s, 1, block("captain"))
    assert s.stage == "challenge_block" and waiting(s) == [0, 2]


def test_proven_claim():
    # 000: "- Справедливое (легальное) действие: у активного игрока действительно есть на руке эта карта, и он
    #      показывает ее всем. После этого он замешивает ее в Общую колоду и берет себе из нее новую карту
    #      (смотрит сам, но не показывает оппонентам). Игрок, который выполнял проверку, получает «наказание за
    #      недоверчивость»: теряет одного своего персонажа."
    # #11: "and then the action *still resolves*".
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    play(s, (0, A("tax")), (1, ALLOW), (2, CHALLENGE))
    assert GAME.legal(s, 0) == [PROVE, CONCEDE] and GAME.awaiting(s)[0].default == PROVE
    court_before = Counter(s.court)
    events = GAME.apply(s, 0, PROVE)
    assert keys(events) == ["coup.proven", "coup.new_card", "coup.must_lose"]
    assert events[0].params == {"seat": 0, "role": "duke"} and events[0].audience == EVERYONE
    new = events[1].params["role"]
    assert events[1].audience == Audience.only(0) and events[1].params == {"seat": 0, "role": new}
    assert Counter(s.hands[0]) == Counter(["captain", new])
    assert Counter(s.court) == court_before + Counter(["duke"]) - Counter([new])
    assert s.stage == "lose" and waiting(s) == [2]
    events = GAME.apply(s, 2, lose("captain"))
    assert keys(events) == ["coup.lost", "coup.tax", "coup.turn"] and s.coins[0] == 5


def test_failed_bluff_refunds_coins():
    # 000: "- Ложное (нелегальное) действие: у активного игрока нет на руках той карты, ролевое действие которой
    #      он выполняет. За это он получает «наказание за обман»: теряет одного своего персонажа. Если он при
    #      этом тратил на свое действие деньги — он возвращает их себе (поскольку действие не состоялось)."
    # 001: "a) Якщо був блеф, персонаж вибирає одного зі своїх персонажів і перевертає його обличчям догори,
    #      останній мертвий. Ефект потужності також скасовується."  #12: refund.
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]], coins=[4, 2, 2])
    play(s, (0, A("assassinate", target=1)), (1, CHALLENGE))
    assert GAME.legal(s, 0) == [CONCEDE]
    events = play(s, (0, CONCEDE))
    assert keys(events) == ["coup.concede", "coup.refund", "coup.must_lose"]
    assert events[0].params == {"seat": 0, "role": "assassin"}
    assert events[1].params == {"seat": 0, "amount": 3} and s.coins[0] == 4
    events = play(s, (0, lose("captain")))
    assert keys(events) == ["coup.lost", "coup.turn"]
    assert s.hands[1] == ["contessa", "assassin"] and s.coins == [4, 2, 2] and total_coins(s) == 50
    assert "coup.bluff" not in keys(events)


def test_concession_while_holding_the_card():
    # #16: "a challenged player may concede even while holding the card."
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    play(s, (0, A("tax")), (1, CHALLENGE))
    events = play(s, (0, CONCEDE), (0, lose("captain")))
    assert keys(events)[:1] == ["coup.concede"] and s.hands[0] == ["duke"] and s.coins[0] == 2
    # The table hears the same as for a bluff: nobody learns the card was held.
    bluffer = position([["assassin", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    holder = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    for state in (bluffer, holder):
        play(state, (0, A("tax")), (1, CHALLENGE))
    assert play(bluffer, (0, CONCEDE)) == play(holder, (0, CONCEDE))


def test_several_challengers_in_seat_order():
    # 000: "Приоритетное право объявить проверку легальности имеет активный игрок, затем сидящий слева от него
    #      и далее по часовой стрелке."
    # #7: "if several players challenge, pick by seat order from the claimant's left".
    s = position([["duke", "captain"]] * 5, active=3)
    GAME.apply(s, 3, A("tax"))
    assert s.order == [4, 0, 1, 2]
    events = GAME.apply(s, 1, CHALLENGE)  # waits for seats 4 and 0
    assert keys(events) == ["coup.queued"] and events[0].audience == Audience.only(1)
    assert waiting(s) == [4, 0, 2] and GAME.legal(s, 1) == []
    raises("coup.error.already_answered", s, 1, ALLOW)
    assert GAME.view(s, 2)["pending"]["challenger"] is None  # not public yet
    GAME.apply(s, 2, CHALLENGE)
    GAME.apply(s, 4, ALLOW)
    assert s.stage == "challenge_action"
    events = GAME.apply(s, 0, ALLOW)
    assert params(events, "coup.challenge") == [{"challenger_seat": 1, "target_seat": 3, "role": "duke"}]
    # An earlier seat's challenge wins at once over a queued one.
    s = position([["duke", "captain"]] * 5, active=3)
    play(s, (3, A("tax")), (1, CHALLENGE))
    events = GAME.apply(s, 4, CHALLENGE)
    assert params(events, "coup.challenge")[0]["challenger_seat"] == 4


def test_several_challengers_first_wins():
    # 001: "Якщо кілька гравців хочуть поставити під сумнів цю силу, це може зробити найшвидший гравець, який
    #      висловився."  (challenge_order=first)
    s = position([["duke", "captain"]] * 5, active=3, options={"challenge_order": "first"})
    GAME.apply(s, 3, A("tax"))
    events = GAME.apply(s, 1, CHALLENGE)
    assert params(events, "coup.challenge") == [{"challenger_seat": 1, "target_seat": 3, "role": "duke"}]
    assert s.stage == "prove"
    raises("coup.error.not_your_turn", s, 4, CHALLENGE)
    # The same for blocks of foreign aid: the first Duke named blocks.
    s = position([["duke", "captain"]] * 4, options={"challenge_order": "first"})
    play(s, (0, A("foreign_aid")))
    events = GAME.apply(s, 3, block("duke"))
    assert params(events, "coup.block")[0]["blocker_seat"] == 3 and s.stage == "challenge_block"


def test_challenge_of_a_block_active_player_first():
    # 000: "Приоритетное право объявить проверку легальности имеет активный игрок, затем сидящий слева от него"
    # #7: "For challenges to a block, the active player has first priority (000)."
    s = position([["duke", "captain"]] * 5, active=1)
    play(s, (1, A("foreign_aid")), (2, ALLOW), (3, block("duke")))
    assert s.order == [1, 2, 4, 0]
    play(s, (0, CHALLENGE), (4, CHALLENGE), (2, CHALLENGE))
    assert s.stage == "challenge_block"  # all wait for the active player
    events = GAME.apply(s, 1, ALLOW)
    assert params(events, "coup.challenge") == [{"challenger_seat": 2, "target_seat": 3, "role": "duke"}]


def test_the_loser_chooses_the_card():
    # 000: "Если вы теряете персонажа, вы должны перевернуть одну карту (любую на свой выбор) лицом вверх."
    # #15: "Each player always chooses".
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "duke"]], coins=[7, 2, 2])
    GAME.apply(s, 0, A("coup", target=1))
    assert GAME.legal(s, 1) == [lose("contessa"), lose("assassin")] and GAME.legal(s, 0) == []
    raises("coup.error.no_such_card", s, 1, lose("duke"), role="duke")
    raises("coup.error.not_your_turn", s, 0, lose("duke"))
    raises("coup.error.no_such_action", s, 1, ALLOW)
    GAME.apply(s, 1, lose("assassin"))
    assert s.hands[1] == ["contessa"] and s.face_up[1] == ["assassin"]
    # Two equal cards: one choice.
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "duke"]], coins=[7, 2, 2])
    GAME.apply(s, 0, A("coup", target=2))
    assert GAME.legal(s, 2) == [lose("duke")]


def test_timeout_loses_a_random_card_from_the_seed():
    # #15 with the contract: "Default: a random one of its cards (from the game's seeded RNG)".
    seen = set()
    for seed in range(40):
        s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "duke"]], coins=[7, 2, 2], seed=seed)
        GAME.apply(s, 0, A("coup", target=1))
        wait = GAME.awaiting(s)[0]
        assert wait.seat == 1 and wait.kind == "choice" and wait.seconds == 20
        assert wait.default in GAME.legal(s, 1)
        twin = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "duke"]], coins=[7, 2, 2], seed=seed)
        GAME.apply(twin, 0, A("coup", target=1))
        assert GAME.awaiting(twin)[0].default == wait.default  # the same seed, the same card
        seen.add(wait.default["role"])
    assert seen == {"contessa", "assassin"}


def test_elimination_returns_coins_and_last_one_wins():
    # 000: "Игрок, потерявший две карты, сразу выбывает из игры. Побеждает тот, у кого осталась хотя бы одна
    #      закрытая карта."
    # #18: "return all their coins to the Treasury".
    s = position([["duke"], ["contessa"], ["duke"]], coins=[7, 5, 3], face_up=[["captain"], ["duke"], ["captain"]])
    events = GAME.apply(s, 0, A("coup", target=1))
    assert keys(events) == ["coup.declare", "coup.must_lose", "coup.lost", "coup.eliminated", "coup.turn"]
    assert params(events, "coup.eliminated") == [{"seat": 1, "coins": 5}]
    assert s.coins == [0, 0, 3] and s.treasury == 47 and s.alive == [True, False, True]
    assert s.active == 2 and GAME.outcome(s) is None
    raises("coup.error.bad_target", s, 2, A("steal", target=1))
    assert all(a.get("target") != 1 for a in GAME.legal(s, 2))
    play(s, *[(seat, INCOME) for seat in (2, 0) * 4])
    assert s.coins == [4, 0, 7]
    events = play(s, (2, A("coup", target=0)))
    assert keys(events)[-3:] == ["coup.lost", "coup.eliminated", "coup.winner"]
    assert params(events, "coup.winner") == [{"seat": 2}] and s.stage == "over"
    assert GAME.outcome(s) == Outcome((2,), "coup.outcome.winner", {"seat": 2})
    assert GAME.awaiting(s) == [] and all(GAME.legal(s, x) == [] for x in range(3))
    raises("coup.error.game_over", s, 2, INCOME)
    assert GAME.view(s, SPECTATOR)["winner"] == 2 and total_coins(s) == 50


# ----------------------------------------------------------------------------------- exchange and examine


def test_ambassador_exchange_keep_two_of_four():
    # 000: "- Большой обмен (Советник): возьмите на руку две карты из Общей колоды. Затем верните в Общую
    #      колоду две любые карты с руки. Это действие не может быть никем блокировано;"
    # 001: "- Посол гравець бере 2 карти в Двір і кладе 2 карти на свій вибір назад у Двір. Потім колода перетасовується."
    # #21: "shuffle after returning".
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
                 court=["ambassador", "contessa", "duke", "assassin", "ambassador"])
    GAME.apply(s, 0, A("exchange"))
    events = play(s, (1, ALLOW), (2, ALLOW))
    draw = find(events, "coup.exchange_draw")
    assert len(draw) == 1 and draw[0].audience == Audience.only(0)
    assert draw[0].params == {"seat": 0, "roles": ["ambassador", "assassin"]}  # the top two
    assert "coup.block" not in keys(events) and s.stage == "exchange" and len(s.court) == 3
    assert GAME.view(s, 0)["drawn"] == ["ambassador", "assassin"] and GAME.view(s, 1)["drawn"] == []
    assert GAME.awaiting(s)[0].default == A("keep", roles=["duke", "captain"])
    keeps = [sorted(a["roles"]) for a in GAME.legal(s, 0)]
    assert len(keeps) == 6 and len({tuple(k) for k in keeps}) == 6
    raises("coup.error.bad_keep", s, 0, A("keep", roles=["duke"]))
    raises("coup.error.bad_keep", s, 0, A("keep", roles=["duke", "duke"]))
    raises("coup.error.bad_keep", s, 0, A("keep", roles=["duke", "contessa"]))
    raises("coup.error.bad_keep", s, 0, A("keep", roles="duke"))
    events = GAME.apply(s, 0, A("keep", roles=["assassin", "duke"]))
    assert keys(events) == ["coup.exchanged", "coup.exchange_done", "coup.turn"]
    assert events[1].audience == Audience.only(0) and events[1].params == {"seat": 0, "roles": ["assassin", "duke"]}
    assert s.hands[0] == ["assassin", "duke"]
    assert Counter(s.court) == Counter(["ambassador", "contessa", "duke", "captain", "ambassador"])


def test_ambassador_exchange_with_one_card_keeps_one_of_three():
    # #21: "With 1 influence left: keep 1 of 3."
    s = position([["duke"], ["contessa", "assassin"]], face_up=[["captain"], []],
                 court=["captain", "contessa", "assassin"])
    play(s, (0, A("exchange")), (1, ALLOW))
    assert sorted(a["roles"][0] for a in GAME.legal(s, 0)) == ["assassin", "contessa", "duke"]
    assert all(len(a["roles"]) == 1 for a in GAME.legal(s, 0))
    raises("coup.error.bad_keep", s, 0, A("keep", roles=["duke", "contessa"]))
    GAME.apply(s, 0, A("keep", roles=["contessa"]))
    assert s.hands[0] == ["contessa"] and Counter(s.court) == Counter(["captain", "duke", "assassin"])


def test_inquisitor_exchange_draws_one():
    # 000: "- Малый обмен (Следователь): возьмите на руку одну карту из Общей колоды. Затем верните в Общую
    #      колоду одну любую карту с руки. Это действие не может быть никем блокировано;"
    # 001: "- a) візьміть карту з колоди, а потім скиньте карту з колоди сорочкою догори. Карти з колоди перемішуються."
    # #22: "Draw 1, choose whether to swap it with one face-down card, return 1".
    s = position([["duke", "captain"], ["contessa", "assassin"]], fifth="inquisitor",
                 court=["inquisitor", "duke", "contessa"])
    events = play(s, (0, A("exchange")))
    assert events[0].params["claim"] == "inquisitor"
    events = play(s, (1, ALLOW))
    assert params(events, "coup.exchange_draw") == [{"seat": 0, "roles": ["contessa"]}]
    keeps = sorted(sorted(a["roles"]) for a in GAME.legal(s, 0))
    assert keeps == [["captain", "contessa"], ["captain", "duke"], ["contessa", "duke"]]
    GAME.apply(s, 0, A("keep", roles=["duke", "contessa"]))
    assert Counter(s.court) == Counter(["inquisitor", "duke", "captain"])


def test_examine_choose_return_or_swap():
    # 001: "- б) дозволяє подивитися на карту персонажа опонента. Опонент вибирає, яку карту показати, потім
    #      Інквізитор вибирає, чи повернути її, чи скинути (в цьому випадку карта тасується в Суді, і гравець,
    #      на якого вона спрямована, тягне нову карту)."
    # #23: "the target chooses the card; the Inquisitor may return it or force an exchange".
    for decision in ("examine_return", "examine_swap"):
        s = position([["inquisitor", "captain"], ["contessa", "assassin"], ["duke", "captain"]], fifth="inquisitor")
        events = play(s, (0, A("examine", target=1)), (1, ALLOW), (2, ALLOW))
        assert "coup.block" not in keys(events)
        assert s.stage == "examine_show" and waiting(s) == [1]
        assert GAME.legal(s, 1) == [A("show", role="contessa"), A("show", role="assassin")]
        assert GAME.awaiting(s)[0].default == A("show", role="contessa")
        raises("coup.error.no_such_card", s, 1, A("show", role="duke"), role="duke")
        raises("coup.error.not_your_turn", s, 0, A("show", role="duke"))
        events = GAME.apply(s, 1, A("show", role="assassin"))
        assert keys(events) == ["coup.examine_show"]
        assert events[0].audience == Audience.only(0)  # the examined card goes to the Inquisitor alone
        assert events[0].params == {"seat": 0, "target_seat": 1, "role": "assassin"}
        assert GAME.view(s, 0)["shown"] == "assassin" and GAME.view(s, 2)["shown"] is None
        assert "assassin" not in json.dumps(GAME.view(s, 2)) and "assassin" not in json.dumps(GAME.view(s, SPECTATOR))
        assert GAME.legal(s, 0) == [A("examine_return"), A("examine_swap")]
        assert GAME.awaiting(s)[0].default == A("examine_return")
        events = GAME.apply(s, 0, A(decision))
        if decision == "examine_return":
            assert keys(events) == ["coup.examine_returned", "coup.turn"]
            assert s.hands[1] == ["contessa", "assassin"]
        else:
            assert keys(events) == ["coup.examine_swapped", "coup.new_card", "coup.turn"]
            assert events[0].params == {"actor_seat": 0, "target_seat": 1}
            assert events[1].audience == Audience.only(1)
            assert s.hands[1] == ["contessa", events[1].params["role"]]
        assert s.shown is None and s.active == 1


def test_examine_always_swap():
    # 000: "- Допрос (Следователь): укажите игрока, который обязан показать вам одну из своих карт с руки.
    #      «Засвеченная» карта замешивается обратно в колоду, вместо нее противник берет новую. Это действие
    #      не может быть никем блокировано."
    # #23: "Offer 000's «always exchange» as a ruleset flag."
    s = position([["inquisitor", "captain"], ["contessa", "assassin"], ["duke", "captain"]], fifth="inquisitor",
                 options={"examine": "always_swap"})
    play(s, (0, A("examine", target=1)), (1, ALLOW), (2, ALLOW))
    events = GAME.apply(s, 1, A("show", role="contessa"))
    assert keys(events) == ["coup.examine_show", "coup.examine_swapped", "coup.new_card", "coup.turn"]
    assert events[0].audience == Audience.only(0) and events[2].audience == Audience.only(1)
    assert s.hands[1] == ["assassin", events[2].params["role"]]


def test_examine_is_not_blockable_and_needs_the_inquisitor_deck():
    # 000: "Это действие не может быть никем блокировано."  #24: "Not blockable, only challengeable".
    s = position([["inquisitor", "captain"], ["contessa", "assassin"], ["duke", "captain"]], fifth="inquisitor")
    play(s, (0, A("examine", target=1)), (1, ALLOW))
    raises("coup.error.unblockable", s, 2, block("captain"), action="examine")  # not now, nor ever
    play(s, (2, ALLOW))
    assert s.stage == "examine_show"
    # A challenged examination: the Inquisitor proves it, the target loses its last-but-one card, then shows the other.
    s = position([["inquisitor", "captain"], ["contessa", "assassin"], ["duke", "captain"]], fifth="inquisitor")
    events = play(s, (0, A("examine", target=1)), (1, CHALLENGE), (0, PROVE), (1, lose("contessa")))
    assert keys(events)[-2:] == ["coup.lost", "coup.examine_show"]  # one card left: shown at once
    assert find(events, "coup.examine_show")[0].params["role"] == "assassin" and s.stage == "examine_decide"
    s = position([["duke", "captain"], ["contessa", "assassin"]])
    raises("coup.error.not_in_deck", s, 0, A("examine", target=1), role="inquisitor")


def test_coins_are_public_in_every_view():
    # 000: "Число денег у каждого игрока должно быть видно всем в любой момент игры."  #29.
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]], coins=[4, 1, 6])
    for viewer in (0, 1, 2, SPECTATOR, MASTER):
        view = GAME.view(s, viewer)
        assert view["coins"] == [4, 1, 6] and view["treasury"] == 39 and view["cards"] == [2, 2, 2]


def test_views():
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]], coins=[4, 1, 6])
    play(s, (0, A("steal", target=1)))
    mine = GAME.view(s, 1)
    assert mine["hand"] == ["contessa", "assassin"] and mine["drawn"] == [] and mine["shown"] is None
    assert mine["pending"] == {"action": "steal", "actor": 0, "target": 1, "claim": "captain", "blocker": None,
                               "block_role": None, "challenger": None, "challenged": None,
                               "challenged_role": None, "losing": None, "answered": []}
    assert mine["stage"] == "challenge_action" and mine["active"] == 0 and mine["turn"] == 1
    assert {"hands", "court_cards"}.isdisjoint(mine)
    spectator = GAME.view(s, SPECTATOR)
    assert {"hand", "drawn", "shown", "hands", "court_cards"}.isdisjoint(spectator)
    master = GAME.view(s, MASTER)
    assert master["hands"] == s.hands and master["court_cards"] == s.court
    master["hands"][0].append("duke")
    assert s.hands[0] == ["duke", "captain"]  # a view is a copy
    GAME.apply(s, 2, ALLOW)
    assert GAME.view(s, 0)["pending"]["answered"] == [2]
    assert GAME.view(position([["duke", "captain"], ["duke", "captain"]]), 0)["pending"] is None
    for viewer in (0, SPECTATOR, MASTER):
        json.dumps(GAME.view(s, viewer))


def test_awaiting_windows_and_seconds():
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
                 options={"turn": 45, "reaction": 9})
    names = [GAME.awaiting(s)[0].window]
    assert GAME.awaiting(s)[0].seconds == 45 and GAME.awaiting(s)[0].kind == "turn"
    play(s, (0, A("tax")))
    waits = GAME.awaiting(s)
    assert {w.seconds for w in waits} == {9} and {w.kind for w in waits} == {"reaction"}
    assert len({w.window for w in waits}) == 1
    names.append(waits[0].window)
    play(s, (1, ALLOW))
    assert GAME.awaiting(s)[0].window == names[-1]  # the same window stays open
    play(s, (2, CHALLENGE))
    names.append(GAME.awaiting(s)[0].window)
    play(s, (0, PROVE))
    names.append(GAME.awaiting(s)[0].window)
    play(s, (2, lose("duke")))
    names.append(GAME.awaiting(s)[0].window)
    assert len(set(names)) == len(names)


def test_illegal_answers():
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    play(s, (0, A("tax")))
    raises("coup.error.not_your_turn", s, 0, CHALLENGE)  # not one's own claim
    raises("coup.error.unblockable", s, 1, block("duke"), action="tax")
    raises("coup.error.not_in_deck", s, 1, block("inquisitor"), role="inquisitor")
    raises("coup.error.no_such_action", s, 1, PROVE)
    raises("coup.error.not_your_turn", s, SPECTATOR, ALLOW)
    play(s, (1, ALLOW))
    raises("coup.error.already_answered", s, 1, CHALLENGE)
    play(s, (2, CHALLENGE))
    raises("coup.error.not_your_turn", s, 1, PROVE)
    raises("coup.error.no_such_action", s, 0, ALLOW)


def test_bot_action_returns_a_legal_action():
    s = GAME.new(3, {}, seed=4)
    seat = s.active
    legal = GAME.legal(s, seat)
    for level in ("easy", "normal"):
        assert GAME.bot_action(GAME.view(s, seat), legal, random.Random(1), level) in legal


# ----------------------------------------------------------------------------------- whole games


def _options(rng: random.Random) -> dict:
    return {"role": rng.choice(["advisor", "investigator"]), "challenge_order": rng.choice(["seat", "first"]),
            "examine": rng.choice(["choose", "always_swap"])}


def run_game(seed: int, players: int | None = None, check=None):
    """A whole game of random legal moves (some by timeout); returns state, options, log, events."""
    table = random.Random(seed)
    players = players or table.randint(2, 8)
    options = _options(table)
    s = GAME.new(players, options, seed)
    log, all_events = [], [GAME.start_events(s)]
    if check:
        check(None, None, None, s, all_events[0])
    while GAME.outcome(s) is None:
        waits = GAME.awaiting(s)
        assert waits and len({w.window for w in waits}) == 1
        wait = table.choice(waits)
        legal = GAME.legal(s, wait.seat)
        assert wait.default in legal
        action = wait.default if table.random() < 0.2 else table.choice(legal)
        before = s.copy() if check else None
        events = GAME.apply(s, wait.seat, action)
        log.append((wait.seat, action))
        all_events.append(events)
        if check:
            check(before, wait.seat, action, s, events)
        assert len(log) < 3000
    return s, options, log, all_events


def _invariants(s: CoupState) -> None:
    copies = 4 if s.players >= 7 else 3
    assert sum(s.coins) + s.treasury == E.box_coins(s.players) and s.treasury >= 0
    assert all(c >= 0 for c in s.coins)
    cards = Counter(r for h in s.hands + s.face_up + [s.court, s.drawn] for r in h)
    if s.players > 2:
        assert cards == Counter({r: copies for r in s.roles})
    else:
        assert sum(cards.values()) == 5 + sum(p is not None for p in s.picked or [1, 1])
    assert all(len(h) + len(f) <= 2 for h, f in zip(s.hands, s.face_up))
    assert s.alive == [bool(h) for h in s.hands] or s.stage == "draft"


def test_random_games_end_with_one_winner():
    # 000: "В игре есть только один победитель, второе место не разыгрывается и не присуждается."
    for seed in range(300):
        s, _, log, events = run_game(seed, check=lambda b, seat, a, after, ev: _invariants(after))
        outcome = GAME.outcome(s)
        assert len(outcome.winners) == 1 and s.alive.count(True) == 1 and s.alive[s.winner]
        assert events[-1][-1].key == "coup.winner"
    for players in range(2, 9):
        s, *_ = run_game(1000 + players, players)
        assert GAME.outcome(s) is not None


def test_replay_gives_identical_games():
    for seed in range(40):
        s, options, log, events = run_game(seed)
        replay = GAME.new(s.players, options, seed)
        replay_events = [GAME.start_events(replay)]
        for seat, action in log:
            replay_events.append(GAME.apply(replay, seat, json.loads(json.dumps(action))))
        assert replay_events == events
        assert replay.data() == s.data()
        for viewer in [*range(s.players), SPECTATOR, MASTER]:
            assert GAME.view(replay, viewer) == GAME.view(s, viewer)


# ----------------------------------------------------------------------------------- no leaks


PUBLIC_ROLE_EVENTS = {"coup.declare", "coup.challenge", "coup.block", "coup.concede", "coup.proven", "coup.lost"}
WHISPERS = {"coup.hand", "coup.new_card", "coup.exchange_draw", "coup.exchange_done", "coup.examine_show",
            "coup.queued", "coup.challenge_dropped", "coup.block_dropped"}


def disguise(s: CoupState, keep: int | None, rng: random.Random) -> CoupState:
    """The same public position with every card hidden from ``keep`` dealt afresh (same counts)."""
    t = s.copy()
    mine = set() if keep is None else {keep}
    hidden = [r for seat, h in enumerate(t.hands) if seat not in mine for r in h] + t.court
    if keep != t.active or t.stage != "exchange":
        hidden += t.drawn
    rng.shuffle(hidden)
    for seat in range(t.players):
        if seat not in mine:
            t.hands[seat] = [hidden.pop() for _ in t.hands[seat]]
    if keep != t.active or t.stage != "exchange":
        t.drawn = [hidden.pop() for _ in t.drawn]
    t.court = [hidden.pop() for _ in t.court]
    if keep != t.active:
        t.shown = rng.choice(list(t.roles))
    t.lose_default = None
    t.acted = {}
    return t


def check_no_leak(before, seat, action, after: CoupState, events) -> None:
    rng = random.Random(len(events) * 7919 + (seat or 0))
    # 1. Views: a view does not change when the cards its viewer may not see are dealt afresh.
    for viewer in [*range(after.players), SPECTATOR]:
        keep = viewer if viewer >= 0 else None
        view = GAME.view(after, viewer)
        assert GAME.view(disguise(after, keep, rng), viewer) == view
    # 2. Events: roles appear only where the rules show them, and whispers reach their owner alone.
    for event in events:
        json.dumps(event.params)
        assert event.audience.kind in ("all", "seats")
        p = event.params
        if event.audience.kind == "seats":
            assert event.key in WHISPERS, event.key
            (to,) = event.audience.seats
            assert p["seat"] == to
            if event.key == "coup.examine_show":
                assert to == before.active  # the Inquisitor alone
            continue
        assert event.key not in WHISPERS, event.key
        assert "roles" not in p
        if "role" in p or "claim" in p:
            assert event.key in PUBLIC_ROLE_EVENTS, event.key
        if event.key == "coup.lost":
            assert p["role"] in after.face_up[p["seat"]]  # a card turned up: public from now on
        if event.key == "coup.proven":
            assert p["role"] == (before.challenged_role)  # only the claimed card is shown
    # 3. Whispered cards are the receiver's own.
    for event in events:
        if event.key in ("coup.new_card",):
            assert event.params["role"] in after.hands[event.params["seat"]] or after.stage == "over" \
                or event.params["role"] in after.face_up[event.params["seat"]]


def test_no_view_or_event_leaks_a_face_down_card():
    for seed in range(250):
        run_game(seed, check=lambda b, seat, a, after, ev: b is not None and check_no_leak(b, seat, a, after, ev))


def test_public_events_do_not_depend_on_hidden_cards():
    # The table hears the same whatever the hidden cards: two games that differ only in the cards of
    # seats 1 and 2 give seat 0 and the spectators the same public events for the same public moves.
    s = position([["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    t = position([["duke", "captain"], ["ambassador", "captain"], ["assassin", "contessa"]])
    moves = [(0, A("tax")), (1, ALLOW), (2, ALLOW), (1, A("foreign_aid")), (2, ALLOW), (0, ALLOW),
             (2, A("steal", target=0)), (0, ALLOW), (1, ALLOW), (0, ALLOW)]
    for seat, action in moves:
        a, b = GAME.apply(s, seat, action), GAME.apply(t, seat, action)
        assert [e for e in a if e.audience == EVERYONE] == [e for e in b if e.audience == EVERYONE]
        assert GAME.view(s, 0) == GAME.view(t, 0) and GAME.view(s, SPECTATOR) == GAME.view(t, SPECTATOR)


# coup.md #4: "random in game 1, then the previous winner" (the table sets `first` on a rematch).
def test_first_player_is_random_unless_the_table_names_the_previous_winner():
    starts = {GAME.new(4, {}, seed).active for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    for seed in range(10):
        assert GAME.new(4, {"first": 3}, seed).active == 2
        assert GAME.new(5, {"first": "1"}, seed).active == 0
    assert GAME.validate_options({"first": "random"})["first"] is None


def test_first_player_in_a_two_player_rematch_starts_with_one_coin():
    # [2P] "the starting player begins with 1 coin" (seed 001), whoever starts.
    s = GAME.new(2, {"first": 2}, 7)
    assert s.active == 1 and s.coins == [2, 1]


def test_first_player_out_of_range_is_refused():
    for bad in (0, 11, "x", True, 2.5):
        with pytest.raises(RuleError):
            GAME.validate_options({"first": bad})
    with pytest.raises(RuleError) as err:
        GAME.new(3, {"first": 4}, 1)
    assert err.value.params == {"name": "first", "value": 4}


def test_a_rematch_keeps_the_options_but_not_who_started():
    options = GAME.validate_options({"role": "investigator", "first": 2})
    kept, seats = GAME.rematch_plan(options, 5)
    assert seats == 5 and "first" not in kept and kept["role"] == "investigator"
