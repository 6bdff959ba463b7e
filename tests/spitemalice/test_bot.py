"""The house bot: it decides from its seat's view only, the same way every time, and every
action it returns is legal; the benchmark's baselines follow their stated rules."""

import random
from dataclasses import replace

import pytest

from spitemalice import Game, Position, bot, player_view, unseen_cards
from spitemalice.bot import LEVELS, bot_turn, play_turn
from spitemalice.bot_bench import (
    count_down_discard,
    greedy_action,
    lookahead_action,
    main,
    play_game,
    played_game,
)
from spitemalice.game import PLAYING

from .support import position_game

# Seat 0 to move. It holds 3H 4C 9S KD JC; its pay-off top is a 5, its side stacks hold a
# descending run and a Queen; the centre stands at 2, 7 and empty. Seat 1's pay-off top is a 9.
SEEN = {
    "turn": 0,
    "sides": ([["8S", "7D", "6H"], ["QH"], [], []], [["TC"], ["JH"], [], []]),
    "centre": (["AC", "2D"], ["AH", "2S", "3C", "4D", "5S", "6C", "7S"], []),
}
HAND = ["3H", "4C", "9S", "KD", "JC"]


@pytest.fixture(autouse=True)
def small_expert(monkeypatch):
    """expert with a few sampled deals, so that its tests take little time; the production
    counts are exercised by ``test_expert_at_its_own_counts_...`` and measured by the
    benchmark (docs/SPITE_MALICE_BOT.md)."""
    monkeypatch.setattr(bot, "EXPERT_WORLDS", 8)


def _hidden_variant(variant: int, top: str = "5H") -> Position:
    """The SEEN position with seat 1's hand, both pay-off piles below their tops and the
    stock's order dealt differently by ``variant``: what seat 0 cannot see. (With a pay-off
    ``top`` of a Queen, seat 0 cannot reach it this turn: its turn ends with a discard.)"""
    base = Position.build(hands=(HAND, []), payoffs=([top], ["9D"]), **SEEN)
    rest = list(base.stock)
    random.Random(variant).shuffle(rest)
    other_hand, rest = rest[:4], rest[4:]
    payoff0, payoff1, stock = rest[:12], rest[12:24], rest[24:]
    return Position.build(hands=(HAND, other_hand), payoffs=([top, *payoff0], ["9D", *payoff1]),
                          stock=stock, **SEEN)


def _decide(position: Position, level: str, seed: str = "deal") -> list[tuple[str, str]]:
    game = Game.from_position(position)
    view = player_view(game, 0)
    return [tuple(action) for action in bot_turn(view, unseen_cards(view), level, seed)]


@pytest.mark.parametrize("top", ["5H", "QS"])
@pytest.mark.parametrize("level", LEVELS)
def test_positions_differing_only_in_what_the_seat_cannot_see_get_the_same_turn(level, top):
    positions = [_hidden_variant(variant, top) for variant in range(4)]
    assert len({p.hands[1] for p in positions}) == 4 and len({p.stock for p in positions}) == 4
    turns = [_decide(position, level) for position in positions]
    assert turns[1:] == turns[:-1]


@pytest.mark.parametrize("top", ["5H", "QS"])
@pytest.mark.parametrize("level", LEVELS)
def test_the_same_position_and_seed_give_the_same_turn(level, top):
    position = _hidden_variant(0, top)
    assert _decide(position, level) == _decide(position, level)


@pytest.mark.parametrize("level", LEVELS)
def test_a_returned_turn_is_legal_and_stops_where_an_unseen_card_comes_into_play(level):
    game = Game.from_position(_hidden_variant(1))
    view = player_view(game, 0)
    actions = bot_turn(view, unseen_cards(view), level, "deal")
    for action in actions[:-1]:
        game.play(action)
        assert game.turn == 0 and action.source != "P" and len(game.hand(0)) > 0
    last = actions[-1]
    hand_before = len(game.hand(0))
    game.play(last)
    assert (last.is_discard or last.source == "P" or game.status != PLAYING
            or hand_before == 1)


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_plays_its_pay_off_top_when_it_fits(level):
    # Pay-off top 3, a centre stack at 2: the first action is the pay-off play, and it ends
    # this call (the next card turns up).
    game = position_game(hands=(["7H", "8C", "QD"], []), payoffs=(["3H", "4C", "5D"], ["9D"]),
                         centre=(["AC", "2D"],))
    view = player_view(game, 0)
    assert bot_turn(view, unseen_cards(view), level, "x") == [("P", "C0")]


@pytest.mark.parametrize("level", ("normal", "hard", "expert"))
def test_the_bot_builds_up_to_its_last_pay_off_card_and_wins(level):
    game = position_game(hands=(["3H", "4C", "QD"], ["5S"]), payoffs=(["5H"], ["9D", "9H"]),
                         centre=(["AC", "2D"],))
    view = player_view(game, 0)
    actions = bot_turn(view, unseen_cards(view), level, "x")
    assert actions == [("3H", "C0"), ("4C", "C0"), ("P", "C0")]
    for action in actions:
        game.play(action)
    assert game.winner == 0 and game.points == 2


@pytest.mark.parametrize("level", ("normal", "hard", "expert"))
def test_the_bot_does_not_lay_the_opponents_next_card_open(level):
    # Playing 6H onto the 5 would leave the opponent's pay-off top 7 playable at once.
    game = position_game(hands=(["6H", "9C", "9S", "JD", "QC"], ["2C"]),
                         payoffs=(["2H", "AD"], ["7D", "8D"]),
                         centre=(["AC", "2D", "3C", "4D", "5S"], ["AH", "2S", "3D"]),
                         sides=([["QS"]], [["TH"]]))
    view = player_view(game, 0)
    actions = bot_turn(view, unseen_cards(view), level, "x")
    assert ("6H", "C0") not in actions


def test_expert_at_its_own_counts_is_fair_and_repeats_exactly(monkeypatch):
    monkeypatch.undo()  # the production counts, on two positions that differ only unseen
    assert (bot.EXPERT_CANDIDATES, bot.EXPERT_WORLDS) == (24, 128)
    turns = [_decide(_hidden_variant(variant, top="QS"), "expert") for variant in (2, 3)]
    assert turns[0] == turns[1]
    assert turns[0][-1][1][0] == "S"  # its pay-off top out of reach: re-ranked discards


def test_expert_rejudges_normals_ways_and_its_counts_bound_it(monkeypatch):
    # One way judged again: nothing to re-rank, normal's own choice stands.
    monkeypatch.setattr(bot, "EXPERT_CANDIDATES", 1)
    position = _hidden_variant(0, top="QS")
    assert _decide(position, "expert") == _decide(position, "normal")
    # Other counts may change the answer, never its legality (play() would raise).
    for candidates, worlds in ((6, 1), (24, 3)):
        monkeypatch.setattr(bot, "EXPERT_CANDIDATES", candidates)
        monkeypatch.setattr(bot, "EXPERT_WORLDS", worlds)
        game = Game.from_position(position)
        for action in _decide(position, "expert"):
            game.play(action)


def test_easy_looks_at_no_more_positions_than_its_count(monkeypatch):
    counted: list[int] = []
    run = bot._Search.run

    def spy(search) -> list:
        moves = run(search)
        counted.append(search.nodes)
        return moves

    monkeypatch.setattr(bot._Search, "run", spy)
    game = Game(b"a long turn")
    for _ in range(40):
        if game.status != PLAYING:
            break
        play_turn(game, "easy", "count")
    assert counted and max(counted) <= bot.EASY_NODES


def test_bot_turn_refuses_a_view_whose_seat_is_not_to_move():
    game = Game(b"not yours")
    view = player_view(game, 1 - game.turn)
    with pytest.raises(ValueError, match="its own turn"):
        bot_turn(view, unseen_cards(view), "normal", "x")
    with pytest.raises(ValueError, match="level"):
        bot_turn(player_view(game, game.turn), {}, "master", "x")


@pytest.mark.parametrize("level", LEVELS)
def test_a_short_smoke_match_against_greedy_plays_only_legal_actions(level, monkeypatch):
    # play() raises on any illegal action; two deals, both seats, to the end (expert: one,
    # with fewer sampled deals still, for time).
    monkeypatch.setattr(bot, "EXPERT_WORLDS", 4)
    for index in range(1 if level == "expert" else 2):
        score, side, points, times = play_game(level, "greedy", index)
        assert score in (0.0, 0.5, 1.0) and len(times) > 5
        assert (side is None) == (score == 0.5) and (points > 0) == (side is not None)


def test_play_turn_plays_until_the_other_seat_is_to_move_and_repeats_exactly():
    def run() -> list[list[tuple[str, str]]]:
        game, turns = Game(b"again"), []
        while game.status == PLAYING and len(turns) < 30:
            seat = game.turn
            turns.append([tuple(a) for a in play_turn(game, "hard", "again")])
            assert game.turn != seat or game.status != PLAYING
        return turns

    first = run()
    assert first == run() and all(turn[-1][1][0] == "S" for turn in first[:-1])


# --- The baselines -------------------------------------------------------------------------

def _view(**parts) -> dict:
    return player_view(position_game(**parts), 0)


def test_greedy_plays_its_pay_off_top_first():
    view = _view(hands=(["3S", "KD"], []), payoffs=(["3H", "4C"], ["9D"]),
                 centre=(["AC", "2D"],), sides=([["3C"]], []))
    assert greedy_action(view, random.Random(0)) == ("P", "C0")


def test_greedy_plays_side_tops_before_hand_cards_and_never_a_useless_king():
    view = _view(hands=(["AS", "KD", "9H"], []), payoffs=(["8H", "4C"], ["9D"]),
                 sides=([["AC"], ["KS"]], []))
    picks = {greedy_action(view, random.Random(n)) for n in range(20)}
    assert picks == {("S0", "C0")}
    view = _view(hands=(["AS", "KD", "9H"], []), payoffs=(["8H", "4C"], ["9D"]))
    assert {greedy_action(view, random.Random(n)) for n in range(20)} == {("AS", "C0")}


def test_greedy_plays_a_king_that_makes_its_pay_off_top_playable():
    view = _view(hands=(["KD", "9H"], []), payoffs=(["3H", "4C"], ["9D"]),
                 centre=(["AC"],))
    assert greedy_action(view, random.Random(0)) == ("KD", "C0")


def test_greedy_discards_by_counting_down():
    assert count_down_discard(["9H", "5C", "KD"], [["7S"], ["6D"], [], []]) == ("5C", "S1")
    assert count_down_discard(["9H", "5C", "KD"], [["7S"], ["8D"], [], []]) == ("9H", "S2")
    assert count_down_discard(["9H", "2C", "KD"], [["7S"], ["JD"], ["4C"], ["AH"]]) == (
        "9H", "S1")
    assert count_down_discard(["KH"], [["7S"], ["JD"], ["4C"], ["AH"]]) == ("KH", "S1")


def test_lookahead_finds_the_plays_that_reach_its_pay_off_top():
    # 3H, then S0's 4C, then the pay-off 5: three plays, the first of which is 3H.
    view = _view(hands=(["3H", "9S", "QD"], []), payoffs=(["5H", "4C"], ["9D"]),
                 centre=(["AC", "2D"],), sides=([["4C"]], []))
    assert lookahead_action(view, random.Random(0)) == ("3H", "C0")


def test_lookahead_stops_where_the_hand_would_refill():
    # The only route plays the last hand card first: the refill is unknown, so it is not a
    # route, and lookahead acts as greedy, which plays a side-stack top before a hand card.
    view = _view(hands=(["3H"], []), payoffs=(["5H", "4C"], ["9D"]),
                 centre=(["AC", "2D"],), sides=([["4C"], ["AS"]], []))
    assert lookahead_action(view, random.Random(0)) == ("S1", "C1")
    view = _view(hands=(["3H", "JS"], []), payoffs=(["6H", "4C"], ["9D"]),
                 centre=(["AC", "2D"],), sides=([["5S", "4C"]], []))
    assert lookahead_action(view, random.Random(0)) == ("3H", "C0")


def test_the_benchmark_prints_a_line_per_pairing(capsys):
    assert main(["--games", "2", "--levels", "easy", "--baselines", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "easy vs greedy" in out and "over 2 games" in out and "p95" in out


def test_the_benchmark_can_start_at_another_deal(capsys):
    # Game g of a pairing deals first_deal + g // 2: a run on held-out deals plays those.
    assert (play_game("normal", "greedy", 2, first_deal=5)[:3]
            == play_game("normal", "greedy", 12)[:3])
    assert main(["--games", "2", "--levels", "easy", "--baselines", "greedy",
                 "--first-deal", "7"]) == 0
    assert "deals 7–7" in capsys.readouterr().out


# --- The evaluation's weights ----------------------------------------------------------------

def test_the_default_weights_are_the_levels_own_and_other_weights_change_the_choice():
    position = _hidden_variant(0, top="QS")
    game = Game.from_position(position)
    view = player_view(game, 0)
    unseen = unseen_cards(view)
    for level in ("easy", "normal", "hard"):
        assert (bot_turn(view, unseen, level, "w")
                == bot_turn(view, unseen, level, "w", bot.DEFAULT_WEIGHTS))
    # expert plays with its fitted weights, not the hand-set ones.
    assert bot.EXPERT_WEIGHTS != bot.DEFAULT_WEIGHTS
    assert bot_turn(view, unseen, "expert", "w") == bot_turn(view, unseen, "expert", "w",
                                                              bot.EXPERT_WEIGHTS)
    # Side stacks scored the other way round: normal discards elsewhere.
    upside_down = bot.Weights(run=-5.0, gap=5.0, buried=5.0, king_on_side=5.0, base_step=-1.0)
    assert (bot_turn(view, unseen, "normal", "w")
            != bot_turn(view, unseen, "normal", "w", upside_down))


def _race_view(own: int, other: int):
    """The SEEN position (seat 1's cards dealt by variant 0, seat 0's pay-off top a Queen)
    with ``own`` pay-off cards left to seat 0 and ``other`` to seat 1: its view and unseen
    cards."""
    base = _hidden_variant(0, top="QS")
    position = Position.build(hands=base.hands, payoffs=(base.payoffs[0][:own],
                                                         base.payoffs[1][:other]), **SEEN)
    view = player_view(Game.from_position(position), 0)
    return view, unseen_cards(view)


def test_the_race_is_how_far_behind_the_bot_is_in_pay_off_cards_within_one():
    assert bot.race(5, 5) == 0.0
    assert bot.race(8, 3) == 0.5  # five more left than the opponent: behind
    assert bot.race(3, 8) == -0.5  # ahead
    assert bot.race(13, 1) == 1.0 and bot.race(1, 13) == -1.0  # clamped
    # In a search: the chances' weights scaled once per call, from the view's pay-off piles.
    w = bot.Weights(threat=40.0, prospect=30.0, threat_race=1.0, prospect_race=-0.5)
    for own, other, d in ((8, 3, 0.5), (3, 8, -0.5), (13, 1, 1.0), (6, 6, 0.0)):
        view, unseen = _race_view(own, other)
        assert view["payoff"] == [own, other]
        search = bot._Search(bot._Table(view, unseen), "hard", random.Random(0), w)
        assert search.w.threat == pytest.approx(40.0 * (1 + d))
        assert search.watch == search.w.threat
        assert search.w.prospect == pytest.approx(30.0 * (1 - 0.5 * d))
    # easy keeps its own small watch and its prospect whatever the race factors.
    view, unseen = _race_view(13, 1)
    easy = bot._Search(bot._Table(view, unseen), "easy", random.Random(0), w)
    assert easy.watch == bot.EASY_THREAT and easy.w is w


def test_the_race_factors_at_zero_change_nothing():
    # At their defaults (0) the weights are the very object given, whatever the race ...
    assert bot.raced(bot.EXPERT_WEIGHTS, 13, 1) is bot.EXPERT_WEIGHTS
    zero = bot.Weights(threat_race=0.0, prospect_race=0.0)
    assert zero == bot.DEFAULT_WEIGHTS
    # ... and with the race even, the factors do nothing either: the same turns.
    for own, other in ((13, 1), (1, 13), (6, 6)):
        view, unseen = _race_view(own, other)
        for level in LEVELS:
            weights = bot.EXPERT_WEIGHTS if level == "expert" else bot.DEFAULT_WEIGHTS
            raced = replace(weights, threat_race=1.5, prospect_race=-0.5)
            turn = bot_turn(view, unseen, level, "r")
            assert turn == bot_turn(view, unseen, level, "r", zero if level != "expert"
                                    else replace(weights, threat_race=0.0, prospect_race=0.0))
            if own == other:
                assert turn == bot_turn(view, unseen, level, "r", raced)
    # A whole game of each level against hard plays the same with the factors given as 0.
    for level in LEVELS:
        weights = bot.EXPERT_WEIGHTS if level == "expert" else bot.DEFAULT_WEIGHTS
        explicit = replace(weights, threat_race=0.0, prospect_race=0.0)
        assert (played_game(level, "hard", 1, 3)[0].history
                == played_game(level, "hard", 1, 3, explicit)[0].history)


def test_race_factors_change_the_choice_when_the_race_is_uneven():
    # Far behind (13 cards to 1), the opponent's chance weighed at three times: hard's search
    # scores the ways to end the turn differently.
    view, unseen = _race_view(13, 1)
    plain = bot._Search(bot._Table(view, unseen), "normal", random.Random(0),
                        bot.DEFAULT_WEIGHTS)
    plain.run()
    wary = bot._Search(bot._Table(view, unseen), "normal", random.Random(0),
                       bot.Weights(threat_race=2.0, prospect_race=-0.9))
    wary.run()
    assert wary.best_value != plain.best_value
