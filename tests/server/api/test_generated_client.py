"""A client generated from the served schema works unchanged.

``openapi-python-client`` (the version pinned in pyproject.toml) turns the live OpenAPI document
into an httpx package once per test session; the tests then play through it against a live
server, every answer parsed into the generated types: a whole daily, and whole Spite & Malice
matches against the bot and between two people, each decision read from the typed match. A
schema that the generator refuses, or that a real answer does not fit (a missing field, an
undeclared status or member, a wrong type), fails here: the fix belongs in the schema, never in
this test. mypy checks a client written against the package (generated_client_example.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import pkgutil
import subprocess
import sys
import threading
import time
import traceback
import typing
import uuid
from contextlib import ExitStack
from pathlib import Path

import attrs
import httpx
import pytest
from django.test import Client as DjangoClient

from server.jobs.background import job_run
from server.jobs.models import Job
from server.players.models import Player
from tests.server.conftest import trust
from tests.server.live import live_server

pytestmark = pytest.mark.django_db(transaction=True)  # the live server has its own connection

PACKAGE = "foursquare_client"
# No post-generation hooks: the defaults run formatters, which need nothing here, and a hook
# that reached the network would make the test depend on it.
CONFIG = {"package_name_override": PACKAGE, "project_name_override": PACKAGE, "post_hooks": []}


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """The package generated from /api/schema/, imported."""
    where = tmp_path_factory.mktemp("generated_client")
    response = DjangoClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    (where / "schema.json").write_text(json.dumps(response.json()))
    (where / "config.json").write_text(json.dumps(CONFIG))
    generator = Path(sys.executable).with_name("openapi-python-client")
    result = subprocess.run(
        [str(generator), "generate", "--path", "schema.json", "--config", "config.json",
         "--meta", "none", "--output-path", PACKAGE, "--fail-on-warning"],
        cwd=where, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _api(name: str):
    """An operation module of the generated package, e.g. ``_api("games.games_create")``."""
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def _models():
    return importlib.import_module(f"{PACKAGE}.models")


def _undeclared(value, where: str = "body") -> list[str]:
    """Members of a parsed answer that its schema does not declare (the generated models keep
    them in ``additional_properties``), anywhere inside it."""
    if isinstance(value, list):
        return [found for index, item in enumerate(value)
                for found in _undeclared(item, f"{where}[{index}]")]
    if not attrs.has(type(value)):
        return []
    names = [field.name for field in attrs.fields(type(value))]
    if names == ["additional_properties"]:  # a map (``additionalProperties: {...}``)
        return []
    # A closed schema (``additionalProperties: false``, as Problem's) keeps none: the schema
    # tests check those answers.
    found = [f"{where}.{key}" for key in getattr(value, "additional_properties", {})]
    for name in names:
        if name != "additional_properties":
            found += _undeclared(getattr(value, name), f"{where}.{name}")
    return found


@pytest.fixture
def clients(generated, live_server):
    """Opens clients of the generated package; closes them (and so the live server's
    connections that serve them) at the end."""
    with ExitStack() as stack:
        def open_client(token: str | None = None):
            options = {"base_url": live_server.url, "raise_on_unexpected_status": True}
            client = (generated.AuthenticatedClient(token=token, **options) if token
                      else generated.Client(**options))
            return stack.enter_context(client)

        yield open_client


def _takes_a_plain_client(module) -> bool:
    """Whether the generated operation's calls are typed to take a plain ``Client`` (no
    token): ``client: AuthenticatedClient | Client`` rather than ``AuthenticatedClient``."""
    plain = importlib.import_module(f"{PACKAGE}.client").Client
    answers = set()
    for call in (module.sync, module.sync_detailed, module.asyncio, module.asyncio_detailed):
        annotation = inspect.signature(call).parameters["client"].annotation
        answers.add(plain in (typing.get_args(annotation) or (annotation,)))
    [answer] = answers  # the four calls of an operation agree
    return answer


def test_operations_that_need_no_token_take_a_plain_client(generated):
    """An operation declared with no security requirement (anonymous, or a token optional) is
    generated to take a plain ``Client``; one that needs a token only ``AuthenticatedClient``:
    the generator reads ``[{"bearerAuth": []}, {}]`` as a token required."""
    document = DjangoClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    security = {operation["operationId"]: operation["security"]
                for item in document["paths"].values() for operation in item.values()}
    api = importlib.import_module(f"{PACKAGE}.api")
    plain = {info.name.rsplit(".", 1)[-1]: _takes_a_plain_client(importlib.import_module(
                 info.name))
             for info in pkgutil.walk_packages(api.__path__, f"{PACKAGE}.api.")
             if not info.ispkg}
    assert set(plain) == set(security)
    assert plain == {name: requirements == [] for name, requirements in security.items()}
    assert all(requirements in ([], [{"bearerAuth": []}]) for requirements in security.values())
    for name in ("players_create", "sessions_create", "daily_leaderboard", "daily_retrieve",
                 "spite_malice_ratings", "spite_malice_invitations_retrieve"):
        assert plain[name], name
    for name in ("players_me", "games_create", "spite_malice_actions_create"):
        assert not plain[name], name


def test_a_daily_played_through_the_generated_client(clients, live_server, settings):
    settings.FOURSQUARE_ANALYSIS_BOT = {"seed": 0, "samples": 2, "screen": 1, "finalists": 1}
    settings.FOURSQUARE_ANALYSIS_SOLVER_SECONDS = 0.5
    models = _models()
    anonymous = clients()

    # Public operations are called with a plain Client, as their generated types say.
    created = _api("players.players_create").sync_detailed(
        client=anonymous, body=models.PlayerCreateInputRequest(name="Ada", label="Generated"))
    assert created.status_code == 201
    guest = created.parsed
    assert isinstance(guest, models.PlayerWithToken) and guest.name == "Ada"
    assert _undeclared(guest) == []
    assert created.headers["Location"] == f"{live_server.url}/api/v1/players/{guest.id}"
    assert created.headers["Cache-Control"] == "no-store"
    client = clients(guest.token)
    trust(Player.objects.get(pk=guest.id))  # so that the daily ranks on the day's board

    started = _api("games.games_create").sync_detailed(
        client=client, idempotency_key=str(uuid.uuid4()),
        body=models.DailyGameInputRequest(mode=models.DailyGameInputModeEnum.DAILY))
    assert started.status_code == 201
    game = started.parsed
    assert isinstance(game, models.GameOutput) and game.mode == models.GameOutputModeEnum.DAILY
    assert _undeclared(game) == []
    assert started.headers["Location"] == f"{live_server.url}/api/v1/games/{game.id}"

    # A stale move and an illegal one come back as typed problems with their extensions.
    moves = _api("games.games_moves_create")
    stale = moves.sync_detailed(game_id=game.id, client=client,
                                body=models.MoveInputRequest(row=0, col=0, move=5))
    assert stale.status_code == 409 and stale.parsed.code == "stale_move"
    assert stale.parsed.moves_played == 0 and _undeclared(stale.parsed) == []
    illegal = moves.sync_detailed(game_id=game.id, client=client,
                                  body=models.MoveInputRequest(row=9, col=9, move=0))
    assert illegal.status_code == 422 and illegal.parsed.code == "illegal_move"
    assert illegal.parsed.legal_moves == game.legal_moves and _undeclared(illegal.parsed) == []

    played = []
    while game.status == models.GameStatusEnum.PLAYING:
        row, col = game.legal_moves[0]
        answer = moves.sync_detailed(
            game_id=game.id, client=client, idempotency_key=str(uuid.uuid4()),
            body=models.MoveInputRequest(row=row, col=col, move=game.moves_played))
        assert answer.status_code == 200, answer.content
        played.append([row, col])
        game = answer.parsed
        assert isinstance(game, models.GameOutput) and game.moves_played == len(played)
        assert _undeclared(game) == []
    assert game.status in (models.GameStatusEnum.WON, models.GameStatusEnum.LOST)

    record = _api("games.games_record").sync(game_id=game.id, client=client)
    assert isinstance(record, models.RecordOutput) and _undeclared(record) == []
    assert len(record.deck) == 40 and record.moves == played and record.status == game.status

    # The analysis: pending, then (its job run here, as the worker would) the review.
    analysis = _api("games.games_analysis")
    pending = analysis.sync(game_id=game.id, client=client)
    assert isinstance(pending, models.AnalysisPendingOutput)
    job_run(Job.objects.get(kind="game_analyse", key=str(game.id)).pk)
    review = analysis.sync(game_id=game.id, client=client)
    assert isinstance(review, models.AnalysisOutput) and len(review.moves) == len(played)
    assert [move.played for move in review.moves] == played and _undeclared(review) == []

    board = _api("leaderboards.daily_leaderboard").sync_detailed(day=game.date, client=client)
    assert board.status_code == 200 and "authorization" in board.headers["Vary"].lower()
    board = board.parsed
    assert isinstance(board, models.BoardOutput) and board.players == 1
    assert _undeclared(board) == []
    assert board.standing.status.value == game.status.value and board.standing.ranked
    if game.status == models.GameStatusEnum.WON:
        assert [entry.player.id for entry in board.entries] == [guest.id]
        assert board.me.score == game.score
    public = _api("leaderboards.daily_leaderboard").sync(day=game.date, client=anonymous)
    assert isinstance(public, models.BoardOutput) and public.players == 1
    assert public.me is None and public.standing is None and _undeclared(public) == []
    assert [entry.player.id for entry in public.entries] == [
        entry.player.id for entry in board.entries]
    daily = _api("leaderboards.daily_retrieve").sync(client=client)
    assert isinstance(daily, models.DailyOutput) and daily.your_game.id == game.id
    assert _undeclared(daily) == []

    [token] = _api("players.tokens_list").sync(client=client)
    assert token.label == "Generated" and token.current and isinstance(token.id, uuid.UUID)
    assert _undeclared(token) == []
    same = _api("players.tokens_retrieve").sync(token_id=token.id, client=client)
    assert same.to_dict() == token.to_dict()


def test_spite_malice_refusals_come_back_typed_with_how_to_recover(clients):
    models = _models()
    guest = _api("players.players_create").sync(
        client=clients(), body=models.PlayerCreateInputRequest(name="Bea"))
    client = clients(guest.token)
    match = _api("spite_malice.spite_malice_matches_create").sync(
        client=client, body=models.BotMatchInputRequest(
            opponent=models.BotMatchInputOpponentEnum.BOT, level=models.BotLevelEnum.EASY,
            target=models.TargetEnum.VALUE_50))
    assert isinstance(match, models.MatchOutput) and _undeclared(match) == []
    game = match.game
    actions = _api("spite_malice.spite_malice_actions_create")
    stale = actions.sync_detailed(match_id=match.id, client=client, body=models.ActionInputRequest(
        action=game.legal_actions[0], game=game.number, actions=game.actions + 1))
    assert stale.status_code == 409 and stale.parsed.code == "stale_action"
    assert (stale.parsed.game, stale.parsed.actions) == (game.number, game.actions)
    assert _undeclared(stale.parsed) == []
    illegal = actions.sync_detailed(match_id=match.id, client=client,
                                    body=models.ActionInputRequest(action=["P", "S0"]))
    assert illegal.status_code == 422 and illegal.parsed.code == "illegal_action"
    assert illegal.parsed.legal_actions == game.legal_actions and _undeclared(illegal.parsed) == []

    feed = _api("spite_malice.spite_malice_events_list").sync(match_id=match.id, client=client)
    assert isinstance(feed, models.EventsOutput) and feed.more is False
    assert feed.last == match.event and _undeclared(feed) == []
    page = _api("spite_malice.spite_malice_matches_list").sync(client=client, limit=1)
    assert [listed.id for listed in page.results] == [match.id]
    assert page.next_ is None and page.previous is None and page.count == 1


# Spite & Malice played whole through the generated client: every call one of its typed
# operations, every decision read from its typed models, the policy and the posting of an
# action those of generated_client_example.py (which mypy checks below).

EXAMPLE = "tests.server.api.generated_client_example"
# A single game ends in at most 300 turns (then it is tied), a turn in a few actions: far
# more than any game takes, so a loop that reaches it is a bug, not a long game.
ACTION_LIMIT = 3000


@pytest.fixture(scope="session")
def example(generated):
    """generated_client_example.py, imported (it imports the generated package)."""
    yield importlib.import_module(EXAMPLE)
    sys.modules.pop(EXAMPLE, None)


def _guest(example, clients, name: str):
    """A new guest player (created with a plain ``Client``) and its ``AuthenticatedClient``."""
    models = _models()
    guest = example.expect(_api("players.players_create").sync(
        client=clients(), body=models.PlayerCreateInputRequest(name=name)), models.PlayerWithToken)
    return guest, clients(guest.token)


def _read(example, client, match_id):
    return example.expect(_api("spite_malice.spite_malice_matches_retrieve").sync(
        match_id, client=client), _models().MatchOutput)


def _assert_finished_consistently(match) -> None:
    """A finished single game's match: its winner, reason and scores agree with its game's."""
    models = _models()
    game = match.game
    scores = [seat.score for seat in match.seats]
    assert match.status == models.MatchStatusEnum.FINISHED and game.legal_actions == []
    if game.status == models.MatchGameStatusEnum.WON:
        assert match.reason == models.MatchOutputReasonEnum.TARGET
        assert match.winner == game.winner and match.winner in (0, 1)
        assert scores[match.winner] == game.points >= match.target
        assert scores[1 - match.winner] == 0
    else:
        assert game.status == models.MatchGameStatusEnum.TIED
        assert match.reason == models.MatchOutputReasonEnum.TIED
        assert match.winner is None and game.winner is None
        assert game.points == 0 and scores == [0, 0]


EVENT_KINDS = ("joined", "dealt", "draw", "play", "completed", "discard", "resigned", "timeout",
               "aborted", "game_over", "match_over", "cancelled")


def _assert_events_typed(example, client, match) -> list:
    """The match's whole feed as this seat sees it, through the generated client: every event
    parsed as its own kind's class (none left a raw mapping), no member undeclared, and the
    points of its game_over the finished game's."""
    models = _models()
    classes = {kind: getattr(models, "SpiteMalice" + kind.title().replace("_", "") + "Event")
               for kind in EVENT_KINDS}
    page = example.events_after(client, match, 0)
    assert page.more is False and page.last == match.event and _undeclared(page) == []
    for event in page.events:
        assert type(event) is classes[event.kind.value], event
    assert example.points_scored(page) == [match.game.points]
    assert isinstance(page.events[-1], models.SpiteMaliceMatchOverEvent)
    return page.events


def _as_anyone_sees_it(match) -> dict:
    """The match without what differs by seat: which seat you are, and your hand."""
    seen = match.to_dict()
    del seen["you"], seen["game"]["hand"]
    return seen


@pytest.fixture
def unthrottled_actions(settings):
    """A whole game's actions come faster than a person's, and a long game's more than the
    minute's allowance: the limits have tests of their own."""
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "off",
                               "moves.address": "off"}


@pytest.mark.usefixtures("unthrottled_actions")
def test_a_spite_malice_match_against_the_bot_played_to_its_end(clients, example, settings):
    # The bot's whole reply comes in each action's answer: no turn of it is left to the
    # background worker (not running here) however slow the machine.
    settings.SPITE_MALICE_BOT_SECONDS = 60.0
    models = _models()
    _, client = _guest(example, clients, "Cy")
    started = example.expect(_api("spite_malice.spite_malice_matches_create").sync(
        client=client, idempotency_key=str(uuid.uuid4()),
        body=models.BotMatchInputRequest(opponent=models.BotMatchInputOpponentEnum.BOT,
                                         level=models.BotLevelEnum.EASY,
                                         target=models.TargetEnum.VALUE_1)), models.MatchOutput)
    match = _read(example, client, started.id)
    assert match.to_dict() == started.to_dict()
    assert (match.mode, match.status, match.you) == (
        models.MatchModeEnum.BOT, models.MatchStatusEnum.PLAYING, 0)
    assert match.seats[1].bot == models.BotLevelEnum.EASY and match.seats[1].player is None

    played = 0
    while match.status == models.MatchStatusEnum.PLAYING:
        assert played < ACTION_LIMIT, "the match did not end"
        assert match.game.turn == match.you and match.game.legal_actions
        match = example.act(client, match)
        played += 1
        assert _undeclared(match) == []
    _assert_finished_consistently(match)
    assert _read(example, client, match.id).to_dict() == match.to_dict()
    events = _assert_events_typed(example, client, match)
    assert isinstance(events[0], models.SpiteMaliceDealtEvent) and len(events[0].payoff_tops) == 2

    game = match.game
    record = example.expect(_api("spite_malice.spite_malice_games_record").sync(
        match.id, game.number, client=client), models.MatchRecordOutput)
    assert (record.status, record.winner, record.points) == (game.status, game.winner,
                                                             game.points)
    assert len(record.actions) == game.actions >= played  # ours and the bot's


@pytest.mark.usefixtures("unthrottled_actions")
def test_a_friend_match_played_to_its_end_by_two_generated_clients(clients, example):
    models = _models()
    _, ada = _guest(example, clients, "Ada")
    bob_guest, bob = _guest(example, clients, "Bob")
    invited = example.expect(_api("spite_malice.spite_malice_matches_create").sync(
        client=ada, idempotency_key=str(uuid.uuid4()),
        body=models.FriendMatchInputRequest(opponent=models.FriendMatchInputOpponentEnum.FRIEND,
                                            target=models.TargetEnum.VALUE_1)),
        models.MatchOutput)
    assert (invited.status, invited.game, invited.you) == (models.MatchStatusEnum.WAITING, None, 0)
    code = invited.invite.code
    invitation = example.expect(_api("spite_malice.spite_malice_invitations_retrieve").sync(
        code, client=bob), models.InvitationOutput)
    assert invitation.code == code and invitation.target == 1
    joined = example.expect(_api("spite_malice.spite_malice_matches_join").sync(
        client=bob, idempotency_key=str(uuid.uuid4()), body=models.JoinInputRequest(code=code)),
        models.MatchOutput)
    assert (joined.id, joined.status, joined.you) == (invited.id, models.MatchStatusEnum.PLAYING, 1)
    assert joined.seats[1].player.id == bob_guest.id and joined.abortable

    seats = {0: ada, 1: bob}
    views = {0: _read(example, ada, invited.id), 1: joined}
    played = turns = merges = 0
    while views[0].status == models.MatchStatusEnum.PLAYING:
        seat = views[0].game.turn
        # Each seat sees the same table from its own side: its own hand, and actions only on
        # its own turn.
        for you, view in views.items():
            assert (view.you, view.game.turn, view.game.actions) == (
                you, seat, views[0].game.actions)
            assert len(view.game.hand) == view.game.seats[you].hand
            assert bool(view.game.legal_actions) == (you == seat)
        view = views[seat]
        while view.status == models.MatchStatusEnum.PLAYING and view.game.turn == seat:
            assert played < ACTION_LIMIT, "the match did not end"
            view = example.act(seats[seat], view)
            played += 1
            assert _undeclared(view) == []
        # The other seat catches up from its typed events: the draw that began its turn
        # brings the table it acts on, exactly what a read of the match gives.
        other, merged = example.catch_up(seats[1 - seat], views[1 - seat])
        read = _read(example, seats[1 - seat], view.id)
        if merged:
            assert other.to_dict() == read.to_dict()
            merges += 1
        views = {seat: view, 1 - seat: read}
        turns += 1
    for view in views.values():
        _assert_finished_consistently(view)
    # Every turn after a seat's first begins with a draw (a discard left its hand short of
    # five, and a game lasts longer than the stock's first cards): those came with tables.
    assert merges >= turns - 2
    for you, view in views.items():
        events = _assert_events_typed(example, seats[you], view)
        assert isinstance(events[0], models.SpiteMaliceJoinedEvent)
        assert events[0].player.id == bob_guest.id
    assert _as_anyone_sees_it(views[0]) == _as_anyone_sees_it(views[1])
    assert played == views[0].game.actions
    # The last turn counted is the one the game ended in, or the one before when a tie
    # ended it as the next turn began (the stock could not fill the hand).
    assert views[0].game.turn_number - 1 <= turns <= views[0].game.turn_number


# mypy (the version pinned in pyproject.toml) checks a client written against the generated
# package the way its author's CI would: strictly, the package included, so that the
# generated annotations are what is checked, not Any.
WRONG_USE = '''\
from foursquare_client.models import ActionInputRequest

ActionInputRequest(action=0)
'''


def _mypy(where: Path, cache: Path, *files: str) -> subprocess.CompletedProcess:
    mypy = Path(sys.executable).with_name("mypy")
    return subprocess.run(
        [str(mypy), "--strict", "--no-color-output", "--cache-dir", str(cache), PACKAGE,
         *files],
        cwd=where, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.long
def test_a_client_written_against_the_generated_package_type_checks(generated, tmp_path):
    where = Path(generated.__file__).parent.parent  # the folder the package was generated in
    example = Path(__file__).with_name("generated_client_example.py")
    (where / example.name).write_text(example.read_text())
    (where / BOT.name).write_text(BOT.read_text())  # docs/API.md's "Writing a bot"
    (where / ACCOUNT_STREAM.name).write_text(ACCOUNT_STREAM.read_text())
    (where / STREAM_BOT.name).write_text(STREAM_BOT.read_text())  # imports account_stream
    (where / "wrong_use.py").write_text(WRONG_USE)

    checked = _mypy(where, tmp_path / "mypy", example.name, BOT.name, ACCOUNT_STREAM.name,
                    STREAM_BOT.name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("Success: no issues found")

    # The check can fail: an int where the action's list is expected is reported.
    wrong = _mypy(where, tmp_path / "mypy", "wrong_use.py")
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert ('wrong_use.py:3: error: Argument "action" to "ActionInputRequest" has '
            'incompatible type "int"; expected "list[str]"') in wrong.stdout


@pytest.mark.usefixtures("unthrottled_actions")
def test_the_example_client_plays_an_action_against_the_bot(example, live_server, settings):
    settings.SPITE_MALICE_BOT_SECONDS = 60.0  # the bot's reply in the answer, as above
    models = _models()
    match = example.first_action_against_the_bot(live_server.url)
    assert isinstance(match, models.MatchOutput) and _undeclared(match) == []
    assert match.mode == models.MatchModeEnum.BOT and match.target == 1
    # One action of ours is in, and the bot's reply turn if the discard ended ours.
    assert match.game.actions >= 1
    assert match.status == models.MatchStatusEnum.FINISHED or match.game.turn == match.you


# docs/API.md's "Writing a bot": the example file it shows, run as it is against a live server
# (and type-checked above).

BOT = Path(__file__).parents[3] / "docs" / "examples" / "bot.py"


@pytest.fixture(scope="session")
def bot(generated):
    """docs/examples/bot.py, imported (it imports the generated package)."""
    spec = importlib.util.spec_from_file_location("docs_examples_bot", BOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_writing_a_bot_shows_the_example_file_verbatim():
    api = (Path(__file__).parents[3] / "docs" / "API.md").read_text()
    assert f"```python\n{BOT.read_text()}```\n" in api


@pytest.mark.usefixtures("unthrottled_actions")
def test_the_bot_of_the_docs_plays_a_match_against_the_bot_to_its_end(bot, live_server,
                                                                      settings, capsys):
    settings.SPITE_MALICE_BOT_SECONDS = 60.0  # the bot's reply in the answer, as above
    match = bot.main(live_server.url)
    assert isinstance(match, _models().MatchOutput) and _undeclared(match) == []
    _assert_finished_consistently(match)
    assert f"match {match.id}: winner {match.winner}, points [{match.game.points}]" in (
        capsys.readouterr().out)


@pytest.mark.usefixtures("unthrottled_actions")
def test_the_bot_of_the_docs_catches_up_after_a_stale_action(bot, live_server, settings):
    settings.SPITE_MALICE_BOT_SECONDS = 60.0
    guest = bot.sign_up(live_server.url, "Stale")
    with models_client(live_server.url, guest.token) as client:
        player = bot.Bot(client, bot.start(client))
        seen = player.match.game
        player.act(seen)
        moved = _read(bot, client, player.match.id)
        assert moved.game.actions > seen.actions
        # The view it acted on is stale now: refused (409 stale_action, nothing applied), and
        # the bot holds the match as it stands, read anew.
        player.act(seen)
        assert player.match.to_dict() == moved.to_dict()
        assert _read(bot, client, player.match.id).to_dict() == moved.to_dict()


def models_client(base_url: str, token: str):
    return importlib.import_module(PACKAGE).AuthenticatedClient(
        base_url=base_url, token=token, raise_on_unexpected_status=True)


# docs/examples/account_stream.py: the account stream read through the generated client, on the
# real server (gunicorn's uvicorn workers and Redis), where a stream stays open and tells each
# event as it is stored (Django's live server, on threads, gives what is stored and ends it).

ACCOUNT_STREAM = Path(__file__).parents[3] / "docs" / "examples" / "account_stream.py"


@pytest.fixture(scope="session")
def account_stream(generated):
    """docs/examples/account_stream.py, imported as ``account_stream`` (the name a bot beside
    it imports it by)."""
    spec = importlib.util.spec_from_file_location("account_stream", ACCOUNT_STREAM)
    module = importlib.util.module_from_spec(spec)
    sys.modules["account_stream"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("account_stream", None)


@pytest.fixture(scope="module")
def real_server(django_db_setup, django_db_blocker, tmp_path_factory):
    with live_server(tmp_path_factory, needs="the account stream's tests",
                     env={"SPITE_MALICE_BOT_SECONDS": "0"}) as running:
        yield running


def _real_guest(example, base_url: str, name: str):
    """A new guest on ``base_url``, and an ``AuthenticatedClient`` of it (to be closed)."""
    models, package = _models(), importlib.import_module(PACKAGE)
    with package.Client(base_url=base_url, raise_on_unexpected_status=True) as anonymous:
        guest = example.expect(_api("players.players_create").sync(
            client=anonymous, body=models.PlayerCreateInputRequest(name=name)),
            models.PlayerWithToken)
    return guest, models_client(base_url, guest.token)


def test_the_account_stream_read_through_the_generated_client(example, account_stream,
                                                               real_server):
    models = _models()
    _, ada = _real_guest(example, real_server.base, "Ada")
    bob_guest, bob = _real_guest(example, real_server.base, "Bob")
    with ada, bob:
        invited = example.expect(_api("spite_malice.spite_malice_matches_create").sync(
            client=ada, idempotency_key=str(uuid.uuid4()),
            body=models.FriendMatchInputRequest(
                opponent=models.FriendMatchInputOpponentEnum.FRIEND,
                target=models.TargetEnum.VALUE_1)), models.MatchOutput)
        example.expect(_api("spite_malice.spite_malice_matches_join").sync(
            client=bob, idempotency_key=str(uuid.uuid4()),
            body=models.JoinInputRequest(code=invited.invite.code)), models.MatchOutput)

        # The snapshot of the match being played, then what is stored, each line its kind's
        # generated model.
        told = []
        stream = account_stream.events(ada, after=0)
        for event in stream:
            told.append(event)
            if isinstance(event, models.JoinedEvent):
                break
        stream.close()
        snapshot, told = told[0], told[1:]
        assert isinstance(snapshot, models.MatchStartedEvent) and snapshot.number is None
        assert snapshot.match == invited.id and snapshot.opponent.id == bob_guest.id
        assert [event.number for event in told] == list(range(1, len(told) + 1))
        assert told[-1].match == invited.id and told[-1].player.id == bob_guest.id

        # Then each as it is stored: Bob leaves while Ada reads (the match is aborted: each
        # seat hears of it).
        def resign() -> None:
            time.sleep(0.5)
            example.expect(_api("spite_malice.spite_malice_matches_resign").sync(
                invited.id, client=bob, idempotency_key=str(uuid.uuid4())), models.MatchOutput)

        leaving = threading.Thread(target=resign)
        leaving.start()
        later = []
        for event in account_stream.follow(ada, after=told[-1].number):
            later.append(event)
            if isinstance(event, models.MatchOverEvent):
                break
        leaving.join()
        # (the snapshot that opens the connection holds the match if Bob had not left yet)
        later = [event for event in later if event.number is not None]
        assert later[0].number == told[-1].number + 1
        assert (later[-1].match, later[-1].status) == (invited.id, "aborted")

        # A stream refused says why, as the generated problem.
        with (models_client(real_server.base, "not-a-token") as nobody,
              pytest.raises(account_stream.StreamRefused) as refused):
            next(account_stream.events(nobody))
        assert refused.value.status == 401
        assert refused.value.problem.code == "not_authenticated"


# docs/examples/stream_bot.py: a bot that plays from the account stream alone, on the real
# server, whose house bot plays every turn of its own in the background (SPITE_MALICE_BOT_SECONDS
# 0), so that each of the stream bot's turns comes as a your_turn event with its table.

STREAM_BOT = Path(__file__).parents[3] / "docs" / "examples" / "stream_bot.py"
STREAM_PATH = "/api/v1/stream"
# A bot that has not finished its match by then is stuck: a single game takes seconds.
BOT_SECONDS = 300


@pytest.fixture(scope="session")
def stream_bot(generated, account_stream):
    """docs/examples/stream_bot.py, imported (beside it, ``account_stream``; in
    ``sys.modules``, where its dataclasses look up their annotations)."""
    spec = importlib.util.spec_from_file_location("stream_bot", STREAM_BOT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["stream_bot"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("stream_bot", None)


class _Cut(httpx.SyncByteStream):
    """A response's body that ends in a transport error after ``limit`` bytes, as a
    connection dropped mid-stream does (the last line read may be cut in two)."""

    def __init__(self, inner: httpx.SyncByteStream, limit: int, transport: Recording) -> None:
        self.inner, self.limit, self.transport = inner, limit, transport

    def __iter__(self) -> typing.Iterator[bytes]:
        seen = 0
        for chunk in self.inner:
            if seen + len(chunk) >= self.limit:
                yield chunk[:self.limit - seen]
                self.transport.cut += 1
                raise httpx.ReadError("connection cut by the test")
            seen += len(chunk)
            yield chunk

    def close(self) -> None:
        self.inner.close()


class Recording(httpx.HTTPTransport):
    """An httpx transport that records each request (method, path) and drops each of the
    first ``cuts`` account streams after ``limit`` bytes."""

    def __init__(self, cuts: int = 0, limit: int = 1500) -> None:
        super().__init__()
        self.requests: list[tuple[str, str]] = []
        self.to_cut, self.limit, self.cut = cuts, limit, 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((request.method, request.url.path))
        response = super().handle_request(request)
        if request.url.path == STREAM_PATH and self.to_cut > 0:
            self.to_cut -= 1
            response.stream = _Cut(response.stream, self.limit, self)
        return response


def _stream_bot_player(example, stream_bot, base_url: str, name: str, transport, **options):
    """A new guest (its own token has both scopes: it opens challenges to anyone) and a
    ``StreamBot`` on a play-only token of it, its requests through ``transport``."""
    models = _models()
    guest, account = _real_guest(example, base_url, name)
    with account:
        example.expect(_api("players.players_me_update").sync(
            client=account, body=models.PatchedPlayerUpdateInputRequest(
                challenges=models.ChallengesEnum.ANYONE)), models.PlayerProfileOutput)
        token = stream_bot.play_only_token(account, f"{name}'s stream bot")
        [made] = [listed for listed in _api("players.tokens_list").sync(client=account)
                  if not listed.current]
    assert made.scopes == [models.ScopesEnum.PLAY]
    client = importlib.import_module(PACKAGE).AuthenticatedClient(
        base_url=base_url, token=token, httpx_args={"transport": transport})
    return guest, stream_bot.StreamBot(client, **options)


def _run(bots_and_stops) -> None:
    """Run each bot on a thread of its own until its stop says so; fail on a bot's error or
    on one still running after BOT_SECONDS."""
    errors = []

    def run(bot, stop):
        try:
            bot.run(until=stop)
        except BaseException:  # noqa: BLE001 -- reported below, on the test's thread
            errors.append(traceback.format_exc())

    threads = [threading.Thread(target=run, args=pair, daemon=True) for pair in bots_and_stops]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(BOT_SECONDS)
    assert not errors, "\n".join(errors)
    assert not any(thread.is_alive() for thread in threads), "a stream bot did not finish"


def _numbered(client) -> list:
    """The account's stored events, every page."""
    models, found, after = _models(), [], 0
    while True:
        page = _api("account_stream.stream_events_list").sync(client=client, after=after)
        assert isinstance(page, models.StreamPageOutput)
        found += page.events
        after = page.last
        if not page.more:
            return found


def _match_reads(requests: list[tuple[str, str]]) -> list[str]:
    """The reads of matches among a bot's requests: none of the match list, none of a
    match's events (no polling), and what reads of one match there were."""
    reads = [path for method, path in requests
             if method == "GET" and path.startswith("/api/v1/spite-malice/matches")]
    assert [path for path in reads if path.endswith(("/matches", "/events"))] == []
    return reads


def test_the_stream_bot_plays_the_house_bot_from_the_stream_alone(example, stream_bot,
                                                                  real_server):
    models = _models()
    transport = Recording(cuts=2)
    guest, bot = _stream_bot_player(example, stream_bot, real_server.base, "Streamer",
                                    transport)
    with bot.client:
        started = bot.challenge_house(models.BotLevelEnum.EASY)
        _run([(bot, lambda bot: bool(bot.results))])
        requests = list(transport.requests)  # the bot's (the test reads on its client below)

        # The match ended, every action of the bot accepted, each turn played from what the
        # stream told (a table, or a match read once when a match_started said it was ours).
        [over] = bot.results
        assert (over.match, over.status, over.seat) == (
            started.id, models.MatchOverEventStatusEnum.FINISHED, 0)
        assert bot.refused == [] and bot.known == {}
        match = example.expect(_api("spite_malice.spite_malice_matches_retrieve").sync(
            started.id, client=bot.client), models.MatchOutput)
        _assert_finished_consistently(match)
        assert over.winner == match.winner and over.scores == [seat.score for seat in
                                                               match.seats]
        feed = example.events_after(bot.client, match, 0)
        ours = [event for event in feed.events if isinstance(
            event, (models.SpiteMalicePlayEvent, models.SpiteMaliceDiscardEvent))
            and event.seat == 0]
        assert bot.actions == len(ours) > 0

        # Two streams were dropped mid-line; the bot resumed after the last event it had read,
        # so it handled every stored event once, in order.
        assert transport.cut == 2
        assert len([path for _, path in requests if path == STREAM_PATH]) == 3
        stored = _numbered(bot.client)
        assert bot.last == stored[-1].number == len(stored)
        turns = [event for event in stored if isinstance(event, models.YourTurnEvent)]
        assert turns and all(event.table is not None for event in turns)
        reads = _match_reads(requests)
        assert bot.reads == len(reads) <= 1 + transport.cut  # the start, or after a drop
        assert guest.id == match.seats[0].player.id


def test_two_stream_bots_answer_a_challenge_each_way_and_play_it_out(example, stream_bot,
                                                                   real_server):
    models = _models()
    ada_transport, bob_transport = Recording(), Recording()
    _, ada = _stream_bot_player(example, stream_bot, real_server.base, "Ada Stream",
                                ada_transport)
    _, bob = _stream_bot_player(example, stream_bot, real_server.base, "Bob Stream",
                                bob_transport,
                                policy=stream_bot.Policy(targets=frozenset({1})))
    with ada.client, bob.client:
        # Ada challenges Bob (found by his name, written as another case) to a match of 50,
        # which his policy declines (too long), then to a single game, which it accepts.
        long = ada.challenge("bob stream", target=models.TargetEnum.VALUE_50)
        single = ada.challenge("BOB STREAM")
        assert long.invitee.name == single.invitee.name == "Bob Stream"
        _run([(ada, lambda bot: bool(bot.results)), (bob, lambda bot: bool(bot.results))])
        ada_requests, bob_requests = list(ada_transport.requests), list(bob_transport.requests)

        [declined] = ada.declined
        assert (declined.match, declined.reason) == (
            long.id, models.MatchOutputDeclineReasonEnum.TOO_LONG)
        assert declined.by.name == "Bob Stream"
        for bot, seat in ((ada, 0), (bob, 1)):
            [over] = bot.results
            assert (over.match, over.seat, over.status) == (
                single.id, seat, models.MatchOverEventStatusEnum.FINISHED)
            assert bot.refused == [] and bot.known == {}
        assert ada.results[0].winner == bob.results[0].winner
        match = example.expect(_api("spite_malice.spite_malice_matches_retrieve").sync(
            single.id, client=ada.client), models.MatchOutput)
        _assert_finished_consistently(match)
        # Every action of the game was one of theirs, each accepted.
        assert ada.actions + bob.actions == match.game.actions
        cancelled = example.expect(_api("spite_malice.spite_malice_matches_retrieve").sync(
            long.id, client=ada.client), models.MatchOutput)
        assert cancelled.decline_reason == models.MatchOutputDeclineReasonEnum.TOO_LONG
        # Neither polled: Bob's turns came with tables (and the accept's answer); Ada read
        # the match once at most, when its match_started said the first turn was hers.
        assert bob.reads == len(_match_reads(bob_requests)) == 0
        assert ada.reads == len(_match_reads(ada_requests)) <= 1


def test_the_stream_bot_runs_as_its_docs_say(stream_bot, real_server, capsys):
    """``python stream_bot.py <host> --guest NAME --house easy --matches 1``: a guest plays a
    single game against the house bot on a play-only token, and the match's end is printed
    with the event number to resume after."""
    thread = threading.Thread(target=stream_bot.main, daemon=True, args=(
        [real_server.base, "--guest", "Cli Bot", "--house", "easy", "--matches", "1"],))
    thread.start()
    thread.join(BOT_SECONDS)
    assert not thread.is_alive(), "the stream bot did not finish"
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("event ") and " finished, winner " in line
    assert line.endswith("we sat in seat 0")
    player = Player.objects.get(name="Cli Bot")
    assert [token.scopes for token in player.tokens.order_by("created_at")] == [
        "account play", "play"]
