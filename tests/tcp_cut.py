"""A small TCP proxy a test puts between a server and a service (Valkey, PostgreSQL) to break the
link on purpose, as a network partition would:

    proxy = TcpCut(target_port)      # listens on 127.0.0.1:proxy.port, forwards to target_port
    proxy.cut()                      # every connection is closed; new ones are accepted and closed
    proxy.hold()                     # nothing is forwarded from the clients (bytes wait, unanswered)
    proxy.restore()                  # forwarding again (held bytes go on; after a cut: new connections)
    proxy.upstream_ports()           # local ports of its connections to the service (pg_stat_activity)
    proxy.close()

Threads, not the test's event loop: a test that starts a server process blocks its loop for a
while, and the link must stay up meanwhile.
"""
from __future__ import annotations

import select
import socket
import threading


class TcpCut:
    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        self.target = (host, target_port)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.state = "open"  # open | hold | cut
        self.changed = threading.Condition()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        with self.changed:
            self.state = "cut"
            pairs, self.pairs = self.pairs, []
            self.changed.notify_all()
        for pair in pairs:
            for sock in pair:
                _close(sock)

    def hold(self) -> None:
        with self.changed:
            self.state = "hold"
            self.changed.notify_all()

    def restore(self) -> None:
        with self.changed:
            self.state = "open"
            self.changed.notify_all()

    def upstream_ports(self) -> list[int]:
        with self.changed:
            ports = []
            for _client, upstream in self.pairs:
                try:
                    ports.append(upstream.getsockname()[1])
                except OSError:
                    pass
            return ports

    def close(self) -> None:
        self.closed = True
        self.cut()
        _close(self.listener)

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.changed:
                if self.state == "cut":
                    _close(client)
                    continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _close(client)
                continue
            with self.changed:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, from_client: bool) -> None:
        try:
            while True:
                with self.changed:
                    while from_client and self.state == "hold":
                        self.changed.wait()
                    if self.state == "cut":
                        return
                ready, _, _ = select.select([source], [], [], 0.05)
                if not ready:
                    continue
                with self.changed:  # a hold that came meanwhile: these bytes wait too
                    if from_client and self.state == "hold":
                        continue
                data = source.recv(65536)
                if not data:
                    return
                sink.sendall(data)
        except OSError:
            return
        finally:
            _close(source)
            _close(sink)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass
