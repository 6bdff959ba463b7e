"""The bot: its fast position agrees with Game, it plays fair, deterministically and legally."""

import random

import pytest

from foursquare import ALL_CARDS, Card, Game, deal, player_view
from foursquare._playout import new_pile_outcomes, playout, policy_cell, stack_outcomes
from foursquare._sim import LOST, PLAYING, WON, Position, cells_of
from foursquare.bot import Bot, Estimate, knowledge, play_deal, review_game, unseen_cards
from foursquare.geometry import INDEX, POSITION

from .helpers import VECTORS, load_vector

SIM_STATUS = {"playing": PLAYING, "won": WON, "lost": LOST}
SMALL = {"samples": 8, "screen": 4, "finalists": 3}  # a quick bot for tests


def signed_tops(game: Game) -> dict[int, tuple[int, int]]:
    return {INDEX[at]: (pile.height, pile.top.rank if pile.face_up else -pile.top.rank)
            for at, pile in game.grid().items()}


def assert_same(game: Game, position: Position) -> None:
    assert position.status == SIM_STATUS[game.status]
    assert position.face_down == game.face_down
    assert position.placed == game.moves_played
    assert [POSITION[cell] for cell in position.legal_cells()] == game.legal_moves()
    assert {cell: (position.height[cell], position.top[cell])
            for cell in cells_of(position.occupied)} == signed_tops(game)


def random_games(count: int, seed: int):
    """Random deals with random legal moves: (game, position) after every move."""
    rng = random.Random(seed)
    for _ in range(count):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        game, position = Game(deck), Position()
        while game.status == "playing":
            move = rng.choice(game.legal_moves())
            position.play(INDEX[move], game.current.rank)
            game.play(move)
            yield game, position


# --- The fast position ------------------------------------------------------------------------


def test_fast_position_matches_game_on_random_games():
    for game, position in random_games(150, seed=11):
        assert_same(game, position)


@pytest.mark.parametrize("path", VECTORS, ids=lambda path: path.stem)
def test_fast_position_matches_the_vectors(path):
    vector = load_vector(path)
    position = Position()
    for move, expect in zip(vector["moves"], vector.get("expect", []), strict=False):
        status = position.play(INDEX[tuple(move)], Card.parse(expect["card"]).rank)
        assert status == SIM_STATUS[expect["status"]]
        assert position.face_down == expect["face_down"]
        assert 40 - position.placed == expect["stock"]
    if "final" in vector:
        assert position.score == vector["final"]["score"]


def test_position_rebuilt_from_its_piles_is_the_same():
    for game, position in random_games(40, seed=12):
        rebuilt = Position.from_piles(signed_tops(game), game.moves_played)
        assert_same(game, rebuilt)
        assert rebuilt.key() == position.key()


def test_symmetric_positions_share_a_key_and_others_do_not():
    rng = random.Random(13)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    ranks = [card.rank for card in deck]
    turned = {"mirror": lambda row, col: (row, -col), "transpose": lambda row, col: (col, row),
              "quarter turn": lambda row, col: (col, -row)}
    for name, turn in turned.items():
        game, image = Game(deck), Position()
        while game.status == "playing":
            move = rng.choice(game.legal_moves())
            game.play(move)
            assert INDEX[turn(*move)] in image.legal_cells()
            image.play(INDEX[turn(*move)], ranks[image.placed])
            original = Position.from_piles(signed_tops(game), game.moves_played)
            assert image.symmetric_key() == original.symmetric_key(), name
            assert image.status == original.status
    one = Position()
    one.play(INDEX[(0, 0)], 5)
    other = one.copy()
    one.play(INDEX[(0, 1)], 7)
    other.play(INDEX[(0, 1)], 3)
    assert one.symmetric_key() != other.symmetric_key()


def test_policy_previews_match_what_the_move_does():
    for game, position in random_games(60, seed=14):
        if game.status != "playing":
            continue
        rank = game.current.rank
        legal = position.legal()
        previews = new_pile_outcomes(position, rank, legal & ~position.occupied)
        previews.update(stack_outcomes(position, rank, legal & position.occupied))
        assert sorted(previews) == position.legal_cells()
        for cell, face_down in previews.items():
            after = position.copy()
            after.play(cell, rank)
            assert after.face_down == face_down


def test_policy_fills_a_new_cell_before_it_stacks():
    position = Position()
    position.play(INDEX[(0, 0)], 5)
    assert POSITION[policy_cell(position, 9)] != (0, 0)


def test_policy_playout_ends_the_game_and_reports_its_score():
    rng = random.Random(15)
    results = []
    for _ in range(50):
        ranks = [card.rank for card in ALL_CARDS]
        rng.shuffle(ranks)
        position = Position()
        score = playout(position, ranks)
        assert position.status != PLAYING
        assert score == (position.score if position.status == WON else -1)
        results.append(score)
    assert sum(score >= 0 for score in results) >= 15  # the policy alone wins about 65%


# --- What the bot may know ---------------------------------------------------------------------


def policy_game(deck, count: int) -> tuple[Game, list[tuple[int, int]]]:
    """The game after the policy has played ``count`` cards of ``deck``, and its moves."""
    game, position = Game(deck), Position()
    while game.moves_played < count and game.status == "playing":
        cell = policy_cell(position, game.current.rank)
        position.play(cell, game.current.rank)
        game.play(POSITION[cell])
    return game, game.moves


def game_after_moves(deck, moves) -> Game:
    game = Game(deck)
    for move in moves:
        game.play(move)
    return game


def test_unseen_cards_are_all_but_the_drawn_ones():
    game = Game(deal(b"unseen"))
    for _ in range(12):
        game.play(game.legal_moves()[0])  # piles up, so some cards end up covered
    known = knowledge(game)
    drawn = {str(result.card) for result in game.history} | {str(game.current)}
    assert {str(card) for card in known.unseen} == {str(card) for card in ALL_CARDS} - drawn
    assert len(known.unseen) == known.view["stock"]
    assert set(known.face_down) == {at for at, pile in game.grid().items() if not pile.face_up}
    with pytest.raises(ValueError, match="stock"):
        unseen_cards(known.view, [result.card for result in game.history][:-1])


def test_knowledge_does_not_depend_on_the_order_of_the_stock():
    deck = list(deal(b"fair"))
    shuffled = deck[:16] + sorted(deck[16:], key=str)
    game, moves = policy_game(deck, 15)
    assert game.status == "playing"
    assert knowledge(game_after_moves(deck, moves)) == knowledge(
        game_after_moves(shuffled, moves))


@pytest.mark.parametrize("placed", [1, 6, 13, 19])
def test_bot_decision_is_the_same_whatever_the_order_of_the_stock(placed):
    deck = list(deal(b"fairness %d" % placed))
    rng = random.Random(placed)
    rest = deck[placed + 1:]
    rng.shuffle(rest)
    other_deck = deck[:placed + 1] + rest
    game, moves = policy_game(deck, placed)
    assert game.status == "playing"
    bot = Bot(7, **SMALL)
    one = bot.evaluate(*knowledge(game_after_moves(deck, moves)))
    two = bot.evaluate(*knowledge(game_after_moves(other_deck, moves)))
    assert one == two
    assert bot.choose(*knowledge(game_after_moves(other_deck, moves))) == bot.best(one)


def test_bot_is_deterministic_for_a_seed():
    game = game_after_moves(deal(b"determinism"), [(0, 0), (0, 1), (1, 0)])
    first = Bot(3, **SMALL).evaluate(*knowledge(game))
    assert Bot(3, **SMALL).evaluate(*knowledge(game)) == first
    assert Bot(4, **SMALL).evaluate(*knowledge(game)) != first  # another seed, other samples
    tiny = {"samples": 4, "screen": 2, "finalists": 2}
    assert play_deal(deal(b"determinism"), 3, **tiny) == play_deal(deal(b"determinism"), 3,
                                                                   **tiny)


def test_bot_plays_from_the_view_alone_without_face_down_cards():
    deck = deal(b"view only")
    game = Game(deck)
    bot = Bot(1, **SMALL)
    while game.face_down == 0 and game.status == "playing":
        game.play(bot.choose(*knowledge(game)))
    assert game.status == "playing" and game.face_down > 0
    view = player_view(game)
    unseen = unseen_cards(view, [result.card for result in game.history])
    estimates = bot.evaluate(view, unseen)
    assert sorted(estimates) == game.legal_moves()
    assert bot.choose(view, [str(card) for card in unseen]) in game.legal_moves()


def test_bot_refuses_inconsistent_knowledge():
    game = game_after_moves(deal(b"bad input"), [(0, 0), (0, 1)])
    view, unseen, face_down = knowledge(game)
    with pytest.raises(ValueError, match="stock"):
        Bot().evaluate(view, unseen[1:], face_down)
    with pytest.raises(ValueError, match="current card"):
        Bot().evaluate(view, (*unseen[:-1], game.current), face_down)
    finished = Game(deal(b"bad input"))
    while finished.status == "playing":
        finished.play(finished.legal_moves()[0])
    with pytest.raises(ValueError, match="over"):
        Bot().choose(player_view(finished), [])


# --- Playing ----------------------------------------------------------------------------------


def test_estimates_are_probabilities_and_scores():
    game = game_after_moves(deal(b"estimates"), [(0, 0), (1, 0), (1, 1), (0, 1)])
    estimates = Bot(2, **SMALL).evaluate(*knowledge(game))
    assert sorted(estimates) == game.legal_moves()
    for estimate in estimates.values():
        assert isinstance(estimate, Estimate)
        assert 0 <= estimate.win_probability <= 1
        assert 0 <= estimate.expected_score <= 24 * estimate.win_probability
        assert estimate.samples in (SMALL["screen"], SMALL["samples"])
    assert max(estimate.samples for estimate in estimates.values()) == SMALL["samples"]


def test_play_deal_replays_to_its_result_with_legal_moves_only():
    result = play_deal(deal(b"replay"), 5, **SMALL)
    game = Game(deal(b"replay"))
    for move in result.moves:
        game.play(move)  # raises on an illegal move
    assert (game.status, game.score) == (result.status, result.score)
    assert result.status in ("won", "lost")


def test_review_judges_every_played_move_with_full_samples():
    deck = deal(b"review")
    played = play_deal(deck, 1, **SMALL)
    moves = list(played.moves[:8])
    reviews = review_game(deck, moves, 1, **SMALL)
    assert [review.played for review in reviews] == moves
    for review in reviews:
        assert review.estimates[review.played].samples == SMALL["samples"]
        assert review.value_lost >= 0
        assert review.best in review.estimates


def test_bot_wins_deals_that_its_play_out_policy_loses():
    # The policy alone wins about 65% of deals; the bot, even with a tiny budget, should win
    # most of the ones the policy loses.
    lost_by_policy = []
    index = 0
    while len(lost_by_policy) < 4:
        deck = deal(b"smoke %d" % index)
        if playout(Position(), [card.rank for card in deck]) < 0:
            lost_by_policy.append(deck)
        index += 1
    tiny = {"samples": 6, "screen": 3, "finalists": 2}
    wins = sum(play_deal(deck, 0, **tiny).status == "won" for deck in lost_by_policy)
    assert wins >= 3


def test_a_time_limit_cuts_the_second_round_but_still_answers():
    game = game_after_moves(deal(b"hurry"), [(0, 0), (0, 1)])
    estimates = Bot(1, samples=64, screen=4, max_seconds=0).evaluate(*knowledge(game))
    assert {estimate.samples for estimate in estimates.values()} == {4}
    assert Bot(1, samples=64, screen=4, max_seconds=0).choose(*knowledge(game)) in estimates


def test_evaluate_refuses_to_include_an_illegal_move():
    game = game_after_moves(deal(b"include"), [(0, 0)])
    with pytest.raises(ValueError, match="not a legal move"):
        Bot(**SMALL).evaluate(*knowledge(game), include=[(2, 2)])
