"""The ``smear-sim`` command line.

Each command validates its options, makes one library call and renders the result, as a rich table for
people or JSON with ``--json``. Heavy modules (NumPy, Numba, pandas, matplotlib) are imported inside the
commands, so ``smear-sim --help`` stays fast. Bad input ends with one line on standard error and exit
status 2, never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from .errors import SmearError

try:  # typer >= 0.20 vendors click and exposes its exception base here
    from typer import TyperException as _CliError
except ImportError:  # pragma: no cover - older typer on top of click
    from click import ClickException as _CliError

app = typer.Typer(
    name="smear-sim",
    help="Monte Carlo strategy analyzer for the card game Smear: what a hand is worth, what to bid, "
    "and when shooting the moon pays.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)

# -- options shared by every command that simulates or scores ------------------------------------------

RulesFile = Annotated[
    Path | None,
    typer.Option("--rules", metavar="FILE.toml", help="House rules: a TOML file of rule options.",
                 rich_help_panel="Rules"),
]
RuleOverrides = Annotated[
    list[str] | None,
    typer.Option("--rule", metavar="KEY=VALUE", help="Set one rule option (repeatable; overrides --rules), "
                 "e.g. --rule round_points=true. See 'smear-sim rules'.", rich_help_panel="Rules"),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]


def _clean_errors(command):
    """Turn bad input (:class:`SmearError`) into one line on stderr and exit status 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except SmearError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(code=2) from None

    return wrapper


def _rules(rules_file: Path | None, overrides: list[str] | None):
    from .rules import load_rules

    return load_rules(rules_file, overrides or ())


def _records(frame) -> list[dict]:
    """A table's rows as plain JSON objects (the top trump as its name)."""
    return json.loads(frame.astype({"top": str} if "top" in frame else {}).to_json(orient="records"))


def _print_json(obj) -> None:
    typer.echo(json.dumps(obj, indent=2))


# -- commands -------------------------------------------------------------------------------------------


@app.command()
@_clean_errors
def score(
    record: Annotated[str, typer.Argument(metavar="RECORD", help="Hand record JSON file, or - for standard input.")],
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    json_output: JsonFlag = False,
) -> None:
    """Check a hand record against the rules and score it.

    The record's own "rules" apply (INTERFACES.md); --rules and --rule set the options it leaves out, and
    an option set differently in both is an error. An illegal record exits with status 2 and one line
    naming the first problem.

    [bold]Examples[/bold]

      smear-sim score tests/golden/basic.json --json

      cat hand.json | smear-sim score -
    """
    from .record import load_record, parse_record, replay
    from .rules import rule_settings

    parsed = parse_record(load_record(record), rule_settings(rules_file, rule or ()))
    result = replay(parsed)
    if json_output:
        _print_json(result.to_json())
    else:
        from .render import print_score

        print_score(parsed, result)


@app.command()
@_clean_errors
def rules(
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    toml: Annotated[bool, typer.Option("--toml", help="Print TOML to start a house-rules file from.")] = False,
    json_output: JsonFlag = False,
) -> None:
    """Show the active rule options (after --rules and --rule).

    [bold]Examples[/bold]

      smear-sim rules

      smear-sim rules --rule round_points=true --toml > house.toml
    """
    active = _rules(rules_file, rule)
    if toml:
        typer.echo(active.to_toml(), nl=False)
    elif json_output:
        _print_json(active.as_dict())
    else:
        from .render import print_rules

        print_rules(active)


Hands = Annotated[int, typer.Option("--hands", "-n", min=1, help="Number of hands to simulate.")]
Seed = Annotated[int, typer.Option("--seed", min=0, help="Seed for every random choice: same seed, same numbers.")]
Threads = Annotated[
    int | None, typer.Option("--threads", min=1, help="Worker threads (default: all cores). Results do not "
                                "depend on it.")
]
PolicyOpt = Annotated[
    str, typer.Option("--policy", metavar="NAME[,NAME]", help="Player policy for both teams, or team 0,team 1: "
                      "heuristic or random.")
]
ChunkSize = Annotated[
    int, typer.Option("--chunk-size", min=1, help="Hands per kernel call (progress granularity). Results do "
                      "not depend on it.", rich_help_panel="Advanced")
]


def _progress(total: int, description: str, enabled: bool):
    from .runtime import progress_bar

    return progress_bar(total, description, enabled and sys.stderr.isatty())


@app.command()
@_clean_errors
def simulate(
    hands: Hands = 1_000_000,
    seed: Seed = 1,
    threads: Threads = None,
    policy: PolicyOpt = "heuristic",
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    trace: Annotated[
        Path | None, typer.Option("--trace", metavar="FILE.jsonl", help="Write full hand records of the "
                                     "first hands, one JSON object per line (INTERFACES.md).")
    ] = None,
    trace_hands: Annotated[int, typer.Option("--trace-hands", min=0, help="How many hands --trace writes.")] = 1000,
    chunk_size: ChunkSize = 1 << 18,
    json_output: JsonFlag = False,
) -> None:
    """Simulate complete hands and summarise bids, make rates, points and moons.

    Each hand is dealt, bid, played and scored under the active rules, from scores 0-0 with the dealer
    rotating. Memory stays flat however many hands you ask for.

    [bold]Examples[/bold]

      smear-sim simulate --hands 1000000

      smear-sim simulate --policy heuristic,random --rule round_points=true --json

      smear-sim simulate --hands 10000 --trace hands.jsonl --trace-hands 100
    """
    from .simulate import simulate as run_simulation
    from .simulate import trace_records, write_trace

    active = _rules(rules_file, rule)
    with _progress(hands, "simulating", hands > 2 * chunk_size) as progress:
        result = run_simulation(hands, seed=seed, rules=active, policies=policy, threads=threads,
                                chunk_size=chunk_size, progress=progress)
    if trace is not None:
        records = trace_records(min(trace_hands, hands), seed=seed, rules=active, policies=policy)
        write_trace(trace, records)
    if json_output:
        _print_json(result.to_json())
    else:
        from .render import print_simulation

        print_simulation(result)
        if trace is not None:
            typer.echo(f"Wrote {min(trace_hands, hands):,} hand records to {trace}")


@app.command()
@_clean_errors
def match(
    policy_a: Annotated[str, typer.Argument(help="First policy.")] = "heuristic",
    policy_b: Annotated[str, typer.Argument(help="Second policy.")] = "random",
    deals: Annotated[int, typer.Option("--deals", min=1, help="Deals; each is played twice.")] = 200_000,
    seed: Seed = 1,
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    json_output: JsonFlag = False,
) -> None:
    """Duplicate match: how many points per hand one policy gains over another.

    Every deal is played twice with the teams swapped, so the luck of the cards cancels and only the
    players' skill remains.

    [bold]Example[/bold]

      smear-sim match heuristic random --deals 500000
    """
    from .simulate import duplicate_match

    active = _rules(rules_file, rule)
    with _progress(deals, "playing deals twice", deals >= 500_000) as progress:
        result = duplicate_match(policy_a, policy_b, deals=deals, seed=seed, rules=active, threads=threads,
                                 progress=progress)
    if json_output:
        _print_json(result.to_json())
    else:
        from .render import print_match

        print_match(result)


@app.command()
@_clean_errors
def bench(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1000, help="Hands per timed run.")] = 1_000_000,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed runs per figure (median).")] = 5,
    threads: Threads = None,
    json_output: JsonFlag = False,
) -> None:
    """Measure dealing and full-hand throughput on this machine (median of repeated runs).

    [bold]Example[/bold]

      smear-sim bench --json
    """
    from .bench import run_bench

    figures = run_bench(hands=hands, deal_hands=4 * hands, repeats=repeats, threads=threads)
    if json_output:
        _print_json(figures)
    else:
        from .render import print_bench

        print_bench(figures)


HandArg = Annotated[str, typer.Argument(metavar="CARDS", help='Nine cards separated by spaces or commas, '
                                         'e.g. "AH KH 2H JD 10C 5S 9S 4D 3C".')]
ByOpt = Annotated[str, typer.Option("--by", metavar="FEATURES", help="Comma-separated hand features to group by: "
                                    "trumps, top, two, jacks, jokers, aces.")]
MinCount = Annotated[int, typer.Option("--min-count", min=1, help="Groups with fewer hands are flagged as "
                                       "imprecise and given no bid.")]


@app.command()
@_clean_errors
def hand(
    cards: HandArg,
    trump: Annotated[str | None, typer.Option("--trump", metavar="S|H|D|C", help="Fix the trump suit "
                                                 "(default: the policy chooses after the kitty).")] = None,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Deals to simulate (default "
                                                   "100,000; with --precision, the most to simulate).")] = None,
    precision: Annotated[float | None, typer.Option("--precision", metavar="SE", help="Stop once the "
                                                       "standard error of the mean points is below SE.")] = None,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats: heuristic or random.")]
    = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE.png", help="Also save the points "
                                                 "distribution chart (PNG or SVG).")] = None,
    json_output: JsonFlag = False,
) -> None:
    """What a 9-card hand is worth as bidder: points, P(make) and EV of every bid, moon, recommended bid.

    The hand is yours and you take the kitty; the other 45 cards are dealt at random (no other player able
    to call a misdeal) and all four seats play the chosen policy.

    [bold]Examples[/bold]

      smear-sim hand "AH KH 2H JD 10C 5S 9S 4D 3C"

      smear-sim hand "AH,KH,2H,JD,10C,5S,9S,4D,3C" --trump H --precision 0.005 --json
    """
    from .analysis import evaluate_hand

    active = _rules(rules_file, rule)
    total = samples or (10_000_000 if precision else 100_000)
    with _progress(total, "dealing", total >= 2_000_000 and precision is None) as progress:
        analysis = evaluate_hand(cards, trump=trump, samples=samples, precision=precision, seed=seed,
                                 policy=policy, rules=active, threads=threads, progress=progress)
    if analysis.misdeal_callable:
        typer.echo("warning: this hand holds only ranks 3-9, so its player may call a misdeal instead of "
                   "bidding (rule misdeal=true)", err=True)
    if plot is not None:
        from .plotting import points_distribution, save_figure

        plot = save_figure(points_distribution(analysis), plot)
    if json_output:
        _print_json(analysis.to_json())
    else:
        from .render import print_hand

        print_hand(analysis)
        if plot is not None:
            typer.echo(f"Chart: {plot}")


@app.command("bid-table")
@_clean_errors
def bid_table_command(
    hands: Hands = 10_000_000,
    seed: Seed = 1,
    by: ByOpt = "trumps,top,two,jacks,jokers",
    out: Annotated[Path, typer.Option("--out", metavar="PATH", help="Output path without suffix: writes .csv, "
                                      ".md, .npz (raw counts) and .parquet (with pyarrow).")]
    = Path("results/bid_table"),
    min_count: MinCount = 200,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats.")] = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    show: Annotated[int, typer.Option("--show", min=0, help="Rows to print: the most common groups.")] = 25,
    json_output: JsonFlag = False,
) -> None:
    """A bid table over many random hands: P(make), EV and the bid to go up to, by hand class.

    Each hand is classed by what a player sees at a glance in its best suit. Groups with few hands are
    flagged rather than shown as precise.

    [bold]Examples[/bold]

      smear-sim bid-table

      smear-sim bid-table --hands 2000000 --by trumps,top --out results/by_top --rule round_points=true
    """
    from .analysis import class_table, parse_features
    from .report import write_bid_table

    active = _rules(rules_file, rule)
    features = parse_features(by)
    with _progress(hands, "dealing and playing", hands >= 2_000_000) as progress:
        table = class_table(hands, seed=seed, rules=active, policy=policy, threads=threads, progress=progress)
    frame = table.frame(features, min_count)
    written = write_bid_table(table, frame, out)
    if json_output:
        _print_json({**frame.attrs, "files": [str(p) for p in written], "rows": _records(frame)})
    else:
        from .render import print_bid_table

        print_bid_table(frame, table, show)
        typer.echo("Wrote " + ", ".join(str(p) for p in written))


@app.command()
@_clean_errors
def moon(
    cards: Annotated[str | None, typer.Argument(metavar="[CARDS]", help="A 9-card hand to judge; without "
                                                   "it, moon rates by hand class.")] = None,
    hands: Annotated[int | None, typer.Option("--hands", "-n", min=1, help="Random hands for the class "
                                                 "table (default 1,000,000), or deals for one hand (default "
                                                 "100,000).")] = None,
    counts: Annotated[Path | None, typer.Option("--counts", metavar="FILE.npz", help="Use the class counts "
                                                   "a bid-table run saved instead of simulating.")] = None,
    by: ByOpt = "trumps,top,two,jacks,jokers",
    min_count: MinCount = 200,
    show: Annotated[int, typer.Option("--show", min=1, help="Classes to print.")] = 20,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats.")] = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    json_output: JsonFlag = False,
) -> None:
    """When shooting the moon pays: success rates and the EV a moon bid adds or loses.

    A moon decides the game, so a won game counts +target points and a lost one -target; the moon pays
    when that beats the best numeric bid.

    [bold]Examples[/bold]

      smear-sim moon

      smear-sim moon "AH KH QH JH JD HJ 2H 10H AS"

      smear-sim moon --counts results/bid_table.npz --by trumps,top
    """
    from .analysis import ClassTable, class_table, evaluate_hand, moon_table, parse_features

    active = _rules(rules_file, rule)
    if not active.moon:
        raise SmearError("moon bids are off under these rules (moon=false); drop --rule moon=false")
    if cards is not None:
        analysis = evaluate_hand(cards, samples=hands or 100_000, seed=seed, policy=policy, rules=active,
                                 threads=threads)
        if json_output:
            data = analysis.to_json()
            _print_json({"hand": data["hand"], "samples": data["samples"], "seed": seed, **data["moon"],
                         "best_bid": data["bids"][0]})
        else:
            from .render import print_hand_moon

            print_hand_moon(analysis)
        return
    features = parse_features(by)
    if counts is not None:
        table = ClassTable.load(counts)
    else:
        hands = hands or 1_000_000
        with _progress(hands, "dealing and playing", hands >= 2_000_000) as progress:
            table = class_table(hands, seed=seed, rules=active, policy=policy, threads=threads, progress=progress)
    frame = moon_table(table, features, min_count)
    if json_output:
        _print_json({**frame.attrs, "rows": _records(frame)})
    else:
        from .render import print_moon_table

        print_moon_table(frame, table, show)


PLOT_KINDS = ("heatmap", "make", "moon", "hand")


@app.command()
@_clean_errors
def plot(
    kind: Annotated[str, typer.Argument(help="heatmap (a value over two features), make (P(make) curves), "
                                        "moon (moon rate by class) or hand (a hand's points distribution).")],
    source: Annotated[Path, typer.Argument(help="Class counts from bid-table (.npz) for heatmap/make/moon; a "
                                           "'smear-sim hand --json' file for hand.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Output file (default: results/charts/"
                                                "KIND.png).")] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="png or svg (default: from --out, else png).")]
    = None,
    x: Annotated[str, typer.Option("--x", help="Feature across (heatmap, make).")] = "trumps",
    y: Annotated[str, typer.Option("--y", help="Feature down (heatmap).")] = "top",
    value: Annotated[str, typer.Option("--value", help="Heatmap value: points, bid_up_to, moon, makeB, evB.")]
    = "points",
    by: ByOpt = "trumps,top,two,jacks,jokers",
    min_count: MinCount = 200,
) -> None:
    """Draw a strategy chart from a bid table's class counts or a hand analysis.

    [bold]Examples[/bold]

      smear-sim plot heatmap results/bid_table.npz --value bid_up_to

      smear-sim plot make results/bid_table.npz --x trumps --format svg

      smear-sim hand "AH KH 2H JD 10C 5S 9S 4D 3C" --json > hand.json; smear-sim plot hand hand.json
    """
    from .plotting import heatmap, make_curves, moon_chart, points_distribution, save_figure

    kind = kind.lower()
    if kind not in PLOT_KINDS:
        raise SmearError(f"unknown chart {kind!r}: choose {', '.join(PLOT_KINDS)}")
    if kind == "hand":
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SmearError(f"{source} does not exist: save one with 'smear-sim hand CARDS --json > "
                              f"{source}'") from None
        except (OSError, ValueError) as exc:
            raise SmearError(f"{source} is not a hand analysis JSON file: {exc}") from None
        fig = points_distribution(data)
    else:
        from .analysis import ClassTable, parse_features

        table = ClassTable.load(source)
        if kind == "heatmap":
            fig = heatmap(table, x, y, value, min_count)
        elif kind == "make":
            fig = make_curves(table, x, min_count)
        else:
            fig = moon_chart(table, parse_features(by), 20, min_count)
    path = save_figure(fig, out or Path("results/charts") / f"{kind}.png", fmt)
    typer.echo(f"Chart: {path}")


@app.command()
@_clean_errors
def report(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="Random hands to simulate.")] = 10_000_000,
    seed: Seed = 1,
    out: Annotated[Path, typer.Option("--out", help="Folder for the results.")] = Path("results"),
    by: ByOpt = "trumps,top,two,jacks,jokers",
    min_count: MinCount = 200,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats.")] = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
) -> None:
    """The main job: bid table, moon table, strategy charts and an example hand, written to one folder.

    [bold]Examples[/bold]

      smear-sim report

      smear-sim report --hands 10000000 --out results
    """
    from .analysis import EXAMPLE_HAND, class_table, evaluate_hand, parse_features
    from .report import write_report

    active = _rules(rules_file, rule)
    features = parse_features(by)
    with _progress(hands, "dealing and playing", True) as progress:
        table = class_table(hands, seed=seed, rules=active, policy=policy, threads=threads, progress=progress)
    example = evaluate_hand(EXAMPLE_HAND, seed=seed, policy=policy, rules=active, threads=threads)
    command = "smear-sim report"
    if hands != 10_000_000:
        command += f" --hands {hands}"
    if seed != 1:
        command += f" --seed {seed}"
    if out != Path("results"):
        command += f" --out {out}"
    if features != parse_features("trumps,top,two,jacks,jokers"):
        command += f" --by {','.join(features)}"
    if min_count != 200:
        command += f" --min-count {min_count}"
    if policy != "heuristic":
        command += f" --policy {policy}"
    from .rules import format_value

    command += "".join(f" --rule {k}={format_value(v)}" for k, v in active.changed().items())
    written = write_report(table, out, command=command, by=features, min_count=min_count, example_hand=example)
    from .render import print_bid_table

    print_bid_table(table.frame(features, min_count), table, 15)
    typer.echo(f"Wrote {len(written)} files to {out}/ (see {out}/README.md)")


def main() -> None:
    """Console entry point: usage errors become one line and exit status 2 as well."""
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except _CliError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare command: its help was shown
            sys.exit(0)
        typer.echo(f"error: {exc.format_message().strip()} (see 'smear-sim --help')", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # a bug: say so in one line; SMEAR_SIM_DEBUG=1 shows the traceback
        import os

        if os.environ.get("SMEAR_SIM_DEBUG"):
            raise
        typer.echo(f"internal error: {type(exc).__name__}: {exc} (a bug in smear-sim; rerun with "
                   "SMEAR_SIM_DEBUG=1 for the traceback and report it)", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
