"""A client generated from the served schema works unchanged.

``openapi-python-client`` (the version pinned in pyproject.toml) turns the live OpenAPI document
into an httpx package once per test session; the test then plays a whole daily through it
against a live server, every answer parsed into the generated types. A schema that the
generator refuses, or that a real answer does not fit (a missing field, an undeclared status or
member, a wrong type), fails here: the fix belongs in the schema, never in this test.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import subprocess
import sys
import typing
import uuid
from contextlib import ExitStack
from pathlib import Path

import attrs
import pytest
from django.test import Client as DjangoClient

from server.jobs.background import job_run
from server.jobs.models import Job
from server.players.models import Player
from tests.server.conftest import trust

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
