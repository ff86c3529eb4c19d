"""The match-equity table shipped in the package (analysis/shipped_equity.py): what this code makes, read back
whole, and used by the hand analysis in place of making it."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim import match_equity
from smear_sim.analysis import hand as H
from smear_sim.analysis import shipped_equity as SE
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules


@pytest.fixture(scope="module")
def made():
    hands, seed, rules, policy, floor = SE.SHIPPED_SETTINGS
    return match_equity(hands, seed=seed, rules=rules, policy=policy, floor=floor)


def test_the_shipped_table_is_what_this_code_makes(made):
    shipped = SE.load_table(SE.shipped_table_path())
    # If this fails, the players' play or the rules' defaults changed: run python tools/match_equity_table.py.
    assert np.array_equal(shipped.outcomes.counts, made.outcomes.counts)
    assert shipped.metadata() == made.metadata()
    for name in ("win_grid", "hands_left", "truncation", "win_se_grid"):
        np.testing.assert_allclose(getattr(shipped, name), getattr(made, name), rtol=0, atol=1e-12, err_msg=name)
    assert shipped.chain.states == made.chain.states
    p = np.full((1, len(made.chain.p)), 1 / len(made.chain.p))
    flat = np.arange(3 * len(made.chain.p)).reshape(3, -1) % made.chain.states
    # The shipped table solves for this variance afresh; the one made here reads it from its gradient, which it
    # solved for win_se_grid. Both solve to GRADIENT_TOLERANCE, so they agree to about 1e-6.
    np.testing.assert_allclose(shipped._table_variance(p, flat), made._table_variance(p, flat), rtol=1e-5)


def test_a_saved_table_reads_back_whole(made, tmp_path):
    read = SE.load_table(SE.save_table(made, tmp_path / "t.npz"))
    assert read.metadata() == made.metadata()
    assert read.win(3, -2, "us") == made.win(3, -2, "us")


def test_only_the_default_settings_are_read_from_the_package():
    hands, seed, rules, policy, floor = SE.SHIPPED_SETTINGS
    assert SE.load_shipped(hands, seed, rules, policy, floor) is not None
    assert SE.load_shipped(hands, seed + 1, rules, policy, floor) is None
    assert SE.load_shipped(hands, seed, Rules(round_points=True), policy, floor) is None
    assert SE.load_shipped(hands // 2, seed, rules, policy, floor) is None


def test_the_hand_analysis_reads_the_shipped_table(monkeypatch):
    H._shared.clear()
    monkeypatch.setattr(H, "match_equity", lambda *a, **k: pytest.fail("made a table the package ships"))
    hands, seed, rules, policy, floor = SE.SHIPPED_SETTINGS
    assert H.shared_equity(hands, seed, rules, policy, floor).hands == hands
    H._shared.clear()


def test_a_file_that_is_not_a_table_is_one_line(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(SmearError, match="is not a match-equity table file"):
        SE.load_table(bad)
