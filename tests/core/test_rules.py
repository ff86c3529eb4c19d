"""The rule object (docs/rules.md options, docs/formats.md "Rule options"): defaults, TOML, overrides, errors, arrays."""

from __future__ import annotations

import dataclasses
import itertools
import tomllib

import numpy as np
import pytest

from smear_sim.core.errors import RulesError, SmearError
from smear_sim.core.rules import (
    _FIELD_TYPES,
    ARRAY_NAMES,
    DERIVED_NAMES,
    OPTION_HELP,
    OPTION_NAMES,
    OPTION_RANGES,
    RULE_INDEX,
    ForcedBid,
    High,
    Low,
    LowTo,
    MoonRequires,
    Rules,
    describe_options,
    legal_slots,
    load_rules,
)
from smear_sim.core.tables import POINT_NAMES
from smear_sim.reference.hand import PASS as REF_PASS
from smear_sim.reference.hand import legal_bids

RULES_MD_DEFAULTS = {
    "round_points": False,
    "high": "ace",
    "low": "two",
    "low_to": "player",
    "forced_bid": "opener",
    "moon": True,
    "moon_requires": "all",
    "trump_anytime": False,
    "misdeal": True,
    "target": 21,
    "min_bid": 2,
}


def all_rule_combinations(targets=(1, 21, 500)):
    """Every combination of the bool and enum options, each legal min_bid, and a few targets."""
    for rp, high, low, low_to, forced, moon, moon_req, anytime, misdeal in itertools.product(
        (False, True), High, Low, LowTo, ForcedBid, (False, True), MoonRequires, (False, True), (False, True)
    ):
        for min_bid in range(1, (7 if rp else 4) + 1):
            for target in targets:
                yield Rules(rp, high, low, low_to, forced, moon, moon_req, anytime, misdeal, target, min_bid)


# -- defaults -------------------------------------------------------------------------------------------


def test_option_names_are_those_of_interfaces_md():
    assert tuple(RULES_MD_DEFAULTS) == OPTION_NAMES
    assert set(OPTION_HELP) == set(OPTION_NAMES)
    assert ARRAY_NAMES == OPTION_NAMES + DERIVED_NAMES
    assert {name: i for i, name in enumerate(ARRAY_NAMES)} == RULE_INDEX


def test_defaults_are_the_rules_md_rulings():
    rules = Rules()
    assert rules.as_dict() == RULES_MD_DEFAULTS
    assert rules.high is High.ACE
    assert rules.low is Low.TWO
    assert rules.low_to is LowTo.PLAYER
    assert rules.forced_bid is ForcedBid.OPENER
    assert rules.moon_requires is MoonRequires.ALL
    assert rules.changed() == {}
    assert load_rules() == rules


def test_max_points_is_4_or_7_with_round_points():
    assert Rules().max_points == 4
    assert Rules(round_points=True).max_points == 7


def test_rules_are_frozen_and_hashable():
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 11  # type: ignore[misc]
    assert hash(rules) == hash(Rules())
    assert Rules(target=11) != rules


def test_constructor_coerces_enum_strings():
    rules = Rules(high="highest", low="lowest", low_to="taker", forced_bid="none", moon_requires="in_play")
    assert rules.high is High.HIGHEST
    assert rules.low is Low.LOWEST
    assert rules.low_to is LowTo.TAKER
    assert rules.forced_bid is ForcedBid.NONE
    assert rules.moon_requires is MoonRequires.IN_PLAY


# -- from TOML ------------------------------------------------------------------------------------------


def test_from_toml_reads_top_level_options(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        'round_points = true\nhigh = "highest"\nlow = "lowest"\nlow_to = "taker"\nforced_bid = "dealer"\n'
        'moon = false\nmoon_requires = "in_play"\ntrump_anytime = true\nmisdeal = false\ntarget = 11\nmin_bid = 5\n',
        encoding="utf-8",
    )
    rules = Rules.from_toml(path)
    assert rules == Rules(True, High.HIGHEST, Low.LOWEST, LowTo.TAKER, ForcedBid.DEALER, False,
                          MoonRequires.IN_PLAY, True, False, 11, 5)
    assert load_rules(path) == rules
    assert load_rules(str(path)) == rules


def test_from_toml_partial_file_keeps_other_defaults(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("target = 15\n", encoding="utf-8")
    assert Rules.from_toml(path) == Rules(target=15)


def test_from_toml_unknown_key(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("round_point = true\n", encoding="utf-8")
    with pytest.raises(RulesError, match="unknown rule option 'round_point'.*did you mean 'round_points'"):
        Rules.from_toml(path)


def test_from_toml_nested_table_is_unknown_key(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("[rules]\ntarget = 11\n", encoding="utf-8")
    with pytest.raises(RulesError, match="unknown rule option 'rules'"):
        Rules.from_toml(path)


def test_from_toml_bad_toml(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("target = = 3\n", encoding="utf-8")
    with pytest.raises(RulesError, match="not valid TOML") as info:
        Rules.from_toml(path)
    assert "\n" not in str(info.value)


def test_from_toml_missing_file(tmp_path):
    with pytest.raises(RulesError, match="does not exist"):
        Rules.from_toml(tmp_path / "nope.toml")


def test_from_toml_directory_is_an_error(tmp_path):
    with pytest.raises(RulesError, match="cannot read"):
        Rules.from_toml(tmp_path)


@pytest.mark.parametrize(
    "text, key",
    [
        ('target = "21"\n', "target"),  # TOML values are typed: a string is not a number
        ("target = 21.5\n", "target"),
        ("round_points = 1\n", "round_points"),
        ('moon = "true"\n', "moon"),
        ('high = "king"\n', "high"),
        ("forced_bid = 3\n", "forced_bid"),
        ("min_bid = true\n", "min_bid"),
    ],
)
def test_from_toml_bad_values(tmp_path, text, key):
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError, match=f"^{key} must be"):
        Rules.from_toml(path)


def test_toml_enum_values_are_case_insensitive(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('high = "HIGHEST"\nforced_bid = "Dealer"\n', encoding="utf-8")
    assert Rules.from_toml(path) == Rules(high="highest", forced_bid="dealer")


# -- --rule overrides -------------------------------------------------------------------------------------


def test_rule_overrides_apply_in_order():
    rules = Rules().with_overrides(["target=11", "round_points=true", "min_bid=6", "target=15"])
    assert rules == Rules(round_points=True, min_bid=6, target=15)


@pytest.mark.parametrize(
    "assignment, field, value",
    [
        ("round_points=true", "round_points", True),
        ("round_points=yes", "round_points", True),
        ("round_points=ON", "round_points", True),
        ("round_points=1", "round_points", True),
        ("moon=false", "moon", False),
        ("moon=no", "moon", False),
        ("moon=0", "moon", False),
        ("moon=Off", "moon", False),
        ("high=highest", "high", High.HIGHEST),
        ("high=HIGHEST", "high", High.HIGHEST),
        ("low=lowest", "low", Low.LOWEST),
        ("low_to=taker", "low_to", LowTo.TAKER),
        ("forced_bid=none", "forced_bid", ForcedBid.NONE),
        ("forced_bid=dealer", "forced_bid", ForcedBid.DEALER),
        ("moon_requires=in_play", "moon_requires", MoonRequires.IN_PLAY),
        ("trump_anytime=true", "trump_anytime", True),
        ("misdeal=false", "misdeal", False),
        ("target=11", "target", 11),
        (" target = 31 ", "target", 31),
        ("min_bid=1", "min_bid", 1),
    ],
)
def test_rule_override_values(assignment, field, value):
    assert getattr(Rules().with_overrides([assignment]), field) == value


def test_rule_overrides_beat_the_rules_file(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("target = 11\nround_points = true\n", encoding="utf-8")
    rules = load_rules(path, ["target=31"])
    assert rules == Rules(round_points=True, target=31)


def test_rule_override_unknown_key():
    with pytest.raises(RulesError, match="unknown rule option 'trump_any_time' in --rule.*'trump_anytime'"):
        Rules().with_overrides(["trump_any_time=true"])
    with pytest.raises(RulesError, match="unknown rule option 'zzz'.*known options are round_points"):
        Rules().with_overrides(["zzz=1"])


@pytest.mark.parametrize("assignment", ["round_points", "=true", "", "target"])
def test_rule_override_must_be_key_equals_value(assignment):
    with pytest.raises(RulesError, match="KEY=VALUE"):
        Rules().with_overrides([assignment])


@pytest.mark.parametrize(
    "assignment, key",
    [
        ("round_points=maybe", "round_points"),
        ("target=abc", "target"),
        ("target=", "target"),
        ("target=2.5", "target"),
        ("min_bid=two", "min_bid"),
        ("high=king", "high"),
        ("low=three", "low"),
        ("low_to=bidder", "low_to"),
        ("forced_bid=opener,dealer", "forced_bid"),
        ("moon_requires=most", "moon_requires"),
    ],
)
def test_rule_override_bad_values(assignment, key):
    with pytest.raises(RulesError, match=f"^{key} must be") as info:
        Rules().with_overrides([assignment])
    assert "\n" not in str(info.value)


def test_enum_bad_value_lists_the_choices():
    with pytest.raises(RulesError, match="opener, dealer, none"):
        Rules().with_overrides(["forced_bid=sometimes"])


# -- impossible combinations ----------------------------------------------------------------------------


@pytest.mark.parametrize("target", [0, -1, -21])
def test_target_below_1_is_impossible(target):
    with pytest.raises(RulesError, match="target"):
        Rules(target=target)
    with pytest.raises(RulesError, match="target"):
        Rules().with_overrides([f"target={target}"])


def test_target_1_is_allowed():
    assert Rules(target=1).target == 1


@pytest.mark.parametrize(
    "round_points, min_bid", [(False, 5), (False, 7), (True, 8), (False, 0), (True, 0), (False, -2)]
)
def test_min_bid_outside_1_to_points_at_stake_is_impossible(round_points, min_bid):
    with pytest.raises(RulesError, match="min_bid"):
        Rules(round_points=round_points, min_bid=min_bid)


def test_min_bid_above_4_needs_round_points():
    with pytest.raises(RulesError, match="round_points=true"):
        Rules().with_overrides(["min_bid=5"])
    assert Rules().with_overrides(["round_points=true", "min_bid=7"]).min_bid == 7
    with pytest.raises(RulesError, match="min_bid=7"):
        Rules(round_points=True, min_bid=7).with_overrides(["round_points=false"])


def test_impossible_combination_from_toml(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("min_bid = 6\n", encoding="utf-8")
    with pytest.raises(RulesError, match="min_bid=6 is impossible"):
        Rules.from_toml(path)


def test_constructor_rejects_bad_types():
    with pytest.raises(RulesError):
        Rules(round_points="yes")  # strict: only real booleans
    with pytest.raises(RulesError):
        Rules(target=True)  # a bool is not a number
    with pytest.raises(RulesError):
        Rules(target=21.0)
    with pytest.raises(RulesError):
        Rules(high="king")
    assert Rules(target=np.int64(30)).target == 30


def test_from_mapping_rejects_non_mapping():
    with pytest.raises(RulesError, match="must be a table"):
        Rules.from_mapping(["target", 3])


def test_rules_error_is_a_smear_error():
    assert issubclass(RulesError, SmearError)


# -- numeric form for the kernels -------------------------------------------------------------------------


def test_to_array_layout():
    array = Rules().to_array()
    assert array.dtype == np.int64
    assert array.shape == (len(OPTION_NAMES) + len(DERIVED_NAMES),)
    assert array.tolist() == [0, 0, 0, 0, 0, 1, 0, 0, 1, 21, 2, 4]  # the options, then the points at stake
    other = Rules(True, High.HIGHEST, Low.LOWEST, LowTo.TAKER, ForcedBid.NONE, False, MoonRequires.IN_PLAY,
                  True, False, 7, 6).to_array()
    assert other.tolist() == [1, 1, 1, 1, 2, 0, 1, 1, 0, 7, 6, 7]
    assert Rules(forced_bid="dealer").to_array()[RULE_INDEX["forced_bid"]] == 1


def test_to_array_from_array_round_trip_for_all_combinations():
    count = 0
    for rules in all_rule_combinations():
        array = rules.to_array()
        back = Rules.from_array(array)
        assert back == rules
        assert back.as_dict() == rules.as_dict()
        assert np.array_equal(back.to_array(), array)
        count += 1
    # 7 two-way options and forced_bid's 3 settings, times the min_bids (1..4, or 1..7 with round points), 3 targets
    assert count == 2**7 * 3 * (4 + 7) * 3


def test_from_array_rejects_bad_arrays():
    with pytest.raises(RulesError, match="12 entries"):
        Rules.from_array(np.zeros(10, dtype=np.int64))
    with pytest.raises(RulesError, match="12 entries"):  # the options alone, without what follows from them
        Rules.from_array(Rules().to_array()[: len(OPTION_NAMES)])
    for name, bad in [("high", 2), ("high", -1), ("forced_bid", 3), ("low_to", -1), ("round_points", 2),
                      ("moon", -1)]:
        array = Rules().to_array()
        array[RULE_INDEX[name]] = bad
        with pytest.raises(RulesError, match=name):
            Rules.from_array(array)
    array = Rules().to_array()
    array[RULE_INDEX["min_bid"]] = 9
    with pytest.raises(RulesError, match="min_bid"):
        Rules.from_array(array)


def test_from_array_refuses_derived_slots_that_do_not_follow_from_the_options():
    for rules in (Rules(), Rules(round_points=True)):
        array = rules.to_array()
        array[RULE_INDEX["points_at_stake"]] = 11 - rules.max_points
        with pytest.raises(RulesError, match=f"^points_at_stake={11 - rules.max_points} in a rules array does not "
                                             f"follow from its options, which give {rules.max_points}$"):
            Rules.from_array(array)


# -- what follows from the options ----------------------------------------------------------------------


def test_derived_facts_fill_the_slots_after_the_options():
    for rules in all_rule_combinations(targets=(21,)):
        facts = rules.derived_facts()
        assert tuple(facts) == DERIVED_NAMES
        assert facts == {"points_at_stake": rules.max_points}
        assert rules.to_array()[len(OPTION_NAMES):].tolist() == list(facts.values())


def test_the_points_at_stake_follow_round_points():
    assert Rules().max_points == 4 and Rules().points == ("high", "low", "jack", "game")
    assert Rules(round_points=True).max_points == 7 and Rules(round_points=True).points == POINT_NAMES
    for rules in all_rule_combinations(targets=(21,)):
        assert len(rules.points) == rules.max_points
        assert rules.n_call_slots == len(legal_slots(rules, 0, 0)) == rules.max_points + 2  # pass, 1..M, moon
        assert rules.n_situations == 2 * rules.max_points + 1  # none standing, or 1..M by the partner or not


def test_must_bid_and_bids_follow_forced_bid_and_min_bid():
    assert [Rules().must_bid(place, False) for place in range(4)] == [True, False, False, False]
    assert [Rules(forced_bid="dealer").must_bid(place, False) for place in range(4)] == [False, False, False, True]
    assert not Rules(forced_bid="dealer").must_bid(3, True)
    assert not any(Rules(forced_bid="none").must_bid(place, anyone) for place in range(4) for anyone in (False, True))
    assert list(Rules(min_bid=3).bids()) == [3, 4] and list(Rules(min_bid=3).bids(3)) == [4]
    assert list(Rules(round_points=True).bids(5)) == [6, 7] and not Rules(round_points=True).bids(7)


def _auctions(rules):
    """Every auction prefix of numbers, passes and the moon that the rules allow."""
    stack = [()]
    while stack:
        prefix = stack.pop()
        yield prefix
        if len(prefix) < 4:
            stack.extend((*prefix, call) for call in legal_bids(rules, prefix))


def test_legal_slots_are_the_reference_engines_legal_bids():
    # legal_slots (for the tables) and the reference engine's legal_bids both read Rules.must_bid and Rules.bids
    checked = 0
    for rules in all_rule_combinations(targets=(21,)):
        if rules.misdeal or rules.trump_anytime or rules.high != "ace" or rules.low != "two":
            continue  # options that do not touch the auction
        for auction in _auctions(rules):
            numbers = [b for b in auction if isinstance(b, int)]
            if len(auction) == 4 or "moon" in auction:
                continue
            standing = max(numbers, default=0)
            partner = bool(numbers) and (len(auction) - 1 - auction.index(standing)) % 2 == 1
            situation = 0 if not numbers else 2 * standing - (1 if partner else 0)
            legal = legal_slots(rules, len(auction), situation)
            expected = [REF_PASS in legal_bids(rules, auction),
                        *(n in legal_bids(rules, auction) for n in range(1, rules.max_points + 1)),
                        "moon" in legal_bids(rules, auction)]
            assert legal.tolist() == expected, (rules, auction)
            checked += 1
    assert checked > 10_000


# -- presentation ---------------------------------------------------------------------------------------


def test_changed_lists_only_non_defaults():
    assert Rules(target=11, high="highest").changed() == {"high": "highest", "target": 11}


def test_as_dict_values_are_plain():
    for value in Rules(high="highest").as_dict().values():
        assert type(value) in (bool, int, str)


def test_to_toml_parses_back_for_all_combinations():
    for rules in all_rule_combinations(targets=(21,)):
        data = tomllib.loads(rules.to_toml())
        assert data == rules.as_dict()
        assert Rules.from_mapping(data) == rules


def test_to_toml_documents_every_option():
    text = Rules().to_toml()
    for name in OPTION_NAMES:
        assert f"\n{name} = " in text
        assert OPTION_HELP[name] in text
    assert "# one of: opener, dealer, none" in text


def test_describe_options_gives_every_option_its_kind_default_and_choices():
    described = {entry["name"]: entry for entry in describe_options()}
    assert list(described) == list(OPTION_NAMES)
    assert {name: entry["default"] for name, entry in described.items()} == Rules().as_dict()
    for name, entry in described.items():
        assert entry["help"] == OPTION_HELP[name]
        if entry["kind"] == "choice":  # every choice is accepted, and nothing else is listed
            assert all(Rules.from_mapping({name: choice}) for choice in entry["choices"])
    assert described["forced_bid"]["choices"] == ["opener", "dealer", "none"]
    assert described["round_points"]["kind"] == "bool" and described["target"] == described["target"] | {"min": 1, "max": 1000}
    Rules(round_points=True, min_bid=described["min_bid"]["max"])
    with pytest.raises(RulesError):
        Rules(round_points=True, min_bid=described["min_bid"]["max"] + 1)


def test_whole_number_options_have_a_documented_range(tmp_path):
    # Regression: target=10**30 passed validation, then overflowed the kernels' 64-bit sums.
    assert Rules(target=1).target == 1 and Rules(target=1000).target == 1000
    for target in (0, -5, 1001, 10**30):
        with pytest.raises(RulesError, match=f"^target={target} is out of range: choose a target from 1 to 1000$"):
            Rules(target=target)
    with pytest.raises(RulesError, match="out of range"):
        Rules().with_overrides([f"target={10**30}"])
    path = tmp_path / "house.toml"
    path.write_text(f"target = {2**63 - 1}\n", encoding="utf-8")
    with pytest.raises(RulesError, match="out of range"):
        Rules.from_toml(path)
    with pytest.raises(RulesError, match="out of range"):
        Rules.from_array(np.array([*Rules().to_array()[:-3], 10**6, 2, 4]))
    assert Rules(target=1000).to_array().dtype == np.int64
    text = Rules().to_toml()  # `smear-sim rules --toml` and the rules table show the ranges
    assert "# score that wins the game, 1 to 1000" in text
    assert "# lowest numeric bid, 1 up to the points at stake (4, or 7 with round points)" in text
    assert set(OPTION_RANGES) == {name for name, kind in _FIELD_TYPES.items() if kind is int}


# -- presets ------------------------------------------------------------------------------------------------------


def test_each_preset_sets_only_options_and_is_the_rules_those_options_give():
    from smear_sim.core.rules import PRESETS, preset_settings

    assert list(PRESETS)[:2] == ["minnesota", "minnesota-round-points"]
    assert PRESETS["minnesota"].rules == Rules()  # the default is the seed's game
    assert PRESETS["minnesota-round-points"].rules == Rules(round_points=True)
    for name, preset in PRESETS.items():
        assert set(preset.settings) <= set(OPTION_NAMES) and preset.about
        assert preset_settings(name) == dict(preset.settings)
        assert load_rules(name) == preset.rules == Rules.from_mapping(preset.rules.changed())


def test_rules_by_name_take_overrides_and_a_file_named_like_a_preset_is_read_by_its_path(tmp_path, monkeypatch):
    assert load_rules("minnesota-round-points", ["target=15"]) == Rules(round_points=True, target=15)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "minnesota").write_text("target = 11\n", encoding="utf-8")
    assert load_rules("minnesota") == Rules()  # the name is the preset
    assert load_rules("./minnesota") == Rules(target=11)  # the path is the file
    (tmp_path / "house").write_text("round_points = true\n", encoding="utf-8")
    assert load_rules("house") == Rules(round_points=True)  # a file that is no preset's name


@pytest.mark.parametrize(("value", "fragment"), [
    ("minesota", "'minesota' is not a preset: did you mean minnesota? the presets are minnesota, "
                 "minnesota-round-points (smear-sim rules --list)"),
    ("pitch", "'pitch' is not a preset: the presets are"),
    ("", "--rules needs a preset (minnesota, minnesota-round-points) or the path of a TOML file, got nothing"),
    ("missing.toml", "rules file missing.toml does not exist"),
])
def test_a_name_that_is_no_preset_is_refused_with_the_presets(tmp_path, monkeypatch, value, fragment):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError) as error:
        load_rules(value)
    assert fragment in str(error.value) and "\n" not in str(error.value)
