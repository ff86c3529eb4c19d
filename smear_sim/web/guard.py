"""What every request to the page passes before the app sees it: only this machine's own callers, and a
body of bounded size read in bounded time.

The server listens on loopback by default, but a loopback address alone does not keep other sites out: a web
page the browser loads from anywhere can have its name rebound to 127.0.0.1 (DNS rebinding) and then call the
API as if it were the page. So :class:`Guard`, one ASGI middleware around the whole app:

- answers 400 unless the ``Host`` header names the server as it was started (``127.0.0.1``, ``localhost`` and
  ``[::1]``, with the server's port, and the address given to ``--host``): a rebound name is not among them;
- answers 403 to an API request from another origin: an ``Origin`` that is not ``http://`` one of those hosts
  with the server's own port (``http://localhost`` means port 80: a page on another port of this machine is
  another origin), or ``Sec-Fetch-Site`` ``cross-site`` or ``same-site`` (another port of the same host);
- sends, on every answer, headers that keep the page out of other sites' frames and stop browsers guessing
  content types;
- answers 413 to a body over ``max_body`` bytes, by its ``Content-Length`` before reading it and by the bytes
  read when the client streams it, and gives up on a body not received within ``body_timeout`` seconds.

The check is on the request, whichever route it goes to, so routes added later are covered as they are added.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["BODY_TIMEOUT", "LOOPBACK_NAMES", "MAX_BODY", "SECURITY_HEADERS", "BodyTimeout", "BodyTooLarge", "Guard",
           "allowed_hosts"]

MAX_BODY = 256 * 1024  # bytes: a hand request is under 1 KB; a game record to review is some tens of KB
BODY_TIMEOUT = 10.0  # seconds for the whole body once the headers are in
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                                 b"object-src 'none'; base-uri 'none'; "
                                 b"form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


class BodyTooLarge(Exception):
    """The client sent more than the body cap; the answer is 413."""

    http_status = 413


class BodyTimeout(Exception):
    """The client did not send its body in time; the answer is 408."""

    http_status = 408


def allowed_hosts(host: str | None = None) -> frozenset[str]:
    """The host names (without a port) that requests may name: loopback, and ``host`` (``--host``) if given.

    A wildcard ``--host`` (``0.0.0.0``, ``::``) serves every address of this machine, so any IP address is
    accepted then (written ``*ip``); a name still has to be one of these, which is what stops a rebound name.
    """
    names = set(LOOPBACK_NAMES)
    if host:
        names.add(_bracketed(host.lower()))
        try:
            if ipaddress.ip_address(host).is_unspecified:
                names.add("*ip")
        except ValueError:
            pass
    return frozenset(names)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``name`` and port of a Host header (``[::1]:8000``, ``localhost``), or None if it is not one."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[: end + 1], value[end + 1:]
    else:
        name, _, port = value.partition(":")
        rest = f":{port}" if _ else ""
    if rest and (not rest.startswith(":") or not rest[1:].isdigit()):
        return None
    return name, int(rest[1:]) if rest else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class Guard:
    """The ASGI middleware of the module docstring, around ``app``."""

    def __init__(self, app, *, hosts: Iterable[str] = LOOPBACK_NAMES, max_body: int = MAX_BODY,
                 body_timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.hosts = frozenset(hosts)
        self.max_body = max_body
        self.body_timeout = body_timeout

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        headers = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _answer(send_with_headers, *refusal)
            return
        await self.app(scope, self._bounded(receive), send_with_headers)

    def _host_allowed(self, value: str, port: int | None) -> bool:
        split = _split_host(value)
        if split is None:
            return False
        name, given = split
        if name not in self.hosts and not ("*ip" in self.hosts and _is_ip(name)):
            return False
        return given is None or port is None or given == port

    def _origin_allowed(self, origin: str, port: int | None) -> bool:
        """Whether ``origin`` is this server's: scheme http (all it speaks), one of its hosts, and its port, the
        port being the scheme's default (80) when the Origin names none. A page on another port of this machine
        is another origin, and may not drive the API."""
        try:
            parts = urlsplit(origin)
            given = parts.port
        except ValueError:
            return False
        if parts.scheme != "http" or not parts.hostname or parts.path or parts.query or parts.fragment \
                or parts.username is not None or parts.password is not None:
            return False
        name = _bracketed(parts.hostname.lower())
        if name not in self.hosts and not ("*ip" in self.hosts and _is_ip(name)):
            return False
        return port is not None and (80 if given is None else given) == port

    def _refusal(self, scope, headers: dict[str, str]) -> tuple[int, str] | None:
        server = scope.get("server") or (None, None)
        port = server[1] if len(server) > 1 else None
        host = headers.get("host", "")
        if not self._host_allowed(host, port):
            return 400, ("the Host header does not name this server (it answers only to "
                         f"{', '.join(sorted(h for h in self.hosts if h != '*ip'))}): open the page by one of those")
        if scope.get("path", "").startswith("/api"):
            origin = headers.get("origin")
            if origin is not None and not self._origin_allowed(origin, port):
                return 403, "requests from other sites are refused: use the page this server serves"
            if headers.get("sec-fetch-site", "") in ("cross-site", "same-site"):  # same-site: another port
                return 403, "requests from other sites are refused: use the page this server serves"
        length = headers.get("content-length")
        if length is not None:
            if not length.strip().isdigit():
                return 400, "the Content-Length header is not a number of bytes"
            if int(length) > self.max_body:
                return 413, f"the request body is over {self.max_body:,} bytes: nothing this server takes is so large"
        return None

    def _bounded(self, receive):
        """``receive``, raising :class:`BodyTooLarge` past the cap and :class:`BodyTimeout` when the body
        stalls; a disconnect passes through."""
        read = 0
        deadline = None

        async def bounded():
            nonlocal read, deadline
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + self.body_timeout
            try:
                left = None if deadline == float("inf") else max(0.0, deadline - loop.time())
                message = await asyncio.wait_for(receive(), left)
            except TimeoutError:
                raise BodyTimeout(f"the request body did not arrive within {self.body_timeout:g} s") from None
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.max_body:
                    raise BodyTooLarge(f"the request body is over {self.max_body:,} bytes: nothing this server "
                                       "takes is so large")
                if not message.get("more_body", False):
                    deadline = float("inf")  # the body is in: later receives wait for the disconnect
            return message

        return bounded


async def _answer(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
