"""Writes on ratings: a finished match rates both of its players, once; or one of them
against the other's fixed values (a bot measured by a person).

``result_rate`` is the mechanism any two-player game calls with its own key and result, and
``result_rate_against`` the one-sided kind; which of its matches rate, and what they score,
is the game's to say (Spite & Malice: ``server.spitemalice.rating_rules`` for people,
``server.spitemalice.bot_ratings`` for its bots).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol
from uuid import UUID

from django.db import IntegrityError, transaction

from server.core import metrics
from server.players.models import Player
from server.ratings import glicko
from server.ratings.glicko import Glicko
from server.ratings.models import (
    PROVISIONAL_DEVIATION,
    PROVISIONAL_MATCHES,
    RatedMatch,
    Rating,
    held_players,
)

# A result against a provisional opponent (a rating that says little yet) moves a rating only
# this share of the way the library would: an opponent nobody knows cannot vouch for a rating,
# so a win over one moves it little, and a ring of fresh accounts cannot feed one another
# points (docs/RATINGS.md). The same share for a win, a draw and a loss, so that a pool of new
# players does not drift up or down.
PROVISIONAL_OPPONENT_WEIGHT = 0.25


class RatingValues(Protocol):
    """A ``Rating`` row's values, or anything with its fields (a replay's rows)."""

    rating: float
    deviation: float
    volatility: float
    matches: int
    provisional: bool
    updated_at: datetime


def is_provisional(matches: int, deviation: float) -> bool:
    return matches < PROVISIONAL_MATCHES or deviation > PROVISIONAL_DEVIATION


def result_weight(opponent_row: RatingValues, opponent_before: Glicko) -> float:
    """How much of a result against an opponent (their ``Rating`` row, or anything with its
    fields, and their values as the match began) counts: all of it against an established
    opponent, ``PROVISIONAL_OPPONENT_WEIGHT`` against a provisional one."""
    if is_provisional(opponent_row.matches, opponent_before.deviation):
        return PROVISIONAL_OPPONENT_WEIGHT
    return 1.0


def results_after(a: RatingValues, b: RatingValues, before_a: Glicko, before_b: Glicko,
                  score_a: float) -> tuple[Glicko, Glicko]:
    """Both players' values after one match that scored ``score_a`` for ``a`` (rows as the
    match began, and their values then): each rated from the other's values before it, each
    result weighted by whether the other was provisional (``result_weight``)."""
    after_a = glicko.weighted(before_a, glicko.after_match(before_a, before_b, score_a),
                              result_weight(b, before_b))
    after_b = glicko.weighted(before_b, glicko.after_match(before_b, before_a, 1 - score_a),
                              result_weight(a, before_a))
    return after_a, after_b


def _locked_ratings(game: str, player_ids: list[UUID], at: datetime) -> dict[UUID, Rating]:
    """Both players' ratings on ``game``, created as new ones if missing and locked for
    update, always in the same order (two matches finishing at once never deadlock)."""
    held = held_players(game, player_ids)  # a ring's account stays off the board however rated
    Rating.objects.bulk_create(
        [Rating(game=game, player_id=player_id, updated_at=at, held=player_id in held)
         for player_id in sorted(player_ids, key=str)],
        ignore_conflicts=True)
    rows = (Rating.objects.select_for_update().filter(game=game, player_id__in=player_ids)
            .order_by("player_id"))
    return {row.player_id: row for row in rows}


def values_before(row: RatingValues, at: datetime) -> Glicko:
    """A player's values (a ``Rating`` row, or anything with its fields) as the rating period
    of a match at ``at`` begins: a new player's are the initial ones; a rated player's
    deviation has grown for each idle period since their last match."""
    values = Glicko(row.rating, row.deviation, row.volatility)
    if row.matches == 0:
        return values
    return glicko.after_idle(values, glicko.idle_periods(at - row.updated_at))


def values_store(row: RatingValues, after: Glicko, at: datetime) -> None:
    """Set ``row``'s fields (not saved) to ``after``, its values after one more match at
    ``at``."""
    row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
    row.matches += 1
    row.provisional = is_provisional(row.matches, row.deviation)
    row.updated_at = at


def result_rate(*, game: str, match_id: UUID, player_a: Player | UUID, player_b: Player | UUID,
                score_a: float, at: datetime) -> RatedMatch | None:
    """Rate one finished match of ``game`` between ``player_a`` and ``player_b`` (players or
    their ids) that ended ``score_a`` for player_a (1, 0.5 or 0) at ``at``. Returns the new
    ``RatedMatch``, or None if this match was rated already. Runs in the caller's
    transaction (a savepoint of its own): the rating and the result commit together."""
    a_id, b_id = _id(player_a), _id(player_b)

    def rate(rows: dict[UUID, Rating]) -> RatedMatch:
        a, b = rows[a_id], rows[b_id]
        before_a, before_b = values_before(a, at), values_before(b, at)
        after_a, after_b = results_after(a, b, before_a, before_b, score_a)
        rated = RatedMatch.objects.create(
            game=game, match_id=match_id, player_a_id=a_id, player_b_id=b_id,
            score_a=score_a, rating_a_before=before_a.rating, rating_a_after=after_a.rating,
            rating_b_before=before_b.rating, rating_b_after=after_b.rating, rated_at=at)
        _store(a, after_a, at)
        _store(b, after_b, at)
        return rated

    return _rate_once(game, match_id, [a_id, b_id], at, rate)


def result_rate_against(*, game: str, match_id: UUID, player: Player | UUID,
                        reference: Player | UUID, reference_values: Glicko, score: float,
                        at: datetime) -> RatedMatch | None:
    """Rate ``player`` alone on ``game`` for one finished match that scored ``score`` for them
    against ``reference``, whose values (``reference_values``, read by the caller, from
    whichever board they stand on) are the measure and do not move: a bot rated against a
    person, whose own rating its matches never touch (docs/RATINGS.md, "Bots"). The
    ``RatedMatch`` keeps the reference as player_b, its rating before and after the same and
    its ``reference_deviation``. Returns None if this match was rated already; the caller's
    transaction, as ``result_rate``."""
    player_id, reference_id = _id(player), _id(reference)

    def rate(rows: dict[UUID, Rating]) -> RatedMatch:
        row = rows[player_id]
        before = values_before(row, at)
        # The reference is established (the caller's rule): its result counts in full.
        after = glicko.after_match(before, reference_values, score)
        rated = RatedMatch.objects.create(
            game=game, match_id=match_id, player_a_id=player_id, player_b_id=reference_id,
            score_a=score, rating_a_before=before.rating, rating_a_after=after.rating,
            rating_b_before=reference_values.rating, rating_b_after=reference_values.rating,
            reference_deviation=reference_values.deviation, rated_at=at)
        _store(row, after, at)
        return rated

    return _rate_once(game, match_id, [player_id], at, rate)


def _id(player: Player | UUID) -> UUID:
    return player.pk if isinstance(player, Player) else player


def _store(row: Rating, after: Glicko, at: datetime) -> None:
    values_store(row, after, at)
    row.save(update_fields=["rating", "deviation", "volatility", "matches", "provisional",
                            "updated_at"])


def _rate_once(game: str, match_id: UUID, player_ids: list[UUID], at: datetime,
               rate: Callable[[dict[UUID, Rating]], RatedMatch]) -> RatedMatch | None:
    """``rate(rows)`` with the rows of ``player_ids`` on ``game`` locked, unless the match was
    rated already: exactly once per (game, match), however many finishes race."""
    already = RatedMatch.objects.filter(game=game, match_id=match_id)
    if already.exists():
        return None
    try:
        with transaction.atomic():
            rows = _locked_ratings(game, player_ids, at)
            # A second finish of the same match waited for the first's locks: now it sees
            # the first one's row and changes nothing (the unique constraint backs this).
            if already.exists():
                return None
            rated = rate(rows)
    except IntegrityError:
        if already.exists():
            return None  # rated meanwhile by the other finish
        raise
    transaction.on_commit(metrics.rating_updates.labels(game).inc)
    return rated
