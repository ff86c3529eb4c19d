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
