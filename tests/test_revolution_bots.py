"""«Революция» bots in other players' fights (issue 14, "Bots worth playing against"): a bystander
hinders a rival who would pull level with it or ahead, keeps a fight card for itself unless the
rival leads, helps only a fighter who stays behind it; a fighter declines a hopeless fight from its
hand. Set positions on the real engine, answered by ``bot.bot_action`` from the seat's own view."""
from __future__ import annotations

from games.revolution import GAME, bot
from games.revolution import deck as D
from tests.test_revolution_engine import fresh, put, fight_with

DECK = D.load("default")


def answer(s, seat, policy=None):
    saved, bot.STRICT = bot.STRICT, True  # a bot error raises here instead of becoming legal[0]
    try:
        return bot.bot_action(GAME.view(s, seat), GAME.legal(s, seat), None, "normal", policy)
    finally:
        bot.STRICT = saved


def rival_winning(levels, hinder_cards, opponent="yunker"):
    """Seat 0 (level levels[0], with a Маузер +3) fights ``opponent`` and is winning by 2 (the
    Юнкер, 4, at level 3); seat 1 holds ``hinder_cards``."""
    s = fresh(3)
    s.levels[:] = levels
    put(s, "mauser", "gear", 0)
    for cid in hinder_cards:
        put(s, cid, "hand", 1)
    fight_with(s, opponent)
    f = GAME.view(s, 1)["fight"]
    assert f["players_total"] > f["opponent_total"]
    return s


def test_bystander_hinders_a_rival_who_would_draw_level():
    """Seat 0 at level 3 would reach 4, seat 1's own level: seat 1 reads its +3 speech against it,
    which turns the fight (before issue 14 a bot hindered only the table's leader)."""
    s = rival_winning([3, 4, 5], ["rech_khizhiny", "rech_sovety"])
    action = answer(s, 1)
    assert action["type"] == "speech" and action["side"] == "opponent" and action["card"] == "rech_khizhiny"
    assert answer(s, 1, bot.BASELINE) == {"type": "pass"}  # the old policy let it win


def test_bystander_does_not_waste_cards_on_a_fight_it_cannot_turn():
    s = rival_winning([5, 4, 5], ["rech_khizhiny", "rech_sovety"], "gorodovoy")  # 8 against 1: +5 cannot turn it
    assert answer(s, 1) == {"type": "pass"}


def test_bystander_keeps_its_last_fight_card_unless_the_rival_leads():
    s = rival_winning([3, 4, 5], ["rech_khizhiny"])
    assert answer(s, 1) == {"type": "pass"}  # one card left: kept for its own fights
    s = rival_winning([6, 4, 5], ["rech_khizhiny"], "ofitser")  # 9 against 7; seat 0 leads the table
    action = answer(s, 1)  # the last card goes against the leader
    assert action["type"] == "speech" and action["side"] == "opponent"


def test_bystander_lets_a_trailing_fighter_win():
    s = rival_winning([1, 4, 5], ["rech_khizhiny", "rech_sovety"], "gorodovoy")  # 4 against 1
    s.levels[0] = 1
    assert answer(s, 1) == {"type": "pass"}


def test_help_only_for_a_fighter_who_stays_behind():
    """Seat 0 (level 4) cannot beat the Юнкер (4) alone; seat 1 with a Пулемёт could tip it. At
    level 4 it would let seat 0 reach 5 and pass it: no offer (before: an offer of half the loot).
    At level 6 it helps, asking half the loot of a fighter who stays behind."""
    s = fresh(3)
    s.levels[:] = [4, 4, 1]
    put(s, "maxim", "gear", 1)
    fight_with(s, "yunker")
    assert answer(s, 1) == {"type": "pass"}
    assert answer(s, 1, bot.BASELINE)["type"] == "offer"
    s.levels[1] = 6
    assert answer(s, 1) == {"type": "offer", "share": 1}


def test_fighter_declines_a_hopeless_fight_from_its_hand():
    """After a face-up card that was not an opponent, a bot fights from its hand only an opponent
    it beats with room to spare: the Городовой, not the Белый генерал."""
    s = fresh(3)
    s.levels[0] = 5
    put(s, "belyi_general", "hand", 0)
    put(s, "gorodovoy", "hand", 0)
    s.active, s.stage = 0, "choose"
    assert answer(s, 0) == {"type": "fight", "card": "gorodovoy"}
    s.hands[0].remove("gorodovoy")  # gone from the hand
    s.turn_discard.append("gorodovoy")
    assert answer(s, 0) == {"type": "draw_hidden"}


def test_tuned_deck_keeps_the_level_rule():
    """[PROPOSAL] kept while tuning: an opponent of level >= 10 gives 2 levels, below 10 one; loot
    1-4 per card; the named examples of the rules memo keep their numbers."""
    for card in DECK.cards.values():
        e = card.effect("opponent")
        if e:
            assert e["levels"] == (2 if e["level"] >= 10 else 1), card.id
            assert 1 <= e["loot"] <= 4, card.id
            for lang in ("ru", "en"):
                assert str(e["level"]) in card.text[lang], (card.id, lang)
    assert DECK.cards["gorodovoy"].effect("opponent")["level"] == 1
    assert DECK.cards["yunker"].effect("opponent")["level"] == 4
    assert DECK.cards["kazaki"].effect("opponent")["level"] == 8
    assert DECK.cards["belyi_general"].effect("opponent") == {"effect": "opponent", "level": 16, "levels": 2, "loot": 4}
