"""The exceptions for input a user can fix.

Each one's ``str()`` is a single line that says what is wrong and how to fix it; the command line prints
that line and exits with status 2, and never shows a traceback for them.
"""

__all__ = ["CardError", "IllegalAction", "RecordError", "RulesError", "SmearError"]


class SmearError(ValueError):
    """Bad input that the user can fix."""


class CardError(SmearError):
    """A card or hand string that cannot be read; the message names the bad token."""


class RulesError(SmearError):
    """An unknown rule option, a bad value or an impossible combination of options."""


class RecordError(SmearError):
    """A hand record that is malformed or breaks a rule; the message names the first problem."""


class IllegalAction(SmearError):
    """A bid, discard or play that the rules forbid; the message gives the reason."""
