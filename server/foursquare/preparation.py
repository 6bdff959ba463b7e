"""Preparing a daily: prove its deal winnable with the solver, and let the bot play it.

``daily_prepare`` solves the deal of ``daily_deck(date, attempt)``. If the solver finds no win
and nobody has started the daily yet, the daily is dealt again from the next seed index, until
a deal is proven winnable (a win found is a certificate: its moves replay to a win). A daily
that someone already plays never changes its deal; its proof result is recorded as it is.
Then the bot plays the deal, seeing only what a player sees, and its score becomes the
reference line on the day's board.

``manage.py prepare_dailies`` prepares the coming days ahead of time; a daily first asked for
before it was prepared is dealt at once and prepared by a background job.
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from foursquare.bot import play_deal
from foursquare.solver import solve
from server.foursquare import dailies, fairness
from server.foursquare.models import Daily, Deal, Game

MAX_ATTEMPTS = 20  # a random deal is nearly always winnable; this only bounds a freak run


def _solve(deck, time_budget: float):
    """The solver, looked up at call time so that tests can stand in for it."""
    return solve(deck, time_budget=time_budget)


def _play(deck, bot_options: dict[str, Any]):
    return play_deal(deck, **bot_options)


def daily_prepare(day: date, *, time_budget: float | None = None,
                  bot_options: dict[str, Any] | None = None) -> tuple[Daily, dict[str, float]]:
    """Prove the daily of ``day`` winnable (re-dealing it if nobody plays it yet), record the
    bot's result, and mark it prepared. Returns the daily and the seconds each part took."""
    time_budget = settings.FOURSQUARE_PREPARE_TIME_BUDGET if time_budget is None else time_budget
    bot_options = (dict(settings.FOURSQUARE_PREPARE_BOT) if bot_options is None
                   else dict(bot_options))
    daily = dailies.daily_get_or_create(day, prepare_later=False)
    costs = {"solver": 0.0, "bot": 0.0}

    attempt = daily.attempt
    deck = daily.deal.deck
    proofs = {}
    while True:
        started = time.process_time()
        proofs[attempt] = (deck, _solve(deck, time_budget))
        costs["solver"] += time.process_time() - started
        if proofs[attempt][1].score is not None or attempt + 1 >= MAX_ATTEMPTS:
            break
        if Game.objects.filter(daily=daily).exists():
            break
        attempt += 1
        deck = dailies.daily_deck(day, attempt)

    with transaction.atomic():
        # A game starting now takes a key-share lock on this row: it waits for this short
        # transaction, or this one waits for it and then sees the game.
        daily = Daily.objects.select_for_update(of=("self",)).select_related("deal").get(
            date=day)
        if attempt != daily.attempt:
            if Game.objects.filter(daily=daily).exists():
                attempt = daily.attempt  # someone started it meanwhile: the deal stays
            else:
                old = daily.deal
                daily.deal = Deal.from_deck(deck)
                daily.deal.save()
                daily.attempt = attempt
                daily.save(update_fields=["deal", "attempt"])
                if not Game.objects.filter(deal=old).exists():
                    old.delete()
        deck, solution = proofs[attempt]
        daily.proof_score = solution.score
        daily.proof_moves = [list(move) for move in solution.moves]
        daily.proof_optimal = solution.proven_optimal
        daily.save(update_fields=["proof_score", "proof_moves", "proof_optimal"])
        fairness.daily_commit(daily)  # its attempt is final now

    started = time.process_time()
    bot_game = _play(deck, bot_options)
    costs["bot"] = time.process_time() - started
    daily.bot_status = bot_game.status
    daily.bot_score = bot_game.score
    daily.prepared_at = timezone.now()
    daily.save(update_fields=["bot_status", "bot_score", "prepared_at"])
    return daily, costs


def daily_prepare_job(key: str) -> None:
    """The background job: prepare the daily of the date ``key`` unless that is done."""
    day = date.fromisoformat(key)
    if Daily.objects.filter(date=day, prepared_at__isnull=False).exists():
        return
    daily_prepare(day)
