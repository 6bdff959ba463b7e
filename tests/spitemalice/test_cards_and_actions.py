"""Cards, actions and the seeded shuffles: canonical text both ways, strict parsing."""

from collections import Counter

import pytest

from spitemalice import ALL_CARDS, DECK_SIZE, Action, Card, ParseError, deal
from spitemalice.dealing import DEAL_LABEL, RESHUFFLE_LABEL, shuffled


def test_card_text_round_trips_for_all_52_codes():
    assert len(ALL_CARDS) == 52
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
        assert eval(repr(card)) is card
        assert Card.from_id(card.id) is card


def test_card_ranks_count_ace_one_to_king_thirteen():
    assert [Card.parse(code + "H").rank for code in "A23456789TJQK"] == list(range(1, 14))
    assert Card.parse("KD").is_king and not Card.parse("QD").is_king


@pytest.mark.parametrize("code", ["kd", "1H", "KX", "K", "KDD", "", "10H", None, 7])
def test_card_parse_rejects_anything_else_and_names_it(code):
    with pytest.raises(ParseError, match="invalid card code"):
        Card.parse(code)


def test_cards_sort_by_rank_then_suit():
    codes = ["KD", "2S", "AH", "2C", "AC"]
    assert [str(card) for card in sorted(Card.parse(code) for code in codes)] == [
        "AC", "AH", "2C", "2S", "KD"]


@pytest.mark.parametrize("notation", [["P", "C0"], ["S2", "C1"], ["7H", "S3"], ["KD", "C2"]])
def test_action_record_notation_round_trips(notation):
    action = Action.parse(notation)
    assert action.to_json() == notation
    assert action == tuple(notation)
    assert Action.parse(tuple(notation)) is action


def test_action_readable_text_round_trips():
    action = Action.parse(["S2", "C1"])
    assert str(action) == "S2>C1"
    assert Action.from_text("S2>C1") is action
    assert eval(repr(action)) == action


@pytest.mark.parametrize(
    "value",
    [["P"], ["P", "C0", "x"], ["p", "C0"], ["P", "c0"], ["P", "C3"], ["P", "S4"], ["P", "P"],
     ["C0", "C1"], ["kc", "C0"], "P>C0", [1, 2], None, {"P": "C0"}],
)
def test_action_parse_rejects_anything_else_and_names_it(value):
    with pytest.raises(ParseError, match="invalid action"):
        Action.parse(value)


@pytest.mark.parametrize("text", ["P->C0", "P C0", "p>c0", "P>C0>S1", ""])
def test_action_text_rejects_anything_else(text):
    with pytest.raises(ParseError, match=repr(text).replace("[", r"\[")):
        Action.from_text(text)


def test_deal_has_two_of_every_card_and_is_deterministic():
    dealt = deal(b"seed")
    assert len(dealt) == DECK_SIZE
    assert set(Counter(dealt).values()) == {2} and len(set(dealt)) == 52
    assert deal(b"seed") == dealt and deal(b"other seed") != dealt


def test_deal_matches_the_shared_first_vector():
    dealt = [str(card) for card in deal(bytes.fromhex("313a30"))]
    assert (dealt[0], dealt[20]) == ("AD", "5C")  # the two pay-off tops
    assert dealt[40:45] == ["KS", "4H", "9D", "9H", "KC"]  # player 1's first draw


def test_deal_rejects_a_seed_that_is_not_bytes():
    with pytest.raises(TypeError):
        deal("seed")  # type: ignore[arg-type]


def test_shuffle_is_fisher_yates_with_rejection_on_the_labelled_stream():
    items = list(range(10))
    assert shuffled(items, b"k", DEAL_LABEL) == shuffled(items, b"k", DEAL_LABEL)
    assert shuffled(items, b"k", DEAL_LABEL) != shuffled(items, b"k", RESHUFFLE_LABEL)
    assert sorted(shuffled(items, b"k", DEAL_LABEL)) == items
    assert shuffled([], b"k", DEAL_LABEL) == [] and shuffled([1], b"k", DEAL_LABEL) == [1]


def test_shuffle_skips_a_word_that_would_bias_the_draw(monkeypatch):
    from spitemalice import dealing

    # For i = 2 (j in 0..2) only the word 2**32 - 1 is at or above 2**32 - (2**32 mod 3).
    stream = [0xFFFFFFFF, 4, 7]  # 4 -> j = 4 mod 3 = 1 for i = 2; then 7 -> j = 7 mod 2 = 1
    monkeypatch.setattr(dealing, "_blocks", lambda seed, prefix, first, count: (
        stream[first * 8:] if first == 0 else [0] * 8))
    assert dealing.shuffled(["a", "b", "c"], b"k", b"p") == ["a", "c", "b"]
