"""Invariants that hold in every game, checked on random deals and random legal moves."""

from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare import ALL_CARDS, DECK_SIZE, Game, Record, player_view, replay

decks = st.permutations(ALL_CARDS)


@st.composite
def games(draw) -> Game:
    """A game after a random number of random legal moves (possibly finished)."""
    game = Game(draw(decks))
    steps = draw(st.integers(min_value=0, max_value=DECK_SIZE))
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(draw(st.sampled_from(legal)))
    return game


def _bounding_box(game: Game) -> tuple[int, int]:
    rows = [row for row, _ in game.grid()]
    cols = [col for _, col in game.grid()]
    return (max(rows) - min(rows) + 1, max(cols) - min(cols) + 1) if rows else (0, 0)


@settings(max_examples=150, deadline=None)
@given(games())
def test_cards_are_conserved(game):
    placed = sum(pile.height for pile in game.grid().values())
    in_hand = 1 if game.current is not None else 0
    assert placed == game.moves_played
    assert placed + in_hand + game.stock == DECK_SIZE


@settings(max_examples=150, deadline=None)
@given(games())
def test_grid_stays_within_a_four_by_four_box(game):
    rows, cols = _bounding_box(game)
    assert rows <= 4 and cols <= 4
    assert all(-3 <= row <= 3 and -3 <= col <= 3 for row, col in game.grid())


@settings(max_examples=150, deadline=None)
@given(games())
def test_piles_hold_at_most_four_cards(game):
    assert all(1 <= pile.height <= 4 for pile in game.grid().values())


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_legal_move_exists_while_playing_and_none_after(game):
    if game.status == "playing":
        assert game.legal_moves()
        assert game.face_down <= 4
    else:
        assert game.legal_moves() == [] and game.current is None


@settings(max_examples=150, deadline=None)
@given(games())
def test_every_legal_move_is_accepted_and_undone(game):
    before = (game.grid(), game.face_down, game.status, game.stock)
    for move in game.legal_moves():
        game.play(move)
        rows, cols = _bounding_box(game)
        assert rows <= 4 and cols <= 4
        game.undo()
        assert (game.grid(), game.face_down, game.status, game.stock) == before


@settings(max_examples=150, deadline=None)
@given(games())
def test_face_down_count_matches_the_grid(game):
    assert game.face_down == sum(not pile.face_up for pile in game.grid().values())


@settings(max_examples=100, deadline=None)
@given(games())
def test_replay_is_deterministic(game):
    first = replay(Record.from_game(game))
    second = replay(Record.from_game(game))
    assert first.error is None
    assert first.to_json() == second.to_json()
    assert first.game.grid() == game.grid() and first.game.status == game.status


@settings(max_examples=150, deadline=None)
@given(games())
def test_player_view_never_shows_an_undrawn_card_or_a_face_down_rank(game):
    view = player_view(game)
    text = repr(view)
    drawn = game.deck[: game.moves_played + (1 if game.current is not None else 0)]
    undrawn = game.deck[len(drawn):]
    for card in undrawn:
        assert f"'{card}'" not in text
    face_down_tops = [pile.top for pile in game.grid().values() if not pile.face_up]
    shown = {cell["card"] for cell in view["grid"]}
    for card in face_down_tops:
        assert str(card) not in shown
    assert all(cell["card"] is None for cell in view["grid"] if not cell["face_up"])
    # Only the current card and the face-up tops and last move may name cards at all.
    allowed = {str(game.current)} | {c for c in shown if c} | (
        {str(game.last_move.card)} if game.last_move else set()
    )
    named = {view["current_card"], *(cell["card"] for cell in view["grid"])}
    if view["last_move"]:
        named.add(view["last_move"]["card"])
    assert named - {None} <= allowed
