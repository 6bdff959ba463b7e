"""make load's LOAD_GAME: the names that worked before races were served mean what they meant,
``all`` (the default) adds the races, and a list picks loads in its order. LOAD_ROUNDS: how
many times they are played."""

import pytest

from loadtest.choice import games_of, rounds_of


def test_the_names_of_the_loads():
    assert games_of("foursquare") == ("foursquare",)
    assert games_of("spite-malice") == ("spite-malice",)
    assert games_of("both") == ("foursquare", "spite-malice")
    assert games_of("races") == ("races",)
    assert games_of("all") == ("foursquare", "spite-malice", "races")
    assert games_of("races, foursquare") == ("races", "foursquare")


@pytest.mark.parametrize("choice", ["", "chess", "races,races", "both,races"])
def test_anything_else_is_refused(choice):
    with pytest.raises(SystemExit):
        games_of(choice)


def test_the_rounds_are_a_whole_number_from_one():
    assert rounds_of("1") == 1
    assert rounds_of("6") == 6


@pytest.mark.parametrize("text", ["", "0", "-1", "2.5", "six"])
def test_any_other_count_of_rounds_is_refused(text):
    with pytest.raises(SystemExit):
        rounds_of(text)
