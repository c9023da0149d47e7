"""A language typed on the telnet login screen holds for that session, also for an existing
account whose own language is another one (issue 16); the account keeps its language for the
next login, and SSH (which has no login screen) greets in the account's language."""
from __future__ import annotations

from tests.ssh_client import connect
from tests.telnet_client import PASSWORD_PROMPT, TelnetClient, log_in


async def test_the_login_screen_language_holds_for_the_session(server):
    anna = await log_in(server.telnet_port, "Анна")  # a Russian account (the default language)
    anna.send_line("quit")
    await anna.expect("Счастливого пути")
    await anna.close()

    client = TelnetClient()
    await client.connect("127.0.0.1", server.telnet_port)
    await client.reach_name_prompt()
    client.send_line("en")
    await client.expect("Name:")
    client.send_line("Анна")
    await client.expect(PASSWORD_PROMPT)
    client.send_line("secret1")
    await client.expect("Welcome to the tavern, Анна!")
    client.send_line("who")
    await client.expect("in the tavern")
    await client.close()

    again = await log_in(server.telnet_port, "Анна", create=False)  # the account's own language
    assert "Добро пожаловать в корчму, Анна!" in again.text
    await again.close()
    over_ssh = await connect(server.ssh_port, "Анна", password="secret1")
    await over_ssh.expect("Добро пожаловать в корчму, Анна!")
    await over_ssh.close()
