"""The bots on the people's rating scale (docs/RATINGS.md, "Bots"): the house bot's four levels
and the bot accounts, rated on a board of their own (``BOTS_GAME``), listed beside the people's
and never in it.

- **A person against a bot** (the house bot at a level, in a match or a daily, or a bot account
  in a match) rates the bot alone, against the person's rating on the people's board, which
  the match never moves (``result_rate_against``): the people's ratings stay people's, and no
  one climbs by beating a program. The result counts only where the person's rating says
  something: established on the board (not provisional, not held off it), the account
  established when the match was created (``server.players.trust``), and at most
  ``PAIR_RATED_PER_DAY`` results of the same person and bot in 24 hours.
- **Two bot accounts** rate each other, on the terms two people do: both accounts established
  when the match was created, the pair's allowance.
- **The house bot's levels play one another** every hour (``levels_play``, a background job):
  one single game for each pair of neighbouring levels, on a deal of the benchmark's
  (``spitemalice.bot_bench``, so anyone can replay it), rated both ways. These set the levels'
  distances; the matches against people pin them to the people's scale.

The house bot's levels are players of their own (``house_player``), made when first rated: a
bot account nobody can sign in to or challenge, under a name no person can take.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from uuid import UUID

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db.models import Q
from django.utils import timezone

from server.core.queries import one_or_none
from server.jobs import background
from server.players.models import Player
from server.players.trust import established_at
from server.ratings.models import RatedMatch, Rating
from server.ratings.services import result_rate, result_rate_against, values_before
from server.spitemalice.models import Match
from server.spitemalice.rating_rules import GAME, PAIR_RATED_PER_DAY, PAIR_WINDOW, result_score
from spitemalice.bot import LEVELS

BOTS_GAME = "spite-malice-bots"  # the bots' board on the ratings
LEVELS_JOB = "sm_levels_play"
LEVELS_SECONDS = 3600
# The levels' games are the benchmark's games from this deal on, one deal an hour: a range the
# benchmark's own figures and the weights' fit never use.
LEVELS_FIRST_DEAL = 1_000_000
# Each level against the one below it: every distance measured, each level in two pairings.
NEIGHBOURS = tuple(zip(LEVELS[1:], LEVELS[:-1], strict=True))
# A house player's name key holds spaces, which no person's key does (``names.name_key``
# drops them): nobody can take the name first.
HOUSE_KEY = "house bot {level}"
HOUSE_NAME = "House bot ({level})"
_LEVELS_NAMESPACE = uuid.UUID("4f6b3c1e-2d7a-5b8e-9c0f-1a2b3c4d5e6f")


def house_player(level: str) -> Player:
    """The player who stands for the house bot at ``level`` on the ratings."""
    player, _ = Player.objects.get_or_create(
        name_key=HOUSE_KEY.format(level=level),
        defaults={"name": HOUSE_NAME.format(level=level), "bot": True,
                  "password": make_password(None), "challenges": Player.Challenges.NOBODY})
    return player


def house_levels() -> dict[UUID, str]:
    """``{player id: level}`` of the house bot's players made so far."""
    keys = {HOUSE_KEY.format(level=level): level for level in LEVELS}
    return {pk: keys[key] for pk, key in
            Player.objects.filter(name_key__in=keys).values_list("pk", "name_key")}


def match_rate_bots(match: Match) -> list[RatedMatch]:
    """Rate the bots of a match that has just finished (in the transaction that finishes it),
    by the rules above; the new ``RatedMatch`` rows (none if no bot played, or the match does
    not count, or was rated already)."""
    score = result_score(match)
    if score is None or match.player0_id is None:
        return []
    at = match.finished_at or timezone.now()
    if match.bot_seat is not None:  # the house bot; the person in the other seat
        person = match.player1 if match.bot_seat == 0 else match.player0
        standing = _standing(person, match)
        if person is None or standing is None:  # most matches against it: a guest's
            return []
        bot_score = score if match.bot_seat == 0 else 1 - score
        rated = _against_person(match, house_player(match.level).pk, person, standing,
                                bot_score, at)
        return [rated] if rated is not None else []
    if match.player1_id is None or match.player0_id == match.player1_id:
        return []
    if match.player0_bot and match.player1_bot:
        if not all(player is not None and established_at(player, match.created_at)
                   for player in (match.player0, match.player1)):
            return []
        if _pair_results(match.player0_id, match.player1_id, at) >= PAIR_RATED_PER_DAY:
            return []
        rated = result_rate(game=BOTS_GAME, match_id=match.pk, player_a=match.player0_id,
                            player_b=match.player1_id, score_a=score, at=at)
        return [rated] if rated is not None else []
    for seat, person in ((0, match.player1), (1, match.player0)):
        if getattr(match, f"player{seat}_bot") and person is not None and not person.bot:
            standing = _standing(person, match)
            if standing is None:
                return []
            bot_id = match.player0_id if seat == 0 else match.player1_id
            assert bot_id is not None  # both seats are filled (checked above)
            rated = _against_person(match, bot_id, person, standing,
                                    score if seat == 0 else 1 - score, at)
            return [rated] if rated is not None else []
    return []


def _standing(person: Player | None, match: Match) -> Rating | None:
    """``person``'s rating on the people's board if it may measure a bot (module docstring):
    a person's, established, on an account established when ``match`` was created."""
    if person is None or person.bot or not established_at(person, match.created_at):
        return None
    return one_or_none(Rating.objects.filter(game=GAME, player=person, held=False,
                                             provisional=False))


def _against_person(match: Match, bot_id: UUID, person: Player, standing: Rating,
                    bot_score: float, at: datetime) -> RatedMatch | None:
    """The bot ``bot_id`` rated against ``person``'s ``standing`` on the people's board,
    within the pair's daily allowance."""
    if _pair_results(bot_id, person.pk, at) >= PAIR_RATED_PER_DAY:
        return None
    return result_rate_against(game=BOTS_GAME, match_id=match.pk, player=bot_id,
                               reference=person, reference_values=values_before(standing, at),
                               score=bot_score, at=at)


def _pair_results(a_id: UUID, b_id: UUID, now: datetime) -> int:
    """The results between ``a_id`` and ``b_id`` on the bots' board in the last
    ``PAIR_WINDOW``."""
    pair = Q(player_a_id=a_id, player_b_id=b_id) | Q(player_a_id=b_id, player_b_id=a_id)
    return RatedMatch.objects.filter(pair, game=BOTS_GAME,
                                     rated_at__gt=now - PAIR_WINDOW).count()


# --- The levels against one another --------------------------------------------------------------


def levels_enqueue() -> int:
    """The periodic check: this hour's games between the levels, queued (the hour is the job's
    key: queued twice, it runs once). Returns how many jobs it asked for."""
    if not settings.SPITE_MALICE_LEVELS_PLAY:
        return 0
    hour = int(timezone.now().timestamp() // LEVELS_SECONDS)
    background.job_enqueue(kind=LEVELS_JOB, key=str(hour))
    return 1


def levels_play(key: str) -> None:
    """The job: hour ``key``'s game for each pair of neighbouring levels, played and rated
    both ways (exactly once each: the game's id is derived from the pair and the hour)."""
    hour = int(key)
    for higher, lower in NEIGHBOURS:
        levels_game_rate(higher, lower, hour)


def levels_game_rate(higher: str, lower: str, hour: int) -> RatedMatch | None:
    """Play and rate the game of ``higher`` against ``lower`` for ``hour``: the benchmark's
    game ``hour`` of the pairing from ``LEVELS_FIRST_DEAL`` (each deal twice over two hours,
    the seats swapped)."""
    from spitemalice.bot_bench import outcome, played_game  # the engine's games: the job only

    match_id = uuid.uuid5(_LEVELS_NAMESPACE, f"{higher}/{lower}/{hour}")
    if RatedMatch.objects.filter(game=BOTS_GAME, match_id=match_id).exists():
        return None
    game, higher_seat, _ = played_game(higher, lower, hour, first_deal=LEVELS_FIRST_DEAL)
    score, _, _ = outcome(game, higher_seat)
    return result_rate(game=BOTS_GAME, match_id=match_id, player_a=house_player(higher),
                       player_b=house_player(lower), score_a=score, at=timezone.now())
