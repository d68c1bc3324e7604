"""The strategy advisor: every class read back exactly, suit renamings agree, damaged files refused."""
import gzip
import itertools
import json
import random
import shutil
from fractions import Fraction

import numpy as np
import pytest

import support
from analyzer import advisor
from analyzer.formats import strategy_file
from analyzer.core.cards import CardError
from analyzer.games.baccarat.advice import shoe_query
from analyzer.games.baccarat.shoe import remove_cards
from analyzer.core.errors import InputError
from analyzer.poker.strategy_file import STRATEGY_FILES, packed_keys, played_masks

SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def rename(cards, perm):
    return [(c // 4) * 4 + perm[c % 4] for c in cards]


@pytest.fixture(scope="module")
def holdem(holdem_results):
    return advisor.load_strategy(holdem_results / "strategy.bin.gz")


def test_every_holdem_class_reads_back(holdem, holdem_analysis):
    priced = holdem_analysis.priced
    answers = holdem.decide_many(holdem_analysis.table.keys)
    call, tie = priced.optimal_call()
    assert (answers["ev_play"] == priced.ev_call).all()
    assert (answers["decision"] == np.where(tie, 2, call.astype(np.uint8))).all()
    assert holdem.denominator == priced.denominator


def test_suit_renamings_agree(holdem):
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(range(52), 5)
        answers = {json.dumps(holdem.decide_cards([rename(cards[:2], p), rename(cards[2:], p)]).as_json())
                   for p in SUIT_PERMUTATIONS}
        assert len(answers) == 1


def test_single_and_batch_agree(holdem):
    rng = random.Random(6)
    deals = np.array([rng.sample(range(52), 5) for _ in range(500)], dtype=np.uint8)
    batch = holdem.decide_many(deals)
    for deal, code, ev in zip(deals.tolist(), batch["decision"].tolist(), batch["ev_play"].tolist()):
        answer = holdem.decide_cards([deal[:2], deal[2:]])
        assert answer.ev["call"] == Fraction(ev, holdem.denominator)
        assert answer.decision == ["fold", "call", "either"][code]


def test_decide_text(holdem):
    answer = holdem.decide("Ah Kd", "Qs 7h 2c")
    assert answer.decision == "call" and answer.ev["fold"] == -1
    assert answer.margin == answer.ev["call"] + 1
    with pytest.raises(CardError, match="both"):
        holdem.decide("Ah Kd", "Ah 7h 2c")
    with pytest.raises(CardError, match="needs 2"):
        holdem.decide("Ah", "Qs 7h 2c")


def copy_folder(source, tmp_path):
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def test_corrupted_file_is_refused(holdem_results, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)
    data = bytearray((folder / "strategy.bin.gz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (folder / "strategy.bin.gz").write_bytes(bytes(data))
    with pytest.raises(advisor.StrategyError, match="sha256 differs"):
        advisor.load_strategy(folder / "strategy.bin.gz")
    with pytest.raises(advisor.StrategyError):          # and without the manifest, gzip's CRC catches it
        advisor.load_strategy(folder / "strategy.bin.gz", check_manifest=False)


def test_truncated_file_is_refused(holdem_results, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)
    data = (folder / "strategy.bin.gz").read_bytes()
    (folder / "strategy.bin.gz").write_bytes(data[: len(data) // 3])
    with pytest.raises(advisor.StrategyError):
        advisor.load_strategy(folder / "strategy.bin.gz")
    with pytest.raises(advisor.StrategyError, match="gzip"):
        advisor.load_strategy(folder / "strategy.bin.gz", check_manifest=False)


def test_wrong_version_is_refused(holdem_results, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)
    raw = gzip.decompress((folder / "strategy.bin.gz").read_bytes())
    raw = raw.replace(b"TGA-STRATEGY 1\n", b"TGA-STRATEGY 2\n", 1)
    (folder / "strategy.bin.gz").write_bytes(gzip.compress(raw))
    with pytest.raises(advisor.StrategyError, match="version 2"):
        advisor.load_strategy(folder / "strategy.bin.gz", check_manifest=False)


def test_mismatched_rules_are_refused(holdem_results, tmp_path):
    folder = copy_folder(holdem_results, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["rule_file"]["sha256"] = "0" * 64
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(advisor.StrategyError):
        advisor.load_strategy(folder / "strategy.bin.gz")


def test_the_basic_strategy_file_plays_the_card(holdem_results, holdem_analysis):
    basic = advisor.load_strategy(holdem_results / "strategy_basic.bin.gz")
    answers = basic.decide_many(holdem_analysis.table.keys)
    assert (answers["decision"] == holdem_analysis.strategies["basic"].call).all()
    assert (answers["ev_play"] == holdem_analysis.priced.ev_call).all()
    # "Jc 3s / Qd 8h 4c": the optimal play folds; the card's rule 7 (a ten or higher, board not monotone) calls
    assert basic.decide("Jc 3s", "Qd 8h 4c").decision == "call"


def test_baccarat_advisor(tmp_path, baccarat_rules, quick_checks):
    folder, = support.run_game("baccarat", tmp_path, checks=quick_checks)
    strategy = advisor.load_strategy(folder / "strategy.bin.gz")
    _, rules = baccarat_rules
    shoe = remove_cards(rules.full_shoe(), "5,5,9,K")
    answer = strategy.decide(shoe)
    assert answer.ev == shoe_query(shoe, rules)["ev"] and answer.decision == "banker"
    assert strategy.full_shoe == rules.full_shoe()


def plain_packed(keys):
    """The plain readings: NumPy's packing, sortedness and one table write per byte."""
    packed = strategy_file.pack_keys(keys)
    seen = np.zeros(256, dtype=bool)
    seen[np.asarray(keys, dtype=np.uint8).ravel()] = True
    return packed, bool(len(packed) < 2 or (packed[1:] > packed[:-1]).all()), seen


@pytest.mark.parametrize("seed", range(6))
def test_packed_keys_agree_with_the_plain_readings(seed):
    rng = np.random.default_rng(seed)
    width = int(rng.integers(1, 9))
    for rows in (0, 1, 2, int(rng.integers(3, 5000))):
        values = rng.choice(256, int(rng.integers(1, 60)), replace=False)
        keys = rng.choice(values, (rows, width)).astype(np.uint8)
        ordered = np.unique(keys, axis=0)                           # sorted and unique rows
        repeated = np.repeat(ordered, 2, axis=0)[:max(len(ordered), 2)]
        for table in (keys, ordered, repeated):
            for layout in (table, np.ascontiguousarray(table.T).T):   # rows, and a file's planes read in place
                packed, increasing, present = packed_keys(layout)
                expected = plain_packed(table)
                assert packed.tolist() == expected[0].tolist() and increasing == expected[1]
                assert np.array_equal(present, expected[2])


def test_packed_keys_refuse_rows_wider_than_eight_bytes():
    with pytest.raises(ValueError, match="at most 8"):
        packed_keys(np.zeros((3, 9), dtype=np.uint8))


def test_the_deck_is_read_off_strided_key_planes(holdem_analysis):
    keys = holdem_analysis.table.keys
    planes = np.ascontiguousarray(keys.T).T                # the file's layout: planes, read as rows
    assert advisor.deck_of_cards(packed_keys(planes)[2]) == advisor.deck_of_cards(
        packed_keys(keys)[2]) == tuple(range(52))


def test_folder_strategies_read_as_the_plain_reader_reads_each_file(holdem_results):
    """The verification's reading of a folder against `load_strategy` of each file: the same keys and
    decisions (the basic file sharing the optimal file's packed keys), the optimal file's EVs and weights."""
    loaded = advisor.load_folder_strategies(holdem_results)
    plain = {name: advisor.load_strategy(holdem_results / file) for name, file in STRATEGY_FILES.items()}
    assert set(loaded) == set(plain) == {"optimal", "basic"}
    for name, strategy in loaded.items():
        assert np.array_equal(strategy.packed, plain[name].packed)
        assert np.array_equal(strategy.decisions, plain[name].decisions)
        assert strategy.deck == plain[name].deck and strategy.game == plain[name].game
    assert loaded["basic"].packed is loaded["optimal"].packed            # equal key bytes: packed once
    assert np.array_equal(loaded["optimal"].ev_play, plain["optimal"].ev_play)
    assert np.array_equal(loaded["optimal"].weights, plain["optimal"].weights)
    assert not hasattr(loaded["basic"], "ev_play")                      # its EVs are inflated, not kept


def test_folder_strategies_given_the_counted_keys_share_them_or_keep_their_own(holdem_analysis, holdem_results):
    """Given the counted keys (the verification), a file whose keys are those rows holds that very
    array; given keys one byte off, each file keeps its own keys and the check names the file."""
    counted = holdem_analysis.table.keys
    plain = advisor.load_folder_strategies(holdem_results)
    given = advisor.load_folder_strategies(holdem_results, expected={"key": counted})
    assert all(strategy.keys.holds(counted) for strategy in given.values())
    assert given["optimal"].keys._column is counted and given["basic"].keys is given["optimal"].keys
    for name, strategy in given.items():
        assert np.array_equal(strategy.decisions, plain[name].decisions)
        assert np.array_equal(strategy.packed, plain[name].packed)
    other = np.array(counted)
    other[len(other) // 2, 0] ^= 1
    differing = advisor.load_folder_strategies(holdem_results, expected={"key": other})
    assert all(np.array_equal(strategy.packed, plain[name].packed) for name, strategy in differing.items())
    with pytest.raises(InputError, match="strategy.bin.gz: its situation keys are not the classes"):
        played_masks(holdem_results, other, differing)


def test_decisions_with_other_keys_are_packed_and_checked_on_their_own(holdem_results):
    header, columns = strategy_file.decode((holdem_results / "strategy_basic.bin.gz").read_bytes())
    optimal = advisor.load_strategy(holdem_results / "strategy.bin.gz")
    other = np.array(columns["key"])
    other[-1, -1] ^= 1                                                   # one byte differs
    decisions = advisor.PokerDecisions(header, columns, (optimal, other))
    assert decisions.packed is not optimal.packed and np.array_equal(decisions.packed, optimal.packed)
    unsorted = dict(columns, key=columns["key"][::-1])
    with pytest.raises(advisor.StrategyError, match="not sorted"):
        advisor.PokerDecisions(header, unsorted, (optimal, columns["key"]))
