"""world/replay.py for every game, without a server: a seeded game of bots told again from its log
reads in ru, en and uk with every event of every step, every whisper marked with its one or more
recipients, each step's header marked with how the move came, and the stored outcome matched;
a log that differs from the one played is not taken for it. (The wire test of `replay` is
tests/test_replay.py; this one covers the presenters of the games it does not play.)"""
from __future__ import annotations

import random
import re
from datetime import datetime, timedelta, timezone

import pytest

from games import registry
from world.i18n import strip_marks, t
from world.presenters import said_elsewhere
from world.presenters.absence import timeout_events
from world.replay import GameRecord, LoggedStep, build, messages, outcome_record, plain_text, table_of
from world.table_data import SeatInfo

GAMES = {"bids": 3, "coup": 4, "whispers": 5, "revolution": 3, "mafia": 7}
NAMES = ["Анна", "Борис", "Виола", "Гриша", "Дана", "Ефим", "Жанна"]
BY = ("player", "bot", "timeout", "autopilot", "autopass")
START = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)
KEY_LIKE = re.compile(r"(?:^|\s)[a-z_]+(?:\.[a-z_0-9]+){1,}(?:\s|$)")  # a key the catalogs lack shows itself


def played(game: str, seats: int, seed: int = 7) -> tuple[GameRecord, list[list]]:
    """A game of bots to its end, as the database would keep it; and each step's events."""
    engine = registry.get(game)
    options = engine.start_options(dict(engine.default_options)) if hasattr(engine, "start_options") \
        else dict(engine.default_options)
    state = engine.new(seats, options, seed)
    rng = random.Random(seed)
    log, events = [], [engine.start_events(state)]
    while engine.outcome(state) is None:
        assert len(log) < 5000, "the bots did not finish"
        wait = engine.awaiting(state)[0]
        action = engine.bot_action(engine.view(state, wait.seat), engine.legal(state, wait.seat), rng, "normal")
        events.append(engine.apply(state, wait.seat, action))
        log.append(LoggedStep(len(log) + 1, wait.seat, action, rng.choice(BY), START + timedelta(seconds=3 * len(log))))
    seats_info = [SeatInfo(n, NAMES[n], account_id=n + 1 if n % 2 == 0 else None,
                           bot_level=None if n % 2 == 0 else "normal") for n in range(seats)]
    record = GameRecord(9, game, options, seed, seats_info, log, "finished", None, START,
                        START + timedelta(seconds=3 * len(log) + 1))
    record.outcome = outcome_record(table_of(record), state)
    return record, events


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_replays_to_its_outcome_with_every_whisper_marked(game):
    record, events = played(game, GAMES[game])
    transcript = build(record)
    assert transcript.matches and transcript.refused is None and transcript.reveal is not None
    assert [s.step for s in transcript.steps] == list(range(len(record.log) + 1))
    table = transcript.table
    for step, step_events in zip(transcript.steps, events):
        if step.step and step.by == "timeout":
            step_events = timeout_events(table, step.seat, step_events)
        shown = [e for i, e in enumerate(step_events) if i not in said_elsewhere(table, step_events)]
        assert [line.key for line in step.lines] == [
            {"all": "replay.public", "master": "replay.to_master"}.get(e.audience.kind, "replay.whisper")
            for e in shown], step.step
        for line, event in zip(step.lines, shown):
            assert line.params["text"].key == event.key
            if line.key == "replay.whisper":
                names = [item["params"]["name"] for item in line.params["names"]["$list"]]
                assert names == [NAMES[s] for s in event.audience.seats]
    said = {line.params["text"].key for step in transcript.steps for line in step.lines}
    chance = {"revolution": "revolution.roll", "coup": "coup.hand", "bids": "bids.hand"}.get(game)
    assert chance is None or chance in said  # the dice and the draws are told too
    for lang in ("ru", "en", "uk"):
        text = plain_text(messages(transcript), lang)
        assert not KEY_LIKE.search(text.replace("...", "")), KEY_LIKE.search(text)
        headers = [line for line in text.splitlines() if re.match(r"^\S+ \d+ · \d+:\d\d — ", line)]
        assert len(headers) == len(record.log)
        marks = {by: strip_marks(t(lang, f"replay.by.{by}")) for by in BY[1:]}
        for line, entry in zip(headers, record.log):
            assert line.endswith(f"— {NAMES[entry.seat]}" + (f" ({marks[entry.by]})" if entry.by in marks else ""))


def test_from_a_step_and_a_log_that_is_not_the_one_played():
    record, _ = played("coup", 3)
    transcript = build(record)
    later = plain_text(messages(transcript, 5), "en")
    assert "The deal" not in later and "Step 4 " not in later and "\nStep 5 · " in later
    assert later.index("From step 5.") < later.index("Step 5 · ")
    record.seed += 1  # another deal: the logged answers are not those it asks for
    other = build(record)
    assert not other.matches
    text = plain_text(messages(other), "en")
    assert (other.refused is not None and "The replay stops here" in text) or "does not end the way" in text
