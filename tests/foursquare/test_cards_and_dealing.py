"""Cards, decks and deterministic dealing."""

import hashlib

import pytest

from foursquare import ALL_CARDS, Card, ParseError, deal, parse_deck
from foursquare.dealing import STREAM_LABEL


def test_card_text_round_trips_for_every_card():
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
        assert eval(repr(card), {"Card": Card}) == card


def test_ten_is_written_t_and_ace_a():
    assert Card.parse("TH").rank == 10 and Card.parse("TH").suit == "H"
    assert Card.parse("AS").rank == 1


@pytest.mark.parametrize("code", ["", "1H", "KH", "JD", "QS", "th", "AX", "10H", "AHH", 7, None])
def test_bad_card_codes_are_rejected_with_the_code_quoted(code):
    with pytest.raises(ParseError, match="invalid card code"):
        Card.parse(code)


def test_deck_must_have_forty_cards():
    with pytest.raises(ParseError, match="40 cards, got 39"):
        parse_deck([str(card) for card in ALL_CARDS[:39]])


def test_deck_rejects_a_duplicate_naming_it():
    codes = [str(card) for card in ALL_CARDS]
    codes[5] = codes[0]
    with pytest.raises(ParseError, match="position 5: card 'AC' appears twice"):
        parse_deck(codes)


def test_deck_rejects_a_bad_code_naming_it():
    codes = [str(card) for card in ALL_CARDS]
    codes[12] = "KH"
    with pytest.raises(ParseError, match=r"position 12.*'KH'"):
        parse_deck(codes)


def test_deck_rejects_plain_text():
    with pytest.raises(ParseError):
        parse_deck("AC 2C 3C")


def test_deal_is_a_permutation_of_the_forty_cards():
    deck = deal(b"seed")
    assert sorted(card.id for card in deck) == list(range(40))


def test_deal_is_deterministic_and_seed_sensitive():
    assert deal(b"seed") == deal(b"seed")
    assert deal(b"seed") != deal(b"seed2")


def test_deal_matches_the_documented_algorithm():
    """An independent transcription of the algorithm in foursquare/dealing.py's docstring."""
    seed = b"2026-11-29"

    def words():
        counter = 0
        while True:
            import hmac

            block = hmac.new(seed, STREAM_LABEL + counter.to_bytes(8, "big"),
                             hashlib.sha256).digest()
            yield from (int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4))
            counter += 1

    stream = words()
    deck = list(ALL_CARDS)
    for i in range(39, 0, -1):
        bound = i + 1
        while (word := next(stream)) >= 2**32 - 2**32 % bound:
            pass
        j = word % bound
        deck[i], deck[j] = deck[j], deck[i]
    assert deal(seed) == tuple(deck)


def test_deal_is_pinned_across_versions():
    # A fixed expectation: if this changes, every past daily deal would change.
    assert [str(card) for card in deal(b"foursquare")[:8]] == PINNED_FIRST_EIGHT


def test_deal_rejects_text_seeds():
    with pytest.raises(TypeError):
        deal("not bytes")


def test_first_card_positions_spread_evenly_over_many_seeds():
    counts = [0] * 40
    for n in range(4000):
        counts[deal(n.to_bytes(4, "big"))[0].id] += 1
    assert min(counts) > 50 and max(counts) < 160  # expected 100 each


PINNED_FIRST_EIGHT = ["TC", "7C", "TS", "4C", "4H", "5D", "8C", "3D"]
