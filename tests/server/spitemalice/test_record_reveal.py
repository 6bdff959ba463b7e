"""The record of a finished game lays the whole deal open: the piles and stock as dealt, what
each action moved and drew, and how the cards lay at the end, all as the engine played it."""

from __future__ import annotations

from collections import Counter

from spitemalice import Game
from tests.server.conftest import assert_problem
from tests.server.spitemalice.support import (
    act,
    greedy,
    match_offering_a_payoff_play,
    play_out,
    start,
    url,
)


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


def careless(game: dict) -> list[str]:
    """Ends the turn with a discard whenever the pay-off pile's top could be played."""
    legal = game["legal_actions"]
    if any(action[0] == "P" for action in legal):
        return next(action for action in legal if action[1].startswith("S"))
    return greedy(game)


def test_the_record_names_each_pay_off_play_a_discard_left_unplayed(make_player):
    player, api = make_player()
    created = match_offering_a_payoff_play(player)
    match = api.get(url({"id": str(created.pk)})).json()
    for _ in range(8):  # a few careless turns, then the game is given up
        if match["status"] != "playing":
            break
        response = act(api, match, careless(match["game"]))
        assert response.status_code == 200, response.content
        match = response.json()
    api.post(url(match, "/resign"))
    record = api.get(url(match, "/games/1/record")).json()

    engine = Game(bytes.fromhex(record["seed"]))
    missed = 0
    for action, step in zip(record["actions"], record["steps"], strict=True):
        offered = sorted(list(a) for a in engine.legal_actions() if a.source == "P")
        engine.play(action)
        if action[1].startswith("S"):
            assert sorted(step["payoff_missed"]) == offered
            missed += bool(offered)
        else:
            assert step["payoff_missed"] == []  # a play ends no turn: nothing was missed yet
    assert missed >= 1
    assert record["steps"][0]["payoff_missed"] or record["steps"][0]["seat"] == 1
