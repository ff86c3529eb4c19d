"""The ``serve`` command: the page for players on a local web server."""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import socket
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import SmearError
from .app import app, clean_errors


@app.command()
@clean_errors
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on. The default serves this machine "
                                      "only; anything else lets others on the network use the page.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free port).")]
    = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the default browser.")] = False,
    results: Annotated[Path, typer.Option("--results", metavar="DIR", help="Folder with the tables the tables view "
                                          "shows: bid_table.npz, by_position.csv, equity.csv; the reports under "
                                          "other rules in its subfolders (results/round-points) are offered "
                                          "too.")] = Path("results"),
    max_samples: Annotated[int, typer.Option("--max-samples", min=1, help="The most deals one request may "
                                             "simulate.")] = 200_000,
    max_deals: Annotated[int, typer.Option("--max-deals", min=1, help="The most deals one request with a seat may "
                                           "try while looking for deals that fit the calls before it.")]
    = 2_000_000,
    max_span: Annotated[int, typer.Option("--max-span", min=1, max=300, help="The most points the match-equity "
                                          "table of one request may span, from the lower of -40 and its scores to "
                                          "the target (its work grows with the square).")] = 120,
    games_dir: Annotated[Path | None, typer.Option("--games-dir", metavar="DIR", help="Folder where the practice "
                                                   "table saves each game, one game record a file, after every "
                                                   "hand. Default: $XDG_DATA_HOME/smear-sim/games "
                                                   "(~/.local/share/smear-sim/games).")] = None,
    max_tables: Annotated[int, typer.Option("--max-tables", min=1, max=1000, help="The most practice tables open "
                                            "at once (each holds a game in memory and may run bots and hints).")]
    = 16,
    idle_expiry: Annotated[int, typer.Option("--idle-expiry", min=10, max=604_800, metavar="SECONDS",
                                             help="Close a practice table untouched for this long (its finished "
                                             "hands are saved).")] = 3600,
) -> None:
    """Serve the page for players: pick a hand, get the advice and charts in a browser.

    It prints the page's address and runs until Ctrl-C. Analyses from several browsers take turns on the
    simulator, each at most --max-samples deals for the hand and --max-deals tried for the calls.

    [bold]Examples[/bold]

      smear-sim serve --open

      smear-sim serve --port 8080 --results results

      smear-sim serve --games-dir ~/smear-games --max-tables 4
    """
    try:
        import uvicorn  # noqa: F401 (what the web extra brings: said here, before anything starts)

        from ..output.results_folder import BID_TABLE, EQUITY_TABLE, POSITION_TABLE
        from ..web.games import check_games_dir, default_games_dir
        from ..web.limits import Limits
        from ..web.server import create_app
        from ..web.serving import server as make_server
    except ImportError as exc:
        raise SmearError(f"the web page needs FastAPI and uvicorn ({exc.name} is missing): "
                         "pip install 'smear-sim[web]'") from None
    games_dir = default_games_dir() if games_dir is None else games_dir
    check_games_dir(games_dir)  # before the server starts, as every output is checked before the work
    if not _is_loopback(host):
        typer.echo(f"warning: serving on {host}: anyone who can reach this machine can use the page and its "
                   "CPU; leave out --host to serve this machine only", err=True)
    listener = _listen(host, port)
    bound_port = listener.getsockname()[1]
    url = f"http://{f'[{host}]' if ':' in host else host}:{bound_port}/"
    if not any((results / name).exists() for name in (BID_TABLE, POSITION_TABLE, EQUITY_TABLE)):
        typer.echo(f"note: {results} has none of {BID_TABLE}, {POSITION_TABLE} and {EQUITY_TABLE}, so the tables "
                   "view will be empty; give --results DIR or make them with 'smear-sim report'", err=True)
    limits = Limits(max_samples=max_samples, max_deals=max_deals, max_span=max_span, max_tables=max_tables,
                    idle_expiry=idle_expiry)
    app_ = create_app(results=results, limits=limits, host=host, games_dir=games_dir)
    server = make_server(app_, on_listening=_opener(url) if open_browser else None)
    typer.echo(f"smear-sim: the page is at {url} (Ctrl-C stops it); practice games are saved in {games_dir}")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops gracefully on Ctrl-C, then raises it again
        server.run(sockets=[listener])
    typer.echo("smear-sim: stopped", err=True)


def _is_loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return False


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or a one-line error: made here so that a port in use is reported
    before the server starts, and port 0 gives the free port that the printed address then names."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as exc:
        raise SmearError(f"--host {host!r} is not an address of this machine: {exc.strerror}") from None
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise SmearError(f"port {port} on {host} is in use: stop what uses it, or choose another with "
                             "--port") from None
        raise SmearError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    listener.listen(128)  # browsers may connect at once: they wait in the backlog until the server accepts
    return listener


def _opener(url: str):
    """Open ``url`` in the default browser (once the server listens)."""

    def open_page() -> None:
        import webbrowser

        webbrowser.open(url)

    return open_page
