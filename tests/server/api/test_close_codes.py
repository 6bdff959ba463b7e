"""The one close-code table of the live sockets (``server.api.close_codes``): its words name
the bounds the settings hold, each socket adds its own codes in order, and the three sockets'
channels say the same of the codes they share."""

from __future__ import annotations

from server.api import close_codes
from server.api.close_codes import CloseCode, table
from server.foursquare.races import asyncapi as race_asyncapi
from server.spitemalice.live import asyncapi as match_asyncapi
from server.streams import asyncapi as account_asyncapi


def _table(**keywords) -> dict[int, CloseCode]:
    keywords = {"too_many": "your seat holds all the sockets it may",
                "reconnect": "Reconnect with `?after=`.", **keywords}
    return {close.code: close for close in table(**keywords)}


def test_the_words_name_the_bounds_the_settings_hold(settings):
    settings.LIVE_MAX_MESSAGE_BYTES = 2048
    settings.LIVE_TOKEN_CHECK_SECONDS = 1.5

    codes = _table()

    assert "A message over 2,048 bytes," in codes[4400].meaning
    assert f"No token within {close_codes.AUTH_SECONDS} s," in codes[4401].meaning
    assert "(within 1.5 s)." in codes[4401].meaning


def test_a_socket_that_takes_after_names_its_bound():
    assert "`after` not an integer 0-10^9." in _table(after_maximum=10**9)[4400].meaning
    assert "`after` not an integer 0-10^15." in _table(after_maximum=10**15)[4400].meaning
    assert "`after` not an integer 0-12,345." in _table(after_maximum=12345)[4400].meaning
    assert "`after`" not in _table()[4400].meaning


def test_a_sockets_own_codes_come_in_order_and_its_words_where_they_differ():
    own = CloseCode(4403, "No such thing.", "Stop.")

    codes = table(too_many="you hold all the sockets you may on this race",
                  reconnect="Reconnect: `ready` gives the race as it is.", spare="stream",
                  own=[own])

    assert [close.code for close in codes] == [4400, 4401, 4403, 4429, 1011, 1012, 1006]
    assert codes[2] == own
    assert codes[3].meaning.startswith("Too many: you hold all the sockets you may on this "
                                       "race, your address holds its share")
    assert codes[3].action == "Close a stream you do not need; reconnect later, backing off."
    assert {close.action for close in codes[4:]} == {
        "Reconnect: `ready` gives the race as it is."}


def test_the_three_sockets_say_the_same_of_the_codes_they_share():
    tables = {name: {close.code: close for close in module.CLOSE_CODES}
              for name, module in (("match", match_asyncapi), ("race", race_asyncapi),
                                   ("account", account_asyncapi))}

    assert [list(codes) for codes in tables.values()] == [
        [4400, 4401, 4403, 4429, 1011, 1012, 1006], [4400, 4401, 4403, 4429, 1011, 1012, 1006],
        [4400, 4401, 4429, 1011, 1012, 1006]]
    for code in (4401, 1011, 1012, 1006):
        assert len({codes[code].meaning for codes in tables.values()}) == 1, code
    # 4400 differs only by the bound of `after` (the race socket takes none).
    assert len({codes[4400].meaning.split(";")[0].rstrip(".")
                for codes in tables.values()}) == 1
    assert len({codes[4429].meaning.split(", your address")[1]
                for codes in tables.values()}) == 1
