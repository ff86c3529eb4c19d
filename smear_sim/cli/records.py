"""Commands on hand and game records and on rules: ``score``, ``solve`` and ``rules``."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.errors import SmearError
from .app import JsonFlag, RuleOverrides, RulesFile, app, clean_errors, print_json, rules_from


@app.command()
@clean_errors
def score(
    record: Annotated[str, typer.Argument(metavar="RECORD", help="Hand or game record JSON file, or - for "
                                          "standard input.")],
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    json_output: JsonFlag = False,
) -> None:
    """Check a hand record, or a game record (one with "deals"), against the rules and score it.

    The record formats and the --json output are described in docs/formats.md, the rules in docs/rules.md.
    The record's own "rules" apply; --rules and --rule set the options it leaves out, and an option set
    differently in both is an error. An illegal record exits with status 2 and one line naming the first
    problem (and, in a game, the deal number).

    [bold]Examples[/bold]

      smear-sim score tests/golden/basic.json --json

      smear-sim score tests/golden/games/moon_ends_game.json

      cat hand.json | smear-sim score -
    """
    from ..core.rules import rule_settings
    from ..reference.record import is_game_record, load_record, parse_game_record, parse_record, replay, replay_game

    obj = load_record(record)
    settings = rule_settings(rules_file, rule or ())
    game = is_game_record(obj)
    parsed = parse_game_record(obj, settings) if game else parse_record(obj, settings)
    result = replay_game(parsed) if game else replay(parsed)
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_game_score, print_score

        (print_game_score if game else print_score)(parsed, result)


@app.command()
@clean_errors
def solve(
    record: Annotated[str, typer.Argument(metavar="RECORD", help="Hand record JSON file whose plays may stop "
                                          "early, or - for standard input.")],
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    json_output: JsonFlag = False,
) -> None:
    """Double-dummy value of a hand in progress: perfect play by both sides with every hand visible.

    The value is the bidding team's score change minus the other team's (on a moon hand +target for a
    success, -target for a failure), and each legal card of the seat to play gets its own. A record with
    all 24 cards played gives its scored value.

    [bold]Examples[/bold]

      smear-sim solve position.json --json

      smear-sim simulate --hands 1 --trace one.jsonl; head -1 one.jsonl | smear-sim solve -
    """
    from ..analysis.solve import solve_record
    from ..core.rules import rule_settings
    from ..reference.record import load_record

    result = solve_record(load_record(record), rule_settings(rules_file, rule or ()))
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_solve

        print_solve(result)


@app.command()
@clean_errors
def rules(
    preset: Annotated[str | None, typer.Argument(metavar="PRESET", help="A preset to show, as --rules PRESET "
                                                 "(smear-sim rules --list).", show_default=False)] = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    list_presets: Annotated[bool, typer.Option("--list", help="List the presets: the rule sets taken by name with "
                                               "--rules NAME.")] = False,
    toml: Annotated[bool, typer.Option("--toml", help="Print TOML to start a house-rules file from.")] = False,
    json_output: JsonFlag = False,
) -> None:
    """Show the active rule options (after --rules and --rule), or a preset's, or list the presets.

    docs/rules.md states every rule and ruling, what each option changes, and each preset.

    [bold]Examples[/bold]

      smear-sim rules

      smear-sim rules --list

      smear-sim rules minnesota-round-points --toml > house.toml

      smear-sim rules --rule round_points=true --toml > house.toml
    """
    from ..core.rules import PRESETS

    if toml and json_output:
        raise SmearError("--toml cannot apply with --json: choose one format")
    if list_presets:
        if preset is not None or rules_file is not None or rule or toml:
            raise SmearError("--list lists every preset: it takes no PRESET, --rules, --rule or --toml")
        if json_output:
            print_json([p.as_dict() for p in PRESETS.values()])
        else:
            from ..output.terminal import print_presets

            print_presets(PRESETS.values())
        return
    if preset is not None and rules_file is not None:
        raise SmearError(f"give the preset once: as PRESET ({preset}) or as --rules ({rules_file}), not both")
    active = rules_from(rules_file if preset is None else preset, rule)
    if toml:
        typer.echo(active.to_toml(), nl=False)
    elif json_output:
        print_json(active.as_dict())
    else:
        from ..output.terminal import print_rules

        print_rules(active)
