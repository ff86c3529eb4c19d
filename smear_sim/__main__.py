"""``python -m smear_sim`` and the ``smear-sim`` console script: the command line of :mod:`smear_sim.cli`.

Loading the command line takes a second or more on a busy machine. Ctrl-C or SIGTERM in that time ends the process
as it would later, with one word on stderr and status 130 or 143, not a traceback: no work has started yet.
"""

import os
import signal
import sys


def _before_loading(signum, frame) -> None:
    word, code = ("interrupted", 130) if signum == signal.SIGINT else ("terminated", 143)
    sys.stderr.write(word + "\n")
    sys.stderr.flush()
    os._exit(code)


def run() -> None:
    """The console entry point: load the command line, then hand the signals to it (:func:`smear_sim.cli.main`)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _before_loading)
    from .cli import main

    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C is KeyboardInterrupt again
    main()


if __name__ == "__main__":
    run()
