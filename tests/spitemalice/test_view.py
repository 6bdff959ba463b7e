"""The player's view: what each seat is shown, and the cards it cannot place."""

import json

import pytest

from spitemalice import Game, player_view, unseen_cards, unseen_ranks

from .support import position_game


def test_the_seat_to_move_sees_its_hand_and_legal_actions():
    game = Game(b"view")
    mover = game.turn
    view = player_view(game, mover)
    assert view["hand"] == [str(card) for card in game.hand(mover)]
    assert view["legal_actions"] == [list(action) for action in game.legal_actions()]
    assert view["hand_sizes"][mover] == 5 and view["stock"] == 59
    json.dumps(view)  # JSON-ready as it is


def test_the_other_seat_sees_sizes_not_cards():
    game = Game(b"view")
    other = 1 - game.turn
    view = player_view(game, other)
    assert view["hand"] == [] and view["legal_actions"] == []
    assert view["hand_sizes"][game.turn] == 5
    assert view["payoff"] == [20, 20]
    assert view["payoff_top"] == [str(game.payoff_top(0)), str(game.payoff_top(1))]


def test_the_seed_is_shown_only_once_the_game_is_over():
    game = position_game(seed=b"secret", hands=(["9H"], []), payoffs=(["AS"], ["9D"]))
    assert player_view(game, 1)["seed"] is None
    game.play(["P", "C0"])
    assert player_view(game, 1)["seed"] == b"secret".hex()


def test_history_lists_each_action_with_its_card_and_can_start_later():
    game = Game(b"history")
    for _ in range(6):
        game.play(game.legal_actions()[0])
    view = player_view(game, 0)
    assert view["actions_played"] == 6 and len(view["history"]) == 6
    assert player_view(game, 0, since=4)["history"] == view["history"][4:]
    first = game.history[0]
    assert view["history"][0] == {"player": first.player, "action": list(first.action),
                                  "card": str(first.card), "as": first.counts_as,
                                  "completed": first.completed}


def test_centre_and_side_stacks_are_shown_card_by_card():
    game = position_game(hands=(["9H"], []), centre=(["AC", "KD"],), sides=([["4D", "5S"]], []))
    view = player_view(game, 1)
    assert view["centre"] == [["AC", "KD"], [], []]
    assert view["sides"][0] == [["4D", "5S"], [], [], []]


def test_unseen_cards_are_the_two_decks_less_what_the_view_shows():
    game = position_game(hands=(["9H", "9H"], ["2C"]), centre=(["AC"],))
    view = player_view(game, 0)
    unseen = unseen_cards(view)
    assert "9H" not in unseen and unseen["AC"] == 1 and unseen["2C"] == 2
    assert unseen["9C"] == 1 and unseen["9D"] == 1  # the pay-off tops are seen
    assert sum(unseen.values()) == 104 - 5
    ranks = unseen_ranks(view)
    assert ranks[0] == 0 and ranks[9] == 8 - 4 and sum(ranks) == 99


def test_a_seat_is_zero_or_one():
    with pytest.raises(ValueError):
        player_view(Game(b"x"), 2)
