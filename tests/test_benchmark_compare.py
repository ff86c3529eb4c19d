"""benchmarks/compare.py's own arithmetic and argument checks (no benchmark is run here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).parents[1] / "benchmarks" / "compare.py"
_SPEC = importlib.util.spec_from_file_location("benchmark_compare", _PATH)
compare = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = compare  # dataclasses look their module up there
_SPEC.loader.exec_module(compare)


def test_the_median_ratio_is_taken_over_pairs_not_over_medians():
    old = [10.0, 20.0, 30.0]
    new = [11.0, 18.0, 36.0]  # ratios 1.1, 0.9, 1.2; the medians' ratio would be 18/20 = 0.9
    assert compare.median_ratio(old, new) == pytest.approx(1.1)


@pytest.mark.parametrize(("old", "new"), [([], []), ([1.0], [1.0, 2.0]), ([0.0], [1.0])])
def test_the_median_ratio_refuses_unpaired_or_empty_or_zero_values(old, new):
    with pytest.raises(ValueError):
        compare.median_ratio(old, new)


def test_pairs_alternate_which_side_runs_first():
    assert [compare.order_of_pair(i) for i in range(4)] == [("old", "new"), ("new", "old")] * 2


def test_default_arguments():
    args = compare.parse_args(["--baseline", "ede2e6e"])
    assert (args.threads, args.repeats, args.hands, args.seed, args.new) == ([1, 2], 5, 1_000_000, 3, None)
    assert compare.parse_args(["--baseline", "x", "--threads", "2", "--threads", "2"]).threads == [2]


@pytest.mark.parametrize(("argv", "message"), [
    (["--repeats", "0"], "--repeats"),
    (["--hands", "10"], "--hands"),
    (["--bench-hands", "10"], "--bench-hands"),
    (["--seed", "-1"], "--seed"),
    (["--new=-x"], "not a git ref"),
])
def test_bad_arguments_exit_2_with_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        compare.parse_args(["--baseline", "ede2e6e", *argv])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_the_bench_hands_are_not_checked_without_the_bench():
    assert compare.parse_args(["--baseline", "x", "--no-bench", "--bench-hands", "10"]).no_bench


def test_simulates_timing_is_left_out_of_the_identity_check():
    one = '{"hands": 5, "bids": [1, 2], "timing": {"seconds": 1.0}}'
    other = '{"hands": 5, "bids": [1, 2], "timing": {"seconds": 2.5}}'
    assert compare.results_without_timing(one) == compare.results_without_timing(other)
    assert compare.results_without_timing(one) != compare.results_without_timing('{"bids": [1, 2], "hands": 5}')
