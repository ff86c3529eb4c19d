"""The HTTP server around the app (uvicorn), set up to hold against slow and many clients and to stop in time.

- A request's headers must arrive within ``HEADER_TIMEOUT`` seconds of its first byte (uvicorn's own h11
  protocol waits for them forever), and its body within ``BODY_TIMEOUT`` once the headers are in; a client
  too slow is disconnected. An idle kept-alive connection is closed after ``KEEP_ALIVE`` seconds.
- At most ``PENDING_PER_CLIENT`` connections of one client (one address) may be waiting for their headers at
  once: a new one closes that client's oldest still waiting. A browser sends its headers in one packet, so its
  connections wait for microseconds; a client that opens connections and trickles bytes into them holds at most
  that many, not every slot of the server.
- At most ``MAX_CONNECTIONS`` connections are served at once; past that uvicorn answers 503.
- On Ctrl-C or SIGTERM the simulator is closed at once, so that every analysis stops at its next slice and
  its client gets a JSON answer within the grace period (``GRACE`` seconds) instead of being cut off.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, defaultdict

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .guard import BODY_TIMEOUT

__all__ = ["GRACE", "HEADER_TIMEOUT", "KEEP_ALIVE", "MAX_CONNECTIONS", "PENDING_PER_CLIENT", "BoundedH11Protocol",
           "Waiting", "server"]

HEADER_TIMEOUT = 10.0
KEEP_ALIVE = 5.0
MAX_CONNECTIONS = 64
GRACE = 2.0
PENDING_PER_CLIENT = 8  # a page loads its files over at most 6 connections at once


class Waiting:
    """The connections of one server still waiting for their request's headers, by client address, oldest first
    (all on the event loop's thread)."""

    def __init__(self, per_client: int = PENDING_PER_CLIENT) -> None:
        self.per_client = per_client
        self._by_client: defaultdict[str, OrderedDict[int, BoundedH11Protocol]] = defaultdict(OrderedDict)

    def add(self, client: str, connection: BoundedH11Protocol) -> None:
        """``connection`` waits for headers; the client's oldest waiting are closed past ``per_client``."""
        waiting = self._by_client[client]
        waiting[id(connection)] = connection
        while len(waiting) > self.per_client:
            _, oldest = waiting.popitem(last=False)
            oldest.drop()

    def discard(self, client: str, connection: BoundedH11Protocol) -> None:
        waiting = self._by_client.get(client)
        if waiting is not None:
            waiting.pop(id(connection), None)
            if not waiting:
                del self._by_client[client]

    def __len__(self) -> int:
        return sum(map(len, self._by_client.values()))


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers and one for its body."""

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    waiting: Waiting | None = None  # one per server (:func:`server`)

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        peer = transport.get_extra_info("peername")
        self._peer = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
        self._arm(self.header_timeout)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE and data and self._deadline is None:
            self._arm(self.header_timeout)  # a next request has begun on a kept-alive connection
        elif state is h11.SEND_BODY and getattr(self, "_waiting_for", None) != "body":
            self._arm(self.body_timeout, "body")  # the headers are in: now the body
        elif state not in (h11.IDLE, h11.SEND_BODY):
            self._disarm()  # the request is in: the app answers in its own time

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self, seconds: float, waiting_for: str = "headers") -> None:
        self._disarm()
        self._waiting_for = waiting_for
        self._deadline = self.loop.call_later(seconds, self._too_slow)
        if waiting_for == "headers" and self.waiting is not None:
            self.waiting.add(self._peer, self)

    def _disarm(self) -> None:
        deadline = getattr(self, "_deadline", None)
        if deadline is not None:
            deadline.cancel()
        if getattr(self, "_waiting_for", None) == "headers" and self.waiting is not None:
            self.waiting.discard(self._peer, self)
        self._deadline = None
        self._waiting_for = None

    def _too_slow(self) -> None:
        self._deadline = None
        self.drop()

    def drop(self) -> None:
        """Close the connection (the app, if it was reading the body, sees the client gone)."""
        if getattr(self, "_waiting_for", None) == "headers" and self.waiting is not None:
            self.waiting.discard(self._peer, self)
        self._waiting_for = None
        if not self.transport.is_closing():
            self.transport.close()


def server(app, *, on_listening=None, header_timeout: float = HEADER_TIMEOUT, body_timeout: float = BODY_TIMEOUT,
           max_connections: int = MAX_CONNECTIONS, pending_per_client: int = PENDING_PER_CLIENT):
    """A uvicorn server for ``app`` (made by :func:`smear_sim.web.server.create_app`), run with
    ``server.run(sockets=[listener])``; ``on_listening()`` is called once it listens."""
    import uvicorn

    protocol = type("Protocol", (BoundedH11Protocol,), {"header_timeout": header_timeout, "body_timeout": body_timeout,
                                                         "waiting": Waiting(pending_per_client)})
    config = uvicorn.Config(app, log_level="warning", http=protocol, timeout_keep_alive=KEEP_ALIVE,
                            limit_concurrency=max_connections, timeout_graceful_shutdown=GRACE)

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)
            if on_listening is not None and self.started:
                on_listening()

        def handle_exit(self, sig, frame) -> None:
            simulator = getattr(getattr(app, "state", None), "simulator", None)
            if simulator is not None:
                simulator.close()  # every analysis stops at its next slice, inside the grace period
            super().handle_exit(sig, frame)

    return Server(config)
