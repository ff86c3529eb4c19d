"""The errors users can fix (smear_sim/core/errors.py): BadValue names a parameter, a front end words it."""

from __future__ import annotations

from smear_sim.core.errors import BadValue, SmearError


def test_a_bad_value_names_the_parameter_and_a_front_end_words_it_as_an_option():
    error = BadValue("max_deals", "must be a whole number from 1 to 10, got 0")
    assert isinstance(error, SmearError) and str(error) == "max_deals must be a whole number from 1 to 10, got 0"
    assert error.option == "--max-deals" and error.worded() == "--max-deals must be a whole number from 1 to 10, got 0"
    assert error.worded("samples") == "samples must be a whole number from 1 to 10, got 0"
    kept = BadValue("--max-deals", "must be positive")  # a front end's own word is kept as given
    assert str(kept) == kept.worded() == "--max-deals must be positive"


def test_one_mapping_gives_each_error_its_exit_status_its_http_status_and_its_words():
    """The command line and the page read the same mapping (core.errors): bad input is 2 and 400, a failed write
    1, a bug None and 500; a class-count file's maker is named as the command that makes one, on both."""
    import errno

    from smear_sim.analysis.saved import CountsFileError
    from smear_sim.core.errors import (
        FRONT_END_WORDS,
        CardError,
        OutputError,
        exit_status,
        http_status,
        message,
    )

    bad = CardError("unknown card 'XX'")
    assert (exit_status(bad), http_status(bad), message(bad)) == (2, 400, "unknown card 'XX'")
    value = BadValue("max_deals", "must be positive")
    assert (exit_status(value), http_status(value), message(value)) == (2, 400, "--max-deals must be positive")
    write = OutputError("out.csv", OSError(errno.ENOSPC, "No space left on device"))
    assert (exit_status(write), http_status(write)) == (1, 500)
    assert message(write) == "cannot write out.csv: No space left on device"
    bug = ZeroDivisionError("division by zero")
    assert (exit_status(bug), http_status(bug), message(bug)) == (None, 500, "division by zero")
    counts = CountsFileError("x.npz does not exist: make it with {make}")
    assert str(counts) == "x.npz does not exist: make it with smear_sim.class_table(...).save(path)"
    assert message(counts) == f"x.npz does not exist: make it with {FRONT_END_WORDS['make']}"
    assert message(counts) == "x.npz does not exist: make it with 'smear-sim bid-table --out ...'"
