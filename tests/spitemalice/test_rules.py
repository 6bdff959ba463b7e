"""The rules of SPITE_MALICE.md, one situation each, on positions built for the purpose."""

import pytest

from spitemalice import Game, IllegalActionError, ParseError, Position, deal
from spitemalice.dealing import RESHUFFLE_LABEL, shuffled

from .support import position_game, snapshot

ELEVEN_CLUBS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC"]


def _stock_top_first(game: Game) -> list[str]:
    return list(game.position().stock)


# --- Who starts and the first draw -------------------------------------------------------------

def test_higher_payoff_top_starts():
    game = Game(bytes.fromhex("313a30"))  # pay-off tops AD and 5C
    assert game.turn == 1 and len(game.hand(1)) == 5 and game.hand(0) == []


def test_equal_payoff_tops_player_zero_starts():
    for n in range(400):
        game = Game(n.to_bytes(4, "big"))
        tops = game.payoff_top(0), game.payoff_top(1)
        if tops[0].rank == tops[1].rank:
            assert game.turn == 0
            return
        assert game.turn == (1 if tops[1].rank > tops[0].rank else 0)
    pytest.fail("no deal with equal pay-off tops in 400 seeds")


def test_first_turn_draws_five_from_the_top_of_the_stock():
    game = Game(b"first draw")
    dealt = [str(card) for card in deal(b"first draw")]
    assert sorted(str(c) for c in game.hand(game.turn)) == sorted(dealt[40:45])
    assert game.stock_size == 59 and game.payoff_size(0) == game.payoff_size(1) == 20


# --- Plays onto the centre stacks ---------------------------------------------------------------

def test_ace_goes_on_an_empty_stack():
    game = position_game(hands=(["AH", "2H"], []))
    result = game.play(["AH", "C1"])
    assert (str(result.card), result.counts_as, result.completed) == ("AH", 1, False)
    assert [len(stack) for stack in game.centre_stacks()] == [0, 1, 0]


def test_a_card_goes_only_on_a_stack_needing_its_rank():
    game = position_game(hands=(["3H", "2H"], []), centre=(["AC"], [], ["AD", "2D"]))
    with pytest.raises(IllegalActionError, match=r'action 0: cannot play \["3H", "C0"\]'):
        game.play(["3H", "C0"])
    assert ("3H", "C2") in game.legal_actions() and ("2H", "C0") in game.legal_actions()
    assert game.play(["3H", "C2"]).counts_as == 3


def test_king_counts_as_ace_on_empty_stack():
    game = position_game(hands=(["KD", "2H"], []))
    result = game.play(["KD", "C0"])
    assert result.counts_as == 1
    assert game.play(["2H", "C0"]).counts_as == 2


def test_king_counts_as_the_stacks_next_rank():
    game = position_game(hands=(["KS", "5H"], []), centre=(["AC", "2C", "3C"],))
    assert game.play(["KS", "C0"]).counts_as == 4
    assert game.play(["5H", "C0"]).counts_as == 5


def test_king_fits_every_centre_stack():
    game = position_game(hands=(["KS"], []), centre=(["AC"], ["AD", "2D"], []))
    assert [a for a in game.legal_actions() if a.target.startswith("C")] == [
        ("KS", "C0"), ("KS", "C1"), ("KS", "C2")]


def test_payoff_top_plays_and_the_next_card_turns_up():
    game = position_game(hands=(["9H"], []), payoffs=(["AS", "7D", "3C"], ["9D"]))
    result = game.play(["P", "C0"])
    assert str(result.card) == "AS"
    assert str(game.payoff_top(0)) == "7D" and game.payoff_size(0) == 2


def test_only_the_top_of_a_side_stack_plays():
    game = position_game(hands=(["9H"], []), sides=([["AS", "4D"]], []))
    assert ("S0", "C0") not in game.legal_actions()
    game_with_ace_on_top = position_game(hands=(["9H"], []), sides=([["4D", "AS"]], []))
    assert str(game_with_ace_on_top.play(["S0", "C0"]).card) == "AS"
    assert [str(c) for c in game_with_ace_on_top.side_stacks(0)[0]] == ["4D"]


def test_sources_are_always_the_movers_own_piles():
    game = position_game(turn=1, hands=(["AH"], ["9H"]), payoffs=(["AS"], ["9D"]),
                         sides=([["AC"]], []))
    with pytest.raises(IllegalActionError, match="side stack S0 is empty"):
        game.play(["S0", "C0"])
    with pytest.raises(IllegalActionError, match="not in player 1's hand"):
        game.play(["AH", "C0"])
    with pytest.raises(IllegalActionError, match="9D does not fit"):
        game.play(["P", "C0"])


def test_no_card_is_taken_back_from_a_centre_stack():
    with pytest.raises(ParseError, match="invalid action"):
        position_game(hands=(["9H"], []), centre=(["AC"],)).play(["C0", "S0"])


# --- The discard -------------------------------------------------------------------------------

def test_discard_ends_turn():
    game = position_game(hands=(["9H", "4S"], ["2C"]))
    stock_before = _stock_top_first(game)
    result = game.play(["9H", "S2"])
    assert (result.player, result.counts_as, result.completed) == (0, None, False)
    assert game.turn == 1 and game.turn_number == 2
    assert [str(c) for c in game.side_stacks(0)[2]] == ["9H"]
    # The next player draws to five from the top of the stock.
    assert sorted(str(c) for c in game.hand(1)) == sorted(["2C", *stock_before[:4]])
    assert game.stock_size == len(stock_before) - 4


def test_discard_goes_on_any_side_stack_whatever_is_there():
    game = position_game(hands=(["KH", "2S"], []), sides=([["5D"], ["QS"], [], ["KC"]], []))
    discards = [a for a in game.legal_actions() if a.source == "KH" and a.target.startswith("S")]
    assert discards == [("KH", "S0"), ("KH", "S1"), ("KH", "S2"), ("KH", "S3")]
    game.play(["KH", "S1"])
    assert [str(c) for c in game.side_stacks(0)[1]] == ["QS", "KH"]


def test_payoff_and_side_cards_cannot_be_discarded():
    game = position_game(hands=(["9H"], []), sides=([["4D"]], []))
    for action in (["P", "S1"], ["S0", "S1"], ["S0", "S0"]):
        with pytest.raises(IllegalActionError, match="only a card from the hand"):
            game.play(action)


def test_a_turn_never_passes_a_discard_is_always_there():
    game = position_game(hands=(["9H"], []))
    assert [a for a in game.legal_actions() if a.target.startswith("S")] == [
        ("9H", "S0"), ("9H", "S1"), ("9H", "S2"), ("9H", "S3")]


# --- The empty-hand refill ---------------------------------------------------------------------

def test_empty_hand_refills_mid_turn():
    game = position_game(hands=(["AH"], []))
    stock_before = _stock_top_first(game)
    game.play(["AH", "C0"])
    assert game.turn == 0 and game.turn_number == 1  # still the same turn
    assert sorted(str(c) for c in game.hand(0)) == sorted(stock_before[:5])


def test_empty_hand_refill_draws_what_there_is():
    stock = ["2C", "3C"]
    base = Position.build(hands=(["AH"], []), payoffs=(["9C"], ["9D"]))
    rest = list(base.stock)
    for code in stock:
        rest.remove(code)
    # The other cards go under the pay-off piles, so the stock holds only two.
    half = len(rest) // 2
    game = Game.from_position(Position.build(
        hands=(["AH"], []), payoffs=(["9C", *rest[:half]], ["9D", *rest[half:]]), stock=stock))
    game.play(["AH", "C0"])
    assert sorted(str(c) for c in game.hand(0)) == ["2C", "3C"] and game.stock_size == 0
    assert game.status == "playing"


def test_discard_that_empties_the_hand_draws_nothing_until_the_next_turn():
    game = position_game(hands=(["9H"], ["2C"]))
    game.play(["9H", "S0"])
    assert game.hand(0) == [] and game.turn == 1
    game.play([str(game.hand(1)[0]), "S0"])
    assert len(game.hand(0)) == 5 and game.turn == 0


# --- Completed stacks --------------------------------------------------------------------------

def test_completed_stack_is_reshuffled_into_stock():
    game = position_game(seed=b"reshuffle", hands=(["QH", "2S"], []), centre=(ELEVEN_CLUBS,),
                         completions=2)
    stock_before = _stock_top_first(game)
    result = game.play(["QH", "C0"])
    assert (result.counts_as, result.completed) == (12, True)
    # Stock top to bottom, then the stack bottom to top, shuffled with k = 3.
    expected = shuffled(stock_before + ELEVEN_CLUBS + ["QH"], b"reshuffle",
                        RESHUFFLE_LABEL + (3).to_bytes(8, "big"))
    assert _stock_top_first(game) == expected
    assert game.centre_stacks()[0] == [] and game.completions == 3


def test_king_on_a_jack_completes_the_stack_as_a_queen():
    game = position_game(hands=(["KH", "2S"], []), centre=(ELEVEN_CLUBS,))
    result = game.play(["KH", "C0"])
    assert (result.counts_as, result.completed) == (12, True)
    assert game.stock_size == 89 + 12  # 104 less 11 on C0, 2 in hand, 2 pay-off cards; then + 12


def test_completion_reshuffles_before_the_empty_hand_refill():
    game = position_game(seed=b"order", hands=(["QH"], []), centre=(ELEVEN_CLUBS,))
    stock_before = _stock_top_first(game)
    game.play(["QH", "C0"])
    reshuffled = shuffled(stock_before + ELEVEN_CLUBS + ["QH"], b"order",
                          RESHUFFLE_LABEL + (1).to_bytes(8, "big"))
    assert sorted(str(c) for c in game.hand(0)) == sorted(reshuffled[:5])


# --- The end -----------------------------------------------------------------------------------

def test_playing_the_last_payoff_card_wins_with_the_opponents_payoff_as_points():
    game = position_game(hands=(["9H"], []), payoffs=(["AS"], ["9D", "8D", "7D"]))
    game.play(["P", "C0"])
    assert (game.status, game.winner, game.points, game.turn) == ("won", 0, 3, None)
    assert game.legal_actions() == []


def test_win_is_checked_after_the_completion_and_before_the_refill():
    game = position_game(hands=(["KH"], []), payoffs=(["QS"], ["9D", "8D"]),
                         centre=(ELEVEN_CLUBS, ["AD"]))
    game.play(["KH", "C1"])  # empties the hand: refilled
    assert len(game.hand(0)) == 5
    result = game.play(["P", "C0"])
    assert result.completed and game.status == "won" and game.points == 2
    assert game.centre_stacks()[0] == [] and game.completions == 1


def test_tie_when_draw_needed_and_stock_empty():
    everything_else = list(Position.build(hands=(["9H", "4S"], ["2C"])).stock)
    game = Game.from_position(Position.build(
        hands=(["9H", "4S"], ["2C"]), payoffs=(everything_else[:50], everything_else[50:]),
        stock=[]))
    game.play(["9H", "S0"])
    assert (game.status, game.winner, game.points, game.turn) == ("tied", None, 0, None)


def test_tie_when_the_empty_hand_refill_finds_the_stock_empty():
    everything_else = list(Position.build(hands=(["AH"], [])).stock)
    game = Game.from_position(Position.build(
        hands=(["AH"], []), payoffs=(everything_else[:50], everything_else[50:]), stock=[]))
    result = game.play(["AH", "C0"])
    assert result.counts_as == 1 and (game.status, game.points) == ("tied", 0)


def test_tie_after_the_300th_turn():
    game = position_game(hands=(["9H", "4S"], ["2C"]), turn_number=299)
    game.play(["9H", "S0"])
    assert game.status == "playing" and game.turn_number == 300
    game.play([str(game.hand(1)[0]), "S0"])
    assert (game.status, game.points, game.turn) == ("tied", 0, None)
    assert game.turn_number == 300


def test_no_action_once_the_game_is_over():
    game = position_game(hands=(["9H"], []), payoffs=(["AS"], ["9D"]))
    game.play(["P", "C0"])
    with pytest.raises(IllegalActionError, match=r"action 1: .*the game is over \(won\)"):
        game.play(["9H", "S0"])


def test_an_illegal_action_leaves_the_game_unchanged():
    game = Game(b"unchanged")
    before = snapshot(game)
    for action in (["P", "S0"], ["QQ", "C0"], ["S0", "C0"], ("P", "C5"), "P>C0", [["P"], "C0"]):
        with pytest.raises(ValueError, match="action 0"):
            game.play(action)
        assert snapshot(game) == before


def test_from_position_rejects_cards_that_do_not_add_up():
    with pytest.raises(ParseError, match="exactly twice"):
        Game.from_position(Position.build(hands=(["9H"], []), payoffs=(["9H"], ["9H"]), stock=[]))
    with pytest.raises(ParseError, match="invalid card code"):
        position_game(hands=(["9X"], []))
    with pytest.raises(ParseError, match="cannot be card 2"):
        position_game(hands=(["9H"], []), centre=(["AC", "3C"],))


def test_the_worked_example_of_the_rules_page():
    """docs/SPITE_MALICE.md, "A worked example", action by action."""
    game = position_game(
        hands=(["2C", "3S", "7H", "8H", "KD"], []),
        payoffs=(["4D", "6C", "QH"], ["9D"]),
        sides=([["9S"], ["JD", "5C"]], []),
        centre=(["AH"], ["AS", "2D", "3H", "4C", "5S", "6H", "7D", "KC", "9S", "TD"]),
    )
    steps = [
        (["2C", "C0"], "2C", 2), (["3S", "C0"], "3S", 3), (["P", "C0"], "4D", 4),
        (["S1", "C0"], "5C", 5), (["P", "C0"], "6C", 6), (["7H", "C0"], "7H", 7),
        (["8H", "C0"], "8H", 8), (["S0", "C0"], "9S", 9), (["S1", "C1"], "JD", 11),
    ]
    for action, card, counts_as in steps:
        result = game.play(action)
        assert (str(result.card), result.counts_as, result.completed) == (card, counts_as, False)
    assert str(game.payoff_top(0)) == "QH" and game.payoff_size(0) == 1
    stock_before = game.stock_size
    result = game.play(["KD", "C1"])
    assert (result.counts_as, result.completed) == (12, True)
    assert game.centre_stacks()[1] == [] and len(game.centre_stacks()[0]) == 9
    assert len(game.hand(0)) == 5 and game.turn == 0  # refilled, still player 0's turn
    assert game.stock_size == stock_before + 12 - 5
    game.play([str(game.hand(0)[0]), "S0"])
    assert game.turn == 1 and game.turn_number == 2


def test_a_copy_and_its_original_both_undo_a_completion():
    game = position_game(seed=b"copy", hands=(["QH"], []), centre=(ELEVEN_CLUBS,))
    before = game.position()
    game.play(["QH", "C0"])
    twin = game.copy()
    twin.play([str(twin.hand(0)[0]), "S0"])
    twin.undo()
    twin.undo()
    game.undo()
    assert game.position() == twin.position() == before


def test_a_position_read_from_json_plays_like_any_other():
    built = Position.build(hands=(["AH"], []), payoffs=(["9C"], ["9D"]))
    status = "".join(["play", "ing"])  # equal to "playing", but not the same string object
    game = Game.from_position(Position(**{**built.__dict__, "status": status}))
    assert game.play(["AH", "C0"]).counts_as == 1
    with pytest.raises(ParseError, match="a status is"):
        Game.from_position(Position(**{**built.__dict__, "status": "paused"}))


def test_the_two_copies_of_a_card_are_interchangeable():
    game = position_game(hands=(["9H", "9H", "AS"], []))
    assert [a for a in game.legal_actions() if a.source == "9H"] == [
        ("9H", "S0"), ("9H", "S1"), ("9H", "S2"), ("9H", "S3")]  # listed once
    game.play(["9H", "S0"])
    game.play([str(game.hand(1)[0]), "S0"])
    assert [str(c) for c in game.hand(0)].count("9H") == 1


def test_turn_start_draws_what_there_is_when_the_stock_is_short():
    base = Position.build(hands=(["9H", "4S"], ["2C"]), payoffs=(["9C"], ["9D"]))
    rest = list(base.stock)
    stock, rest = rest[:2], rest[2:]
    game = Game.from_position(Position.build(
        hands=(["9H", "4S"], ["2C"]), payoffs=(["9C", *rest[:40]], ["9D", *rest[40:]]),
        stock=stock))
    game.play(["9H", "S0"])
    assert game.status == "playing" and game.stock_size == 0
    assert sorted(str(c) for c in game.hand(1)) == sorted(["2C", *stock])
