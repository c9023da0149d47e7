"""`кто` lists the people online as a Russian or Ukrainian reader sorts names (games/collation.py):
«Ёлка» before «Жаба», «Їжак» after «Іра»; over telnet and SSH."""
from __future__ import annotations

import pytest

from tests.telnet_client import log_in
from tests.wire import person


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_who_lists_names_in_the_readers_alphabet(server, door):
    people = [await log_in(server.telnet_port, name) for name in ("Жаба", "Їжак", "Ёлка", "Іра", "Ева")]
    me = await person(server, door, "Яков")
    me.send_line("кто")
    await me.expect("В корчме 6 человек")
    await me.settle(0.3)
    after = me.text[me.text.rindex("В корчме 6 человек"):].splitlines()[1:7]
    listed = [line.split()[0] for line in after]
    assert listed == ["Ева", "Ёлка", "Жаба", "Іра", "Їжак", "Яков"], me.text
    for client in (*people, me):
        await client.close()
