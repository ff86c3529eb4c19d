"""The exceptions for input a user can fix.

Each one's ``str()`` is a single line that says what is wrong and how to fix it; the command line prints
that line and exits with status 2 (1 for :class:`OutputError`), and never shows a traceback for them.

The one mapping from an error to what a front end does with it: each class carries its ``exit_status`` (the
command line's) and ``http_status`` (the page's); :func:`exit_status`, :func:`http_status` and :func:`message`
read them, for the command line and the page alike. An exception without them is a bug: no exit status (the
command line lets it show), and a 500.
"""

import re

__all__ = ["FRONT_END_WORDS", "MESSAGE_LIMIT", "BadValue", "CardError", "ClusterError", "IllegalAction", "OutputError",
           "RecordError", "RulesError", "SmearError", "SmearWarning", "exit_status", "http_status", "message",
           "one_line"]

MESSAGE_LIMIT = 1000  # characters in a message shown to a user: more than any message smear-sim words itself
_WORD_LIMIT = 200  # a run of characters without a space longer than this quotes an input (a card, a number)
_LONG_WORD = re.compile(rf"\S{{{_WORD_LIMIT + 1},}}")


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` as one short line, however much of the user's input it quotes.

    Messages quote what was given ("unknown card 'XX'"), and what was given may be 100 MB. So every run of
    characters without a space longer than ``_WORD_LIMIT`` keeps its start and end around an ellipsis and its
    length, and the line as a whole is cut in the middle past ``limit``: the start says what is wrong, the end
    how to fix it. Line breaks become spaces.
    """
    text = re.sub(r"[ \t]*[\r\n]+[ \t]*", " ", str(message))

    def shorten(word: re.Match) -> str:
        found = word.group()
        return f"{found[:60]}…{found[-20:]} ({len(found):,} characters)"

    text = _LONG_WORD.sub(shorten, text)
    if len(text) > limit:
        keep = (limit - 1) // 2
        text = f"{text[:keep]}…{text[-keep:]}"
    return text


class SmearError(ValueError):
    """Bad input that the user can fix."""

    exit_status = 2
    http_status = 400

    def worded(self, **words: str) -> str:
        """The message as a front end says it (:data:`FRONT_END_WORDS`); a subclass whose words depend on the front
        end fills them in."""
        return str(self)


class BadValue(SmearError):
    """A parameter given a value it cannot take: ``str()`` names the parameter as the library calls it
    (``seed must be ...``); a front end names it as its user typed it (:meth:`worded`), so that the layers
    below the command line never speak of its options.

    ``parameter`` may already be a front end's own word for it (``--max-deals``); it is then kept as given.
    """

    def __init__(self, parameter: str, problem: str) -> None:
        self.parameter = parameter
        self.problem = problem  # the rest of the sentence: "must be ..., got ..."
        super().__init__(f"{parameter} {problem}")

    @property
    def option(self) -> str:
        """The command line's option for the parameter: ``max_deals`` is ``--max-deals``."""
        return self.parameter if self.parameter.startswith("-") else "--" + self.parameter.replace("_", "-")

    def worded(self, name: str | None = None, **words: str) -> str:
        """The message with the parameter named ``name`` (by default, as the command line's option)."""
        return f"{name or self.option} {self.problem}"


class CardError(SmearError):
    """A card or hand string that cannot be read; the message names the bad token."""


class RulesError(SmearError):
    """An unknown rule option, a bad value or an impossible combination of options."""


class RecordError(SmearError):
    """A hand record that is malformed or breaks a rule; the message names the first problem."""


class IllegalAction(SmearError):
    """A bid, discard or play that the rules forbid; the message gives the reason."""


class OutputError(Exception):
    """Writing a result failed for a reason outside smear-sim: the disk is full, a pipe was closed.

    Not bad input (the path was checked before any work started), so the command line exits with status 1.
    """

    exit_status = 1

    def __init__(self, path: object, error: OSError) -> None:
        self.path = str(path)
        self.error = error
        super().__init__(f"cannot write {self.path}: {error.strerror or error}")


class SmearWarning(UserWarning):
    """Something the user should know that does not stop the work; the command line prints it as one line."""


class ClusterError(SmearError):
    """A Dask cluster that cannot be reached, has no workers, or cannot run the work; the message says why."""


# The words of a message that depend on who says it, as both front ends say them (the page quotes the command line's
# commands too): a class-count file's maker, how to make one, and what wrote it.
FRONT_END_WORDS = {"maker": "smear-sim bid-table", "make": "'smear-sim bid-table --out ...'",
                   "writer": "'smear-sim bid-table'"}


def exit_status(exc: BaseException) -> int | None:
    """The command line's exit status for ``exc``: 2 for bad input, 1 for a failed write; None for a bug."""
    return getattr(exc, "exit_status", None)


def http_status(exc: BaseException) -> int:
    """The page's HTTP status for ``exc``: 400 for bad input, the status its class gives (404, 410, 413, 503...),
    500 for a bug."""
    return getattr(exc, "http_status", 500)


def message(exc: BaseException) -> str:
    """``exc``'s one line as the front ends say it: a parameter named as the command line's option, a class-count
    file's maker as its command."""
    return exc.worded(**FRONT_END_WORDS) if isinstance(exc, SmearError) else str(exc)
