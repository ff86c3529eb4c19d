"""Scores of a game in progress (smear_sim/analysis/scores.py): "US,THEM" parsed, bad text refused."""

from __future__ import annotations

import pytest

from smear_sim.analysis.scores import parse_score
from smear_sim.core.errors import SmearError


@pytest.mark.parametrize(("text", "expected"), [("-5,19", (-5, 19)), (" 3 , 4 ", (3, 4)), ((1, 2), (1, 2))])
def test_parse_score(text, expected):
    assert parse_score(text) == expected


@pytest.mark.parametrize("text", ["5", "1,2,3", "a,b", "", "1.5,2"])
def test_parse_score_rejects_bad_text(text):
    with pytest.raises(SmearError, match="two whole-number scores"):
        parse_score(text)
