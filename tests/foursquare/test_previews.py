"""``move_previews``: what each legal move would do, exactly as playing it does, and computed
from nothing a player cannot see."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare import ALL_CARDS, Game, move_previews, player_view

from .helpers import deck_starting_with
from .test_properties import games


def _played(deck, moves) -> Game:
    game = Game(deck)
    for move in moves:
        game.play(move)
    return game


@settings(max_examples=150, deadline=None)
@given(games())
def test_each_preview_is_what_playing_that_move_does(game):
    before = player_view(game), game.history
    previews = move_previews(game)
    assert (player_view(game), game.history) == before  # previewing changes nothing
    assert [preview["at"] for preview in previews] == [list(m) for m in game.legal_moves()]
    for preview in previews:
        result = game.copy().play(tuple(preview["at"]))
        assert preview == {"at": list(result.at),
                           "flipped": [list(position) for position in result.flipped],
                           "face_down": result.face_down, "status": result.status}


def test_a_finished_game_has_no_previews():
    game = _played(deck_starting_with("5C", "7C", "3C", "8C", "2C", "9C"),
                   [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)])
    while game.status == "playing":
        game.play(game.legal_moves()[0])
    assert move_previews(game) == []


def test_a_hidden_rank_and_the_stock_do_not_change_the_previews():
    # 5 then 7 beside it turns the 5 face down; so does 2 then 7. Same table, same 3 to play,
    # different face-down rank and a different stock behind.
    five = _played(deck_starting_with("5C", "7C", "3C"), [(0, 0), (0, 1)])
    two_deck = deck_starting_with("2C", "7C", "3C")
    two = _played(two_deck[:3] + two_deck[3:][::-1], [(0, 0), (0, 1)])
    assert player_view(five) == player_view(two)
    assert five.grid()[(0, 0)].top != two.grid()[(0, 0)].top
    assert move_previews(five) == move_previews(two)
    # And the preview is not blind: a 3 at (0, 2) is between nothing face up, so it turns both.
    preview = {tuple(p["at"]): p for p in move_previews(five)}[(0, 2)]
    assert preview["flipped"] == [[0, 0], [0, 1]] and preview["face_down"] == 1


@settings(max_examples=100, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_games_that_look_the_same_preview_the_same(game, rng: random.Random):
    """Another deck that gives the same view after the same moves (a reshuffled stock, and a
    face-down top swapped for a card of another rank wherever the table comes out the same)
    gives the same previews."""
    if game.status != "playing":
        return
    moves = game.moves
    drawn = game.moves_played + 1
    deck = list(game.deck)
    stock = deck[drawn:]
    rng.shuffle(stock)
    candidates = [deck[:drawn] + stock]
    hidden = [index for index, result in enumerate(game.history)
              if not game.grid()[result.at].face_up and game.grid()[result.at].top == result.card]
    for index in hidden:
        for other in range(drawn, len(deck)):
            if deck[other].rank != deck[index].rank:
                swapped = list(candidates[0])
                swapped[index], swapped[other] = swapped[other], swapped[index]
                candidates.append(swapped)
    view, previews = player_view(game), move_previews(game)
    for cards in candidates:
        other = Game(cards)
        try:
            for move in moves:
                other.play(move)
        except ValueError:
            continue  # that deck ended the game sooner, or made a move illegal
        if player_view(other) == view:
            assert move_previews(other) == previews


def test_the_swap_search_finds_games_that_differ_only_where_nobody_sees():
    """The property above is not vacuous: some face-down rank swaps keep the same view."""
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(rng.sample(ALL_CARDS, len(ALL_CARDS)))
        while game.status == "playing" and game.moves_played < 12:
            game.play(rng.choice(game.legal_moves()))
        if game.status != "playing":
            continue
        deck, drawn = list(game.deck), game.moves_played + 1
        for index, result in enumerate(game.history):
            pile = game.grid()[result.at]
            if pile.face_up or pile.top != result.card:
                continue
            for other in range(drawn, 40):
                if deck[other].rank == deck[index].rank:
                    continue
                cards = list(deck)
                cards[index], cards[other] = cards[other], cards[index]
                twin = Game(cards)
                try:
                    for move in game.moves:
                        twin.play(move)
                except ValueError:
                    continue
                if player_view(twin) == player_view(game):
                    assert twin.grid()[result.at].top.rank != pile.top.rank
                    assert move_previews(twin) == move_previews(game)
                    found += 1
    assert found > 0
