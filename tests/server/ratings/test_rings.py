"""A ring of aged accounts cannot buy the board (docs/RATINGS.md, "Rings"): the pyramid of 10
accounts played through the API, and of 30 and 60 through the ratings' service layer, leaves
no ring account above the board's median established rating nor on its first page once the
ring job has run; an honest field is never held; the admin reviews a ring, and removing it
computes the ratings again without it. ``server.spitemalice.ring_bench`` is the benchmark
(its figures in docs/RATINGS.md)."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from datetime import timedelta

import glicko2
import pytest
from django.db import transaction
from django.utils import timezone

from server.ratings import rings
from server.ratings.models import RatedMatch, Rating, Ring
from server.ratings.services import is_provisional, result_rate, values_before
from server.spitemalice import ring_bench
from server.spitemalice.models import Match
from server.spitemalice.rating_rules import GAME, PAIR_RATED_PER_DAY, PLAYER_RATED_PER_DAY

pytestmark = pytest.mark.sqlite

FIELD, FIELD_MATCHES = 60, 14


@pytest.fixture
def field(db) -> list:
    """The board's honest players: established, with a realistic history of 20 days."""
    return ring_bench.honest_field(FIELD, FIELD_MATCHES, random.Random(36))


@pytest.fixture
def unthrottled(settings):
    """The ring's own hundreds of requests are not what these tests are about (the limits on
    accounts per address are tested in tests/server/players/)."""
    settings.THROTTLE_RATES = {}


def _rate_pyramid_by_rules(size: int) -> list:
    """The pyramid of ``size`` aged accounts, all of it now, through the ratings' service
    layer: each match rates as the game's rules would let it (the pair's allowance and each
    player's daily one; the game's own tests play them through its API), the rest never
    rate. The accounts' ids, the king first."""
    accounts = [ring_bench.aged_player(None, days=2)[0] for _ in range(size)]
    per_player: Counter = Counter()
    per_pair: Counter = Counter()
    now = timezone.now()
    for index, (winner, loser) in enumerate(ring_bench.pyramid(size)):
        a, b = accounts[winner], accounts[loser]
        pair = frozenset((a.pk, b.pk))
        if (per_pair[pair] >= PAIR_RATED_PER_DAY or per_player[a.pk] >= PLAYER_RATED_PER_DAY
                or per_player[b.pk] >= PLAYER_RATED_PER_DAY):
            continue
        per_pair[pair] += 1
        per_player[a.pk] += 1
        per_player[b.pk] += 1
        with transaction.atomic():
            result_rate(game=GAME, match_id=uuid.uuid4(), player_a=a, player_b=b, score_a=1.0,
                        at=now + timedelta(milliseconds=index))
    return [account.pk for account in accounts]


def _assert_off_the_board(ids: list) -> None:
    after = ring_bench.standing(ids)
    assert after.above_median == 0 and after.on_first_page == 0, after
    assert after.held == Rating.objects.filter(player_id__in=ids).count() > 0


# --- The goal: the pyramids --------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.django_db(transaction=False)
def test_a_pyramid_of_ten_aged_accounts_through_the_api_leaves_the_board(field, unthrottled):
    outcome = ring_bench.ring_run(10, through="api")

    assert outcome.matches == 135
    rated = Match.objects.filter(rated=True, status="finished").count()
    assert outcome.rated == rated <= 10 * PLAYER_RATED_PER_DAY // 2
    assert set(Match.objects.filter(rated=False).values_list("unrated_reason", flat=True)) <= {
        "daily_limit", "pair_limit"}
    # Before the job, the rules alone: the king's wins over provisional accounts counted little.
    assert outcome.before.held == 0
    assert outcome.after.above_median == outcome.after.on_first_page == 0, outcome.after
    assert outcome.after.held == 10
    ring = Ring.objects.get()
    assert ring.status == "held" and ring.members.count() == 10 and ring.closed_share == 1.0


@pytest.mark.parametrize("size", [30, 60])
def test_pyramids_of_thirty_and_sixty_accounts_leave_the_board(field, size):
    ids = _rate_pyramid_by_rules(size)
    assert max(Rating.objects.filter(player_id__in=ids).values_list("matches", flat=True)) <= (
        PLAYER_RATED_PER_DAY)

    assert len(rings.rings_detect(game=GAME)) >= 1

    _assert_off_the_board(ids)


def test_an_honest_field_is_never_held(field):
    assert rings.rings_detect(game=GAME) == []
    assert not Rating.objects.filter(held=True).exists()


def test_a_ring_that_plays_a_few_outsiders_is_still_found(field):
    ids = _rate_pyramid_by_rules(10)
    # Two of its accounts each lose one match to an honest player: nearly all still inside.
    with transaction.atomic():
        for index, ring_id in enumerate(ids[-2:]):
            result_rate(game=GAME, match_id=uuid.uuid4(), player_a=field[index].pk,
                        player_b=ring_id, score_a=1.0, at=timezone.now())

    rings.rings_detect(game=GAME)

    assert set(Ring.objects.get().members.values_list("pk", flat=True)) == set(ids)
    _assert_off_the_board(ids)


# --- The review ------------------------------------------------------------------------------


def test_clearing_a_ring_puts_it_back_and_it_is_not_held_again(field):
    ids = _rate_pyramid_by_rules(10)
    ring = rings.rings_detect(game=GAME)[0]

    rings.ring_clear(ring)

    assert not Rating.objects.filter(held=True).exists()
    assert ring_bench.standing(ids).held == 0
    assert rings.rings_detect(game=GAME) == []


def test_removing_a_ring_computes_every_rating_again_without_its_matches(field):
    ids = _rate_pyramid_by_rules(10)
    bridge = field[0]
    with transaction.atomic():  # an honest player beat the king once
        result_rate(game=GAME, match_id=uuid.uuid4(), player_a=bridge.pk, player_b=ids[0],
                    score_a=1.0, at=timezone.now() + timedelta(seconds=1))
    ring = rings.rings_detect(game=GAME)[0]
    honest = RatedMatch.objects.exclude(player_a_id__in=ids, player_b_id__in=ids).count()

    struck = rings.ring_remove(ring)

    assert struck > 0 and RatedMatch.objects.count() == honest
    assert not RatedMatch.objects.filter(player_a_id__in=ids, player_b_id__in=ids).exists()
    # The king's one result left (the loss to the honest player) is all that rates him, and
    # he stays off the board; the others of the ring have no rating left.
    king = Rating.objects.get(player_id=ids[0])
    assert king.matches == 1 and king.held
    assert not Rating.objects.filter(player_id__in=ids[1:]).exists()
    assert Ring.objects.get().status == "removed"


def test_the_admin_lists_rings_and_reviews_them(admin_client, field):
    ids = _rate_pyramid_by_rules(5)
    ring = rings.rings_detect(game=GAME)[0]

    page = admin_client.get("/admin/ratings/ring/")
    assert page.status_code == 200 and b"held" in page.content
    assert admin_client.get(f"/admin/ratings/ring/{ring.pk}/change/").status_code == 200
    response = admin_client.post("/admin/ratings/ring/", {
        "action": "clear", "_selected_action": [ring.pk]})

    assert response.status_code == 302
    assert Ring.objects.get().status == "cleared"
    assert not Rating.objects.filter(player_id__in=ids, held=True).exists()


# --- An honest player ------------------------------------------------------------------------


def test_an_honest_players_rating_moves_as_before_against_a_realistic_field(field):
    """Against established opponents of every strength, won and lost, the rating is the
    library's own, result by result: the rules against rings change nothing for them."""
    player, _ = ring_bench.aged_player("Honest", days=90)
    now = timezone.now()
    # Opponents of every strength who are established as the matches begin (an idle one's
    # deviation has widened: values_before).
    established = [row for row in Rating.objects.filter(game=GAME).order_by("rating")
                   if not is_provisional(row.matches, values_before(row, now).deviation)][::5]
    assert len(established) >= 6
    rng = random.Random(7)
    expected = glicko2.Player()
    for index, opponent in enumerate(established):
        score = rng.choice([1.0, 0.0, 0.5])
        at = now + timedelta(seconds=index)
        before = values_before(opponent, at)
        with transaction.atomic():
            result_rate(game=GAME, match_id=uuid.uuid4(), player_a=player,
                        player_b=opponent.player_id, score_a=score, at=at)
        expected = glicko2.Player(rating=expected.rating, rd=expected.rd, vol=expected.vol)
        expected.update_player([before.rating], [before.deviation], [score])
        stored = Rating.objects.get(game=GAME, player=player)
        assert (stored.rating, stored.deviation) == (expected.rating, expected.rd)
