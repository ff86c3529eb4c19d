"""Search players as the practice table's bots (web/practice.py, analysis/bots.py): ``expert`` calls as ``equity``,
searches its trump, keeps and cards on worlds that read the auction, and every action it takes is legal."""

from __future__ import annotations

from smear_sim.core.rules import Rules
from smear_sim.web.practice import Table, bot_cost, hint_policy


def test_expert_bots_play_legal_hands_through_the_table():
    """Three expert:2 bots and a person who always takes the first legal action: the hand ends, every bot action is
    one the reference engine accepted (Table applies it through the rules), and the bidder's trump and keep were
    the search's."""
    for seed, seat in ((3, 0), (8, 2)):
        table = Table("t", seat, "expert:2", seed, Rules())
        moves = []
        while not table.hand_over:
            state = table.state()
            if state["turn"]["yours"]:
                table.act(state["legal"][0])
            else:
                moves.append(table.bot_step())
        assert {m["decision"] for m in moves} >= {"call", "card"}
        assert table.state()["result"] is not None


def test_a_search_bot_says_what_it_costs_and_hints_model_its_fast_twin():
    assert "search player" in bot_cost("expert:8") and "search player" in bot_cost("pimc:8")
    assert hint_policy("expert:8") == "equity" and hint_policy("pimc:8") == "heuristic"
    assert hint_policy("count") == "count"


def test_the_tables_bots_come_from_the_player_registry():
    """The bots offered first, the search bots and what a hint models are read off core.players.PLAYERS."""
    from smear_sim.core.players import PLAYERS
    from smear_sim.web.practice import BOT_PLAYERS, SEARCH_BOTS

    assert BOT_PLAYERS == tuple(p.name for p in PLAYERS if p.bot) == ("heuristic", "equity", "count", "net")
    assert set(SEARCH_BOTS) == {"pimc", "expert", "guided"}  # oracle searches too, but sees every hand: no fair seat
    for p in PLAYERS:
        if p.fast or p.name in SEARCH_BOTS:
            bots = p.name if p.parameter is None else f"{p.name}:4"
            assert hint_policy(bots) == (bots if p.fast else p.twin)
