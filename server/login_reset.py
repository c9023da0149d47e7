"""The end of a password reset at telnet's login (and any door that asks in the session): the code
was typed at the password prompt and holds (world/logins.py ``Outcome.reset_id``), so the new
password is asked twice with hidden input, then stored and the login done. A mismatch or a
too-short password asks again; the code is spent only when the new password is stored."""
from __future__ import annotations

from typing import Any

from world import logins

#: Login states of the reset; their lines are passwords (server/session.py SECRET_STATES).
STATES = frozenset({"reset_new", "reset_confirm"})


def begin(session: Any, outcome: logins.Outcome) -> None:
    session.pending_reset = outcome
    session.login_state = "reset_new"
    session.send("login.reset_accepted")
    session.send("login.ask_new_password")
    session.set_echo(False)


async def step(session: Any, line: str) -> None:
    if session.login_state == "reset_new":
        session.take_new_password(line, "reset_confirm")
        return
    if line != session.pending_password:
        session.pending_password = ""
        session.login_state = "reset_new"
        session.send("login.mismatch_again")
        return
    found, password = session.pending_reset, session.pending_password
    session.restart_login()  # whatever happens now, the next line is a name again
    assert found is not None and found.account is not None and found.reset_id is not None
    outcome = await session.app.logins.finish_reset(found.account, found.reset_id, session.address, password,
                                                    door=session.kind)
    if session._refused(outcome):
        return
    assert outcome.account is not None
    session.send("login.reset_done")
    await session.app.logged_in(session, outcome.account)
    session.tell_failures(outcome.failures)
