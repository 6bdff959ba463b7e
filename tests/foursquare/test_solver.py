"""The perfect-information solver: its wins replay, and what it proves holds."""

import pytest

from foursquare import Game, deal
from foursquare._sim import Position
from foursquare.geometry import INDEX
from foursquare.solver import Solution, _stuck, rollout_search, solve, winnable

from .helpers import VECTORS, load_vector

WON_VECTORS = [path for path in VECTORS if load_vector(path).get("final", {}).get("status")
               == "won"]


def replayed_score(deck, moves) -> int | None:
    game = Game(deck)
    for move in moves:
        game.play(move)  # raises on an illegal move
    assert game.status == "won"
    return game.score


@pytest.mark.parametrize("path", WON_VECTORS[:4], ids=lambda path: path.stem)
def test_solver_wins_the_won_vectors_at_least_as_well(path):
    vector = load_vector(path)
    solution = solve(vector["deck"], node_budget=5_000)
    assert isinstance(solution, Solution)
    assert solution.score is not None
    assert solution.score >= vector["final"]["score"]
    assert replayed_score(vector["deck"], solution.moves) == solution.score


@pytest.mark.parametrize(("seed", "budget"), [(b"solve 0", 3_000), (b"solve 4", 20_000),
                                              (b"solve 10", 20_000)])
def test_solution_replays_to_its_score_and_respects_its_bound(seed, budget):
    deck = deal(seed)
    solution = solve(deck, node_budget=budget)
    assert replayed_score(deck, solution.moves) == solution.score
    assert len(solution.moves) == 40 - solution.score
    assert solution.score <= solution.score_bound <= 24
    if solution.proven_optimal:
        assert solution.score == solution.score_bound


def test_sixteen_cards_is_optimal_without_search():
    # The first win of this deal puts all 16 cards on new cells: nothing can beat that.
    vector = load_vector(next(path for path in VECTORS if path.stem == "v002"))
    solution = solve(vector["deck"], node_budget=1)
    assert solution.score == 24
    assert solution.proven_optimal and solution.score_bound == 24 and solution.nodes == 0


def test_a_tiny_budget_still_returns_the_first_win():
    deck = deal(b"solve budget")
    first_score, _ = rollout_search([card.rank for card in deck])
    solution = solve(deck, node_budget=1)
    assert solution.score == first_score
    if solution.score is not None and solution.score < 24:
        assert not solution.proven_optimal
        assert solution.score_bound == 24  # nothing was ruled out
    if solution.score is not None:
        assert replayed_score(deck, solution.moves) == solution.score


def test_stuck_face_down_card_in_two_full_lines_needs_a_card_on_a_pile():
    # A full 4x4 grid with one face-down card: only a card on a pile in its row or column
    # (or on itself) can turn it up, so a limit that allows no such card is hopeless.
    piles = {}
    for row in range(4):
        for col in range(4):
            piles[(row, col)] = 5 + (row + col) % 3
    position = Position.from_piles(
        {INDEX[at]: (1, -rank if at == (1, 2) else rank) for at, rank in piles.items()}, 16)
    assert position.face_down == 1
    assert _stuck(position, limit=16)
    assert not _stuck(position, limit=17)


def first_legal_line(deck) -> Game:
    """A game played by always taking the first legal move: it usually loses."""
    game = Game(deck)
    while game.status == "playing":
        game.play(game.legal_moves()[0])
    return game


def test_winnable_follows_a_won_line_to_its_end():
    deck = deal(b"solve 0")
    moves = solve(deck, node_budget=3_000).moves
    assert winnable(deck) is True
    assert winnable(deck, moves[:10], node_budget=20_000) is True
    assert winnable(deck, moves) is True


def test_a_lost_game_is_not_winnable_and_winnability_only_runs_out():
    deck = deal(b"solve 4")
    game = first_legal_line(deck)
    assert game.status == "lost"
    moves = game.moves
    assert winnable(deck, moves) is False
    answers = [winnable(deck, moves[:k], node_budget=20_000) for k in range(0, len(moves), 3)]
    known = [answer for answer in answers if answer is not None]
    assert known == sorted(known, reverse=True)  # True ... True, False ... False


def test_cards_that_must_turn_together_but_differ_are_stuck():
    # Rows 0 and 1 are full, column 0 still has holes: (0, 0) and (1, 0) can only turn with
    # column 0, and always together. One face up and one face down can never both be up.
    cells = [(row, col) for row in range(4) for col in range(4) if (row, col) not in
             ((2, 0), (3, 0))]

    def position_with(face_down_cells):
        return Position.from_piles(
            {INDEX[at]: (1, -5 if at in face_down_cells else 5) for at in cells}, len(cells))

    no_card_on_a_pile = len(cells) + 2  # just the cards for the two holes
    assert _stuck(position_with({(1, 0)}), no_card_on_a_pile)
    assert not _stuck(position_with({(0, 0), (1, 0)}), no_card_on_a_pile)
    assert not _stuck(position_with(set()), no_card_on_a_pile)
    assert not _stuck(position_with({(1, 0)}), no_card_on_a_pile + 1)  # a pile can fix it
