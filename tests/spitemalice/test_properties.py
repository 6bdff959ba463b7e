"""Invariants that hold in every game, checked on random deals played out at random.

The play-outs prefer plays onto the centre stacks, so stacks complete and are reshuffled and
hands empty and refill, which uniform random play (mostly discards) would rarely reach.
"""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from spitemalice import (
    CARD_CODES,
    Game,
    Position,
    Record,
    player_view,
    replay,
    unseen_cards,
    unseen_ranks,
)
from spitemalice.actions import ACTIONS

SETTINGS = settings(max_examples=60, deadline=None)
seeds = st.binary(min_size=1, max_size=8)


def choose(rng: random.Random, game: Game):
    legal = game.legal_actions()
    centre = [action for action in legal if action.target.startswith("C")]
    return rng.choice(centre if centre and rng.random() < 0.9 else legal)


@st.composite
def games(draw, max_actions: int = 400) -> Game:
    """A game after a random number of random legal actions (possibly finished)."""
    game = Game(draw(seeds))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, max_actions))):
        if game.status != "playing":
            break
        game.play(choose(rng, game))
    return game


def card_counts(position: Position) -> Counter:
    cards = [*position.hands[0], *position.hands[1], *position.payoffs[0], *position.payoffs[1],
             *position.stock]
    for stacks in (position.sides[0], position.sides[1], position.centre):
        for stack in stacks:
            cards += stack
    return Counter(cards)


def visible_counts(position: Position, seat: int) -> Counter:
    cards = [*position.hands[seat], *(pile[0] for pile in position.payoffs if pile)]
    for stacks in (position.sides[0], position.sides[1], position.centre):
        for stack in stacks:
            cards += stack
    return Counter(cards)


@SETTINGS
@given(seeds, st.integers(0, 2**32))
def test_the_104_cards_are_conserved_and_undo_restores_every_action(seed, choice_seed):
    game, rng = Game(seed), random.Random(choice_seed)
    two_decks = Counter({code: 2 for code in CARD_CODES})
    while game.status == "playing" and len(game.actions) < 600:
        before = game.position(), game.history
        action = choose(rng, game)
        game.play(action)
        assert card_counts(game.position()) == two_decks
        game.undo()
        assert (game.position(), game.history) == before
        game.play(action)


@SETTINGS
@given(games())
def test_a_legal_action_exists_while_playing_and_none_after(game):
    if game.status == "playing":
        assert game.legal_actions()
        assert any(action.target.startswith("S") for action in game.legal_actions())
    else:
        assert game.legal_actions() == [] and game.turn is None


@SETTINGS
@given(games())
def test_legal_actions_are_sorted_unique_and_all_accepted(game):
    legal = game.legal_actions()
    assert legal == sorted(set(legal))
    before = game.position()
    for action in legal:
        game.play(action)
        game.undo()
    assert game.position() == before


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(0, 2**32))
def test_undo_restores_across_completions_and_refills(seed, choice_seed):
    game, rng = Game(seed), random.Random(choice_seed)
    snapshots = []
    while game.status == "playing" and len(game.actions) < 600:
        snapshots.append((game.position(), game.history))
        game.play(choose(rng, game))
    while snapshots:
        game.undo()
        assert (game.position(), game.history) == snapshots.pop()
    assert game.position() == Game(seed).position()


@SETTINGS
@given(games())
def test_replay_is_deterministic(game):
    first = replay(Record.from_game(game))
    second = replay(Record.from_game(game))
    assert first.error is None and first.to_json() == second.to_json()
    assert first.game.position() == game.position()


@SETTINGS
@given(games(), st.integers(0, 400))
def test_the_count_and_the_tail_of_the_actions_agree_with_the_list(game, start):
    actions = game.actions
    assert game.actions_played == len(actions)
    assert game.actions_since(start) == actions[start:]
    assert game.copy().actions_since(0) == actions


def _codes_in(value) -> list[str]:
    if isinstance(value, str):
        return [value] if value in CARD_CODES else []
    if isinstance(value, dict):
        return [code for key, item in value.items() if key != "history" for code in _codes_in(item)]
    if isinstance(value, list | tuple):
        return [code for item in value for code in _codes_in(item)]
    return []


@SETTINGS
@given(games(), st.sampled_from([0, 1]))
def test_the_view_shows_only_what_the_seat_may_see(game, seat):
    view = player_view(game, seat)
    position = game.position()
    if game.status == "playing":
        # Every card the view names (history aside) is a card the seat can see ...
        named = Counter(_codes_in({**view, "legal_actions": []}))
        assert not named - visible_counts(position, seat)
        assert view["hand"] == list(position.hands[seat]) and view["seed"] is None
        # ... and what it cannot see adds up to the stock, the other hand, the piles below.
        hidden = len(position.stock) + len(position.hands[1 - seat]) + sum(
            len(pile) - 1 for pile in position.payoffs)
        assert sum(unseen_cards(view).values()) == sum(unseen_ranks(view)) == hidden
    assert view["history"] == player_view(game, 1 - seat)["history"]
    assert [entry["card"] for entry in view["history"]] == [str(r.card) for r in game.history]


@SETTINGS
@given(games(), st.sampled_from([0, 1]), st.randoms(use_true_random=False))
def test_games_differing_only_in_what_a_seat_cannot_see_look_the_same_to_it(game, seat, rng):
    position = game.position()
    if position.status != "playing":
        return
    other = 1 - seat
    payoffs = [list(pile) for pile in position.payoffs]
    hidden = [*position.stock, *position.hands[other], *payoffs[0][1:], *payoffs[1][1:]]
    rng.shuffle(hidden)
    stock, hidden = hidden[: len(position.stock)], hidden[len(position.stock):]
    hand, hidden = hidden[: len(position.hands[other])], hidden[len(position.hands[other]):]
    under0, under1 = hidden[: len(payoffs[0]) - 1], hidden[len(payoffs[0]) - 1:]
    hands = list(position.hands)
    hands[other] = tuple(hand)
    twin = Position(
        seed=b"another seed", turn=position.turn, hands=tuple(hands),
        payoffs=((payoffs[0][0], *under0), (payoffs[1][0], *under1)), sides=position.sides,
        centre=position.centre, stock=tuple(stock), turn_number=position.turn_number,
        completions=position.completions,
    )
    first, second = Game.from_position(position), Game.from_position(twin)
    assert player_view(first, seat) == player_view(second, seat)


ALL_ACTIONS = [action for row in ACTIONS for action in row]


@SETTINGS
@given(games())
def test_legal_actions_agree_with_the_rule_by_rule_check(game):
    """The fast table-driven list against play()'s slow path, which checks one rule at a time."""
    assert game.legal_actions() == sorted(a for a in ALL_ACTIONS if game.is_legal(a))


@SETTINGS
@given(games())
def test_a_position_round_trips_through_from_position(game):
    rebuilt = Game.from_position(game.position())
    assert rebuilt.position() == game.position()
    assert rebuilt.legal_actions() == game.legal_actions()
    assert rebuilt.state_json() == game.state_json()
