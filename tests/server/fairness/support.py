"""Helpers the fairness tests share: dailies committed quickly, and the verifier run against
the test server through the test client."""

from __future__ import annotations

import io
from datetime import date

from django.test import Client

from fairness import verify
from foursquare.cli import deck_of_seed
from server.foursquare import preparation
from server.spitemalice import fairness as spitemalice_fairness
from server.spitemalice.services import daily_get_or_create
from spitemalice.cli import daily_deck

TINY_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}
DEALS = {"foursquare": deck_of_seed, "spitemalice": daily_deck}


def foursquare_daily_commit(day: date) -> None:
    preparation.daily_prepare(day, time_budget=0.2, bot_options=TINY_BOT)


def spitemalice_daily_commit(day: date) -> None:
    spitemalice_fairness.daily_commit(daily_get_or_create(day))


def fetch(url: str):
    response = Client().get(url)
    assert response.status_code == 200, response.content
    return response.json()


def verify_dailies(game: str, first: date, last: date,
                   head: tuple[int, str] | None = None) -> tuple[int, str]:
    """The verifier's exit status and output for ``game``'s dailies from ``first`` to
    ``last`` on the test server."""
    out = io.StringIO()
    status = verify.verify_server(game=game, server="http://testserver", first=first,
                                  last=last, head=head, deal_of=DEALS[game], out=out,
                                  fetch=fetch)
    return status, out.getvalue()

