"""The stored matches under the rules of trust (docs/RATINGS.md), and the ratings board
computed again from them.

Before these rules a match between people was rated whoever played it, and a resignation in
the first turn lost it. Replayed here in the order the matches were created:

- ``started_at`` is its first game's deal;
- a match that ended by a resignation or a timeout before each seat completed its first turn
  is ``aborted`` (no winner; an ``aborted`` event closes its log);
- a match is ``rated`` only if both accounts were claimed at least 24 h before it was created
  and the pair had fewer than 3 rated matches begun in the 24 hours before it;
- then the board is replaced by what the rated, finished matches make, in order of their end.

The rules are written out here as they stand at this migration, as migrations must be: later
changes to the app's code do not change what this did.
"""

from datetime import timedelta

from django.db import migrations

GAME = "spite-malice"
TRUSTED_AFTER = timedelta(hours=24)
PAIR_RATED_PER_DAY = 3
PAIR_WINDOW = timedelta(hours=24)


def _established(player, at) -> bool:
    return player is not None and player.claimed_at is not None and (
        player.claimed_at <= at - TRUSTED_AFTER)


def _score(match) -> float | None:
    if match.status != "finished" or not match.rated or match.reason not in {
            "target", "resigned", "timeout", "tied"}:
        return None
    if match.winner is None:
        return 0.5 if match.reason == "tied" else None
    return 1.0 if match.winner == 0 else 0.0


def forwards(apps, schema_editor):
    from server.ratings.replay import Result, ratings_replay

    Match = apps.get_model("spitemalice", "Match")
    MatchGame = apps.get_model("spitemalice", "MatchGame")
    Event = apps.get_model("spitemalice", "Event")
    Rating = apps.get_model("ratings", "Rating")
    RatedMatch = apps.get_model("ratings", "RatedMatch")

    firsts = {game.match_id: game for game in MatchGame.objects.filter(number=1)}
    for match in Match.objects.filter(started_at__isnull=True).exclude(status="waiting"):
        first = firsts.get(match.pk)
        if first is not None:
            match.started_at = first.started_at
            match.save(update_fields=["started_at"])

    begun: dict = {}  # a pair of player ids -> when their rated matches began
    results = []
    friends = (Match.objects.filter(mode="friend").select_related("player0", "player1", "invitee")
               .order_by("created_at", "id"))
    for match in friends:
        first = firsts.get(match.pk)
        if (match.status == "finished" and match.reason in ("resigned", "timeout")
                and match.game_number == 1 and first is not None and first.turn_number <= 2):
            seat = 1 - match.winner if match.winner is not None else None
            match.status, match.winner = "aborted", None
            first.status, first.winner, first.points = "aborted", None, None
            first.save(update_fields=["status", "winner", "points"])
            match.event += 1
            Event.objects.create(match=match, number=match.event, kind="aborted",
                                 seat0={"game": 1, "seat": seat, "reason": match.reason},
                                 seat1={"game": 1, "seat": seat, "reason": match.reason},
                                 created_at=match.finished_at)
        players = [match.player0, match.player1 or match.invitee]
        known = [player for player in players if player is not None]
        pair = tuple(sorted(str(player.pk) for player in known))
        if not all(_established(player, match.created_at) for player in known):
            reason = "new_account"
        elif (len(known) == 2 and match.started_at is not None
              and sum(1 for at in begun.get(pair, [])
                      if match.started_at - PAIR_WINDOW < at <= match.started_at)
              >= PAIR_RATED_PER_DAY):
            reason = "pair_limit"
        else:
            reason = ""
        match.rated, match.unrated_reason = reason == "", reason
        if match.rated and match.status in ("playing", "finished") and match.started_at:
            begun.setdefault(pair, []).append(match.started_at)
        match.save(update_fields=["status", "winner", "event", "rated", "unrated_reason"])
        score = _score(match)
        if score is not None:
            results.append(Result(match_id=match.pk, player_a=match.player0_id,
                                  player_b=match.player1_id, score_a=score,
                                  at=match.finished_at))
    ratings_replay(game=GAME, results=results, rating_model=Rating,
                   rated_match_model=RatedMatch)


class Migration(migrations.Migration):
    dependencies = [
        ("spitemalice", "0004_ratings_trust"),
        ("ratings", "0001_ratings"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
