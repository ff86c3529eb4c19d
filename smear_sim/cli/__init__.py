"""The ``smear-sim`` command line.

Each command validates its options, makes one library call and renders the result, as a rich table for
people or JSON with ``--json``. Heavy modules (NumPy, Numba, pandas, matplotlib) are imported inside the
commands, so ``smear-sim --help`` stays fast. Bad input ends with one line on standard error and exit
status 2, never a traceback.
"""

# Each module registers its commands on the app when imported; --help lists them in this order.
# isort: off
from . import records, simulation, games, hand, hint, review, tables, plot, report, web  # noqa: F401
# isort: on
from .app import app, main, unwrap_help

unwrap_help(app)  # help text that wraps cleanly at any width

__all__ = ["app", "main"]
