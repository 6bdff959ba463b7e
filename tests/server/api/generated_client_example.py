"""A Spite & Malice player written against the generated client, as an API client's author
would write one: only the generated package's typed calls and models, nothing of the server.

It is no test and nothing imports it at collection: the package ``foursquare_client`` exists
only once ``test_generated_client.py`` has generated it from the schema. That module then
type-checks this file with mypy (``--strict``) together with the generated package, runs
``first_action_against_the_bot`` against a live server, and plays whole matches with
``choose``, ``act`` and ``catch_up`` (the typed events: the draw that begins a turn carries its
table). A schema change that breaks a client written like this fails there.
"""

from __future__ import annotations

import uuid
from typing import TypeVar

from foursquare_client import AuthenticatedClient, Client
from foursquare_client.api.players import players_create
from foursquare_client.api.spite_malice import (
    spite_malice_actions_create,
    spite_malice_events_list,
    spite_malice_matches_create,
)
from foursquare_client.models import (
    ActionInputRequest,
    BotLevelEnum,
    BotMatchInputOpponentEnum,
    BotMatchInputRequest,
    EventsOutput,
    GameViewOutput,
    MatchOutput,
    PlayerCreateInputRequest,
    PlayerWithToken,
    Problem,
    SpiteMaliceDrawEvent,
    SpiteMaliceGameOverEvent,
    TargetEnum,
    TurnTableOutput,
)

Answer = TypeVar("Answer")


class Refused(Exception):
    """The server answered with a problem (or an answer of another type) where a result was
    expected."""


def expect(answer: Answer | Problem | None, kind: type[Answer]) -> Answer:
    """``answer`` if it is a ``kind``; else ``Refused``, quoting what came instead."""
    if not isinstance(answer, kind):
        raise Refused(f"expected a {kind.__name__}, got {answer!r}")
    return answer


def choose(game: GameViewOutput) -> list[str]:
    """A simple, deterministic policy that works on any deal: the pay-off top whenever it
    goes, else the first play to a centre stack, else the first of the legal actions (a
    discard, which ends the turn: one is always legal on your turn)."""
    legal = game.legal_actions
    for source, target in legal:
        if source == "P":
            return [source, target]
    for source, target in legal:
        if target.startswith("C"):
            return [source, target]
    return legal[0]


def act(client: AuthenticatedClient, match: MatchOutput) -> MatchOutput:
    """Play ``choose``'s action in ``match`` as last seen (its game and action count, so a
    stale view is refused rather than applied), under a fresh Idempotency-Key: the match
    after it (against the bot, after the bot's reply too)."""
    game = match.game
    if game is None:
        raise Refused(f"match {match.id} has no game being played")
    answer = spite_malice_actions_create.sync(
        match.id, client=client, idempotency_key=str(uuid.uuid4()),
        body=ActionInputRequest(action=choose(game), game=game.number, actions=game.actions))
    return expect(answer, MatchOutput)


def events_after(client: AuthenticatedClient, match: MatchOutput, after: int) -> EventsOutput:
    """The match's events after number ``after`` as this seat sees them, each its kind's type
    (one page: ``more`` says whether another follows)."""
    return expect(spite_malice_events_list.sync(match.id, client=client, after=after),
                  EventsOutput)


def catch_up(client: AuthenticatedClient, match: MatchOutput) -> tuple[MatchOutput, bool]:
    """``match`` brought up to date from its events after ``match.event``, without reading the
    match: the latest draw that began this seat's turn brings the table it acts on. Whether
    one did (else, say a turn whose start drew nothing, read the match)."""
    merged = False
    while True:
        page = events_after(client, match, match.event)
        for event in page.events:
            if isinstance(event, SpiteMaliceDrawEvent) and isinstance(event.table,
                                                                      TurnTableOutput):
                match.game, match.deadline = event.table.game, event.table.deadline
                match.abortable, match.your_turn = event.table.abortable, event.table.your_turn
                merged = True
            match.event = event.number
        if not page.more:
            return match, merged


def points_scored(page: EventsOutput) -> list[int]:
    """Each game's points, as its ``game_over`` events tell them (an integer, never null)."""
    return [event.points for event in page.events
            if isinstance(event, SpiteMaliceGameOverEvent)]


def first_action_against_the_bot(base_url: str) -> MatchOutput:
    """A new guest (a plain ``Client``: creating a player needs no token) starts a single
    game against the easy bot (an ``AuthenticatedClient`` with the guest's token) and plays
    one action: the match after it."""
    with Client(base_url=base_url, raise_on_unexpected_status=True) as anonymous:
        guest = expect(players_create.sync(
            client=anonymous, body=PlayerCreateInputRequest(name="Example")), PlayerWithToken)
    with AuthenticatedClient(base_url=base_url, token=guest.token,
                             raise_on_unexpected_status=True) as client:
        match = expect(spite_malice_matches_create.sync(
            client=client, idempotency_key=str(uuid.uuid4()),
            body=BotMatchInputRequest(opponent=BotMatchInputOpponentEnum.BOT,
                                      level=BotLevelEnum.EASY, target=TargetEnum.VALUE_1)),
            MatchOutput)
        return act(client, match)
