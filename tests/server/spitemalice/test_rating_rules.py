"""Ratings and clocks a hostile player cannot bend (docs/RATINGS.md): only matches between
established accounts rate, a pair's rated matches are limited per day, a match left before
both first turns is aborted, a first turn has its grace, and no clock runs while nobody could
play. Each reproduction of a way the board was bought is a test here."""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta
from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from server.jobs.models import Liveness
from server.leagues.models import League, Membership
from server.ratings.models import RatedMatch, Rating
from server.spitemalice import clocks, rating_rules, services
from server.spitemalice.models import FIRST_TURN_SECONDS, Event, Match, MatchGame
from tests.server.conftest import assert_problem, trust
from tests.server.spitemalice.friend_support import (
    MATCHES,
    invite,
    join,
    kinds,
    pair,
    past_aborting,
    take_turn,
    whose_turn,
)
from tests.server.spitemalice.support import act, greedy, url

pytestmark = pytest.mark.sqlite


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def rating_of(player) -> Rating | None:
    return Rating.objects.filter(game="spite-malice", player=player).first()


def play_and_resign(creator_api, joiner_api, *, first_turns: bool = True,
                    **invitation) -> dict:
    """The farming loop: the creator invites, the joiner joins, (optionally both play their
    first turn,) the joiner resigns. The match as the creator then sees it."""
    match = invite(creator_api, **{"turn_seconds": 3600, "target": 1, **invitation})
    assert join(joiner_api, match["invite"]["code"]).status_code == 200
    apis = {0: creator_api, 1: joiner_api}
    views = {seat: apis[seat].get(url(match)).json() for seat in (0, 1)}
    if first_turns:
        views = past_aborting(apis, views)
    assert joiner_api.post(url(match, "/resign")).status_code == 200
    return creator_api.get(url(match)).json()


# --- Who rates ------------------------------------------------------------------------------


def test_fresh_guests_resigning_at_once_cannot_lift_anyone(make_trusted_player, make_player):
    farmer, farmer_api = make_trusted_player("Ada")
    for index in range(15):
        _, guest_api = make_player(f"Guest {index}")
        over = play_and_resign(farmer_api, guest_api, first_turns=False)
        # Resigned before either had played: aborted, not won; and a guest is never rated.
        assert over["status"] == "aborted" and over["winner"] is None
        assert over["reason"] == "resigned"
        assert (over["rated"], over["unrated_reason"]) == (False, "new_account")

    assert rating_of(farmer) is None and not RatedMatch.objects.exists()


def test_guests_who_play_a_turn_first_still_rate_nothing(make_trusted_player, make_player):
    farmer, farmer_api = make_trusted_player("Ada")
    for index in range(3):
        over = play_and_resign(farmer_api, make_player(f"Guest {index}")[1], first_turns=True)
        assert over["status"] == "finished" and over["winner"] == 0
        assert (over["rated"], over["unrated_reason"]) == (False, "new_account")
    assert rating_of(farmer) is None


def test_an_account_claimed_less_than_a_day_before_the_match_is_not_rated(make_trusted_player,
                                                                          make_player):
    _, ada_api = make_trusted_player("Ada")
    bob, bob_api = make_player("Bob")
    trust(bob, days=0)  # claimed just now
    match = invite(ada_api)
    assert (match["rated"], match["unrated_reason"]) == (True, None)  # Ada alone: fine

    joined = join(bob_api, match["invite"]["code"]).json()

    assert (joined["rated"], joined["unrated_reason"]) == (False, "new_account")


def test_a_new_accounts_invitation_says_it_is_unrated_before_anyone_joins(make_player,
                                                                          make_trusted_player):
    _, new_api = make_player("New")
    _, old_api = make_trusted_player("Old")
    match = invite(new_api)
    assert (match["rated"], match["unrated_reason"]) == (False, "new_account")

    preview = old_api.get(f"spite-malice/invitations/{match['invite']['code']}")

    assert preview.status_code == 200
    assert preview.json()["rated"] is False
    assert preview.json()["unrated_reason"] == "new_account"


def test_a_casual_match_is_never_rated(make_trusted_player):
    _, ada_api = make_trusted_player("Ada")
    _, bob_api = make_trusted_player("Bob")

    over = play_and_resign(ada_api, bob_api, first_turns=True, rated=False)

    assert over["status"] == "finished"
    assert (over["rated"], over["unrated_reason"]) == (False, "casual")
    assert not RatedMatch.objects.exists()


def test_a_rated_match_between_established_people_rates(make_trusted_player):
    ada, ada_api = make_trusted_player("Ada")
    _, bob_api = make_trusted_player("Bob")

    over = play_and_resign(ada_api, bob_api, first_turns=True)

    assert (over["rated"], over["unrated_reason"]) == (True, None)
    assert RatedMatch.objects.get().match_id.hex == over["id"].replace("-", "")
    assert rating_of(ada).rating > 1500


def test_a_sparring_partner_feeds_at_most_three_rated_matches_a_day(make_trusted_player):
    ada, ada_api = make_trusted_player("Ada")
    sparring, sparring_api = make_trusted_player("Sparring")

    overs = [play_and_resign(ada_api, sparring_api, first_turns=True) for _ in range(6)]

    assert [over["rated"] for over in overs] == [True] * 3 + [False] * 3
    assert {over["unrated_reason"] for over in overs[3:]} == {"pair_limit"}
    assert RatedMatch.objects.count() == rating_of(ada).matches == 3
    assert rating_of(sparring).matches == 3


def test_a_player_rates_at_most_ten_matches_a_day_across_opponents(make_trusted_player):
    ada, ada_api = make_trusted_player("Ada")
    opponents = [make_trusted_player(f"Feeder {index}") for index in range(11)]

    overs = [play_and_resign(ada_api, api) for _, api in opponents]

    assert [over["rated"] for over in overs] == [True] * rating_rules.PLAYER_RATED_PER_DAY + [
        False]
    assert overs[-1]["unrated_reason"] == "daily_limit"
    assert rating_of(ada).matches == 10 and RatedMatch.objects.count() == 10
    assert rating_of(opponents[-1][0]) is None


def test_a_resignation_right_after_both_first_turns_aborts_a_rated_match(make_trusted_player):
    _, ada_api = make_trusted_player("Ada")
    _, bob_api = make_trusted_player("Bob")
    match = invite(ada_api, turn_seconds=3600, target=1)
    assert join(bob_api, match["invite"]["code"]).status_code == 200
    apis = {0: ada_api, 1: bob_api}
    views = {seat: apis[seat].get(url(match)).json() for seat in (0, 1)}
    views = take_turn(apis, take_turn(apis, views))  # both first turns
    assert views[0]["abortable"] is True and views[0]["rated"] is True

    over = bob_api.post(url(match, "/resign")).json()

    assert (over["status"], over["reason"], over["winner"]) == ("aborted", "resigned", None)
    assert not RatedMatch.objects.exists()


def test_a_casual_match_is_lost_after_both_first_turns_as_before(make_trusted_player):
    _, ada_api = make_trusted_player("Ada")
    _, bob_api = make_trusted_player("Bob")
    match = invite(ada_api, turn_seconds=3600, target=1, rated=False)
    assert join(bob_api, match["invite"]["code"]).status_code == 200
    apis = {0: ada_api, 1: bob_api}
    views = {seat: apis[seat].get(url(match)).json() for seat in (0, 1)}
    views = take_turn(apis, take_turn(apis, views))
    assert views[0]["abortable"] is False

    over = bob_api.post(url(match, "/resign")).json()

    assert (over["status"], over["reason"]) == ("finished", "resigned")


def test_the_pairs_allowance_comes_back_after_a_day(make_trusted_player):
    _, ada_api = make_trusted_player("Ada")
    _, bob_api = make_trusted_player("Bob")
    for _ in range(3):
        play_and_resign(ada_api, bob_api, first_turns=True)
    assert invite(bob_api)["rated"] is True  # an open code: the joiner not known yet

    Match.objects.update(started_at=timezone.now() - rating_rules.PAIR_WINDOW)

    assert play_and_resign(bob_api, ada_api, first_turns=True)["rated"] is True


def test_direct_invitations_stocked_up_rate_only_the_allowance(make_trusted_player, db):
    ada, ada_api = make_trusted_player("Ada")
    bob, bob_api = make_trusted_player("Bob")
    league = League.objects.create(name="Club", owner=ada)
    Membership.objects.create(league=league, player=ada)
    Membership.objects.create(league=league, player=bob)
    invitations = [invite(ada_api, invitee=str(bob.pk)) for _ in range(5)]
    assert all(invitation["rated"] for invitation in invitations)  # none played yet

    joined = [join(bob_api, invitation["invite"]["code"]).json() for invitation in invitations]

    assert [match["rated"] for match in joined] == [True] * 3 + [False] * 2
    assert joined[-1]["unrated_reason"] == "pair_limit"


def test_the_invitation_preview_says_how_you_would_join(make_trusted_player, make_player,
                                                        api):
    ada, ada_api = make_trusted_player("Ada")
    _, bob_api = make_trusted_player("Bob")
    _, guest_api = make_player("Guest")
    match = invite(ada_api, turn_seconds=60, target=25)
    path = f"spite-malice/invitations/{match['invite']['code'].lower()}"

    as_bob = bob_api.get(path).json()
    assert as_bob == {
        "code": match["invite"]["code"],
        "from": {"id": str(ada.pk), "name": "Ada", "bot": False},
        "invitee": None, "target": 25, "turn_seconds": 60,
        "expires_at": match["invite"]["expires_at"], "rated": True, "unrated_reason": None}
    assert guest_api.get(path).json()["unrated_reason"] == "new_account"
    assert api.get(path).json()["unrated_reason"] == "new_account"  # no token: a new guest
    assert_problem(api.get("spite-malice/invitations/ZZZZZZZZ"), 404, "not_found")
    assert join(bob_api, match["invite"]["code"]).status_code == 200
    assert_problem(api.get(path), 409, "match_full")  # joined: as a join would say


def test_an_invitee_that_is_not_a_uuid_string_is_invalid(make_trusted_player):
    _, ada_api = make_trusted_player("Ada")
    for invitee in (5, True, [], "5"):
        response = ada_api.post(MATCHES, {"opponent": "friend", "invitee": invitee})
        problem = assert_problem(response, 400, "invalid")
        assert [error["field"] for error in problem["errors"]] == ["invitee"], problem
    response = ada_api.post(MATCHES, {"opponent": "friend", "rated": "yes"})
    problem = assert_problem(response, 400, "invalid")
    assert [error["field"] for error in problem["errors"]] == ["rated"], problem
    assert not Match.objects.exists()


# --- Aborted, not lost ------------------------------------------------------------------------


def test_a_match_resigned_before_both_first_turns_is_aborted(make_trusted_player):
    apis, views = pair(make_trusted_player)
    assert views[0]["abortable"] is True
    views = take_turn(apis, views)  # one seat has played its first turn, the other not
    assert views[0]["abortable"] is True
    leaver = whose_turn(views)

    response = apis[leaver].post(url(views[0], "/resign"))

    assert response.status_code == 200
    over = response.json()
    assert (over["status"], over["reason"], over["winner"]) == ("aborted", "resigned", None)
    assert over["abortable"] is False and over["deadline"] is None
    assert over["game"]["status"] == "aborted" and over["game"]["legal_actions"] == []
    assert kinds(apis[0], views[0])[-1] == "aborted"
    assert "match_over" not in kinds(apis[0], views[0])
    aborted = Event.objects.get(match_id=views[0]["id"], kind="aborted")
    assert aborted.seat0 == {"game": 1, "seat": leaver, "reason": "resigned"}
    assert not RatedMatch.objects.exists()
    for seat in (0, 1):
        stats = apis[seat].get("players/me/stats").json()["spite_malice"]
        assert stats["matches"]["played"] == stats["games"]["played"] == 0
    assert_problem(apis[0].post(url(views[0], "/resign")), 409, "game_over")
    assert_problem(apis[0].post(url(views[0], "/rematch")), 409, "rematch_unavailable")


def test_cancelling_a_match_before_the_first_turns_aborts_it(make_trusted_player):
    apis, views = pair(make_trusted_player)

    response = apis[0].post(url(views[0], "/cancel"))

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["reason"]) == ("aborted", "cancelled")
    assert kinds(apis[1], views[0])[-1] == "aborted"


def test_nobody_moving_on_a_minute_clock_aborts_instead_of_losing(make_trusted_player):
    """The reproduction: two 60-second matches where nobody moved timed out, and were rated."""
    for names in (("Ada", "Bob"), ("Cy", "Dee")):
        apis, views = pair(make_trusted_player, turn_seconds=60, names=names)
        Match.objects.filter(pk=views[0]["id"]).update(
            deadline=timezone.now() - timedelta(seconds=1))
        clocks.sweep()
        over = apis[0].get(url(views[0])).json()
        assert (over["status"], over["reason"], over["winner"]) == ("aborted", "timeout", None)
        assert over["rated"] is True  # it was to be rated: it ended without a result
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()


def test_the_first_turn_of_a_short_clock_has_its_grace(make_trusted_player):
    """The reproduction: joined while its creator was away, the match was lost on time a
    minute later."""
    apis, views = pair(make_trusted_player, turn_seconds=60)
    stored = Match.objects.get(pk=views[0]["id"])
    assert parse(views[0]["deadline"]) == stored.turn_started_at + timedelta(
        seconds=FIRST_TURN_SECONDS)
    views = take_turn(apis, views)
    second = Match.objects.get(pk=views[0]["id"])  # the other seat's first turn: grace too
    assert parse(views[0]["deadline"]) == second.turn_started_at + timedelta(
        seconds=FIRST_TURN_SECONDS)
    views = take_turn(apis, views)
    third = Match.objects.get(pk=views[0]["id"])  # from here the clock's own minute
    assert parse(views[0]["deadline"]) == third.turn_started_at + timedelta(seconds=60)


# --- Clocks that survive outages --------------------------------------------------------------


def silence(seconds: float) -> None:
    """As if the service's last process beat ``seconds`` ago and none has since (the whole
    service stopped)."""
    Liveness.objects.update_or_create(
        pk=1, defaults={"alive_at": timezone.now() - timedelta(seconds=seconds)})


def past_deadline(match_id, seconds_ago: float):
    deadline = timezone.now() - timedelta(seconds=seconds_ago)
    Match.objects.filter(pk=match_id).update(deadline=deadline)
    return deadline


def test_a_deadline_that_fell_while_the_server_was_down_is_moved_on(make_trusted_player):
    """The reproduction: two 60-second matches, the server down 85 s; both lost on time at
    the first sweep."""
    matches = []
    for names in (("Ada", "Bob"), ("Cy", "Dee")):
        apis, views = pair(make_trusted_player, turn_seconds=60, names=names,
                           first_turns=True)
        matches.append((apis, views))
    silence(85)
    deadlines = [past_deadline(views[0]["id"], 25) for _, views in matches]

    assert clocks.sweep() == 0

    for (apis, views), deadline in zip(matches, deadlines, strict=True):
        stored = Match.objects.get(pk=views[0]["id"])
        assert stored.status == "playing"
        moved = stored.deadline - deadline
        assert timedelta(seconds=85) <= moved < timedelta(seconds=95)
        assert apis[0].get(url(views[0])).json()["deadline"] == (
            stored.deadline.isoformat().replace("+00:00", "Z"))
    assert not RatedMatch.objects.exists()
    assert clocks.sweep() == 0  # the silence is bridged once


def test_a_read_after_an_outage_moves_the_deadline_instead_of_ending_the_match(
        make_trusted_player):
    apis, views = pair(make_trusted_player, turn_seconds=60, first_turns=True)
    silence(85)
    past_deadline(views[0]["id"], 25)
    seat = whose_turn(views)

    seen = apis[1 - seat].get(url(views[0])).json()

    assert seen["status"] == "playing"
    assert parse(seen["deadline"]) > timezone.now()
    # The seat to play can still play: its write is not refused on the stale deadline.
    mine = apis[seat].get(url(views[0])).json()
    assert act(apis[seat], mine, greedy(mine["game"])).status_code == 200


def test_a_deadline_before_the_outage_still_times_out(make_trusted_player):
    apis, views = pair(make_trusted_player, turn_seconds=60, first_turns=True)
    silence(30)
    past_deadline(views[0]["id"], 45)  # already due when the sweep last ran

    assert clocks.sweep() == 1

    over = apis[0].get(url(views[0])).json()
    assert (over["status"], over["reason"]) == ("finished", "timeout")


def test_a_short_pause_of_the_sweep_moves_nothing(make_trusted_player):
    _apis, views = pair(make_trusted_player, turn_seconds=60, first_turns=True)
    silence(3)
    past_deadline(views[0]["id"], 1)

    assert clocks.sweep() == 1
    assert Match.objects.get(pk=views[0]["id"]).reason == "timeout"


# --- Seeds the bot cannot read the deal from ----------------------------------------------------


def test_the_bot_and_hints_draw_on_one_way_values_of_the_seeds(player_api):
    match = Match.objects.get(pk=player_api.post(MATCHES, {
        "opponent": "bot", "level": "easy"}).json()["id"])
    game = MatchGame.objects.get(match=match, number=1)
    bot_seed = services._bot_seed(match, game)
    hint_seed = services._hint_seed(game)

    seed = bytes.fromhex(match.seed)
    assert bot_seed == hmac.new(seed, b"spite-malice/bot/1", hashlib.sha256).digest()
    assert hint_seed == hmac.new(bytes.fromhex(game.seed), b"spite-malice/hint",
                                 hashlib.sha256).digest()
    for derived in (bot_seed, hint_seed):
        assert seed not in derived and bytes.fromhex(game.seed) not in derived
    assert bot_seed != hint_seed


# --- The upgrade: the board recomputed from the stored matches ---------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_recomputes_the_board_so_a_farmed_history_does_not_survive(
        make_trusted_player, make_player):
    farmer, farmer_api = make_trusted_player("Ada")
    honest, honest_api = make_trusted_player("Bob")
    # The history as the old rules made it: every match rated, instant resignations lost.

    for index in range(4):
        _, guest_api = make_player(f"Guest {index}")
        over = play_and_resign(farmer_api, guest_api, first_turns=False)
        Event.objects.filter(match_id=over["id"], kind="aborted").delete()
        MatchGame.objects.filter(match_id=over["id"]).update(status="resigned", winner=0)
        Match.objects.filter(pk=over["id"]).update(
            status="finished", winner=0, rated=True, unrated_reason="")
        rating_rules.match_rate(Match.objects.get(pk=over["id"]))
    honest_match = play_and_resign(farmer_api, honest_api, first_turns=True)
    assert rating_of(farmer).matches == 5

    # The upgrade's data step, run as the migration runs it: on the models as they stood then
    # (the live schema has columns added since, which those models leave alone). Migrating the
    # database back to before it would drop those columns under the API that made the history.
    step = import_module("server.spitemalice.migrations.0005_ratings_recomputed")
    state = MigrationLoader(connection).project_state(("spitemalice", "0005_ratings_recomputed"))
    step.forwards(state.apps, None)

    farmed = Match.objects.exclude(pk=honest_match["id"])
    assert {(match.status, match.rated) for match in farmed} == {("aborted", False)}
    for match in farmed:
        assert list(Event.objects.filter(match=match, kind="aborted").values_list(
            "seat0", flat=True)) == [{"game": 1, "seat": 1, "reason": "resigned"}]
        assert match.winner is None and MatchGame.objects.get(match=match).status == "aborted"
    assert list(RatedMatch.objects.values_list("match_id", flat=True)) == [
        Match.objects.get(pk=honest_match["id"]).pk]
    assert rating_of(farmer).matches == rating_of(honest).matches == 1
    assert Match.objects.get(pk=honest_match["id"]).rated is True
