"""A Spite & Malice bot driven by the account stream alone (docs/API.md, "A bot on the
account stream"), written against the client generated from the API's OpenAPI document, as
bot.py is, with account_stream.py beside it.

    openapi-python-client generate --url https://<host>/api/schema/?format=json \
        --config config.json   # {"package_name_override": "foursquare_client"}
    FOURSQUARE_TOKEN=<a play-only token> python stream_bot.py https://<host> --house easy

It never polls. It follows ``GET /api/v1/stream`` and acts on what it is told:

- ``match_started`` (stored, or in the snapshot that opens every connection): a match it
  plays. The event carries no table, so when the match waits for it the bot reads the match
  once;
- ``your_turn``: its ``table`` is the position to play. The bot plays actions until an
  answer says the turn has passed. The house bot's quick reply comes in that answer (the turn
  is ours again, and no event is sent), so the bot plays on from it;
- ``invitation_received``: accepted, or declined with a reason (``Policy``);
- ``match_over``: the match is done; its result is kept.

Each match's latest event number (``event``) that it knows tells it which ``your_turn`` or
``match_started`` is old news (it played that turn already, say, before a reconnection told
it again). A dropped stream resumes after the last numbered event read (``after=``), so no
event is missed or told twice. A restarted bot does the same with ``--after``.

The token should be a play-only one. It can play and read the stream, but it cannot rename the
account, set its password or make tokens. Make it once with your account's token
(``play_only_token`` below, or ``POST /players/me/tokens {"label": "my bot", "scopes":
["play"]}``); ``--guest NAME`` signs up a new guest and does so for you.
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar
from uuid import UUID

from account_stream import AccountEvent, follow
from foursquare_client import AuthenticatedClient, Client
from foursquare_client.api.players import players_by_name, players_create, tokens_create
from foursquare_client.api.spite_malice import (
    spite_malice_actions_create,
    spite_malice_matches_accept,
    spite_malice_matches_create,
    spite_malice_matches_decline,
    spite_malice_matches_retrieve,
)
from foursquare_client.models import (
    ActionInputRequest,
    BotLevelEnum,
    BotMatchInputOpponentEnum,
    BotMatchInputRequest,
    DeclineInputRequest,
    DeclineReasonEnum,
    FriendMatchInputOpponentEnum,
    FriendMatchInputRequest,
    GameViewOutput,
    InvitationDeclinedEvent,
    InvitationReceivedEvent,
    MatchOutput,
    MatchOverEvent,
    MatchStartedEvent,
    MatchStatusEnum,
    PlayerCreateInputRequest,
    PlayerOutput,
    PlayerWithToken,
    Problem,
    ScopesEnum,
    TargetEnum,
    TokenCreateInputRequest,
    TokenWithSecretOutput,
    TurnSecondsEnum,
    YourTurnEvent,
)

Answer = TypeVar("Answer")
# Refusals that mean "the match is not where you saw it": a stale table is read anew; out of
# turn or over, the stream tells what comes next.
CATCH_UP = ("stale_action", "not_your_turn", "game_over")
TURN_LIMIT = 1000  # actions in one turn: a turn takes a few, so more is a bug


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


@dataclass(frozen=True)
class Policy:
    """Which challenges the bot takes; the others are declined with the reason they allow."""

    targets: frozenset[int] = frozenset({1, 25})  # a longer match: too_long; shorter: too_short
    most_matches: int = 10  # playing this many already: later
    play_bots: bool = True  # False: a bot account's challenge is declined (no_bot)

    def decline_reason(self, invitation: InvitationReceivedEvent,
                       playing: int) -> DeclineReasonEnum | None:
        """Why ``invitation`` is declined, or None to accept it."""
        if invitation.from_.bot and not self.play_bots:
            return DeclineReasonEnum.NO_BOT
        if invitation.target > max(self.targets):
            return DeclineReasonEnum.TOO_LONG
        if invitation.target not in self.targets:
            return DeclineReasonEnum.TOO_SHORT
        if playing >= self.most_matches:
            return DeclineReasonEnum.LATER
        return None


@dataclass
class StreamBot:
    client: AuthenticatedClient
    policy: Policy = field(default_factory=Policy)
    last: int = 0  # the last numbered account event handled: resume after it
    known: dict[UUID, int] = field(default_factory=dict)  # match -> its latest event we know
    results: list[MatchOverEvent] = field(default_factory=list)
    declined: list[InvitationDeclinedEvent] = field(default_factory=list)  # ours, by others
    actions: int = 0  # actions played (each one accepted)
    refused: list[Problem] = field(default_factory=list)  # actions refused (caught up from)
    reads: int = 0  # matches read (a match_started or a refusal that carried no table)

    # --- the stream ---------------------------------------------------------------------

    def run(self, until: Callable[[StreamBot], bool] = lambda bot: False) -> None:
        """Follow the account stream from ``last``, handling each event, until ``until``
        says so after one (never, by default)."""
        for event in follow(self.client, after=self.last):
            self.handle(event)
            if event.number is not None:  # the snapshot's entries are numbered None
                self.last = event.number
            if until(self):
                return

    def handle(self, event: AccountEvent) -> None:
        if isinstance(event, YourTurnEvent):
            if event.event is not None and event.event <= self.known.get(event.match, -1):
                return  # a turn we have played already
            if event.table is None:  # stored before tables were told
                self.play_from(self.read(event.match))
            elif event.table.your_turn:
                self.known[event.match] = event.event or 0
                self.play(event.match, event.table.game)
        elif isinstance(event, MatchStartedEvent):
            if event.event <= self.known.get(event.match, -1):
                return  # told again (a snapshot), or the match we accepted
            self.known[event.match] = event.event
            if event.your_turn:  # no table comes with it: read the match once
                self.play_from(self.read(event.match))
        elif isinstance(event, InvitationReceivedEvent):
            self.answer(event)
        elif isinstance(event, InvitationDeclinedEvent):
            self.declined.append(event)
        elif isinstance(event, MatchOverEvent):
            self.known.pop(event.match, None)
            self.results.append(event)
        # joined (a match_started follows it) and invitation_cancelled need nothing

    # --- challenges ---------------------------------------------------------------------

    def answer(self, invitation: InvitationReceivedEvent) -> None:
        """Accept the challenge, or decline it saying why, as the policy says."""
        reason = self.policy.decline_reason(invitation, playing=len(self.known))
        if reason is not None:
            answer = spite_malice_matches_decline.sync(
                invitation.match, client=self.client, idempotency_key=str(uuid.uuid4()),
                body=DeclineInputRequest(reason=reason))
        else:
            answer = spite_malice_matches_accept.sync(
                invitation.match, client=self.client, idempotency_key=str(uuid.uuid4()))
        if isinstance(answer, Problem):  # withdrawn or expired meanwhile, say
            return
        match = expect(answer, MatchOutput)
        if match.status == MatchStatusEnum.PLAYING:
            self.play_from(match)  # its match_started, when it comes, is then old news

    def challenge(self, name: str, target: TargetEnum = TargetEnum.VALUE_1,
                  turn_seconds: TurnSecondsEnum = TurnSecondsEnum.VALUE_3600) -> MatchOutput:
        """Challenge the player named ``name``; the stream tells how it is answered."""
        player = expect(players_by_name.sync(client=self.client, name=name), PlayerOutput)
        return expect(spite_malice_matches_create.sync(
            client=self.client, idempotency_key=str(uuid.uuid4()),
            body=FriendMatchInputRequest(opponent=FriendMatchInputOpponentEnum.FRIEND,
                                         invitee=player.id, target=target,
                                         turn_seconds=turn_seconds)), MatchOutput)

    def challenge_house(self, level: BotLevelEnum = BotLevelEnum.EASY,
                        target: TargetEnum = TargetEnum.VALUE_1) -> MatchOutput:
        """Start a match against the house bot; its match_started comes on the stream."""
        return expect(spite_malice_matches_create.sync(
            client=self.client, idempotency_key=str(uuid.uuid4()),
            body=BotMatchInputRequest(opponent=BotMatchInputOpponentEnum.BOT, level=level,
                                      target=target)), MatchOutput)

    # --- playing ------------------------------------------------------------------------

    def read(self, match_id: UUID) -> MatchOutput:
        self.reads += 1
        return expect(spite_malice_matches_retrieve.sync(match_id, client=self.client),
                      MatchOutput)

    def play_from(self, match: MatchOutput) -> None:
        """Play the turn ``match`` shows, if it waits for us."""
        self.known[match.id] = max(match.event, self.known.get(match.id, -1))
        if match.status == MatchStatusEnum.PLAYING and match.your_turn and match.game:
            self.play(match.id, match.game)

    def play(self, match_id: UUID, game: GameViewOutput) -> None:
        """Play from ``game`` (a table told, or an answer) until the turn passes. Each action
        names the game and action count it was chosen on, so a stale table is refused, never
        applied."""
        for _ in range(TURN_LIMIT):
            answer = spite_malice_actions_create.sync(
                match_id, client=self.client, idempotency_key=str(uuid.uuid4()),
                body=ActionInputRequest(action=choose(game), game=game.number,
                                        actions=game.actions))
            if isinstance(answer, Problem) and answer.code in CATCH_UP:
                self.refused.append(answer)
                if answer.code == "stale_action":  # it does not say whose turn: read it
                    match = self.read(match_id)
                    self.known[match_id] = match.event
                    if match.status == MatchStatusEnum.PLAYING and match.your_turn and (
                            match.game):
                        game = match.game
                        continue
                return  # the stream tells the next turn, or the end
            match = expect(answer, MatchOutput)
            self.actions += 1
            self.known[match_id] = match.event
            if match.status != MatchStatusEnum.PLAYING or not match.your_turn or not match.game:
                return  # the turn passed (a your_turn event will bring the next), or the end
            game = match.game  # still ours, or ours again after the house bot's quick reply
        raise Refused(f"a turn of match {match_id} did not end")


def play_only_token(client: AuthenticatedClient, label: str = "stream bot") -> str:
    """A new token of ``client``'s account that may play and nothing more (``client``'s token
    needs the ``account`` scope to make it)."""
    made = expect(tokens_create.sync(client=client, body=TokenCreateInputRequest(
        scopes=[ScopesEnum.PLAY], label=label)), TokenWithSecretOutput)
    return made.token


def guest_play_token(base_url: str, name: str) -> str:
    """Sign up a new guest and give its bot a play-only token."""
    with Client(base_url=base_url, raise_on_unexpected_status=True) as anonymous:
        guest = expect(players_create.sync(
            client=anonymous, body=PlayerCreateInputRequest(name=name)), PlayerWithToken)
    with AuthenticatedClient(base_url=base_url, token=guest.token) as account:
        return play_only_token(account)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="A Spite & Malice bot on the account stream")
    parser.add_argument("base_url", nargs="?", default="http://localhost:8000")
    parser.add_argument("--guest", metavar="NAME", help="sign up a guest to play as")
    parser.add_argument("--house", choices=[level.value for level in BotLevelEnum],
                        help="first start a single game against the house bot at this level")
    parser.add_argument("--challenge", metavar="NAME", help="first challenge this player")
    parser.add_argument("--after", type=int, default=0,
                        help="resume the stream after this event number (the last one printed)")
    parser.add_argument("--matches", type=int, default=0,
                        help="stop once this many matches ended (default: run until stopped)")
    options = parser.parse_args(argv)
    token = (guest_play_token(options.base_url, options.guest) if options.guest
             else os.environ.get("FOURSQUARE_TOKEN"))
    if not token:
        parser.error("set FOURSQUARE_TOKEN to a play-only token, or use --guest NAME")
    with AuthenticatedClient(base_url=options.base_url, token=token) as client:
        bot = StreamBot(client, last=options.after)
        if options.house:
            bot.challenge_house(BotLevelEnum(options.house))
        if options.challenge:
            bot.challenge(options.challenge)

        def report(bot: StreamBot) -> bool:
            """Print a match's end as it is handled; whether to stop."""
            if bot.results and bot.results[-1].number == bot.last:
                over = bot.results[-1]
                print(f"event {over.number}: match {over.match} {over.status.value}, winner "
                      f"{over.winner}, we sat in seat {over.seat}", flush=True)
            return bool(options.matches) and len(bot.results) >= options.matches

        bot.run(until=report)


if __name__ == "__main__":
    main(sys.argv[1:])
