"""The yardstick: a bare asyncio broadcast server (no telnet, no database, no rendering).

Protocol: on connect it sends "Name: "; the first line is the name ("Welcome, NAME!" back);
then "say TEXT" echoes "You say: «TEXT»" to the speaker and "NAME says: «TEXT»" to every other
client; "quit" closes. Prints "BARE READY port=N" on stdout once listening.

    python bench/bare_server.py [--port 0]
"""
from __future__ import annotations

import argparse
import asyncio
import signal

clients: dict[asyncio.StreamWriter, str] = {}


async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(b"Name: ")
    name = None
    try:
        while line := await reader.readline():
            text = line.decode("utf-8", "replace").strip()
            if name is None:
                name = text or "anon"
                clients[writer] = name
                writer.write(f"Welcome, {name}!\r\n".encode())
                continue
            verb, _, rest = text.partition(" ")
            if verb == "say":
                writer.write(f"You say: «{rest}»\r\n".encode())
                out = f"{name} says: «{rest}»\r\n".encode()
                for other in clients:
                    if other is not writer:
                        other.write(out)
            elif verb == "quit":
                break
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        clients.pop(writer, None)
        writer.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = await asyncio.start_server(handle, args.host, args.port, backlog=1024)
    port = server.sockets[0].getsockname()[1]
    print(f"BARE READY port={port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(_quiet)
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    server.close()
    for writer in list(clients):
        writer.close()
    await asyncio.sleep(0.2)  # let the handlers see their connections end before the loop stops


def _quiet(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    if not isinstance(context.get("exception"), (asyncio.CancelledError, ConnectionError)):
        loop.default_exception_handler(context)


if __name__ == "__main__":
    asyncio.run(main())
