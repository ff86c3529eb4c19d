"""The players by name (smear_sim/core/players.py): parsing --policy and the kernels' numbers."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.core.errors import SmearError
from smear_sim.core.players import PARAM_SCALE, POLICIES, parse_policies, parse_policy, policy_array


def test_parse_policies():
    assert parse_policies("heuristic") == ("heuristic", "heuristic")
    assert parse_policies(" Heuristic , RANDOM ") == ("heuristic", "random")
    assert parse_policies(["random", "heuristic"]) == ("random", "heuristic")
    assert parse_policies("pimc, heuristic-v1") == ("pimc:16", "heuristic-v1")
    assert parse_policies("PIMC:8") == ("pimc:8", "pimc:8")
    with pytest.raises(SmearError, match="choose random, heuristic, heuristic-v1, pimc:K, equity, count, expert:K, oracle, net or guided:K"):
        parse_policies("greedy")
    with pytest.raises(SmearError, match="two separated by a comma"):
        parse_policies("random,random,random")
    for bad in ("pimc:0", "pimc:x", "pimc:", "pimc:5000"):
        with pytest.raises(SmearError, match="pimc:K needs K"):
            parse_policies(bad)
    with pytest.raises(SmearError, match="takes no parameter"):
        parse_policies("heuristic:3")


def test_policy_array_matches_the_kernel_numbers():
    from smear_sim.kernels import players

    assert POLICIES[players.RANDOM] == "random" and POLICIES[players.HEURISTIC] == "heuristic"
    assert POLICIES[players.HEURISTIC_V1] == "heuristic-v1" and POLICIES[players.PIMC] == "pimc"
    assert POLICIES[players.EQUITY] == "equity" and POLICIES[players.COUNT] == "count"
    codes = policy_array(("heuristic", "random"))
    assert codes.dtype == np.int64 and list(codes) == [players.HEURISTIC, players.RANDOM]
    codes = policy_array(("pimc:12", "heuristic-v1"))
    assert list(codes) == [players.PIMC + PARAM_SCALE * 12, players.HEURISTIC_V1]
    assert players.policy_kind(codes[0]) == players.PIMC and players.policy_param(codes[0]) == 12


def test_expert_is_the_last_policy_and_takes_k():
    """``expert`` was added at the end, so the codes of the earlier players are unchanged."""
    from smear_sim.core.players import reads_tables

    assert POLICIES[:6] == ("random", "heuristic", "heuristic-v1", "pimc", "equity", "count")
    assert POLICIES[6] == "expert"
    assert parse_policies("expert,pimc") == ("expert:16", "pimc:16")
    assert parse_policies("EXPERT:4") == ("expert:4", "expert:4")
    assert list(policy_array(("expert:8", "heuristic"))) == [POLICIES.index("expert") + PARAM_SCALE * 8, 1]
    for bad in ("expert:0", "expert:x", "expert:", "expert:5000"):
        with pytest.raises(SmearError, match="expert:K needs K"):
            parse_policies(bad)
    assert reads_tables("expert:4,heuristic") and reads_tables(("heuristic", "equity"))
    assert not reads_tables("pimc:16") and not reads_tables(("heuristic", "random")) and not reads_tables("nonsense")


def test_expert_may_leave_out_its_parts():
    """``expert:K:no-PART`` names expert with parts left out (to measure each): canonical in EXPERT_PARTS order,
    packed above K in the kernels' parameter, refused for other players and for unknown parts."""
    from smear_sim.core.players import EXPERT_PARTS, EXPERT_WITHOUT_SCALE, parse_policy, policy_code
    from smear_sim.kernels import players
    from smear_sim.kernels.players import bids

    assert tuple(EXPERT_PARTS) == ("calls", "inference", "keep", "game")
    assert parse_policies("expert:8:No-Game:no-calls") == ("expert:8:no-calls:no-game",) * 2
    spec = parse_policy("expert:8:no-game:no-calls:no-game")
    assert (spec.param, spec.without, str(spec)) == (8, ("calls", "game"), "expert:8:no-calls:no-game")
    code = policy_code(str(spec))
    assert code == POLICIES.index("expert") + PARAM_SCALE * (8 + EXPERT_WITHOUT_SCALE * (1 + 8))
    param = players.policy_param(code)
    assert players.policy_kind(code) == players.EXPERT and bids.expert_worlds(param) == 8
    assert [bool(bids.expert_without(param, bit)) for bit in
            (bids.EXPERT_NO_CALLS, bids.EXPERT_NO_INFERENCE, bids.EXPERT_NO_KEEP, bids.EXPERT_NO_GAME)] == \
        [True, False, False, True]
    assert policy_code("expert:4096:no-calls:no-inference:no-keep:no-game") < 2**31
    with pytest.raises(SmearError, match="only expert:K or guided:K may leave out its parts"):
        parse_policy("pimc:8:no-game")
    for bad in ("expert:8:game", "expert:8:no-speed", "expert:8:"):
        with pytest.raises(SmearError, match="not a part expert can leave out: write no-calls"):
            parse_policy(bad)


def test_the_lists_of_players_come_from_the_registry():
    """POLICIES, FAST_POLICIES, TABLE_POLICIES, the parameters and expert's parts are read off PLAYERS, whose order
    is the kernels' codes (saved files, results/ and the random streams depend on it)."""
    from smear_sim.core.players import (
        DECISIONS,
        EXPERT_PARTS,
        FAST_POLICIES,
        NET_POLICIES,
        PLAYERS,
        TABLE_POLICIES,
        parse_playout,
        player,
        policy_choices,
    )

    assert POLICIES == tuple(p.name for p in PLAYERS) == (
        "random", "heuristic", "heuristic-v1", "pimc", "equity", "count", "expert", "oracle", "net", "guided")
    assert FAST_POLICIES == ("random", "heuristic", "heuristic-v1", "equity", "count")
    assert TABLE_POLICIES == ("equity", "expert", "net", "guided")
    assert NET_POLICIES == ("net", "guided")
    assert tuple(EXPERT_PARTS) == tuple(part.name for part in player("expert").parts)
    assert policy_choices() == ("random, heuristic, heuristic-v1, pimc:K, equity, count, expert:K, oracle, net or "
                                "guided:K")
    assert policy_choices(("heuristic",)) == "heuristic"
    for p in PLAYERS:
        assert set(p.decisions) <= set(DECISIONS) and p.summary
        assert not (p.fast and p.searches), p.name
        assert p.twin in FAST_POLICIES, p.name
        if p.plays_out:
            assert parse_playout(p.name) == str(parse_policy(p.name))
        else:
            with pytest.raises(SmearError, match="cannot play out"):
                parse_playout(p.name)
    assert [p.name for p in PLAYERS if p.group is None] == ["heuristic"]  # the one every other falls back on
    assert (player("expert").twin, player("pimc").twin, player("count").twin) == ("equity", "heuristic", "count")
    assert player("net").twin == player("guided").twin == "equity"
    with pytest.raises(SmearError, match="unknown policy 'greedy': choose random"):
        player("greedy")


def test_guided_takes_k_its_top_n_and_experts_parts():
    """``guided:K:top-N``: expert's K and parts, and N (the candidates the net lets through) packed above the parts;
    canonical with top-N written out, N by default ``GUIDED_TOP``; a bad N refused with its range."""
    from smear_sim.core.players import (
        EXPERT_WITHOUT_SCALE,
        GUIDED_TOP,
        TOP_SCALE,
        parse_policy,
        policy_code,
        reads_net,
        reads_tables,
    )
    from smear_sim.kernels import players
    from smear_sim.kernels.players import bids

    assert parse_policies("guided") == (f"guided:16:top-{GUIDED_TOP}",) * 2
    assert parse_policies("Guided:8:no-game:TOP-3,expert:8") == ("guided:8:top-3:no-game", "expert:8")
    spec = parse_policy("guided:8:no-inference:top-12")
    assert (spec.param, spec.top, spec.without, str(spec)) == (8, 12, ("inference",), "guided:8:top-12:no-inference")
    code = policy_code(str(spec))
    assert code == POLICIES.index("guided") + PARAM_SCALE * (8 + EXPERT_WITHOUT_SCALE * 2 + TOP_SCALE * 12)
    assert code < 2**31 and policy_code("guided:4096:top-12:no-calls:no-inference:no-keep:no-game") < 2**31
    param = players.policy_param(code)
    assert players.policy_kind(code) == bids.GUIDED and bids.expert_worlds(param) == 8 and bids.guided_top(param) == 12
    assert [bool(bids.expert_without(param, bit)) for bit in
            (bids.EXPERT_NO_CALLS, bids.EXPERT_NO_INFERENCE, bids.EXPERT_NO_KEEP, bids.EXPERT_NO_GAME)] == \
        [False, True, False, False]
    assert reads_net("guided:4") and reads_tables("guided:4")
    for bad in ("guided:8:top-0", "guided:8:top-13", "guided:8:top-x"):
        with pytest.raises(SmearError, match="guided:K:top-N needs N, the trump-and-keep candidates searched"):
            parse_policy(bad)
    with pytest.raises(SmearError, match="or top-N"):
        parse_policy("guided:8:fast")
    with pytest.raises(SmearError, match="not a part expert can leave out"):
        parse_policy("expert:8:top-3")
