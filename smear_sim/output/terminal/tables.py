"""Renderers for the tables: match equity, what to call by position, the bid table and the moon table."""

from __future__ import annotations

from rich import box
from rich.table import Table

from ..format import (
    RULES_DOC,
    STANDING_HELP,
    STRENGTH_HELP,
    bid_table_columns,
    call_charts,
    estimate_text,
    feature_legend,
    moon_game_columns,
    moon_table_columns,
    rules_label,
    score_text,
)
from .console import console, estimate_pair, fitted_table


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
    out.print(f"At 0–0: {estimate_text(*estimate_pair(table.win(0, 0, 'them')), True)} when they deal, "
              f"{estimate_text(*estimate_pair(table.win(0, 0, 'us')), True)} when you deal. Standard errors at most "
              f"{100 * worst:.2g}%; --json gives every state from {table.floor} with its SE.")
    out.print(f"Scores below {table.solve_floor} are held at {table.solve_floor}: that changes no value by more "
              f"than {table.truncation_bound:.1g} (the chance of ever falling that low from {table.floor} or more).")


def print_position_table(frame) -> None:
    """The call to make by place in the auction: one chart per place, hand strengths down, standing calls across."""
    out = console()
    meta = frame.attrs
    us, them = meta["score"]
    out.print(f"[bold]What to call[/], by place in the auction: {meta['deals']:,} deals, seed {meta['seed']}, "
              f"{meta['policy']} at all four seats, {rules_label(meta['rules'])}; the call most likely to win the game "
              f"at {score_text(us, them)}.")
    for chart in call_charts(frame.to_dict("records")):
        table = Table(title=f"The {chart.place}", box=box.SIMPLE, padding=(0, 1))
        table.add_column("strength", justify="right")
        for standing in chart.standings:
            table.add_column(standing, justify="center")
        for label, row in zip(chart.strengths, chart.cells, strict=True):
            table.add_row(label, *row)
        out.print(table)
    out.print(f"Strength: {STRENGTH_HELP}. Columns: {STANDING_HELP}. · : fewer than {meta['min_count']:,} hands.")


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
    bids = rules.bids()
    drop_order = ["moon", *(f"make{b}" for b in reversed(bids[1:])), "points", f"make{rules.min_bid}", "hands"]
    caption = (f"Hands classed by their class suit ({RULES_DOC}); {feature_legend(by)}. x(y): y is the standard "
               "error in the last digit shown; make in %. Up to: the highest bid with EV ≥ 0.")
    out.print(fitted_table(columns, view.to_dict("records"), out.width, drop_order,
                            title=f"The {len(view)} most common groups", caption=caption,
                            order="the highest bids go first, then points and the lowest bid"))


def print_moon_table(frame, table, show: int) -> None:
    out = console()
    by = frame.attrs["by"]
    score = frame.attrs.get("score")
    reliable = frame[frame["reliable"]]
    pays = reliable[reliable["moon_pays_game" if score else "moon_pays"]]
    share = pays["hands"].sum() / table.hands
    how = (f"P(win the game) at {score_text(*score)}, they deal" if score else
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
    out.print(fitted_table(columns, reliable.head(show).to_dict("records"), out.width, drop,
                            title=f"Best {min(show, len(reliable))} classes for the moon", caption=caption,
                            order=order))
