"""The request schemas (smear_sim/web/schemas.py): one per endpoint, unknown fields refused, a field of the wrong
type refused (a true is never a number), each worded as the command line words it."""

from __future__ import annotations

import pytest

from smear_sim.core.errors import SmearError
from smear_sim.web import schemas
from smear_sim.web.schemas import checked

SCHEMAS = [schemas.HandBody, schemas.HintBody, schemas.CallsBody, schemas.ReviewBody, schemas.TableBody,
           schemas.StepBody, schemas.ActBody, schemas.TableHintBody]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_every_schema_refuses_an_unknown_field_and_names_the_fields(schema):
    fields = ", ".join(schema.model_fields)
    with pytest.raises(SmearError, match=f"^unknown field 'colour' in the request: the fields are {fields}$"):
        checked(schema, {"colour": 1})
    with pytest.raises(SmearError, match="^the request must be a JSON object such as "):
        checked(schema, [1])
    assert checked(schema, {}) == schema()  # every field may be left out: the endpoint says what is missing


@pytest.mark.parametrize(("schema", "body", "line"), [
    (schemas.HandBody, {"samples": True}, "samples must be a whole number of deals, got true"),
    (schemas.HandBody, {"samples": 1.0}, "samples must be a whole number of deals, got 1.0"),
    (schemas.HandBody, {"cards": ["AH", 3]}, "cards must be a string such as"),
    (schemas.HandBody, {"precision": False}, "precision must be a standard error such as 0.01, got false"),
    (schemas.TableBody, {"rules": 0}, 'rules must be an object of rule options, e.g. {"target": 21}, got 0'),
    (schemas.TableBody, {"rules": []}, "rules must be an object of rule options"),
    (schemas.TableBody, {"seat": "1"}, 'seat must be your seat, 0 to 3 (seat 3 deals the first hand), got "1"'),
    (schemas.StepBody, {"step": "x"}, "step must be the table's step, a whole number, got \"x\""),
    (schemas.ReviewBody, {"luck": 1}, "luck must be true or false, got 1"),
    (schemas.CallsBody, {"auction": "2,pass"}, 'auction must be a list of calls, e.g. [2, "pass"], got "2,pass"'),
])
def test_a_field_of_the_wrong_type_is_one_line_as_the_command_line_says_it(schema, body, line):
    with pytest.raises(SmearError) as raised:
        checked(schema, body)
    assert str(raised.value).startswith(line) and "\n" not in str(raised.value)


def test_null_is_a_field_left_out():
    assert checked(schemas.HandBody, {"cards": "AH", "seed": None}).seed is None
    assert checked(schemas.TableBody, {"rules": None}).rules is None
