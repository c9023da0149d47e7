"""world/aliases.py's expansion on its own: substitution, chains, and the run-time guard against
loops that stored rows could hold (the wire test: tests/test_aliases.py)."""
from __future__ import annotations

from world.aliases import MAX_DEPTH, expand, substitute


def never_builtin(word: str, rest: str) -> bool:
    return False


def test_the_rest_is_appended_unless_a_placeholder_places_it():
    assert substitute("say hello", "") == "say hello"
    assert substitute("say hello", "to you") == "say hello to you"
    assert substitute("say $2 then $1", "one two three") == "say two then one"
    assert substitute("say [$*]", "a b") == "say [a b]"
    assert substitute("say $3 costs $$5", "a") == "say costs $5"  # a missing word is empty


def test_a_chain_expands_and_a_loop_or_a_deep_chain_is_stopped():
    book = {"a": "b x", "b": "say"}
    assert expand("a hi", book, never_builtin).line == "say x hi"
    loop = expand("p 1", {"p": "q", "q": "p"}, never_builtin)
    assert loop.problem == "loop" and loop.names == ("p", "q")
    chain = {f"z{i}": f"z{i - 1}" for i in range(1, MAX_DEPTH + 2)} | {"z0": "say deep"}
    assert expand(f"z{MAX_DEPTH - 1}", chain, never_builtin).line == "say deep"
    assert expand(f"z{MAX_DEPTH}", chain, never_builtin).problem == "too_deep"


def test_a_builtin_verb_wins_and_case_and_yo_are_folded():
    book = {"who": "say no", "еще": "say more"}
    assert expand("who", book, lambda word, rest: word == "who").names == ()
    assert expand("ЕЩЁ раз", book, never_builtin).line == "say more раз"
