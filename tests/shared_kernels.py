"""The kernels most test files run, compiled once into a cache that every pytest-xdist worker then starts from
(tests/conftest.py): two workers compiling one cache at once race on its files (numba issue 10128), and each
compiling its own would compile these twice.

``python tests/shared_kernels.py`` compiles them into ``NUMBA_CACHE_DIR``: every fast driver, with the heuristic
alone and with the other fast players beside it (the two tables the tests seat most; a table compiles only its
players' code), and the leaves in a second process meanwhile, as a first command does.
"""

from __future__ import annotations

import sys
from pathlib import Path


def compile_shared() -> None:
    import smear_sim
    from smear_sim.analysis.hand import EXAMPLE_HAND
    from smear_sim.engine.compiling import use_helper

    use_helper()
    for policy, pair in (("heuristic", ("heuristic", "heuristic")), ("random", ("heuristic", "random"))):
        table = smear_sim.class_table(2000, policy=policy)  # analyze_hands, as evaluate_hand
        smear_sim.simulate(64, policies=",".join(pair))
        smear_sim.simulate_games(4, policies=",".join(pair))
        smear_sim.hand_outcomes(64, policy=policy)
        smear_sim.duplicate_match(*pair, deals=64)
        smear_sim.duplicate_games(*pair, games=4)
        smear_sim.position_table(64, classes=table, policy=policy)
        smear_sim.evaluate_auction(EXAMPLE_HAND, position=1, samples=16, policy=policy)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    compile_shared()
