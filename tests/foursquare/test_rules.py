"""One test per situation of RULES.md."""

import pytest

from foursquare import DECK_SIZE, Card, Game, IllegalMoveError, ParseError

from .helpers import deck_starting_with, game_after

# --- A turn -------------------------------------------------------------------------------


def test_first_card_goes_anywhere_which_fixes_the_frame_at_the_origin():
    game = Game(deck_starting_with("5H"))
    assert game.legal_moves() == [(0, 0)]
    assert game.play((0, 0)).at == (0, 0)


def test_first_card_anywhere_but_the_origin_is_illegal():
    game = Game(deck_starting_with("5H"))
    with pytest.raises(IllegalMoveError, match="move 0"):
        game.play((1, 1))
    assert game.moves_played == 0


def test_new_pile_must_be_orthogonally_adjacent():
    game = game_after(["5H", "6H"], [(0, 0)])
    assert sorted(game.legal_moves()) == [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)]
    with pytest.raises(IllegalMoveError, match="next to one"):
        game.play((1, 1))  # diagonal: touches only a corner


def test_card_may_go_on_an_existing_pile():
    game = game_after(["5H", "6H"], [(0, 0)])
    game.play((0, 0))
    assert game.grid()[(0, 0)].height == 2
    assert game.grid()[(0, 0)].top == Card.parse("6H")


def test_pile_holds_at_most_four_cards():
    game = game_after(["AH", "2H", "3H", "4H", "5H"], [(0, 0)] * 4)
    assert (0, 0) not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="4 cards"):
        game.play((0, 0))


def test_grid_may_not_grow_past_four_columns():
    game = game_after(["AH", "2H", "3H", "4H", "5H"], [(0, 0), (0, 1), (0, 2), (0, 3)])
    assert (0, 4) not in game.legal_moves()
    assert (0, -1) not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="4x4"):
        game.play((0, -1))


def test_grid_floats_left_and_up_from_the_first_card():
    game = game_after(["AH", "2H", "3H", "4H"], [(0, 0), (0, -1), (0, -2), (0, -3)])
    assert game.legal_moves() == sorted(game.legal_moves())
    assert all(-3 <= col <= 0 for _, col in game.legal_moves())


def test_only_the_top_card_counts_for_flips():
    # 9 under the 2 at (0, 0): a 5 placed beside it is compared with the 2, not the 9.
    game = game_after(["9H", "2H", "5H"], [(0, 0), (0, 0)])
    result = game.play((0, 1))
    assert result.flipped == ((0, 0),)  # 5 > 2: the row flips


def test_card_placed_on_face_down_pile_covers_it():
    game = game_after(["5H", "9C", "9D"], [(0, 0), (0, 1)])  # 9 flips the 5 face down
    assert game.face_down == 1
    game.play((0, 0))  # the 9 ties with the other 9, so nothing flips
    assert game.face_down == 0
    assert game.grid()[(0, 0)].face_up


# --- Flipping -----------------------------------------------------------------------------


def test_highest_card_flips_the_row():
    game = game_after(["5H", "9C"], [(0, 0)])
    assert game.play((0, 1)).flipped == ((0, 0),)


def test_lowest_card_flips_the_column():
    game = game_after(["5H", "2C"], [(0, 0)])
    assert game.play((1, 0)).flipped == ((0, 0),)


def test_card_between_others_flips_nothing():
    game = game_after(["2H", "9H", "5C"], [(0, 0), (0, 1)])  # the 9 flips the 2 down
    game.play((0, 0))  # 5 on the face-down 2: row is 5, 9 -> 5 is the lowest, 9 flips
    assert game.grid()[(0, 1)].face_up is False


def test_tie_blocks_row_flip():
    game = game_after(["5H", "5C"], [(0, 0)])
    assert game.play((0, 1)).flipped == ()


def test_tie_with_one_card_blocks_even_when_higher_than_another():
    game = game_after(["5H", "AH", "5C", "9D"], [(0, 0), (0, 1)])
    # The ace flipped the 5 down; put a 5 on the ace's column... build row 5(down), A, then
    # cover (0,0) with a 5: row shows A and the 5 on top of (0,0).
    game.play((0, 0))
    assert game.grid()[(0, 0)].face_up
    result = game.play((0, 2))  # 9: higher than A and 5, row flips
    assert result.flipped == ((0, 0), (0, 1))


def test_tie_in_a_line_of_three_blocks_flip():
    game = game_after(["5H", "3H", "3C"], [(0, 0)])
    game.play((1, 0))  # 3 below 5: lowest, flips the 5 face down
    game.play((0, 0))  # 3 on the 5: column shows 3 and 3 -> tie, nothing flips
    assert game.last_move.flipped == ()


def test_face_down_cards_take_no_part_in_the_comparison():
    game = game_after(["5H", "9C", "7D"], [(0, 0), (0, 1)])  # row: 5 (down), 9 (up)
    # A 7 in the row compares only with the 9: it is the lowest face-up card, so the row flips,
    # including the face-down 5 which turns face up.
    result = game.play((0, 2))
    assert result.flipped == ((0, 0), (0, 1))
    assert game.grid()[(0, 0)].face_up and not game.grid()[(0, 1)].face_up


def test_all_others_face_down_flips_automatically():
    game = game_after(["5H", "9C", "TC", "2D"], [(0, 0), (0, 1)])
    game.play((0, 1))  # T on the 9: row flips (5 was face down -> up)
    assert game.grid()[(0, 0)].face_up is True


def test_placed_card_never_flips_itself():
    game = game_after(["5H", "9C"], [(0, 0)])
    result = game.play((0, 1))
    assert (0, 1) not in result.flipped
    assert game.grid()[(0, 1)].face_up


def test_flipping_toggles_face_down_back_up():
    game = game_after(["5H", "9C", "TC"], [(0, 0), (0, 1)])  # 5 face down
    result = game.play((0, 2))  # T highest: flips 5 up and 9 down
    assert result.flipped == ((0, 0), (0, 1))
    assert game.grid()[(0, 0)].face_up and not game.grid()[(0, 1)].face_up


def test_row_and_column_are_judged_on_the_same_grid():
    # Place at the corner of an L: row and column flip independently in one move.
    game = game_after(["5H", "6H", "7H", "9C"], [(0, 0), (0, 1), (1, 0)])
    before = game.grid()
    result = game.play((1, 1))
    assert set(result.flipped) <= {(1, 0), (0, 1)}
    for position in result.flipped:
        assert game.grid()[position].face_up != before[position].face_up


def test_lone_card_in_its_lines_flips_nothing():
    game = Game(deck_starting_with("5H"))
    assert game.play((0, 0)).flipped == ()


# --- End of the game ----------------------------------------------------------------------


def _game_with_face_down(count: int) -> Game:
    """Play a known deck until ``count`` piles are face down, with a legal move search."""
    game = Game(deck_starting_with("AH"))
    while game.face_down < count:
        for move in game.legal_moves():
            game.play(move)
            if game.face_down <= count and game.status == "playing":
                break
            game.undo()
        else:
            pytest.fail("could not build the position")
    return game


def test_four_face_down_cards_do_not_lose():
    game = game_after(["5H", "9C", "TC", "AD", "2S"], [(0, 0), (0, 1), (0, 2)])
    assert game.face_down <= 4 and game.status == "playing"


def test_more_than_four_face_down_cards_lose():
    from .helpers import VECTORS, load_vector

    vector = load_vector(VECTORS[0])  # ends with 6 face-down cards
    game = Game(vector["deck"])
    for move in vector["moves"]:
        game.play(tuple(move))
    assert game.face_down > 4
    assert game.status == "lost" and game.score is None
    assert game.current is None and game.legal_moves() == []


def test_no_move_after_the_game_is_over():
    from .helpers import VECTORS, load_vector

    vector = load_vector(VECTORS[0])
    game = Game(vector["deck"])
    for move in vector["moves"]:
        game.play(tuple(move))
    with pytest.raises(IllegalMoveError, match="over"):
        game.play((0, 0))


def test_win_scores_the_cards_left_in_the_stock():
    from .helpers import VECTORS, load_vector

    won = [load_vector(path) for path in VECTORS]
    won = [vector for vector in won if vector.get("final", {}).get("status") == "won"]
    assert won
    for vector in won:
        game = Game(vector["deck"])
        for move in vector["moves"]:
            game.play(tuple(move))
        assert game.status == "won"
        assert game.score == DECK_SIZE - len(vector["moves"])
        assert len(game.grid()) == 16 and all(pile.face_up for pile in game.grid().values())


def test_fortieth_card_is_still_played_and_may_win_with_zero():
    from .helpers import VECTORS, load_vector

    vectors = [load_vector(path) for path in VECTORS]
    last_card_wins = [v for v in vectors if v.get("final") == {"status": "won", "score": 0}]
    last_card_loses = [v for v in vectors if "final" in v and len(v["moves"]) == 40
                       and v["final"]["status"] == "lost"]
    assert last_card_wins and last_card_loses
    for vector in last_card_loses:
        game = Game(vector["deck"])
        for move in vector["moves"]:
            game.play(tuple(move))
        assert game.status == "lost" and game.stock == 0


def test_stock_counts_exclude_the_current_card_while_playing():
    game = Game(deck_starting_with("5H"))
    assert game.stock == 39 and game.current == Card.parse("5H")
    result = game.play((0, 0))
    assert result.stock == 39  # in a record: 40 - cards placed
    assert game.stock == 38  # in the player's view: the next card is already drawn


# --- Input --------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [None, "0,0", (0,), (0, 0, 0), (0.0, 0), (True, 0), [0, "0"]])
def test_malformed_position_is_a_parse_error(bad):
    game = Game(deck_starting_with("5H"))
    with pytest.raises(ParseError):
        game.play(bad)
    assert game.moves_played == 0


def test_position_from_json_list_is_accepted():
    game = Game(deck_starting_with("5H"))
    assert game.play([0, 0]).at == (0, 0)


def test_both_errors_are_value_errors():
    assert issubclass(ParseError, ValueError) and issubclass(IllegalMoveError, ValueError)
