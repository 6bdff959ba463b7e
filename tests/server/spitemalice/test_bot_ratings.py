"""The bots on the people's rating scale (docs/RATINGS.md, "Bots"): the house bot's levels and
the bot accounts are rated against established people, whose ratings those matches never
move, and against one another, on a board of their own listed beside the people's."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from server.jobs.models import Job
from server.ratings import glicko
from server.ratings.models import RatedMatch, Rating
from server.ratings.replay import Result, ratings_replay
from server.ratings.rings import rings_detect
from server.spitemalice import bot_ratings
from server.spitemalice.bot_ratings import BOTS_GAME, house_player
from tests.server.spitemalice.friend_support import invite, join, past_aborting
from tests.server.spitemalice.support import start, url

pytestmark = pytest.mark.sqlite

BOARD = "spite-malice/ratings"


def established(player, rating: float = 1700.0, deviation: float = 60.0) -> Rating:
    """``player`` with an established rating on the people's board, as of now."""
    return Rating.objects.create(game="spite-malice", player=player, rating=rating,
                                 deviation=deviation, matches=20, provisional=False,
                                 updated_at=timezone.now())


def resign_to_the_house_bot(api, level: str = "hard") -> dict:
    match = start(api, level=level)
    response = api.post(url(match, "/resign"))
    assert response.status_code == 200, response.content
    over = response.json()
    assert (over["status"], over["winner"]) == ("finished", 1)
    return over


def bot_rating(player) -> Rating | None:
    return Rating.objects.filter(game=BOTS_GAME, player=player).first()


def test_a_win_over_an_established_person_rates_the_house_level_and_not_the_person(
        make_trusted_player):
    person, api = make_trusted_player("Ada")
    standing = established(person)
    before = (standing.rating, standing.deviation, standing.matches)

    resign_to_the_house_bot(api, "hard")

    hard = house_player("hard")
    assert hard.bot and not hard.has_usable_password()
    rated = RatedMatch.objects.get(game=BOTS_GAME)
    assert (rated.player_a_id, rated.player_b_id, rated.score_a) == (hard.pk, person.pk, 1.0)
    # The person was only the measure: their values as they stood, unmoved.
    assert rated.reference_deviation == pytest.approx(60.0)
    assert rated.rating_b_before == rated.rating_b_after == pytest.approx(1700.0)
    standing.refresh_from_db()
    assert (standing.rating, standing.deviation, standing.matches) == before
    # The level gained what Glicko-2 gives a new player for beating a 1700 (±60).
    expected = glicko.after_match(glicko.Glicko(1500.0, 350.0, 0.06),
                                  glicko.Glicko(1700.0, 60.0, 0.06), 1.0)
    level = bot_rating(hard)
    assert level is not None and level.matches == 1 and level.provisional
    assert level.rating == pytest.approx(expected.rating)
    assert level.rating > 1700  # a new rating moves far on a win over a stronger player


def test_the_board_lists_the_levels_beside_the_people_not_among_them(make_trusted_player,
                                                                     player_api):
    person, api = make_trusted_player("Ada")
    established(person, rating=1600.0)
    resign_to_the_house_bot(api, "expert")

    board = player_api.get(BOARD).json()
    assert [entry["player"]["id"] for entry in board["results"]] == [str(person.pk)]
    assert board["provisional"] == []
    [bot] = board["bots"]
    expert = house_player("expert")
    assert bot["player"] == {"id": str(expert.pk), "name": "House bot (expert)"}
    assert (bot["level"], bot["matches"], bot["provisional"]) == ("expert", 1, True)
    assert bot["rating"] == round(bot_rating(expert).rating)
    # The bots come with the first page only.
    assert player_api.get(BOARD, {"limit": 1}).json()["bots"] == board["bots"]


def test_a_person_whose_rating_says_little_rates_no_bot(make_trusted_player, make_player):
    _, guest_api = make_player("Guest")
    resign_to_the_house_bot(guest_api)  # a guest: no rating at all
    provisional, provisional_api = make_trusted_player("Ada")
    Rating.objects.create(game="spite-malice", player=provisional, matches=2,
                          updated_at=timezone.now())  # provisional
    resign_to_the_house_bot(provisional_api)
    held, held_api = make_trusted_player("Bob")
    Rating.objects.filter(pk=established(held).pk).update(held=True)  # in a ring
    resign_to_the_house_bot(held_api)
    fresh, fresh_api = make_player("Cy")  # established rating, account claimed just now
    established(fresh)
    resign_to_the_house_bot(fresh_api)

    assert not RatedMatch.objects.filter(game=BOTS_GAME).exists()
    assert not Rating.objects.filter(game=BOTS_GAME).exists()
    # Nothing was even looked up for the bot: a guest's finish costs no query of its own.
    assert bot_ratings.house_levels() == {}


def test_a_person_feeds_a_level_at_most_three_results_a_day(make_trusted_player):
    person, api = make_trusted_player("Ada")
    established(person)
    for _ in range(5):
        resign_to_the_house_bot(api, "easy")
    assert bot_rating(house_player("easy")).matches == 3
    # The allowance is per bot: another level still counts.
    resign_to_the_house_bot(api, "normal")
    assert bot_rating(house_player("normal")).matches == 1


def test_a_bot_account_is_rated_against_the_person_it_beats(make_trusted_player):
    person, person_api = make_trusted_player("Ada")
    standing = established(person)
    program, program_api = make_trusted_player("Robo")
    assert program_api.patch("players/me", {"bot": True}).status_code == 200

    match = invite(person_api, turn_seconds=3600, target=1)
    assert join(program_api, match["invite"]["code"]).status_code == 200
    apis = {0: person_api, 1: program_api}
    views = past_aborting(apis, {seat: apis[seat].get(url(match)).json() for seat in (0, 1)})
    assert views[0]["unrated_reason"] == "bot"  # never on the people's board
    assert person_api.post(url(match, "/resign")).status_code == 200

    rated = RatedMatch.objects.get(game=BOTS_GAME)
    assert (rated.player_a_id, rated.player_b_id, rated.score_a) == (program.pk, person.pk, 1.0)
    assert bot_rating(program).matches == 1
    assert Rating.objects.get(pk=standing.pk).matches == 20
    assert not RatedMatch.objects.filter(game="spite-malice").exists()
    entry = next(bot for bot in person_api.get(BOARD).json()["bots"]
                 if bot["player"]["id"] == str(program.pk))
    assert entry["level"] is None


def test_the_levels_game_rates_both_levels_once(db):
    hour = 12345
    first = bot_ratings.levels_game_rate("normal", "easy", hour)
    assert first is not None and first.reference_deviation is None  # both rated
    normal, easy = house_player("normal"), house_player("easy")
    assert (first.player_a_id, first.player_b_id) == (normal.pk, easy.pk)
    assert bot_rating(normal).matches == bot_rating(easy).matches == 1
    # Both moved, in opposite directions by the result (a draw leaves new players level).
    if first.score_a == 0.5:
        assert bot_rating(normal).rating == pytest.approx(bot_rating(easy).rating)
    else:
        winner, loser = (normal, easy) if first.score_a == 1.0 else (easy, normal)
        assert bot_rating(winner).rating > 1500 > bot_rating(loser).rating

    # The same hour again (a job run twice): nothing more.
    assert bot_ratings.levels_game_rate("normal", "easy", hour) is None
    assert RatedMatch.objects.filter(game=BOTS_GAME).count() == 1
    # The game is the benchmark's: the same deal and seats give the same result.
    from spitemalice.bot_bench import outcome, played_game

    game, seat, _ = played_game("normal", "easy", hour, first_deal=bot_ratings.LEVELS_FIRST_DEAL)
    assert outcome(game, seat)[0] == first.score_a


def test_the_levels_are_queued_once_an_hour_and_not_when_turned_off(db, settings):
    settings.SPITE_MALICE_LEVELS_PLAY = True
    assert bot_ratings.levels_enqueue() == 1
    assert bot_ratings.levels_enqueue() == 1  # asked again within the hour: the same job
    hour = int(timezone.now().timestamp() // bot_ratings.LEVELS_SECONDS)
    jobs = Job.objects.filter(kind=bot_ratings.LEVELS_JOB)
    assert [job.key for job in jobs] in ([str(hour)], [str(hour - 1)], [str(hour - 1),
                                                                       str(hour)])
    settings.SPITE_MALICE_LEVELS_PLAY = False
    Job.objects.all().delete()
    assert bot_ratings.levels_enqueue() == 0
    assert not Job.objects.exists()


def test_no_person_can_take_a_levels_name_first(make_player):
    person, _ = make_player("House bot (hard)")
    hard = house_player("hard")
    assert hard.pk != person.pk and hard.bot and not person.bot
    assert house_player("hard").pk == hard.pk
    assert bot_ratings.house_levels() == {hard.pk: "hard"}


def test_a_replay_rates_a_one_sided_result_as_it_was_rated_live(make_trusted_player):
    person, api = make_trusted_player("Ada")
    established(person, rating=1800.0, deviation=80.0)
    resign_to_the_house_bot(api, "hard")
    resign_to_the_house_bot(api, "hard")
    live = bot_rating(house_player("hard"))
    rows = list(RatedMatch.objects.filter(game=BOTS_GAME).order_by("rated_at"))

    ratings_replay(game=BOTS_GAME, results=[Result.of(row) for row in rows],
                   rating_model=Rating, rated_match_model=RatedMatch)

    replayed = bot_rating(house_player("hard"))
    assert (replayed.rating, replayed.deviation, replayed.matches) == pytest.approx(
        (live.rating, live.deviation, live.matches))
    # The person is still only the measure: no row of theirs on the bots' board.
    assert bot_rating(person) is None
    assert all(not row.b_rated for row in RatedMatch.objects.filter(game=BOTS_GAME))


def test_people_who_were_only_a_measure_join_no_ring(make_trusted_player):
    """A level met by a few people, each of whom it rated against and who never met anyone
    else on its board, is not a closed cluster: those results join nobody."""
    for name in ("Ada", "Bob", "Cy", "Di"):
        person, api = make_trusted_player(name)
        established(person)
        resign_to_the_house_bot(api, "hard")
    Rating.objects.filter(game=BOTS_GAME).update(updated_at=timezone.now() - timedelta(days=1))
    assert rings_detect(game=BOTS_GAME) == []


def test_a_new_installation_plays_the_past_hours_levels_games_once(db, monkeypatch):
    from io import StringIO
    from types import SimpleNamespace

    from django.core.management import call_command

    from server.ratings.selectors import shown
    from server.spitemalice.management.commands import play_house_levels

    monkeypatch.setattr(bot_ratings, "NEIGHBOURS", (("normal", "easy"),))  # the quick pair
    now = timezone.now()  # both runs in the same hour, whenever the test runs
    monkeypatch.setattr(play_house_levels, "timezone", SimpleNamespace(now=lambda: now))
    out = StringIO()
    call_command("play_house_levels", "--hours", "3", stdout=out)
    assert "rated 3 games" in out.getvalue()
    normal = bot_rating(house_player("normal"))
    assert normal.matches == 3
    assert f"normal: {shown(normal.rating)} ± {shown(normal.deviation)} after 3 games" in (
        out.getvalue())
    # The same hours again: already rated, nothing more.
    call_command("play_house_levels", "--hours", "3", stdout=StringIO())
    assert bot_rating(house_player("normal")).matches == 3


def test_the_levels_closed_group_is_never_held_as_a_ring(make_player):
    """The levels rate only one another: on the bots' board they are a closed group by design,
    which the rings' search would hold whole once bot accounts rated before them make the
    field; the periodic search leaves the bots' board out."""
    from server.ratings.rings import rings_detect_all
    from server.ratings.services import result_rate

    start = timezone.now() - timedelta(days=2)
    robo, _ = make_player("Robo")
    deep, _ = make_player("Deep")
    result_rate(game=BOTS_GAME, match_id=uuid.uuid4(), player_a=robo, player_b=deep,
                score_a=1.0, at=start)
    levels = [house_player(level) for level in ("easy", "normal", "hard")]
    for hour in range(12):
        a, b = levels[hour % 3], levels[(hour + 1) % 3]
        result_rate(game=BOTS_GAME, match_id=uuid.uuid4(), player_a=a, player_b=b,
                    score_a=float(hour % 2), at=start + timedelta(hours=hour + 1))

    assert rings_detect_all() == 0
    assert not Rating.objects.filter(game=BOTS_GAME, held=True).exists()
    # What the search would have done on this board: hold the levels.
    [ring] = rings_detect(game=BOTS_GAME)
    assert set(ring.members.all()) == set(levels)


def test_two_bot_accounts_rate_each_other_as_two_people_would(make_trusted_player,
                                                              make_player):
    apis, bots = {}, {}
    for seat, name in ((0, "Robo"), (1, "Deep")):
        bots[seat], apis[seat] = make_trusted_player(name)
        assert apis[seat].patch("players/me", {"bot": True}).status_code == 200
    for _ in range(4):  # the pair's allowance: three a day
        match = invite(apis[0], turn_seconds=3600, target=1)
        assert join(apis[1], match["invite"]["code"]).status_code == 200
        views = past_aborting(apis, {seat: apis[seat].get(url(match)).json()
                                     for seat in (0, 1)})
        assert views[0]["unrated_reason"] == "bot"
        assert apis[1].post(url(match, "/resign")).status_code == 200

    rows = RatedMatch.objects.filter(game=BOTS_GAME)
    assert rows.count() == 3 and all(row.b_rated for row in rows)
    assert {row.score_a for row in rows} == {1.0}
    assert bot_rating(bots[0]).matches == bot_rating(bots[1]).matches == 3
    assert bot_rating(bots[0]).rating > 1500 > bot_rating(bots[1]).rating
    assert not Rating.objects.filter(game="spite-malice").exists()

    # A bot account claimed just now rates nothing against another.
    _, fresh_api = make_player("New")
    assert fresh_api.patch("players/me", {"bot": True}).status_code == 200
    match = invite(apis[0], turn_seconds=3600, target=1)
    assert join(fresh_api, match["invite"]["code"]).status_code == 200
    pair = {0: apis[0], 1: fresh_api}
    past_aborting(pair, {seat: pair[seat].get(url(match)).json() for seat in (0, 1)})
    assert fresh_api.post(url(match, "/resign")).status_code == 200
    assert RatedMatch.objects.filter(game=BOTS_GAME).count() == 3
