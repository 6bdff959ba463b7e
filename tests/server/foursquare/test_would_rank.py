"""An unranked win's standing on a day board says where it would stand among the ranked
players: ``would_rank`` and ``would_better_than_percent``."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from server.boards.ranking import would_stand
from server.dailies import calendar
from tests.server.results import at, daily_result

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def test_would_stand_ranks_after_better_scores_and_level_with_equal_ones():
    # Ranked: a 10, two 5s, and one who lost (four players).
    distribution = {10: 1, 5: 2}
    assert would_stand(score=5, players=4, distribution=distribution) == (2, 25)
    assert would_stand(score=12, players=4, distribution=distribution) == (1, 100)
    assert would_stand(score=0, players=4, distribution=distribution) == (4, 25)
    assert would_stand(score=3, players=0, distribution={}) == (1, None)


@pytest.fixture
def ranked_day(make_trusted_player):
    day = calendar.utc_today()
    for index, score in enumerate((10, 5, 5, None)):
        player, _ = make_trusted_player(f"P{index}")
        daily_result(player, day, score, finished_at=at(index))
    return day


def standing(api, day, period="day"):
    response = api.get("leaderboard", {"period": period, "date": day.isoformat()})
    assert response.status_code == 200, response.content
    return response.json()["standing"]


def test_a_guests_win_would_rank_among_the_ranked_players(make_player, ranked_day):
    guest, api = make_player("Guest")
    daily_result(guest, ranked_day, 5)
    mine = standing(api, ranked_day)
    assert (mine["ranked"], mine["rank"], mine["better_than_percent"]) == (False, None, None)
    assert (mine["would_rank"], mine["would_better_than_percent"]) == (2, 25)
    # Week and all-time boards rank totals and wins, which a score count cannot place.
    assert standing(api, ranked_day, "week")["would_rank"] is None


def test_a_guests_loss_and_a_ranked_win_carry_no_would_rank(make_player, make_trusted_player,
                                                            ranked_day):
    guest, guest_api = make_player("Guest")
    daily_result(guest, ranked_day, None)
    assert standing(guest_api, ranked_day)["would_rank"] is None
    ada, ada_api = make_trusted_player("Ada")
    daily_result(ada, ranked_day, 12)
    mine = standing(ada_api, ranked_day)
    assert (mine["rank"], mine["would_rank"], mine["would_better_than_percent"]) == (1, None, None)


def test_the_unranked_result_comes_in_the_board_pages_one_statement(make_player, ranked_day):
    """The page, the viewer's entry and, off the ranked board, their result among all their
    dailies are read from one snapshot in one round trip to the boards' tables."""
    guest, api = make_player("Guest")
    daily_result(guest, ranked_day, 5)
    with CaptureQueriesContext(connection) as queries:
        mine = standing(api, ranked_day)
    assert mine["would_rank"] == 2  # the unranked win, read in the page's statement
    assert len([query for query in queries if "boards_" in query["sql"]]) == 1
