"""parse_call and call_name: the one way a call is read and written."""

import pytest

from smear_sim.core.calls import call_name, parse_call
from smear_sim.core.errors import SmearError
from smear_sim.core.layout import MOON, PASS


@pytest.mark.parametrize(("text", "code"), [("pass", PASS), (" PASS ", PASS), ("moon", MOON), ("Moon", MOON),
                                            ("2", 2), (" 3 ", 3), ("07", 7), (5, 5)])
def test_parse_call_reads_words_numbers_and_ints(text, code):
    assert parse_call(text) == code


@pytest.mark.parametrize("code", [PASS, 1, 2, 3, 4, 5, 6, 7, MOON])
def test_call_name_and_parse_call_are_a_pair(code):
    assert parse_call(call_name(code)) == code


def test_call_name_writes_the_record_form():
    assert (call_name(PASS), call_name(3), call_name(MOON)) == ("pass", 3, "moon")
    with pytest.raises(ValueError):
        call_name(42)


@pytest.mark.parametrize("text", ["²", "٣", "9" * 5000, "", "two", "-1", "3.0", "0", "8", "99", None, True, 3.0,
                                  [3], {"a": 1}])
def test_parse_call_refuses_anything_else_in_one_short_line(text):
    with pytest.raises(SmearError) as caught:
        parse_call(text)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 120
    assert "call" in message
