"""A Spite & Malice bot, written against the client generated from the API's OpenAPI document
(docs/API.md, "Writing a bot"): only the generated package's typed calls and models.

    openapi-python-client generate --url https://<host>/api/schema/ \
        --config config.json   # {"package_name_override": "foursquare_client"}
    python bot.py https://<host>

It signs up a guest, starts a single game against the easy bot, and plays it to the end from
the match's typed events: the draw that begins its turn carries the table it acts on. A
refused action (409 ``stale_action`` or ``not_your_turn``) says in its members where the
match stands; the bot catches up from the events and plays on. Its account stream tells it
when the match is over.
"""

from __future__ import annotations

import sys
import time
import uuid
from typing import TypeVar

from foursquare_client import AuthenticatedClient, Client
from foursquare_client.api.account_stream import stream_events_list
from foursquare_client.api.players import players_create
from foursquare_client.api.spite_malice import (
    spite_malice_actions_create,
    spite_malice_events_list,
    spite_malice_matches_create,
    spite_malice_matches_retrieve,
)
from foursquare_client.models import (
    ActionInputRequest,
    BotLevelEnum,
    BotMatchInputOpponentEnum,
    BotMatchInputRequest,
    EventsOutput,
    GameViewOutput,
    MatchOutput,
    MatchOverEvent,
    MatchStatusEnum,
    PlayerCreateInputRequest,
    PlayerWithToken,
    Problem,
    SpiteMaliceDrawEvent,
    SpiteMaliceGameOverEvent,
    SpiteMaliceMatchOverEvent,
    SpiteMalicePlayEvent,
    StreamPageOutput,
    TargetEnum,
    TurnTableOutput,
)

Answer = TypeVar("Answer")
# A refusal that means "the match moved on without you": catch up and play on.
CATCH_UP = ("stale_action", "not_your_turn")
ACTION_LIMIT = 3000  # a single game ends long before: more is a bug


class Refused(Exception):
    """The server answered with a problem (or another type) where a result was expected."""


def expect(answer: Answer | Problem | None, kind: type[Answer]) -> Answer:
    if not isinstance(answer, kind):
        raise Refused(f"expected a {kind.__name__}, got {answer!r}")
    return answer


def choose(game: GameViewOutput) -> list[str]:
    """The pay-off top whenever it goes, else a play to a centre stack, else a discard (one
    is always legal on your turn)."""
    legal = game.legal_actions
    for source, target in legal:
        if source == "P":
            return [source, target]
    for source, target in legal:
        if target.startswith("C"):
            return [source, target]
    return legal[0]


class Bot:
    def __init__(self, client: AuthenticatedClient, match: MatchOutput) -> None:
        self.client, self.match = client, match
        self.last = 0  # the last event read
        self.over = False
        self.played = 0  # cards the opponent played onto the centre
        self.points: list[int] = []  # each finished game's points

    def catch_up(self) -> None:
        """Read the events after the last one read; a draw that began our turn brings the
        table to act on, merged into the match held (no read of the match is needed)."""
        while True:
            page = expect(spite_malice_events_list.sync(
                self.match.id, client=self.client, after=self.last), EventsOutput)
            for event in page.events:
                self.last = event.number
                if isinstance(event, SpiteMaliceDrawEvent) and isinstance(
                        event.table, TurnTableOutput):
                    self.match.game = event.table.game
                    self.match.deadline = event.table.deadline
                    self.match.abortable = event.table.abortable
                    self.match.your_turn = event.table.your_turn
                    self.match.event = event.number
                elif isinstance(event, SpiteMalicePlayEvent) and event.seat != self.match.you:
                    self.played += 1
                elif isinstance(event, SpiteMaliceGameOverEvent):
                    self.points.append(event.points)
                elif isinstance(event, SpiteMaliceMatchOverEvent):
                    self.over = True
            if not page.more:
                return

    def my_turn(self) -> GameViewOutput | None:
        game = self.match.game
        if self.over or game is None or game.turn != self.match.you:
            return None
        return game

    def act(self, game: GameViewOutput) -> None:
        """Play ``choose``'s action as last seen (its game and action count, so that a stale
        view is refused, never applied)."""
        answer = spite_malice_actions_create.sync_detailed(
            self.match.id, client=self.client, idempotency_key=str(uuid.uuid4()),
            body=ActionInputRequest(action=choose(game), game=game.number,
                                    actions=game.actions))
        if isinstance(answer.parsed, MatchOutput):
            self.match = answer.parsed
        elif isinstance(answer.parsed, Problem) and answer.parsed.code in CATCH_UP:
            # The problem says where the match stands (game, actions; turn if not ours): a
            # view of an earlier position is read anew.
            problem = answer.parsed
            if (problem.game, problem.actions) != (game.number, game.actions):
                self.match = expect(spite_malice_matches_retrieve.sync(
                    self.match.id, client=self.client), MatchOutput)
        else:
            raise Refused(f"action refused: {answer.status_code} {answer.parsed!r}")

    def play(self) -> MatchOutput:
        """Play to the end of the match; the match as it ended."""
        for _ in range(ACTION_LIMIT):
            self.catch_up()
            game = self.my_turn()
            if self.over:
                return expect(spite_malice_matches_retrieve.sync(
                    self.match.id, client=self.client), MatchOutput)
            if game is None:  # the bot still thinking (in the background), or no table
                time.sleep(0.2)
                self.match = expect(spite_malice_matches_retrieve.sync(
                    self.match.id, client=self.client), MatchOutput)
                continue
            self.act(game)
        raise Refused("the match did not end")


def sign_up(base_url: str, name: str) -> PlayerWithToken:
    """A new guest: no token is needed to create one."""
    with Client(base_url=base_url, raise_on_unexpected_status=True) as anonymous:
        return expect(players_create.sync(
            client=anonymous, body=PlayerCreateInputRequest(name=name)), PlayerWithToken)


def start(client: AuthenticatedClient) -> MatchOutput:
    """A single game against the easy bot."""
    return expect(spite_malice_matches_create.sync(
        client=client, idempotency_key=str(uuid.uuid4()),
        body=BotMatchInputRequest(opponent=BotMatchInputOpponentEnum.BOT,
                                  level=BotLevelEnum.EASY, target=TargetEnum.VALUE_1)),
        MatchOutput)


def match_over_told(client: AuthenticatedClient, match: MatchOutput) -> bool:
    """Whether the account stream holds the match's end."""
    page = expect(stream_events_list.sync(client=client), StreamPageOutput)
    return any(isinstance(event, MatchOverEvent) and event.match == match.id
               for event in page.events)


def main(base_url: str, name: str = "Example bot") -> MatchOutput:
    guest = sign_up(base_url, name)
    with AuthenticatedClient(base_url=base_url, token=guest.token,
                             raise_on_unexpected_status=True) as client:
        bot = Bot(client, start(client))
        match = bot.play()
        assert match.status == MatchStatusEnum.FINISHED and match_over_told(client, match)
        print(f"match {match.id}: winner {match.winner}, points {bot.points}, "
              f"the opponent played {bot.played} cards")
        return match


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8000")
