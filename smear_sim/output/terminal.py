"""Rich tables for people: the human face of each command's result."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator, Sequence

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from ..core import layout as L
from ..core.cards import SUIT_NAMES, card_name
from ..core.rules import OPTION_HELP, Rules, format_value
from ..engine.runner import Progress
from ..reference.hand import HandResult, team_of
from ..reference.record import HandRecord
from .format import (
    RULES_DOC,
    STANDING_HELP,
    STRENGTH_HELP,
    Column,
    bid_table_columns,
    call_charts,
    estimate_text,
    feature_legend,
    moon_game_columns,
    moon_table_columns,
    rules_label,
    suit_label,
    tournament_cells,
)


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """Raise the error for the command line to report, where rich would exit quietly with status 1."""
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def console() -> Console:
    return _Console(highlight=False)


def _team(team: int | None) -> str:
    return "nobody" if team is None else f"team {team}"


def print_rules(rules: Rules) -> None:
    table = Table(title="Active rule options", box=box.SIMPLE_HEAVY)
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("default", style="dim")
    table.add_column("meaning")
    default = Rules().as_dict()
    for name, value in rules.as_dict().items():
        shown = format_value(value)
        if value != default[name]:
            shown = f"[yellow]{shown}[/]"
        table.add_row(name, shown, format_value(default[name]), OPTION_HELP[name])
    out = console()
    out.print(table)
    out.print(f"Points at stake per hand: {rules.max_points}. Change options with --rule KEY=VALUE or --rules "
              f"FILE.toml; {RULES_DOC} states every rule.")


def print_score(record: HandRecord, result: HandResult) -> None:
    out = console()
    if record.rules.changed():
        out.print(f"Rules: {record.rules.summary()}")
    out.print(f"Dealer: seat {record.dealer}.  Auction: " + ", ".join(str(b) for b in record.bids))
    if result.bidder is None:
        out.print("All four passed: the hand is thrown in. Scores stay "
                  f"{result.scores_after[0]}–{result.scores_after[1]}.")
        return
    out.print(
        f"Bidder: seat {result.bidder} (team {result.bidding_team}) bid {result.bid}; "
        f"trump {suit_label(result.trump)}."
    )
    tricks = Table(title="Tricks", box=box.SIMPLE)
    tricks.add_column("#", justify="right")
    tricks.add_column("leader", justify="right")
    tricks.add_column("cards (in play order)")
    tricks.add_column("won by")
    for number, trick in enumerate(result.tricks, 1):
        cards = "  ".join(
            f"[bold]{card_name(c)}[/]" if trick.seat_of(i) == trick.winner else card_name(c)
            for i, c in enumerate(trick.cards)
        )
        tricks.add_row(str(number), f"seat {trick.leader}", cards,
                       f"seat {trick.winner} (team {team_of(trick.winner)})")
    out.print(tricks)

    awards = Table(title="Points", box=box.SIMPLE)
    awards.add_column("point")
    awards.add_column("won by")
    for point, team in result.awards.items():
        awards.add_row(point.replace("_", " "), _team(team))
    awards.add_row("card points", f"team 0 {result.card_points[0]} – team 1 {result.card_points[1]}")
    out.print(awards)

    if result.moon is not None:
        verdict = "succeeded" if result.moon else "failed"
        out.print(f"Moon {verdict}.")
    else:
        verdict = "made" if result.made else "was set on"
        out.print(f"Team {result.bidding_team} {verdict} its bid of {result.bid} "
                  f"with {result.points[result.bidding_team]} points.")
    before, after = result.scores_before, result.scores_after
    out.print(
        f"Points won: team 0 {result.points[0]}, team 1 {result.points[1]}.  "
        f"Score: {before[0]}–{before[1]} → {after[0]}–{after[1]} "
        f"(change {result.score_delta[0]:+d}, {result.score_delta[1]:+d})."
    )
    if result.winner is not None:
        out.print(f"[bold]Team {result.winner} wins the game.[/]")


def print_game_score(record, result) -> None:
    """A game record: one row per deal, then the scores and the winner."""
    out = console()
    if record.rules.changed():
        out.print(f"Rules: {record.rules.summary()}")
    start = result.start
    out.print(f"Game from {start.scores[0]}–{start.scores[1]}, seat {start.dealer} dealing first; target "
              f"{record.rules.target}.")
    table = Table(title="Deals", box=box.SIMPLE, padding=(0, 1, 0, 0), caption="auction: the calls from the "
                  "opener on (p = pass); bidder: seat (bid); points, change and score: team 0–team 1")
    for name in ("#", "dealer", "auction", "bidder", "trump", "points", "result", "change", "score"):
        table.add_column(name, justify="left" if name in ("auction", "result") else "right", no_wrap=True)
    for number, (deal, hand) in enumerate(zip(record.deals, result.deals, strict=True), 1):
        calls = " ".join("p" if b == "pass" else str(b) for b in deal.bids)
        score = f"{hand.scores_after[0]}–{hand.scores_after[1]}"
        if hand.bidder is None:
            table.add_row(str(number), str(deal.dealer), calls, "", "", "", "thrown in", "+0 +0", score)
            continue
        if hand.moon is not None:
            verdict = "moon made" if hand.moon else "moon failed"
        else:
            verdict = "made" if hand.made else "set"
        table.add_row(str(number), str(deal.dealer), calls, f"{hand.bidder} ({hand.bid})", SUIT_NAMES[hand.trump],
                      f"{hand.points[0]}–{hand.points[1]}", verdict,
                      f"{hand.score_delta[0]:+d} {hand.score_delta[1]:+d}", score)
    out.print(table)
    after = result.scores_after
    if result.winner is None:
        out.print(f"Game in progress after {result.hands_played} hands: {after[0]}–{after[1]}.")
    else:
        out.print(f"[bold]Team {result.winner} wins the game[/] after {result.hands_played} hands, "
                  f"{after[0]}–{after[1]}.")


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
    out.print(f"[bold]{result.games:,} games[/] from {a}–{b}, seat {result.dealer} dealing first, seed {result.seed}, "
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


def print_equity(table) -> None:
    """The match-equity table for people: P(win) in percent on the grid from 0 (or the floor) to the target."""
    out = console()
    rules = table.rules
    out.print(f"[bold]Match equity[/]: P(the team at 'us' wins the game), target {table.target}, policy "
              f"{table.policy}, {table.hands:,} hands, seed {table.outcomes.seed}"
              + (f", rules: {rules.summary()}" if rules.changed() else "") + ".")
    lo = max(table.floor, 0)
    columns = list(range(lo, table.target))
    fit = max(1, (out.width - 4) // 4)  # 3 digits and a space per column
    if len(columns) > fit:  # a narrow terminal: every other score (and the last)
        step = -(-len(columns) // fit)
        columns = sorted(set(columns[::step]) | {table.target - 1})
    for dealer in ("them", "us"):
        grid = Table(title=f"P(win) %, '{dealer}' dealing the next hand: 'us' down, 'them' across",
                     box=None, padding=(0, 0, 0, 1))
        grid.add_column("us", justify="right", style="bold")
        for them in columns:
            grid.add_column(str(them), justify="right", min_width=3)
        for us in reversed(columns):
            grid.add_row(str(us), *(f"{100 * table.win(us, them, dealer).value:.0f}" for them in columns))
        out.print(grid)
    worst = table.win_se_grid[:, table.floor - table.solve_floor:, table.floor - table.solve_floor:].max()
    out.print(f"At 0–0: {estimate_text(*_pair(table.win(0, 0, 'them')), True)} when they deal, "
              f"{estimate_text(*_pair(table.win(0, 0, 'us')), True)} when you deal. Standard errors at most "
              f"{100 * worst:.2g}%; --json gives every state from {table.floor} with its SE.")
    out.print(f"Scores below {table.solve_floor} are held at {table.solve_floor}: that changes no value by more "
              f"than {table.truncation_bound:.1g} (the chance of ever falling that low from {table.floor} or more).")


def _pair(estimate) -> tuple[float, float]:
    return estimate.value, estimate.se


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


def print_solve(result) -> None:
    out = console()
    if result.to_play is None:
        out.print(f"All 24 cards are played: the hand is worth [bold]{result.value:+d}[/] to the bidding team.")
        return
    out.print(f"Seat {result.to_play} to play. With every hand visible and perfect play, the position is worth "
              f"[bold]{result.value:+d}[/] to the bidding team (its score change minus the other team's).")
    table = Table(box=box.SIMPLE)
    table.add_column("card")
    table.add_column("value", justify="right")
    for c, value in sorted(result.cards, key=lambda cv: -cv[1]):
        table.add_row(card_name(c), f"{value:+d}")
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


def print_hand(analysis) -> None:
    out = console()
    data = analysis.to_json()
    rules = analysis.rules
    out.print(f"[bold]{' '.join(data['hand'])}[/] as bidder: {analysis.samples:,} deals, seed {analysis.seed}, "
              f"{analysis.policy} play" + (" (stopped at the requested precision)"
                                           if analysis.stopped_by == "precision" else ""))
    if rules.changed():
        out.print(f"Rules: {rules.summary()}")
    if data["trump"]["fixed"]:
        out.print(f"Trump fixed: {suit_label(data['trump']['fixed'])}")
    else:
        shares = sorted(data["trump"]["chosen"].items(), key=lambda kv: -kv[1])
        out.print("Trump chosen after the kitty: " + ", ".join(
            f"{suit_label(s)} {100 * p:.1f}%" for s, p in shares if p > 0))
    e = analysis.estimates
    out.print(f"Points won by your team: [bold]{analysis.mean_points}[/] (of {rules.max_points})")

    dist = Table(title="Points won", box=box.SIMPLE)
    dist.add_column("points", justify="right")
    dist.add_column("probability", justify="right")
    for k, (p, se) in enumerate(zip(e.distribution.value[0], e.distribution.se[0], strict=True)):
        dist.add_row(str(k), estimate_text(p, se, True))
    awards = Table(title="Your team wins", box=box.SIMPLE)
    awards.add_column("point")
    awards.add_column("probability", justify="right")
    for i, name in enumerate(data["awards"]):
        awards.add_row(name.replace("_", " "), estimate_text(e.awards.value[0, i], e.awards.se[0, i], True))
    game = analysis.game
    bids = Table(title="Bids", box=box.SIMPLE)
    for name in ("bid", "P(make)", "EV") + (("P(win game)",) if game is not None else ()):
        bids.add_column(name, justify="right")
    for column, b in enumerate(e.bids):
        cells = [str(b), estimate_text(e.make.value[0, column], e.make.se[0, column], True),
                 estimate_text(e.ev.value[0, column], e.ev.se[0, column])]
        if game is not None:
            cells.append(estimate_text(game.win[0, column], game.win_se[0, column], True))
        bids.add_row(*cells)
    if rules.moon:
        cells = ["moon", estimate_text(e.moon.value[0], e.moon.se[0], True), estimate_text(e.moon_ev.value[0], e.moon_ev.se[0]) + " *"]
        if game is not None:
            cells.append(estimate_text(game.win[0, -1], game.win_se[0, -1], True))
        bids.add_row(*cells)
    from rich.columns import Columns

    out.print(Columns([dist, awards, bids]))
    out.print("EV: your team's hand score minus the opponents' points." +
              (f" * A moon decides the game: a win counts +{rules.target}, a loss -{rules.target}." if rules.moon
               else ""))
    up_to = analysis.bid_up_to
    out.print(f"Recommended bid (highest EV): [bold]{analysis.recommended_bid}[/]. " + (
        f"Worth bidding up to [bold]{up_to}[/] (the highest bid with EV ≥ 0) if the auction demands it."
        if up_to else "No bid has EV ≥ 0: pass if the rules let you."))
    if rules.moon:
        verdict = "pays" if data["moon"]["pays"] else "does not pay"
        out.print(f"Shooting the moon {verdict}: it succeeds {estimate_text(e.moon.value[0], e.moon.se[0], True)}"
                  f" of the time.")
    if game is not None:
        summary = data["game"]
        us, them = analysis.score
        out.print(f"At {us}–{them} (they deal this hand): P(win the game) is highest bidding "
                  f"[bold]{summary['best_bid']}[/]." + (
                      f" The moon would need to succeed {estimate_text(summary['moon_break_even'], summary['moon_break_even_se'], True)}"
                      f" of the time to do as well, so it {'pays' if summary['moon_pays'] else 'does not pay'} here."
                      if rules.moon else ""))


PLACE_WORDS = ("the opener", "second to call", "third to call", "the dealer")


def call_word(call) -> str:
    return "pass" if call == "pass" else "shoot the moon" if call == "moon" else f"bid {call}"


def print_auction(analysis, declarer=None) -> None:
    """Every legal call at the seat's turn, and the advice in one line: what to call and by how much it beats the
    next best call. ``declarer``, the unopposed analysis of the same hand, adds its "bid up to" for comparison."""
    out = console()
    data = analysis.to_json()
    before = ", ".join(str(c) for c in data["auction"]["before"]) or "none: you call first"
    us, them = analysis.score
    acceptance = analysis.acceptance
    out.print(f"[bold]{' '.join(card_name(c) for c in analysis.hand)}[/], {PLACE_WORDS[analysis.position - 1]} "
              f"(place {analysis.position} of 4) at {us}–{them}; calls before you: {before}.")
    out.print(f"{analysis.samples:,} deals of the other cards fit those calls under {analysis.policy} bidding, of "
              f"{analysis.deals:,} tried ({estimate_text(acceptance.value, acceptance.se, True)}); seed "
              f"{analysis.seed}" + (", stopped at the requested precision" if analysis.stopped_by == "precision"
                                    else "") + ".")
    if analysis.stopped_by == "max-deals":
        out.print("[yellow]--max-deals ran out before the requested samples or precision[/]: the figures below rest "
                  "on fewer deals.")
    table = Table(title="Your calls", box=box.SIMPLE)
    for name in ("call", "P(win game)", "EV", "you declare", "P(make)"):
        table.add_column(name, justify="right")
    best = analysis.ranked[0] if analysis.estimates else None
    for call, e in analysis.estimates.items():
        make = e.get("make")
        name = "pass" if call == L.PASS else "moon" if call == L.MOON else str(call)
        cells = [name,
                 estimate_text(e["win"].value, e["win"].se, True), estimate_text(e["ev"].value, e["ev"].se),
                 estimate_text(e["declares"].value, e["declares"].se, True) if call else "",
                 estimate_text(make.value, make.se, True) if make else ""]
        table.add_row(*(f"[bold]{c}[/]" for c in cells) if call == best else cells)
    out.print(table)
    out.print("EV: your team's hand score minus the opponents', whoever bids (a moon counts the game it decides, "
              f"±{analysis.rules.target}). P(win game) follows each deal to the score it leaves (the match-equity "
              "table).")
    advice = data["advice"]
    if advice is None:
        out.print(f"Your only legal call: [bold]{call_word(data['recommended_call'])}[/].")
    else:
        win = estimate_text(advice["win_gain"], advice["win_gain_se"], True)
        ev = estimate_text(advice["ev_gain"], advice["ev_gain_se"])
        out.print(f"[bold]Advice: {call_word(advice['call'])}.[/] It wins {win} more games than "
                  f"{call_word(advice['next_best'])}, the next best call, and {ev} points a hand more (paired on the "
                  "same deals).")
    if declarer is not None:
        up_to = declarer.bid_up_to
        out.print("The declarer's view (you win the auction unopposed, passing worth nothing): " + (
            f"bid up to {up_to}." if up_to else "no bid has EV ≥ 0."))


def print_position_table(frame) -> None:
    """The call to make by place in the auction: one chart per place, hand strengths down, standing calls across."""
    out = console()
    meta = frame.attrs
    us, them = meta["score"]
    out.print(f"[bold]What to call[/], by place in the auction: {meta['deals']:,} deals, seed {meta['seed']}, "
              f"{meta['policy']} at all four seats, {rules_label(meta['rules'])}; the call most likely to win the game "
              f"at {us}–{them}.")
    for chart in call_charts(frame.to_dict("records")):
        table = Table(title=f"The {chart.place}", box=box.SIMPLE, padding=(0, 1))
        table.add_column("strength", justify="right")
        for standing in chart.standings:
            table.add_column(standing, justify="center")
        for label, row in zip(chart.strengths, chart.cells, strict=True):
            table.add_row(label, *row)
        out.print(table)
    out.print(f"Strength: {STRENGTH_HELP}. Columns: {STANDING_HELP}. · : fewer than {meta['min_count']:,} hands.")


def _fitted_table(columns: Sequence[Column], rows: Sequence[dict], width: int, drop_order: Sequence[str], *,
                  title: str, caption: str, order: str) -> Table:
    """A table no wider than ``width``, whose numbers are never cut: the columns named in ``drop_order`` leave
    in that order until it fits (the caption names them and ``order`` says which go first), and if it still
    does not fit, cells wrap."""
    cells = [{c.key: c.text(row, concise=True) for c in columns} for row in rows]

    def build(kept: Sequence[Column], wrap: bool = False, note: str = "") -> Table:
        table = Table(box=box.SIMPLE, padding=(0, 0), title=title, caption=caption + note, caption_justify="left")
        for column in kept:
            table.add_column(column.short, justify="right", no_wrap=not wrap, overflow="fold")
        for row in cells:
            table.add_row(*(row[c.key] for c in kept))
        return table

    measure = Console(width=1 << 20)

    def fits(table: Table) -> bool:
        return Measurement.get(measure, measure.options, table).maximum <= width

    kept = list(columns)
    dropped = []
    for key in drop_order:
        if fits(build(kept)):
            break
        if any(c.key == key for c in kept):
            kept = [c for c in kept if c.key != key]
            dropped.append(next(c.short for c in columns if c.key == key))
    note = (f" Left out to fit the terminal: {', '.join(dropped)} ({order}); --json and the CSV have them all."
            if dropped else "")
    return build(kept, wrap=not fits(build(kept)), note=note)


def print_bid_table(frame, table, show: int) -> None:
    out = console()
    rules = table.rules
    n_reliable = int(frame["reliable"].sum())
    out.print(f"[bold]Bid table[/]: {table.hands:,} hands, seed {table.seed}, policy {table.policy}, "
              f"{rules_label(rules)}, {len(frame)} groups by {','.join(frame.attrs['by'])} ({n_reliable} with at "
              f"least {frame.attrs['min_count']} hands).")
    if not show:
        return
    by = frame.attrs["by"]
    view = frame[frame["reliable"]].sort_values("hands", ascending=False).head(show)
    # Under moon_requires=all the moon needs every point: its rate is P(make M), already shown.
    show_moon = rules.moon and rules.moon_requires == "in_play"
    columns = [c for c in bid_table_columns(by, rules)
               if not c.key.startswith("ev") and (c.key != "moon" or show_moon)]
    bids = range(rules.min_bid, rules.max_points + 1)
    drop_order = ["moon", *(f"make{b}" for b in reversed(bids[1:])), "points", f"make{rules.min_bid}", "hands"]
    caption = (f"Hands classed by their class suit ({RULES_DOC}); {feature_legend(by)}. x(y): y is the standard "
               "error in the last digit shown; make in %. Up to: the highest bid with EV ≥ 0.")
    out.print(_fitted_table(columns, view.to_dict("records"), out.width, drop_order,
                            title=f"The {len(view)} most common groups", caption=caption,
                            order="the highest bids go first, then points and the lowest bid"))


def print_moon_table(frame, table, show: int) -> None:
    out = console()
    by = frame.attrs["by"]
    score = frame.attrs.get("score")
    reliable = frame[frame["reliable"]]
    pays = reliable[reliable["moon_pays_game" if score else "moon_pays"]]
    share = pays["hands"].sum() / table.hands
    how = (f"P(win the game) at {score[0]}–{score[1]}, they deal" if score else
           f"A won game counts +{table.rules.target} points, a lost one -{table.rules.target}")
    out.print(f"[bold]Shooting the moon[/]: {table.hands:,} hands, seed {table.seed}, policy {table.policy}. {how}.")
    out.print(f"The moon pays for {len(pays)} of {len(reliable)} hand classes with at least "
              f"{frame.attrs['min_count']} hands: {100 * share:.2g}% of all hands.")
    if score:
        columns = moon_game_columns(by)
        caption = (f"Hands classed by their class suit ({RULES_DOC}); {feature_legend(by)}. x(y): y is the standard "
                   "error in the last digit shown. P(win) of the moon and of the best numeric bid at this score; "
                   "break-even: the moon success rate at which they are equal.")
        drop = ["best_bid_win", "moon_win", "hands"]
        order = "the P(win) columns go first"
    else:
        columns = moon_table_columns(by)
        caption = (f"Hands classed by their class suit ({RULES_DOC}); {feature_legend(by)}. x(y): y is the standard "
                   "error in the last digit shown. Gain: moon EV minus the best numeric bid's EV.")
        drop = ["best_numeric_ev", "moon_ev", "moon_gain", "hands"]
        order = "the EVs go first, the gain last"
    out.print(_fitted_table(columns, reliable.head(show).to_dict("records"), out.width, drop,
                            title=f"Best {min(show, len(reliable))} classes for the moon", caption=caption,
                            order=order))


def print_hand_moon(analysis) -> None:
    out = console()
    e = analysis.estimates
    rules = analysis.rules
    out.print(f"[bold]{' '.join(card_name(c) for c in analysis.hand)}[/]: {analysis.samples:,} deals, "
              f"seed {analysis.seed}.")
    out.print(f"The moon succeeds {estimate_text(e.moon.value[0], e.moon.se[0], True)} of the time "
              f"(needs {'every point' if rules.moon_requires == 'all' else 'every point someone wins'}).")
    out.print(f"In points: moon EV {e.moon_ev[0]} (a won game +{rules.target}, a lost one -{rules.target}) against "
              f"{e.best_numeric_ev[0]} for bidding {rules.min_bid}: the moon "
              f"{'pays' if analysis.moon_pays else 'does not pay'} ({e.moon_gain[0]} points).")
    game = analysis.game
    if game is not None:
        us, them = analysis.score
        best, best_se = game.best_numeric()
        break_even, break_even_se = game.moon_break_even()
        after = game.moon_success_win
        success = "wins the game" if after.value == 1 else f"resets you to 0 (then P(win) {estimate_text(*_pair(after), True)})"
        verdict = "pays" if game.win[0, -1] > best[0] else "does not pay"
        out.print(f"In games at {us}–{them} (they deal): a success {success}, a failure loses. Shooting wins "
                  f"{estimate_text(game.win[0, -1], game.win_se[0, -1], True)} of games, the best numeric bid "
                  f"{estimate_text(best[0], best_se[0], True)}: the moon breaks even at a success rate of "
                  f"{estimate_text(break_even[0], break_even_se[0], True)}, so it {verdict} here.")


@contextlib.contextmanager
def progress_bar(total: int, description: str, enabled: bool = True) -> Iterator[Progress | None]:
    """A rich progress bar on standard error, fed with the hands done; None when disabled."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Bar(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done: bar.advance(task, done)
