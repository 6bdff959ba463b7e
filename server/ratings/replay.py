"""A game's ratings board computed again from its results, replayed in order.

When the rules of what rates change, the board must be what the new rules would have made of
the stored matches - not the old board with new rules on top - so a history the new rules
refuse (a board bought with free accounts and instant resignations) does not survive the
upgrade. The game's data migration hands over its rated results under the new rules; this
replaces the game's ``Rating`` and ``RatedMatch`` rows with those the results make, through
the same steps as a match rated live (``services``).

The model classes are passed in, so a migration can call it with its historical models.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from server.ratings import glicko
from server.ratings.models import RatedMatch, Rating
from server.ratings.services import results_after, values_before, values_store


@dataclass(frozen=True)
class Result:
    match_id: UUID
    player_a: UUID  # a player's id
    player_b: UUID
    score_a: float  # 1, 0.5 or 0
    at: datetime
    # player_b's values if player_b was only the measure (a bot rated against a person:
    # ``services.result_rate_against``): player_a alone is rated, player_b gets no row here.
    reference: glicko.Glicko | None = None

    @classmethod
    def of(cls, row: RatedMatch) -> Result:
        """The result a stored ``RatedMatch`` holds."""
        reference = (None if row.reference_deviation is None else
                     glicko.Glicko(row.rating_b_before, row.reference_deviation,
                                   glicko.INITIAL_VOLATILITY))  # an opponent's volatility is unused
        return cls(match_id=row.match_id, player_a=row.player_a_id, player_b=row.player_b_id,
                   score_a=row.score_a, at=row.rated_at, reference=reference)


@dataclass
class _Row:
    """A player's values as the replay goes, shaped like a ``Rating`` row."""
    updated_at: datetime  # read only once a match was stored (``values_before``)
    rating: float = glicko.INITIAL_RATING
    deviation: float = glicko.INITIAL_DEVIATION
    volatility: float = glicko.INITIAL_VOLATILITY
    matches: int = 0
    provisional: bool = True


def ratings_replay(*, game: str, results: Iterable[Result], rating_model: type[Rating],
                   rated_match_model: type[RatedMatch]) -> int:
    """Replace ``game``'s ratings with those ``results`` make, taken in order of ``at``.
    Returns how many results were rated. The models may be a migration's historical ones,
    which have the same fields."""
    rows: dict[UUID, _Row] = {}
    rated: list[RatedMatch] = []
    for result in sorted(results, key=lambda result: result.at):
        a = rows.setdefault(result.player_a, _Row(updated_at=result.at))
        if result.reference is not None:
            before_a = values_before(a, result.at)
            after_a = glicko.after_match(before_a, result.reference, result.score_a)
            rated.append(rated_match_model(
                game=game, match_id=result.match_id, player_a_id=result.player_a,
                player_b_id=result.player_b, score_a=result.score_a,
                rating_a_before=before_a.rating, rating_a_after=after_a.rating,
                rating_b_before=result.reference.rating,
                rating_b_after=result.reference.rating,
                reference_deviation=result.reference.deviation, rated_at=result.at))
            values_store(a, after_a, result.at)
            continue
        b = rows.setdefault(result.player_b, _Row(updated_at=result.at))
        before_a, before_b = values_before(a, result.at), values_before(b, result.at)
        after_a, after_b = results_after(a, b, before_a, before_b, result.score_a)
        rated.append(rated_match_model(
            game=game, match_id=result.match_id, player_a_id=result.player_a,
            player_b_id=result.player_b, score_a=result.score_a,
            rating_a_before=before_a.rating, rating_a_after=after_a.rating,
            rating_b_before=before_b.rating, rating_b_after=after_b.rating,
            rated_at=result.at))
        values_store(a, after_a, result.at)
        values_store(b, after_b, result.at)
    rated_match_model.objects.filter(game=game).delete()
    rating_model.objects.filter(game=game).delete()
    rated_match_model.objects.bulk_create(rated, batch_size=1000)
    rating_model.objects.bulk_create(
        [rating_model(game=game, player_id=player_id, rating=row.rating,
                      deviation=row.deviation, volatility=row.volatility, matches=row.matches,
                      provisional=row.provisional, updated_at=row.updated_at)
         for player_id, row in rows.items()], batch_size=1000)
    return len(rated)
