"""How figures and hand features look to people: the one place every output (terminal, charts, Markdown, HTML)
takes its labels and number formats from.

- :data:`FEATURES`: each bid-table feature's short label, its meaning and how to show a value. The features
  themselves (names, sizes) are defined with the class layout (``core/layout.py`` ``CLASS_DIMS``).
- :func:`estimate_text` (``2.988 ± 0.004``) and :func:`estimate_cell` (``2.988(4)``): an estimate with its
  standard error, rounded to the digits the sample supports.
- :class:`Column`, :func:`bid_table_columns`, :func:`moon_table_columns`: the columns of the bid and moon tables.
- :func:`rules_label`, :func:`rules_name`, :func:`rules_change_name`, :func:`moon_needs`, :func:`suit_label`.
- :func:`tournament_cells`: a tournament's pair and rating tables as text cells.
- :func:`call_charts`: the call to make by place in the auction, hand strength and standing call.

Nothing here imports pandas, so the quick commands that print through it stay quick to start.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import SUIT_NAMES, SUIT_SYMBOLS, SUIT_WORDS
from ..core.rules import Rules, format_value
from ..core.stats import Estimate

__all__ = [
    "FEATURES",
    "MARK_SYMBOLS",
    "PLACES",
    "CallChart",
    "Column",
    "FeatureLabel",
    "bid_table_columns",
    "call_charts",
    "class_words",
    "count_accuracy_cells",
    "count_words",
    "estimate_cell",
    "estimate_text",
    "feature_legend",
    "moon_game_columns",
    "moon_needs",
    "moon_table_columns",
    "rules_change_columns",
    "rules_change_name",
    "rules_change_points",
    "rules_label",
    "rules_name",
    "score_text",
    "share_text",
    "suit_label",
    "tournament_cells",
]

RULES_DOC = "docs/rules.md"
PLAYERS_DOC = "docs/players.md"
FORMATS_DOC = "docs/formats.md"
# A review's marks as chess and GNU Backgammon annotate moves (the thresholds: smear_sim.analysis.review.MARKS).
MARK_SYMBOLS = {"doubtful": "?!", "bad": "?", "very bad": "??"}


def score_text(us: int, them: int) -> str:
    """Two teams' scores as a person writes them: ``15–19``, or ``3 to -3`` where one is negative, since ``3–-3``
    reads as a typo and ``-5–19`` as a range."""
    return f"{us}–{them}" if us >= 0 and them >= 0 else f"{us} to {them}"


def suit_label(suit: int | str) -> str:
    """A suit in words, from its index or letter: ``hearts ♥``."""
    index = SUIT_NAMES.index(suit) if isinstance(suit, str) else suit
    return f"{SUIT_WORDS[index]} {SUIT_SYMBOLS[index]}"


def rules_label(rules: Rules | Mapping[str, Any]) -> str:
    """The rules an output was made under: ``default rules``, or the options that differ from the defaults."""
    rules = rules if isinstance(rules, Rules) else Rules.from_mapping(rules)
    changed = rules.summary("")
    return f"rules: {changed}" if changed else "default rules"


# Short names for people of the option values that name a variant of the game (the others read key=value).
RULE_NAMES = {("round_points", True): "round points", ("round_points", False): "no round points"}


def _option_name(name: str, value: Any) -> str:
    return RULE_NAMES.get((name, value), f"{name}={format_value(value)}")


def rules_name(rules: Rules | Mapping[str, Any]) -> str:
    """A short name of the rules, to choose between rule sets: ``default rules``, ``round points``, or the
    changed options (``round points, target=15``)."""
    rules = rules if isinstance(rules, Rules) else Rules.from_mapping(rules)
    return ", ".join(_option_name(k, v) for k, v in rules.changed().items()) or "default rules"


def rules_change_name(before: Rules, after: Rules) -> str:
    """What differs in ``after`` from ``before``, in words: ``round points``, ``round points, target=15``."""
    old, new = before.as_dict(), after.as_dict()
    return ", ".join(_option_name(k, v) for k, v in new.items() if old[k] != v) or "no change"


def moon_needs(rules: Rules) -> str:
    """What a moon must win under ``rules``, as a sentence (docs/rules.md, "Shooting the moon")."""
    points = "High, Low, Jack, Game, the jick and both jokers" if rules.round_points else "High, Low, Jack and Game"
    if rules.moon_requires == "all":
        return (f"A moon must win all {rules.max_points} points at stake ({points}); a point whose card is never "
                "played, or a tied Game, counts as missed.")
    return f"A moon must win every point that some team won, of {points}."


# -- estimates ------------------------------------------------------------------------------------------------


def _finite(value: Any) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):  # None, pandas' NA
        return False


def estimate_text(value: float, se: float, percent: bool = False) -> str:
    """``2.988 ± 0.004`` (or ``90.76 ± 0.09%``); empty where the sample gives no estimate."""
    if not _finite(value):
        return ""
    scale = 100 if percent else 1
    return f"{Estimate(scale * float(value), scale * float(se))}" + ("%" if percent else "")


def share_text(value: float) -> str:
    """A share of hands, exact (not an estimate): ``28.0%``; ``-`` where there is none."""
    if not _finite(value):
        return "-"
    percent = 100 * float(value)
    return f"{percent:.1f}%" if percent >= 1 or percent == 0 else f"{percent:.2g}%"


def estimate_cell(value: float, se: float, percent: bool = False) -> str:
    """The compact form for narrow tables: ``88.1(3)`` is 88.1 ± 0.3; percentages in %, without the sign."""
    if not _finite(value):
        return ""
    estimate = Estimate(float(value), float(se))
    return estimate.concise(100, max_decimals=1) if percent else estimate.concise()


# -- hand features ------------------------------------------------------------------------------------------------


def _plural(word: str) -> Callable[[Any], str]:
    return lambda v: {0: f"no {word}s", 1: f"1 {word}"}.get(int(v), f"{int(v)} {word}s")


def _held(card: str) -> tuple[Callable[[Any], str], Callable[[Any], str]]:
    """Cell and words of a feature that says whether one card is held."""
    return (lambda v: card if v else "-"), (lambda v: f"the {card}" if v else f"no {card}")


@dataclass(frozen=True)
class FeatureLabel:
    """How one bid-table feature reads: ``short`` heads a narrow column, ``help`` says what it is."""

    name: str
    short: str
    help: str
    _cell: Callable[[Any], str]
    _words: Callable[[Any], str]

    def cell(self, value: Any) -> str:
        """A value in a table cell: ``4``, ``A``, ``2`` or ``-``."""
        return self._cell(value)

    def words(self, value: Any) -> str:
        """A value in a sentence or a chart label: ``4 trumps``, ``A top``, ``no 2``."""
        return self._words(value)


FEATURES = {
    label.name: label
    for label in (
        FeatureLabel("trumps", "tr", "trumps held in the class suit, counting the jick and the jokers", str,
                     _plural("trump")),
        FeatureLabel("top", "top", "the highest trump held", str, lambda v: f"{v} top"),
        FeatureLabel("two", "2", "holds the two of trump (Low)", *_held("2")),
        FeatureLabel("jack", "J", "holds the jack of trump (the Jack point)", *_held("J")),
        FeatureLabel("jick", "jick", "holds the jick, the other jack of trump's colour", *_held("jick")),
        FeatureLabel("jokers", "jok", "jokers held", str, _plural("joker")),
        FeatureLabel("aces", "A", "aces held outside the class suit", str, _plural("off ace")),
    )
}

# The rule that picks the suit a hand's features are read in (docs/rules.md, "Hand classes"), as a clause.
CLASS_SUIT_HELP = ("the suit with the most trumps, counting the jick and the jokers; a tie goes to the better "
                   "trumps compared from the top down, then to the first of S H D C")


def class_words(row: Mapping[str, Any], by: Sequence[str]) -> str:
    """A hand class in words: ``5 trumps, A top, the 2, the J, no jick, 1 joker``."""
    return ", ".join(FEATURES[name].words(row[name]) for name in by)


def feature_legend(by: Sequence[str]) -> str:
    """``tr = trumps, 2 = two, ...``: what the short column labels of ``by`` stand for."""
    return ", ".join(f"{FEATURES[name].short} = {name}" for name in by if FEATURES[name].short != name)


# -- table columns --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One column of a bid or moon table, as every output shows it.

    ``key`` names the table column that holds the value (and sorts it); ``se`` the one holding its standard
    error. ``header`` heads it in Markdown and HTML, ``short`` in the terminal.
    """

    key: str
    header: str
    short: str
    kind: str  # feature, count, share (a fraction shown in %, exact), estimate, percent, bid or flag
    se: str | None = None

    def text(self, row: Mapping[str, Any], concise: bool = False) -> str:
        """The value of ``row`` in this column: ``concise`` for narrow tables (``88.1(3)``), else ``88.1 ± 0.3%``."""
        value = row[self.key]
        if self.kind == "feature":
            return FEATURES[self.key].cell(value)
        if self.kind == "count":
            return f"{int(value):,}"
        if self.kind == "bid":
            return str(int(value)) if _finite(value) else "-"
        if self.kind == "flag":
            return "yes" if value else "no"
        if self.kind == "share":
            return share_text(value)
        percent = self.kind == "percent"
        if concise:
            return estimate_cell(value, row[self.se], percent)
        return estimate_text(value, row[self.se], percent)


def _features(by: Sequence[str]) -> list[Column]:
    return [Column(name, name, FEATURES[name].short, "feature") for name in by]


def bid_table_columns(by: Sequence[str], rules: Rules) -> list[Column]:
    """Every column of the bid table: features, hands, points, bid up to, P(make) and EV of each bid, moon."""
    bids = rules.bids()
    columns = [*_features(by), Column("hands", "hands", "hands", "count"),
               Column("points", "points", "points", "estimate", "points_se"),
               Column("bid_up_to", "bid up to", "up to", "bid")]
    columns += [Column(f"make{b}", f"P(make {b})", f"make{b}", "percent", f"make{b}_se") for b in bids]
    columns += [Column(f"ev{b}", f"EV {b}", f"ev{b}", "estimate", f"ev{b}_se") for b in bids]
    columns.append(Column("moon", "moon", "moon", "percent", "moon_se"))
    return columns


def moon_table_columns(by: Sequence[str]) -> list[Column]:
    """The moon table: features, hands, moon success, moon EV, the best numeric bid's EV, the gain, pays."""
    return [*_features(by), Column("hands", "hands", "hands", "count"),
            Column("moon", "moon success", "success %", "percent", "moon_se"),
            Column("moon_ev", "moon EV", "moon EV", "estimate", "moon_ev_se"),
            Column("best_numeric_ev", "best bid EV", "bid EV", "estimate", "best_numeric_ev_se"),
            Column("moon_gain", "moon gain", "gain", "estimate", "moon_ev_se"),
            Column("moon_pays", "pays", "pays", "flag")]


def moon_game_columns(by: Sequence[str]) -> list[Column]:
    """The moon table at a score: features, hands, moon success, P(win the game) shooting and with the best
    numeric bid, the break-even success rate, pays."""
    return [*_features(by), Column("hands", "hands", "hands", "count"),
            Column("moon", "moon success", "success %", "percent", "moon_se"),
            Column("moon_win", "P(win) shooting", "moon win %", "percent", "moon_win_se"),
            Column("best_bid_win", "P(win) best bid", "bid win %", "percent", "best_bid_win_se"),
            Column("break_even", "break-even success", "break-even %", "percent", "break_even_se"),
            Column("moon_pays_game", "pays", "pays", "flag")]


def tournament_cells(result: Any) -> tuple[list[str], list[list[str]], list[list[str]]]:
    """A tournament's tables as text: the pair columns, one row per pair (margins A minus B per hand, and with
    games A's share of the games won), and one row per player, best first (rating, 95% interval)."""
    games = {(g.policy_a, g.policy_b): g for g in result.games}
    columns = ["A", "B", "deals", "score margin", "points margin", "A won / lost (score)"]
    if games:
        columns += ["games", "A's game win rate"]
    pairs = []
    for pair in result.pairs:
        cells = [pair.policy_a, pair.policy_b, f"{pair.deals:,}", str(pair.score_margin), str(pair.points_margin),
                 f"{pair.score_wins:,} / {pair.score_losses:,}"]
        if games:
            g = games.get((pair.policy_a, pair.policy_b))
            cells += ["", ""] if g is None else [f"{2 * g.games:,}", str(g.win_rate)]
        pairs.append(cells)
    ratings = [[r.player, f"{r.elo:+.0f}", f"{r.interval[0]:+.0f} to {r.interval[1]:+.0f}"]
               for r in sorted(result.ratings, key=lambda r: -r.elo)]
    return columns, pairs, ratings


# -- what changes from one rule set to another ------------------------------------------------------------------


def _under(rules: Rules) -> str:
    return f"under {rules_name(rules)}" if rules.changed() else "under the default rules"


def rules_change_columns(change: Any) -> tuple[list[Column], list[Column], list[Column]]:
    """The columns of a :class:`smear_sim.analysis.rules_change.RulesChange`'s three tables: its bid levels (the
    share of hands whose best bid is at least each bid), its most common classes (points, bid up to, the moon's
    break-even under each rule set) and its best moon classes."""
    names = [rules_name(rules) for rules in change.rules]
    levels = [Column("bid", "best bid at least", "bid", "bid"),
              *(Column(w, f"share of hands, {name}", w, "share") for w, name in zip(("base", "variant"), names,
                                                                                        strict=True))]

    def pair(key: str, header: str, kind: str, se: bool = True) -> list[Column]:
        return [Column(f"{key}_{w}", f"{header}, {name}", f"{key} {w}", kind, f"{key}_se_{w}" if se else None)
                for w, name in zip(("base", "variant"), names, strict=True)]

    start = [*_features(change.by), Column("hands", "hands", "hands", "count"),
             Column("share", "share of hands", "share", "share")]
    common = [*start, *pair("points", "points", "estimate"), *pair("bid_up_to", "bid up to", "bid", False),
              *pair("break_even", "moon needs", "percent")]
    moon = [*start, *pair("moon", "moon success", "percent"), *pair("break_even", "moon needs", "percent"),
            *pair("moon_pays", "pays", "flag", False)]
    return levels, common, moon


def _range(span: tuple[float, float]) -> str:
    low, high = (f"{100 * x:.1f}" for x in span)
    return f"{low}%" if low == high else f"{low}–{high}%"


def rules_change_points(change: Any) -> list[str]:
    """What changes from ``change.base``'s rules to ``change.variant``'s, as plain sentences for people: the points
    at stake, how high the bids go, and the moon (every figure read from the two tables)."""
    base, variant = change.rules
    ub, uv = _under(base), _under(variant)
    points = (f"Points: {base.max_points} are at stake in a hand {ub} and {variant.max_points} {uv}; the declaring "
              f"side wins {change.mean_points[0]:.2f} of them on average {ub} and {change.mean_points[1]:.2f} {uv}.")
    parts, alone = [], {0: [], 1: []}
    for bid in range(min(base.min_bid, variant.min_bid) + 1, max(base.max_points, variant.max_points) + 1):
        shares = [change.level_share(bid, w) for w in ("base", "variant")]
        if all(map(_finite, shares)):
            parts.append(f"{bid} or more for {share_text(shares[0])} of hands {ub} and {share_text(shares[1])} {uv}"
                         if not parts else f"{bid} or more for {share_text(shares[0])} and {share_text(shares[1])}")
        else:
            which = 0 if _finite(shares[0]) else 1
            top = bid == change.rules[which].max_points
            alone[which].append(f"{bid}{'' if top else ' or more'} for {share_text(shares[which])}")
    for which, clauses in alone.items():
        if clauses:
            listed = ", ".join(clauses[:-1]) + " and " + clauses[-1] if len(clauses) > 1 else clauses[0]
            parts.append(f"{_under(change.rules[which])}, {listed}")
    bids = ("Bids: the best bid of a hand (its class's bid up to, the highest bid whose EV is not negative) is "
            + "; ".join(parts) + f" (of the hands in classes with at least {change.min_count:,} hands).")
    lines = [points, bids]
    common = change.classes
    if len(common):
        top = common.iloc[0]
        lines.append(
            f"The most common class, {class_words(top, change.by)} ({share_text(top['share'])} of hands), wins "
            f"{estimate_text(top['points_base'], top['points_se_base'])} points {ub} and "
            f"{estimate_text(top['points_variant'], top['points_se_variant'])} {uv}, and is worth bidding up to "
            f"{_bid(top['bid_up_to_base'])} {ub} and {_bid(top['bid_up_to_variant'])} {uv}.")
    moon = []
    for i, (rules, under) in enumerate(((base, ub), (variant, uv))):
        if rules.moon:
            count = f"{change.moon_pays[i]:,}" if change.moon_pays[i] else "none"
            moon.append(f"in {count} of the {change.moon_classes[i]:,} classes with at least "
                        f"{change.min_count:,} hands {under}"
                        + (f" ({share_text(change.moon_share[i])} of hands; there it needs a success rate of "
                           f"{_range(change.break_even[i])})" if change.break_even[i] else ""))
    if moon:
        text = "The moon pays " + ", and ".join(moon) + "."
        if len(common) and base.moon and variant.moon:
            text += (f" It must beat the best numeric bid: the most common class needs a moon success rate of "
                     f"{estimate_text(top['break_even_base'], top['break_even_se_base'], True)} {ub} and "
                     f"{estimate_text(top['break_even_variant'], top['break_even_se_variant'], True)} {uv}.")
        if len(change.moon) and base.moon and variant.moon:
            best = change.moon.sort_values(["moon_base", "hands"], ascending=False, kind="stable").iloc[0]
            text += (f" The best moon class {ub}, {class_words(best, change.by)}, succeeds "
                     f"{estimate_text(best['moon_base'], best['moon_se_base'], True)} of the time {ub} and "
                     f"{estimate_text(best['moon_variant'], best['moon_se_variant'], True)} {uv}.")
        if variant.moon and variant.round_points != base.round_points:
            text += " " + moon_needs(variant)
        lines.append(text)
    return lines


def _bid(value: Any) -> str:
    return str(int(value)) if _finite(value) else "no bid"


# -- what to call, by place in the auction ----------------------------------------------------------------------

PLACES = ("opener", "second", "third", "dealer")
STANDING_HELP = ("the highest call before yours: none, or a number called by your partner or by an opponent")
STRENGTH_HELP = ("the points the hand's class wins on average as an unopposed declarer (the declarer's view: the bid "
                 "table's points)")


def _standing_key(label: str) -> tuple[int, int]:
    if label == "none":
        return (0, 0)
    number, _, who = label.split(" ", 2)
    return (int(number), 0 if who.endswith("partner") else 1)


@dataclass(frozen=True)
class CallChart:
    """The call to make at one place in the auction: a row per hand strength (strongest first), a column per
    standing call. A cell is the call, ``·`` where too few hands were seen to say, empty where never met."""

    place: str
    strengths: list[str]
    standings: list[str]
    cells: list[list[str]]


def call_charts(rows: Sequence[Mapping[str, Any]]) -> list[CallChart]:
    """One :class:`CallChart` per place from the rows of a position table (``PositionTable.frame`` records)."""
    charts = []
    for place in PLACES:
        mine = [r for r in rows if r["place"] == place]
        if not mine:
            continue
        standings = sorted({r["standing"] for r in mine}, key=_standing_key)
        bands = sorted({(r["strength"], r["strength_to"]) for r in mine if r["reliable"]}, reverse=True)
        by_cell = {(r["strength"], r["standing"]): r for r in mine}
        cells = []
        for low, _ in bands:
            line = []
            for standing in standings:
                r = by_cell.get((low, standing))
                line.append("" if r is None else (str(r["call"]) if r["reliable"] else "·"))
            cells.append(line)
        charts.append(CallChart(place, [f"{low:.2f}–{high:.2f}" for low, high in bands], standings, cells))
    return charts


# -- the count ------------------------------------------------------------------------------------------------

COUNT_TITLE = "A count to use at the table"  # the report's section


def count_words(view: Mapping[str, Any]) -> tuple[str, str]:
    """What the count is and how to read its tables, then what its accuracy table says, for the report's section
    (``view``: :func:`smear_sim.analysis.count.count_view`; plain text, the same in Markdown and HTML)."""
    accuracy = view["accuracy"]
    how = (
        "A number a person adds up at the table instead of looking up the hand's class. Pick the suit you would "
        "make trump and add the points below for each card of it you hold (the jick and both jokers are trumps of "
        "that suit, so each adds its trump point); the count is the total of your best suit. Then find your place, "
        "the call standing and the two teams' scores before the hand: make the highest call whose count you reach; "
        "below every listed count, pass (the opener, who must bid, makes the lowest bid). The weights and the "
        "count each call needs were fitted to the `equity` bidder's tables under these rules and ship in "
        f"smear_sim/data/count.json ({PLAYERS_DOC}, section \"The count\", says how); `smear-sim hand CARDS` "
        "prints a hand's count."
    )
    if not accuracy.get("all") or not accuracy.get("0-0"):
        return how, ""
    both = accuracy["all"], accuracy["0-0"]
    agree = (
        "How often the count's call is the equity bidder's, each turn weighed by how often the bidder's tables "
        "met it, over the scores of whole games and at 0–0, and the P(win the game) it costs per turn against the "
        "best call of those tables, in percentage points (against the bidder's own call it costs "
        f"{_pp(both[0]['cost_vs_bidder'])} over all scores and {_pp(both[1]['cost_vs_bidder'])} at 0–0)."
    )
    return how, agree


def _pp(cost: float) -> str:
    return f"{100 * cost:.2f} pp".replace("-", "−")


def count_accuracy_cells(accuracy: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The count's accuracy (``count_view(...)["accuracy"]``) as a table: a row for every place and one for all,
    the share of turns its call is the bidder's and the P(win) it costs per turn, over all scores and at 0–0."""
    both = accuracy["all"], accuracy["0-0"]
    columns = ["place", "same call, all scores", "same call, 0–0", "P(win) cost per turn, all scores",
               "P(win) cost per turn, 0–0"]

    def row(label: str, parts: Sequence[Mapping[str, Any]]) -> list[str]:
        return [label, *(f"{100 * p['agree']:.1f}%" for p in parts), *(_pp(p["cost"]) for p in parts)]

    rows = [row("every place", both)]
    rows += [row(place, [b["by_place"][place] for b in both]) for place in both[0]["by_place"]]
    return columns, rows
