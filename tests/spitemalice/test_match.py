"""Matches: games dealt one after another from the match seed, first to the target wins."""

import random

import pytest

from spitemalice import Game, IllegalActionError, Match, game_seed


def _finish(game: Game, rng: random.Random) -> None:
    while game.status == "playing":
        legal = game.legal_actions()
        centre = [action for action in legal if action.target.startswith("C")]
        game.play(rng.choice(centre if centre and rng.random() < 0.95 else legal))


def test_each_game_is_dealt_from_its_own_seed_derived_from_the_match_seed():
    match = Match(b"match seed")
    assert match.game.seed == game_seed(b"match seed", 0)
    assert len({game_seed(b"match seed", i) for i in range(50)}) == 50
    assert game_seed(b"match seed", 1) != game_seed(b"other", 1)


def test_points_add_up_and_the_first_to_the_target_wins():
    match, rng = Match(b"to fifty"), random.Random(3)
    while True:
        _finish(match.game, rng)
        if match.status != "playing":
            break
        match.next_game()
    scores = [0, 0]
    for game in match.games:
        if game.winner is not None:
            scores[game.winner] += game.points
    assert match.scores == scores and max(scores) >= 50
    assert match.winner == scores.index(max(scores))
    # Before the last game, nobody had reached the target.
    last = match.games[-1]
    assert scores[last.winner] - last.points < 50
    with pytest.raises(IllegalActionError, match="match is over"):
        match.next_game()


def test_a_tied_game_scores_nothing_and_the_match_goes_on():
    match, rng = Match(b"ties", target=1), random.Random(0)
    uniform = random.Random(1)
    while match.game.status == "playing":  # uniform random play nearly always ties
        match.play(uniform.choice(match.game.legal_actions()))
    assert match.game.status == "tied"
    assert match.scores == [0, 0] and match.status == "playing"
    assert match.next_game() is match.game and len(match.games) == 2
    _finish(match.game, rng)


def test_next_game_waits_for_the_current_one():
    with pytest.raises(IllegalActionError, match="still on"):
        Match(b"wait").next_game()


def test_a_match_replays_from_its_record():
    match, rng = Match(b"record", target=10), random.Random(5)
    while True:
        _finish(match.game, rng)
        if match.status != "playing":
            break
        match.next_game()
    again = Match.from_json(match.to_json())
    assert again.scores == match.scores and len(again.games) == len(match.games)
    assert [g.position() for g in again.games] == [g.position() for g in match.games]


def test_a_match_needs_a_bytes_seed_and_a_positive_target():
    with pytest.raises(TypeError):
        Match("seed")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Match(b"seed", target=0)
