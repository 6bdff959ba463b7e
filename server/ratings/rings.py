"""Closed clusters of accounts ("rings") found on a ratings board, held off it until reviewed.

A ring of accounts that play only one another can lift one of them to the top of a board
however the single matches are limited: each feeds the next its losses. What gives it away is
the shape of its games: nearly all of its members' rated matches are among themselves, while
an honest player meets the field. lichess's moderation looks for such closed circles; here a
periodic job does (``rings_detect``, every ``DETECT_SECONDS``):

1. the rated matches of the last ``WINDOW`` make a graph, players joined by how often they met;
2. the graph is split into communities by label propagation (each player takes the label most
   of their matches share, ties to the smallest; deterministic, in player order);
3. the *field* is the community holding the player rated the longest ago: the board's own
   players, who are never a ring of it;
4. the other communities that played one another are judged together (label propagation may
   cut one ring in two), and where that whole is not closed, each alone: a group of at least
   ``MIN_ACCOUNTS`` players whose members played at least ``CLOSED_SHARE`` of their rated
   matches in the window among themselves is a ``Ring``: its accounts are held off the board
   (``Rating.held``) until an administrator reviews it.

The review (the Django admin's actions on rings): *clear* puts the accounts back on the board
(a community that keeps playing among itself is not held again unless it gains new members);
*remove* strikes the ring's matches among its members from the ratings and computes every
rating of the game again from the results that remain (``server.ratings.replay``): an
opponent who was fed or robbed by the ring gets the rating the honest results make. The
removed ring's accounts stay off the board.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Min, QuerySet
from django.utils import timezone

from server.ratings.models import RatedMatch, Rating, Ring, held_players
from server.ratings.replay import Result, ratings_replay

logger = logging.getLogger(__name__)

WINDOW = timedelta(days=30)
MIN_ACCOUNTS = 3
CLOSED_SHARE = 0.9
DETECT_SECONDS = 3600.0
MAX_ROUNDS = 50  # label propagation settles in a handful; a bound for the pathological


def _both_rated(game: str) -> QuerySet[RatedMatch]:
    """The game's results that rated both players: a one-sided result (a bot rated against a
    person, who was only its measure) joins nobody to a ring."""
    return RatedMatch.objects.filter(game=game, reference_deviation__isnull=True)


def _graph(game: str, since: datetime) -> dict[object, Counter]:
    """Each player rated in the window and how often they met each opponent."""
    graph: dict[object, Counter] = defaultdict(Counter)
    pairs = _both_rated(game).filter(rated_at__gte=since).values_list(
        "player_a_id", "player_b_id")
    for a, b in pairs.iterator(chunk_size=5000):
        graph[a][b] += 1
        graph[b][a] += 1
    return graph


def communities(graph: dict[object, Counter]) -> list[set]:
    """The graph's communities by label propagation, deterministic: players in id order, each
    taking the label its matches most share (its own label kept on a tie if among the best,
    else the smallest)."""
    order = sorted(graph, key=str)
    label = {player: str(player) for player in order}
    for _ in range(MAX_ROUNDS):
        changed = False
        for player in order:
            weights: Counter = Counter()
            for opponent, count in graph[player].items():
                weights[label[opponent]] += count
            best = max(weights.values())
            tied = sorted(name for name, weight in weights.items() if weight == best)
            chosen = label[player] if label[player] in tied else tied[0]
            if chosen != label[player]:
                label[player], changed = chosen, True
        if not changed:
            break
    groups: dict[str, set] = defaultdict(set)
    for player, name in label.items():
        groups[name].add(player)
    return sorted(groups.values(), key=lambda group: sorted(map(str, group)))


def closed_share(graph: dict[object, Counter], group: set) -> tuple[int, float]:
    """(matches among ``group``, the share of its members' matches that were among it)."""
    total = inside = 0
    for player in group:
        for opponent, count in graph[player].items():
            total += count
            if opponent in group:
                inside += count
    return inside // 2, (inside / total if total else 0.0)


def _field(game: str, groups: list[set]) -> set:
    """The community holding the player whose first rated match is the oldest."""
    first: dict = {}
    for side in ("player_a", "player_b"):
        rows = (_both_rated(game).values(side)
                .annotate(first=Min("rated_at")).values_list(side, "first"))
        for player, at in rows:
            if player not in first or at < first[player]:
                first[player] = at
    return min(groups, key=lambda group: min((first[p], str(p)) for p in group))


def holds_apply(game: str) -> None:
    """Make ``Rating.held`` say who is held off ``game``'s board (the rings' members)."""
    held = held_players(game)
    Rating.objects.filter(game=game, held=True).exclude(player_id__in=held).update(held=False)
    Rating.objects.filter(game=game, held=False, player_id__in=held).update(held=True)


def rings_detect(*, game: str, now: datetime | None = None) -> list[Ring]:
    """Find ``game``'s closed communities not yet held and hold them. The new rings."""
    now = now or timezone.now()
    graph = _graph(game, now - WINDOW)
    if not graph:
        return []
    groups = communities(graph)
    field = _field(game, groups)
    already = held_players(game)
    cleared = set(Ring.members.through.objects.filter(
        ring__game=game, ring__status=Ring.Status.CLEARED).values_list("player_id", flat=True))
    found = []
    for group in _candidates(graph, [group for group in groups if group is not field]):
        if len(group) < MIN_ACCOUNTS:
            continue
        matches, share = closed_share(graph, group)
        members = group - already
        if share < CLOSED_SHARE or not members or members <= cleared:
            continue
        with transaction.atomic():
            ring = Ring.objects.create(game=game, matches=matches, closed_share=share,
                                       detected_at=now)
            ring.members.set(sorted(members, key=str))
            holds_apply(game)
        logger.warning("%s: %d accounts held off the board as a ring (%d matches, %.0f%% "
                       "among themselves); review it in the admin", game, len(members),
                       matches, share * 100)
        found.append(ring)
    return found


def _candidates(graph: dict[object, Counter], groups: list[set]) -> list[set]:
    """The groups to judge: label propagation may cut one ring into several communities that
    played one another, so the communities outside the field that met are judged together
    first (a connected set of them); where that whole is not closed, each one on its own."""
    owner = {player: index for index, group in enumerate(groups) for player in group}
    links: dict[int, set[int]] = defaultdict(set)
    for player, index in owner.items():
        for opponent in graph[player]:
            other = owner.get(opponent)
            if other is not None and other != index:
                links[index].add(other)
    seen: set[int] = set()
    candidates = []
    for start in range(len(groups)):
        if start in seen:
            continue
        component, stack = [], [start]
        seen.add(start)
        while stack:
            index = stack.pop()
            component.append(index)
            for other in sorted(links[index] - seen):
                seen.add(other)
                stack.append(other)
        union = set().union(*(groups[index] for index in component))
        if len(component) > 1 and closed_share(graph, union)[1] < CLOSED_SHARE:
            candidates += [groups[index] for index in sorted(component)]
        else:
            candidates.append(union)
    return candidates


# Boards a game asked to be left out of the search (``rings_skip``).
_skipped: set[str] = set()


def rings_skip(game: str) -> None:
    """Leave ``game``'s board out of the periodic search: a board whose players are closed
    groups by design (a game's bots, whose house levels rate only one another) would be held
    whole."""
    _skipped.add(game)


def rings_detect_all() -> int:
    """The periodic job: every rated game's rings, but the boards left out. How many were
    found."""
    games = Rating.objects.exclude(game__in=_skipped).values_list("game", flat=True).distinct()
    return sum(len(rings_detect(game=game)) for game in list(games))


def ring_clear(ring: Ring) -> None:
    """Reviewed, not a ring: its accounts go back on the board."""
    with transaction.atomic():
        Ring.objects.filter(pk=ring.pk).update(status=Ring.Status.CLEARED,
                                               reviewed_at=timezone.now())
        holds_apply(ring.game)


def ring_remove(ring: Ring) -> int:
    """Reviewed, a ring: its matches among its members no longer rate, and the game's ratings
    are computed again from the results that remain. Its accounts stay off the board. Returns
    how many results were struck."""
    with transaction.atomic():
        Ring.objects.select_for_update().filter(pk=ring.pk).update(
            status=Ring.Status.REMOVED, reviewed_at=timezone.now())
        members = list(ring.members.values_list("pk", flat=True))
        struck, _ = RatedMatch.objects.filter(game=ring.game, player_a_id__in=members,
                                              player_b_id__in=members).delete()
        results = [Result.of(row)
                   for row in RatedMatch.objects.filter(game=ring.game).order_by("rated_at")]
        ratings_replay(game=ring.game, results=results, rating_model=Rating,
                       rated_match_model=RatedMatch)
        holds_apply(ring.game)
    return struck
