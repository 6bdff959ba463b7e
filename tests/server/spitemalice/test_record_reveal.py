"""The record of a finished game lays the whole deal open: the piles and stock as dealt, what
each action moved and drew, and how the cards lay at the end, all as the engine played it."""

from __future__ import annotations

from collections import Counter

from spitemalice import Game
from tests.server.conftest import assert_problem
from tests.server.spitemalice.support import play_out, start, url


def test_a_finished_games_record_reveals_the_deal_each_step_and_the_end(player_api):
    match = start(player_api, target=1)
    assert_problem(player_api.get(url(match, "/games/1/record")), 409, "game_in_progress")
    match = play_out(player_api, match)
    record = player_api.get(url(match, "/games/1/record")).json()

    engine = Game(bytes.fromhex(record["seed"]))
    start_position = engine.position()
    deal = record["deal"]
    assert deal["payoff"] == [list(pile) for pile in start_position.payoffs]
    assert [len(pile) for pile in deal["payoff"]] == [20, 20]
    assert deal["stock"] == list(start_position.stock)
    starter = engine.turn
    assert len(deal["hands"][starter]) == 5 and deal["hands"][1 - starter] == []
    dealt = deal["payoff"][0] + deal["payoff"][1] + deal["stock"] + deal["hands"][starter]
    assert len(dealt) == 104 and all(count == 2 for count in Counter(dealt).values())

    assert len(record["steps"]) == len(record["actions"])
    for action, step in zip(record["actions"], record["steps"], strict=True):
        before = [Counter(str(card) for card in engine.hand(seat)) for seat in (0, 1)]
        result = engine.play(action)
        assert (step["seat"], step["card"], step["completed"]) == (
            result.player, str(result.card), result.completed)
        assert (step["as"] is None) == (result.counts_as is None)
        if result.action.source == str(result.card):
            before[result.player][str(result.card)] -= 1
        for seat in (0, 1):
            drawn = Counter(str(card) for card in engine.hand(seat)) - before[seat]
            assert Counter(step["drawn"][seat]) == drawn
    end = engine.position()
    assert record["final"] == {"payoff": [list(pile) for pile in end.payoffs],
                               "stock": list(end.stock),
                               "hands": [list(hand) for hand in end.hands]}
    assert any(step["drawn"][1] for step in record["steps"])  # the bot's draws are shown too
