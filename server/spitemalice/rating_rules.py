"""Whether a match between people counts on the ratings board (docs/RATINGS.md, "What rates").

Decided when the match is created and checked again when the second player joins, so that an
invitation says before it is accepted whether it is rated:

- a player may ask for a casual (unrated) match;
- both accounts must be established when the match is created (claimed at least 24 h before:
  ``server.players.trust``, the rule the daily boards use), so fresh guests cannot feed anyone
  a rating;
- the same two players have at most ``PAIR_RATED_PER_DAY`` rated matches begun in any 24 hours;
  further ones are played unrated, so a board cannot be climbed by repetition;
- each player has at most ``PLAYER_RATED_PER_DAY`` rated matches begun in any 24 hours, across
  all opponents, so a ring of accounts cannot climb it in a day either.

Against the bot and in dailies nothing is rated (``Match.Unrated.BOT``, the model's default),
nor is a match with a bot account (``Player.bot``: a program playing through the API) in
either seat: the ratings are people's.

A rated match that finishes is rated in the transaction that finishes it (``match_rate``, on
the shared ``server.ratings``): reaching the target is a win, a resignation or a timeout a
loss for that seat, a tied single game a draw; a match that ended without a result (cancelled,
expired, aborted, unfinished) never rates.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from server.players.trust import established_at
from server.ratings.services import result_rate
from server.spitemalice.models import Match

GAME = "spite-malice"  # the game's key on the ratings
# How a match that rates may have ended (its ``reason``); a tie is a draw.
RESULTS = {Match.Reason.TARGET, Match.Reason.RESIGNED, Match.Reason.TIMEOUT, Match.Reason.TIED}
PAIR_RATED_PER_DAY = 3
PAIR_WINDOW = timedelta(hours=24)
PLAYER_RATED_PER_DAY = 10  # lichess-like: a day of serious play, not a farm


def _rated_recently(who: Q, now: datetime, *, besides=None) -> int:
    """The rated matches of ``who`` begun in the ``PAIR_WINDOW`` before ``now`` (aborted ones
    and ones nobody joined do not count)."""
    matches = Match.objects.filter(who, mode=Match.Mode.FRIEND, rated=True,
                                   status__in=[Match.Status.PLAYING, Match.Status.FINISHED],
                                   started_at__gt=now - PAIR_WINDOW)
    if besides is not None:
        matches = matches.exclude(pk=besides)
    return matches.count()


def _pair_rated_recently(a_id, b_id, now: datetime, *, besides=None) -> int:
    """The rated matches between players ``a_id`` and ``b_id`` begun in the ``PAIR_WINDOW``
    before ``now``."""
    pair = Q(player0_id=a_id, player1_id=b_id) | Q(player0_id=b_id, player1_id=a_id)
    return _rated_recently(pair, now, besides=besides)


def _player_rated_recently(player_id, now: datetime, *, besides=None) -> int:
    """The rated matches of ``player_id``, against anyone, begun in the ``PAIR_WINDOW`` before
    ``now``."""
    return _rated_recently(Q(player0_id=player_id) | Q(player1_id=player_id), now,
                           besides=besides)


def unrated_reason(*, requested: bool, created_at: datetime, players: list,
                   now: datetime, besides=None) -> str:
    """Why a match between ``players`` (one or both of them, as known yet) created at
    ``created_at`` is not rated, or "" if it is: ``requested`` is whether its creator asked for
    a rated match."""
    if any(player.bot for player in players):
        return Match.Unrated.BOT
    if not requested:
        return Match.Unrated.CASUAL
    if not all(established_at(player, created_at) for player in players):
        return Match.Unrated.NEW_ACCOUNT
    if len(players) == 2 and _pair_rated_recently(
            players[0].pk, players[1].pk, now, besides=besides) >= PAIR_RATED_PER_DAY:
        return Match.Unrated.PAIR_LIMIT
    if len(players) == 2 and any(
            _player_rated_recently(player.pk, now, besides=besides) >= PLAYER_RATED_PER_DAY
            for player in players):
        return Match.Unrated.DAILY_LIMIT
    return ""


def rating_decide(match: Match, *, requested: bool, players: list, now: datetime) -> None:
    """Set ``match.rated`` and ``match.unrated_reason`` for ``players`` (not saved)."""
    reason = unrated_reason(requested=requested, created_at=match.created_at or now,
                            players=players, now=now, besides=match.pk)
    match.rated = reason == ""
    match.unrated_reason = reason


def rating_at_join(match: Match, joiner, now: datetime) -> None:
    """The waiting ``match`` about to be joined by ``joiner``: still rated only if the joiner's
    account was established when the match was created and the pair's allowance is not used
    and neither player's daily allowance is (the callers hold both players' rows locked, so two
    joins cannot both take the last one)."""
    if match.rated:
        rating_decide(match, requested=True, players=[match.player0, joiner], now=now)


def rating_for_viewer(match: Match, viewer, now: datetime) -> tuple[bool, str]:
    """(rated, why not) of the waiting ``match`` if ``viewer`` (None: a new guest) joined it
    now: what its invitation shows before it is accepted."""
    if not match.rated:
        return False, match.unrated_reason
    if viewer is None:
        return False, Match.Unrated.NEW_ACCOUNT
    reason = unrated_reason(requested=True, created_at=match.created_at,
                            players=[match.player0, viewer], now=now, besides=match.pk)
    return reason == "", reason


def result_score(match: Match) -> float | None:
    """What a match played to its end scored for seat 0 (1, 0.5, 0), rated or not, or None if
    it ended without a result (cancelled, expired, aborted, unfinished) or has not ended."""
    if match.status != Match.Status.FINISHED or match.reason not in RESULTS:
        return None
    if match.winner is None:
        return 0.5 if match.reason == Match.Reason.TIED else None
    return 1.0 if match.winner == 0 else 0.0


def match_score(match: Match) -> float | None:
    """What a finished match scores for seat 0 on the ratings (1, 0.5, 0), or None if it does
    not rate."""
    if (match.mode != Match.Mode.FRIEND or not match.rated or match.player0_id is None
            or match.player1_id is None or match.player0_id == match.player1_id):
        return None
    return result_score(match)


def match_rate(match: Match):
    """Rate a match that has just finished (called inside the transaction that finishes it).
    Does nothing for a match that does not rate or was rated already; returns the new
    ``RatedMatch`` or None."""
    score = match_score(match)
    # match_score scores no match with an empty seat; the seats' test again tells the checker.
    if score is None or match.player0_id is None or match.player1_id is None:
        return None
    return result_rate(game=GAME, match_id=match.pk, player_a=match.player0_id,
                       player_b=match.player1_id, score_a=score,
                       at=match.finished_at or timezone.now())
