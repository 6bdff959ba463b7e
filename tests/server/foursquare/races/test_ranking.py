"""The ranking rule, as a pure function of the standings (docs/API.md, "Foursquare races")."""

from __future__ import annotations

from server.foursquare.races.ranking import Standing, places


def standing(key, status, score=None, placed=40, seconds=60.0, joined=0) -> Standing:
    return Standing(key=key, status=status, score=score, placed=placed, seconds=seconds,
                    joined=joined)


def test_winners_come_first_by_cards_left_then_time():
    result = places([
        standing("slow five", "won", 5, seconds=90, joined=0),
        standing("fast five", "won", 5, seconds=30, joined=1),
        standing("eight", "won", 8, seconds=170, joined=2),
        standing("lost at 39", "lost", placed=39, seconds=10, joined=3),
    ])
    assert result == {"eight": 1, "fast five": 2, "slow five": 3, "lost at 39": 4}


def test_losers_rank_by_cards_placed_then_time_out_of_time_counting_the_whole_limit():
    result = places([
        standing("lost early", "lost", placed=20, seconds=15, joined=0),
        standing("timed out", "out_of_time", placed=30, seconds=180, joined=1),
        standing("lost late", "lost", placed=30, seconds=120, joined=2),
        standing("lost best", "lost", placed=35, seconds=170, joined=3),
    ])
    assert result == {"lost best": 1, "lost late": 2, "timed out": 3, "lost early": 4}


def test_a_tie_left_goes_to_who_joined_first():
    result = places([standing("second", "lost", placed=30, seconds=60, joined=1),
                     standing("first", "lost", placed=30, seconds=60, joined=0)])
    assert result == {"first": 1, "second": 2}
