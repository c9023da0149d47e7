"""Mafia points found by the acceptance runs (issue 14), in the engine and the presenter: the
day-1 vote's fate says what happened (Воин/Тюремщик stay free; no Политик in the day-1 line),
the evening news give the vote before the deaths, a block that left Б orders working says so,
and bots' letters read in the reader's language."""
from __future__ import annotations

import random

from games.mafia import GAME
from games.mafia import bot as B

from tests.test_mafia_engine import finish, game, keys, order
from tests.test_mafia_public_roles import pos, vote
from world.i18n import catalog


def test_day_one_leader_who_cannot_be_jailed_stays_free_and_is_announced_so():
    """Seed 004: «В первый день вместо смерти лидер голосования попадает в Тюрьму» and the Воин
    «Не попадает в Тюрьму» (the Тюремщик too): neither jailed nor dead, and the news agree."""
    for public in ("Воин", "Тюремщик"):
        s = pos({3: public}, 1)
        for seat in range(5):
            vote(s, seat, 3)
        events = finish(s)
        assert keys(events, "mafia.vote_result")[0].params == {"seat": 3, "fate": "free"}
        assert s.alive[3] and not s.jailed(3) and not keys(events, "mafia.jailed")
        assert s.last_vote == {"seat": 3, "fate": "free", "day": 1}
    s = pos({}, 1)  # anyone else goes to Jail
    for seat in range(5):
        vote(s, seat, 3)
    assert keys(finish(s), "mafia.vote_result")[0].params == {"seat": 3, "fate": "jail"}


def test_fate_lines_name_the_politician_only_for_his_immunity():
    for lang in ("ru", "en", "uk"):
        cat = catalog(lang)
        politician = cat["mafia.public.politician"] if "mafia.public.politician" in cat else None
        assert "{seat}" in cat["mafia.fate.jail"] and "{seat}" in cat["mafia.fate.immunity"]
        for word in ("Политик", "Politician", "Політик") + ((politician,) if politician else ()):
            assert word not in cat["mafia.fate.jail"], (lang, cat["mafia.fate.jail"])
        assert any(w in cat["mafia.fate.immunity"] for w in ("Политик", "Politician", "Політик"))
        assert cat["mafia.fate.free"] != cat["mafia.fate.jail"]


def test_evening_news_give_the_vote_result_before_the_death():
    s = game(index=3)  # day 2: the leader dies
    for seat in range(5):
        GAME.apply(s, seat, {"type": "vote", "target": 2})
    events = finish(s)
    news = [e.key for e in events if e.key in ("mafia.vote_result", "mafia.died")]
    assert news == ["mafia.vote_result", "mafia.died"] and not s.alive[2]
    # at night the deaths still open the morning news
    s = game(["boss", "killer", "officer", "forensic", "maniac"], index=2)
    order(s, 1, "tommygun", 3)
    assert [e.key for e in finish(s) if e.audience.kind == "all" and e.key != "mafia.news"][0] == "mafia.died"


def test_a_block_that_leaves_nothing_working_and_one_that_leaves_b_orders():
    s = game(index=2)
    order(s, 0, "interrogation", 3)  # the civilian's orders (not Б) are void
    order(s, 3, "jury", 1, role="killer")
    events = finish(s)
    assert keys(events, "mafia.blocked")[0].params == {"seat": 3} and not keys(events, "mafia.blocked_some")
    s = game(index=2)
    order(s, 0, "interrogation", 4)
    order(s, 4, "assault", 2)  # Нападение (Б)
    events = finish(s)
    assert keys(events, "mafia.blocked_some")[0].params == {"seat": 4, "abilities": ["assault"]}
    assert s.knowledge[4][-1]["key"] == "mafia.blocked_some"


def test_bot_letters_are_stock_lines_in_the_readers_language():
    """At an English table a bot's letter reads in English (issue 14): bots name a stock line and
    each reader reads it in their language; a person's letter stays as typed."""
    from world.i18n import t
    from world.presenters.mafia import event_params

    s = game(index=0)
    letters = []
    for seed in range(400):
        mail = [a for a in GAME.legal(s, 2) if a.get("type") == "mail"]
        action = B.bot_action(GAME.view(s, 2), mail + [{"type": "ready"}], random.Random(seed))
        if action.get("type") == "mail":
            letters.append(action["text"])
    assert letters and {x[len(B.LETTER_MARK):] for x in letters} <= set(B.LETTERS)
    assert all(x.startswith(B.LETTER_MARK) for x in letters)
    GAME.apply(s, 2, {"type": "mail", "target": 0, "text": B.LETTER_MARK + "i_know"})
    event = keys(finish(s), "mafia.mail")[0]
    params = event_params(None, event.params, dict(event.params))
    assert t("en", event.key, **params).endswith("I know who you are.")
    assert t("ru", event.key, **params).endswith("Я знаю, кто ты.")
    assert t("uk", event.key, **params).endswith("Я знаю, хто ти.")
    for key in B.LETTERS:
        assert all(catalog(lang)[f"mafia.bot_letter.{key}"] for lang in ("ru", "en", "uk"))
    human = {"seat": 0, "text": "Я знаю, кто ты."}
    assert t("en", "mafia.mail", **event_params(None, human, dict(human))).endswith("Я знаю, кто ты.")
