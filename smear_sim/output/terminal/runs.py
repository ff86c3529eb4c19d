"""Renderers for runs of many hands or games: simulations, matches, tournaments and the bench."""

from __future__ import annotations

from rich import box
from rich.table import Table

from ...core import layout as L
from ..format import (
    estimate_text,
    score_text,
    tournament_cells,
)
from .console import console


def print_simulation(result, title: str | None = None) -> None:
    out = console()
    data = result.to_json()
    timing = data["timing"]
    if title is None:
        out.print(
            f"[bold]{result.hands:,} hands[/], seed {result.seed}, team 0 {result.policies[0]} vs team 1 "
            f"{result.policies[1]}; {timing['threads']} threads, {timing['hands_per_s']:,} hands/s"
        )
    else:
        out.print(f"[bold]{title}[/]")
    if result.rules.changed():
        out.print(f"Rules: {result.rules.summary()}")

    bids = Table(title="Winning bids", box=box.SIMPLE)
    for name in ("bid", "hands", "share", "made"):
        bids.add_column(name, justify="right")
    for row in data["bids"]:
        bids.add_row(str(row["bid"]), f"{row['count']:,}", estimate_text(row["share"], row["share_se"], True),
                     estimate_text(row["made"], row["made_se"], True))
    if data["thrown_in"]:
        bids.add_row("all pass", f"{data['thrown_in']:,}", "", "")
    out.print(bids)

    teams = Table(title="Teams (per hand)", box=box.SIMPLE)
    for name in ("team", "policy", "points won", "score change", "auctions won", "moons (made/tried)"):
        teams.add_column(name, justify="right")
    for row in data["teams"]:
        teams.add_row(str(row["team"]), row["policy"], estimate_text(row["mean_points"], row["mean_points_se"]),
                      estimate_text(row["mean_score"], row["mean_score_se"]),
                      estimate_text(row["bids_won"], row["bids_won_se"], True),
                      f"{row['moon_successes']:,}/{row['moon_attempts']:,}")
    out.print(teams)

    awards = Table(title="Who wins each point", box=box.SIMPLE)
    for name in ("point", "bidding team", "other team", "nobody"):
        awards.add_column(name, justify="right")
    for point, row in data["awards"].items():
        awards.add_row(point.replace("_", " "), *(estimate_text(row[who], row[f"{who}_se"], True)
                                                   for who in ("bidding_team", "other_team", "nobody")))
    out.print(awards)
    moon = data["moon"]
    if moon["attempts"]:
        out.print(f"Moon: {moon['attempts']:,} attempts, "
                  f"{estimate_text(moon['success_rate'], moon['success_rate_se'], True)} succeeded.")
    else:
        out.print("Moon: never attempted.")
    margin = data["margin_team0"]
    out.print(f"Team 0 minus team 1, score per hand: {estimate_text(margin['mean'], margin['mean_se'])}.  "
              f"Misdeals redealt: {data['misdeals']:,}.")


def print_game_simulation(result) -> None:
    """Complete games: who won, how long games last, then the hands of every game as for hands."""
    out = console()
    data = result.to_json()
    a, b = result.start_scores
    out.print(f"[bold]{result.games:,} games[/] from {score_text(a, b)}, seat {result.dealer} dealing first, seed {result.seed}, "
              f"team 0 {result.policies[0]} vs team 1 {result.policies[1]}; {data['timing']['threads']} threads, "
              f"{data['timing']['games_per_s']:,} games/s")
    table = Table(title="Games", box=box.SIMPLE)
    for name in ("team", "policy", "games won", "win rate"):
        table.add_column(name, justify="right")
    for team in range(2):
        table.add_row(str(team), result.policies[team], f"{data['wins'][team]:,}",
                      estimate_text(result.win_rate(team).value, result.win_rate(team).se, True))
    out.print(table)
    out.print(f"Hands per game: {result.hands_per_game} (thrown-in hands included, misdeals not).")
    if data["unfinished"]:
        out.print(f"[yellow]{data['unfinished']:,} games had no winner after {L.MAX_DEALS:,} hands and were "
                  "stopped[/]: these policies can lose points for ever under these rules.")
    print_simulation(result.hand_summary, title=f"{data['hands']:,} hands in these games")


def print_match(result) -> None:
    out = console()
    out.print(f"[bold]{result.policy_a}[/] vs [bold]{result.policy_b}[/]: {result.deals:,} deals, each played "
              f"twice with the teams swapped (seed {result.seed}).")
    out.print(f"{result.policy_a} gains per hand: score {result.score_margin}, points won {result.points_margin}.")


def print_tournament(result) -> None:
    out = console()
    columns, pairs, ratings = tournament_cells(result)
    table = Table(title=f"Duplicate pairs (seed {result.seed}); margins are A minus B per hand", box=box.SIMPLE)
    for name in columns:
        table.add_column(name, justify="left" if name in ("A", "B") else "right")
    for cells in pairs:
        table.add_row(*cells)
    out.print(table)
    table = Table(title=f"Ratings: {result.rating_basis}", box=box.SIMPLE)
    for name in ("player", "rating", "95% interval"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for cells in ratings:
        table.add_row(*cells)
    out.print(table)


def print_game_match(result) -> None:
    out = console()
    data = result.to_json()
    out.print(f"[bold]{result.policy_a}[/] vs [bold]{result.policy_b}[/]: {result.games:,} deal sequences, each "
              f"played as two complete games from 0–0 with the teams swapped (seed {result.seed}); "
              f"{data['hands']:,} hands.")
    out.print(f"{result.policy_a} won {data['wins']:,} games, {result.policy_b} {data['losses']:,}: "
              f"[bold]{result.policy_a} wins {estimate_text(result.win_rate.value, result.win_rate.se, True)}[/] "
              "of the games.")
    out.print(f"{result.policy_a} gains per hand: points won {result.points_margin}, score {result.score_margin}.")
    if data["unfinished"]:
        out.print(f"[yellow]{data['unfinished']:,} games had no winner after {L.MAX_DEALS:,} hands and were "
                  "stopped[/]; each counts half a win to both.")


def print_openspiel_match(data: dict, rules) -> None:
    """A match at the OpenSpiel game (``smear_sim.openspiel.match``), from its JSON, under ``rules``."""
    out = console()
    a, b = data["a"], data["b"]

    def text(estimate: dict, percent: bool = False) -> str:  # one deal or one pair has no standard error
        se = estimate["mean_se"]
        return estimate_text(estimate["mean"], float("nan") if se is None else se, percent)

    if data["deals"]:
        out.print(f"[bold]{a}[/] vs [bold]{b}[/] at the OpenSpiel game: {data['deals']:,} deals, each played twice "
                  f"with the teams swapped (seed {data['seed']}).")
        out.print(f"{a} gains per hand: score {text(data['score_margin'])}, points won {text(data['points_margin'])}.")
    if data["games"]:
        out.print(f"[bold]{a}[/] vs [bold]{b}[/] at the OpenSpiel game: {data['games']:,} deal sequences, each "
                  f"played as two complete games from 0–0 with the teams swapped (seed {data['seed']}); "
                  f"{data['hands_in_games']:,} hands.")
        out.print(f"[bold]{a} wins {text(data['win_rate'], True)}[/] of the games.")
    seconds = data["seconds_per_decision"]
    out.print("Time per decision: " + ", ".join(
        f"{name} {1000 * seconds[side]:,.1f} ms ({data['decisions'][side]:,} decisions)"
        for side, name in (("a", a), ("b", b)) if seconds[side] is not None) + ".")
    if rules.changed():
        out.print(f"Rules: {rules.summary()}")


def print_bench(figures: dict) -> None:
    out = console()
    table = Table(title=f"Throughput on {figures['threads']} threads (median of {figures['repeats']} runs)",
                  box=box.SIMPLE)
    for name in ("measure", "hands/s", "vs deal-only", "1 thread", "speed-up"):
        table.add_column(name, justify="right")
    table.add_row("deal only", f"{figures['deal_only_per_s']:,}", "1", "", "")
    for policy, row in figures["policies"].items():
        table.add_row(f"full hands, {policy}", f"{row['full_hand_per_s']:,}", f"{row['ratio_to_deal_only']:.3f}",
                      f"{row['full_hand_per_s_single']:,}", f"{row['thread_speedup']:.2f}x")
    out.print(table)
    out.print(f"Complete games, {figures['policy']}: {figures['full_game_per_s']:,} games/s of "
              f"{figures['hands_per_game']:.2f} hands each from 0–0, so "
              f"{figures['full_game_per_s'] * figures['hands_per_game']:,.0f} hands/s: "
              f"{figures['game_hand_ratio']:.2f} of the full-hand rate.")
    for name in ("pimc", "expert"):
        if f"{name}_hand_per_s" in figures:
            out.print(f"Search, {name}:16 against heuristic: {figures[f'{name}_hand_per_s']:,.1f} hands/s "
                      f"({figures['search_hands_per_run']:,} hands a run).")
    if figures.get("net_hand_per_s") is not None:
        out.print(f"Learned player, net against heuristic: {figures['net_hand_per_s']:,.1f} hands/s.")
