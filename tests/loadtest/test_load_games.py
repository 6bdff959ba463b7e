"""make load's LOAD_GAME: the names that worked before races were served mean what they meant,
``all`` (the default) adds the races, and a list picks loads in its order."""

import pytest

from loadtest.choice import games_of


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
