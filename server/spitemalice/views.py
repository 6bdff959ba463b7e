"""The Spite & Malice API, under /api/v1/spite-malice/: matches against the bot and between
people (invitations, joining, cancelling, rematches), the daily, actions, the event feed,
records, hints and the daily's board.

Every read of a match and every write on one first applies what its clock says (a turn past
its deadline is lost; an invitation past its days expires: ``clocks``)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from server.api import idempotency
from server.api.fastpath import FastPathView
from server.api.formats import iso_datetime
from server.api.headers import LOCATION, absolute_url
from server.api.idempotency import IDEMPOTENCY_PARAMETER
from server.api.problems import NotFound
from server.api.schema import problem_example, problems
from server.api.views import ApiView
from server.boards import selectors as board_selectors
from server.boards.periods import Period
from server.boards.serializers import BoardOutput, DateQuery, PageQuery
from server.boards.views import (
    DAY_PATH_PARAMETER,
    PAGE_PARAMETERS,
    board_response,
    page_query,
    parse_day,
    viewer_of,
)
from server.dailies.calendar import daily_number, utc_today
from server.fairness.serializers import SeedsOutput
from server.players.models import AccessToken, Player
from server.players.serializers import player_ref
from server.ratings import selectors as ratings
from server.ratings import serializers as rating_serializers
from server.ratings.views import PAGE_PARAMETERS as RATING_PAGE_PARAMETERS
from server.ratings.views import RatingBoardView
from server.spitemalice import (
    clocks,
    fairness,
    fastaction,
    invitations,
    metrics,
    rating_rules,
    selectors,
    services,
)
from server.spitemalice.boards import GAME
from server.spitemalice.engine import match_output
from server.spitemalice.models import INVITE_DAYS, LEVELS, Match
from server.spitemalice.problems import (
    DeadlinePassed,
    GameInProgress,
    GameOver,
    HintsNotAllowed,
    IllegalAction,
    NotYourTurn,
    SeekNotFound,
    StaleAction,
)
from server.spitemalice.reveal import revealed
from server.spitemalice.selectors import MATCH_CURSOR_PATTERN
from server.spitemalice.serializers import inputs, outputs

TAG = ["spite-malice"]
MATCH_ID = OpenApiParameter("match_id", OpenApiTypes.UUID, OpenApiParameter.PATH)


def origin_of(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def output(request, match: Match, game=None) -> dict:
    """The match as the requesting player sees it."""
    return match_output(match, match.viewer_seat(request.user), game,
                        origin=origin_of(request))


def match_read(request, match_id) -> Match:
    """The player's match, its clock applied first."""
    match = selectors.match_of(request.user, match_id)
    if clocks.settle(match):
        match = selectors.match_of(request.user, match_id)
    return match


def write_on_match(request, match_id, work):
    """``work(match, game)`` on the player's locked match, once per Idempotency-Key. A write
    that finds the turn's deadline passed is refused, and the timeout then applied in a
    transaction of its own (the refused one rolls back) - unless the clocks had stood still
    (an outage: ``clocks``), when the deadline moves on instead and the write is tried
    again, once."""

    def attempt():
        return idempotency.respond_idempotently(
            request, lambda locked: work(*locked),
            lock=lambda: services.match_lock(player=request.user, match_id=match_id))

    try:
        return attempt()
    except DeadlinePassed:
        if clocks.time_out_if_due(match_id):
            raise
    return attempt()


def _located(request, response):
    if response.status_code == status.HTTP_201_CREATED:
        response[LOCATION] = absolute_url(request, "api:sm-match",
                                          match_id=response.data["id"])
    return response


class MatchListCreateView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"limit", "cursor", "offset", "turn", "status"})
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_list",
        summary="Your matches, those waiting for your action first",
        description=(
            "Those waiting for your action first (your turn, or an invitation to you), then "
            "the most recently changed, paged by cursor: follow `next` and `previous`. A "
            "cursor is the place of a match in that order (`n` the page after it, `p` the "
            "page before it), so a match that changes while you page moves without shifting "
            "the other pages. `turn=me` and `status` narrow the list (the links keep them)."),
        parameters=[
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 100},
                             description="Page size, 1-100 (default 20)."),
            OpenApiParameter("cursor", {"type": "string", "pattern": MATCH_CURSOR_PATTERN},
                             description="From a `next` or `previous` link."),
            OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": 1000000},
                             deprecated=True,
                             description="Matches to skip from the top: the older way of "
                                         "paging, still taken; ignored with a `cursor`. The "
                                         "links carry cursors."),
            OpenApiParameter("turn", {"type": "string", "enum": ["me"]},
                             description="`me`: only the matches waiting for your action "
                                         "(`your_turn`: your turn, or an invitation to you)."),
            OpenApiParameter("status", {"type": "array", "minItems": 1, "items": {
                "type": "string",
                "enum": ["waiting", "playing", "finished", "cancelled", "aborted"]}},
                style="form", explode=False,
                description="Only matches in these statuses, separated by commas "
                            "(`status=waiting,playing`); given once, as every parameter."),
        ],
        responses={200: outputs.MatchPageOutput, **problems(400, 401)},
    )
    def get(self, request):
        query = inputs.MatchListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        services.dailies_close(player=request.user)  # a daily whose date closed shows as over
        clocks.settle_player(request.user)  # so do turns past their deadline, and expiries
        page = selectors.matches_page(request.user, limit=values["limit"],
                                      cursor=values.get("cursor"), offset=values["offset"],
                                      turn_me=values.get("turn") == "me",
                                      statuses=values.get("status"))
        games = selectors.current_games(page.results)
        url = remove_query_param(request.build_absolute_uri(), "offset")

        def link(cursor) -> str | None:
            return None if cursor is None else replace_query_param(url, "cursor",
                                                                   cursor.encode())

        return Response({
            "count": page.count,
            "next": link(page.next),
            "previous": link(page.previous),
            "results": [output(request, match, games.get(match.pk)) for match in page.results],
        })

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_create",
        summary="Start a match against the bot or a person, or today's Spite & Malice daily",
        description=(
            "`{\"opponent\": \"bot\", \"level\", \"target\"}`: 201, a match on fresh seeds; "
            "if the bot starts, its turn is played already.\n\n"
            "`{\"opponent\": \"friend\", \"turn_seconds\", \"target\"}`: 201, a match "
            "`waiting` for its second player, with its `invite` (`code`, `url`, `expires_at`: "
            f"{INVITE_DAYS} days). With `invitee`, a fellow league member is "
            "invited directly (else 422 `not_a_league_mate`): it appears in their list and "
            "only they may join. `rated` (default true) asks for a rated match; the answer's "
            "`rated` and `unrated_reason` say whether it is (docs/RATINGS.md)."
            "\n\n`{\"mode\": \"daily\"}` "
            "(optionally `date`, your local date, current somewhere on Earth, else 422 "
            "`daily_unavailable`): the day's deal against the `normal` bot, one per player "
            "and date: 201 the first time, then 200 with the same match.\n\n"
            f"A player has at most {services.ACTIVE_MATCHES} matches against the bot and "
            "between people waiting or being played: 409 `too_many_matches` past that."
        ),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=inputs.MatchCreateInput,
        responses={201: outputs.MatchOutput, 200: outputs.MatchOutput,
                   **problems(400, 401, 409, 413, 415, 422, 429,
                              s409="`too_many_matches`, `commitment_unavailable`.",
                              s422="`daily_unavailable`, `not_a_league_mate`, "
                                   "`client_seed_required` (a `commitment` without a "
                                   "`client_seed`) or `idempotency_key_reused`.")},
        examples=[
            OpenApiExample("against the bot", value={"opponent": "bot", "level": "normal",
                                                     "target": 50}, request_only=True),
            OpenApiExample("a friend, a turn a day, a single game",
                           value={"opponent": "friend", "turn_seconds": 86400, "target": 1},
                           request_only=True),
            OpenApiExample("a league mate, live", value={
                "opponent": "friend", "turn_seconds": 60, "target": 50,
                "invitee": "0b6f1c9e-2a4d-4f7b-9c1e-3d5a7b9c1e2f"}, request_only=True),
            OpenApiExample("today's daily", value={"mode": "daily"}, request_only=True),
            problem_example("too_many_matches", 409,
                            "You have as many active matches as a player may have",
                            f"You have {services.ACTIVE_MATCHES} matches waiting or being "
                            "played, the most a player may have: finish, resign or cancel "
                            "one first."),
        ],
    )
    def post(self, request):
        values = inputs.match_create_input(request.data)

        def start(_locked):
            created = True
            if "mode" in values:
                match, created = services.match_start_daily(player=request.user,
                                                             day=values.get("date"))
            elif values["opponent"] == "friend":
                match = invitations.match_invite(
                    player=request.user, turn_seconds=values["turn_seconds"],
                    target=values["target"], invitee_id=values.get("invitee"),
                    rated=values["rated"], client_seed=values.get("client_seed"))
            else:
                match = services.match_start_bot(
                    player=request.user, level=values["level"], target=values["target"],
                    client_seed=values.get("client_seed"), commitment=values.get("commitment"))
            return ((status.HTTP_201_CREATED if created else status.HTTP_200_OK),
                    output(request, match))

        return _located(request, idempotency.respond_idempotently(request, start))


class MatchDetailView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAG, operation_id="spite_malice_matches_retrieve",
                   summary="One of your matches", parameters=[MATCH_ID],
                   responses={200: outputs.MatchOutput, **problems(401, 404)})
    def get(self, request, match_id):
        services.dailies_close(player=request.user)  # a daily whose date closed shows as over
        match = match_read(request, match_id)
        if services.bot_turn_resume(match):  # a bot turn repaired just now
            match = match_read(request, match_id)
        return Response(output(request, match))


class ActionCreateView(FastPathView, ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "moves"

    # Most actions are answered by the fast path; it hands over the rest (see fastaction).
    fast_object = "match_id"
    fast_response = staticmethod(fastaction.action_response)

    def throttle_exempt(self, request) -> bool:
        """An action on your own turn of a match on a clock is never counted against the
        limit (``services.action_unlimited``)."""
        match_id = self.kwargs["match_id"]
        user = request.user
        if not user.is_authenticated:
            return False
        match = (Match.objects.filter(pk=match_id)
                 .filter(Q(turn=0, player0=user) | Q(turn=1, player1=user))
                 .only("status", "turn_seconds").first())
        return match is not None and services.action_unlimited(match)

    @extend_schema(
        tags=TAG, operation_id="spite_malice_actions_create",
        summary="Play an action; against the bot, its reply follows in the same answer",
        description=(
            "`action` is one of the game's `legal_actions`. Send `game` and `actions` as you "
            "last saw them to be safe against double submission: if given they must match "
            "(else 409 `stale_action`). A bot turn that needs longer than a moment is "
            "finished in the background: follow the events."
        ),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER],
        request=inputs.ActionInput,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 413, 415, 422, 429,
            s409="`stale_action` (with `game` and `actions`: where the match stands now), "
                 "`not_your_turn` (with `turn`, the seat to act, and `game` and `actions`), "
                 "`game_over` (also when your turn's deadline has passed: the match is then "
                 "lost on time) or `match_not_started`.",
            s422="`illegal_action` (the engine's message, with `legal_actions`: yours now, as "
                 "the match's `game.legal_actions`) or `idempotency_key_reused`.")},
        examples=[
            OpenApiExample("an action", value={"action": ["P", "C0"], "game": 1, "actions": 4},
                           request_only=True),
            problem_example("illegal_action", 422, "That action is not legal now",
                            "action 4 ['7H', 'C0']: C0 needs a 2, not 7H",
                            legal_actions=[["2S", "C0"], ["2S", "S0"], ["7H", "S0"]]),
            problem_example("stale_action", 409, "The game has moved on since you last saw it",
                            "You sent 4 actions, but 6 have been played in game 1.",
                            game=1, actions=6),
            problem_example("not_your_turn", 409, "It is not your turn",
                            "It is your opponent's turn.", turn=1, game=1, actions=6),
        ],
    )
    def post(self, request, match_id):
        data = inputs.ActionInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def play(match, game):
            try:
                current = services.action_play(
                    match=match, game=game, player=request.user, action=values["action"],
                    expected_game=values.get("game"), expected_actions=values.get("actions"))
            except IllegalAction:
                metrics.actions_illegal.inc()
                raise
            except StaleAction:
                metrics.actions_stale.inc()
                raise
            except NotYourTurn:
                metrics.actions_out_of_turn.inc()
                raise
            transaction.on_commit(metrics.actions_stored_full.inc)
            return status.HTTP_200_OK, output(request, match, current)

        return write_on_match(request, match_id, play)


class EventsView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"after", "wait"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_events_list",
        summary="Everything that happened in the match, as your seat may see it",
        description=(
            "Events after number `after`, in order, at most 1000 at a time: `joined`, "
            "`dealt`, `draw` (your own cards; the opponent's count only), `play`, "
            "`completed`, `discard`, `resigned`, `timeout`, `aborted`, `game_over`, "
            "`match_over`, "
            "`cancelled`. `more` says whether more events follow these: ask again with "
            "`after=last` while it is true. With `wait`, a long poll: when no event after "
            "`after` is stored yet, the answer waits until one is (it comes at once then) or "
            "`wait` seconds pass (then `events` is empty)."
        ),
        parameters=[MATCH_ID, OpenApiParameter(
            "after", {"type": "integer", "minimum": 0, "maximum": 10**9},
            description="The last event number you hold (default 0)."), OpenApiParameter(
            "wait", {"type": "integer", "minimum": 0, "maximum": 60},
            description="Seconds to wait for an event after `after`, 0-60 (default 0: "
                        "answer at once).")],
        responses={200: outputs.EventsOutput, **problems(400, 401, 404)},
    )
    def get(self, request, match_id):
        query = inputs.EventsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        match = match_read(request, match_id)
        events, last, more = selectors.events_page(match, match.viewer_seat(request.user),
                                                   query.validated_data["after"])
        return Response({"events": events, "last": last, "more": more})


class ResignView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(tags=TAG, operation_id="spite_malice_matches_resign",
                   summary="Resign: the match ends and the other seat wins",
                   parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
                   responses={200: outputs.MatchOutput, **problems(
                       400, 401, 404, 409, 422, 429,
                       s409="`game_over` (the match is over, or your time ran out) or "
                            "`match_not_started` (cancel a match nobody joined).",
                       s422="`idempotency_key_reused`.")})
    def post(self, request, match_id):
        def resign(match, game):
            services.match_resign(match=match, game=game, player=request.user)
            return status.HTTP_200_OK, output(request, match, game)

        return write_on_match(request, match_id, resign)


class MatchJoinView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_join",
        summary="Join a match between people with its invitation's code",
        description=(
            "You take seat 1 and the first game is dealt: the match is `playing` and the "
            "first turn's clock starts now. The code is read in any case, with spaces or "
            "dashes ignored. 404 for a code that names no open invitation to you (unknown, "
            f"cancelled, expired after {INVITE_DAYS} days, or a direct invitation to someone "
            "else); 409 `match_full` once someone has joined, `own_match` for your own, "
            "`too_many_matches` at the limit of active matches."
        ),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=inputs.JoinInput,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 413, 415, 422, 429,
            s404="`not_found`: no open invitation has this code.",
            s409="`match_full`, `own_match` or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
        examples=[
            OpenApiExample("join", value={"code": "7K3QX9MA"}, request_only=True),
            problem_example("match_full", 409, "Both seats of this match are taken",
                            "Someone has already joined this match."),
            problem_example("own_match", 409, "This is your own invitation",
                            "You created this match: send its code to your opponent."),
        ],
    )
    def post(self, request):
        data = inputs.JoinInput(data=request.data)
        data.is_valid(raise_exception=True)

        def join(_locked):
            match = invitations.match_join(player=request.user, code=data.validated_data["code"],
                                           client_seed=data.validated_data.get("client_seed"))
            return status.HTTP_200_OK, output(request, match)

        invitations.code_expire_if_due(data.validated_data["code"])  # gone, and marked so
        # The player's row locked first: a retry sent while the first join still runs waits
        # for it and gets its answer, rather than finding the seat taken.
        return idempotency.respond_idempotently(
            request, join,
            lock=lambda: invitations.join_lock(request.user, data.validated_data["code"]))


class MatchCancelView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_cancel",
        summary="Cancel a match nobody has joined (or decline an invitation to you), or "
                "leave one before the first turns",
        description="A waiting match is `cancelled` (reason `cancelled`) with a `cancelled` "
                    "event. A match between people being played whose seats have not both "
                    "completed their first turn (`abortable`) is `aborted` (reason "
                    "`cancelled`) with an `aborted` event: no winner, not rated. Otherwise "
                    "409 `match_not_waiting` (resign instead).",
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s409="`match_not_waiting`: it began, finished, expired or was cancelled already.",
            s422="`idempotency_key_reused`.")},
        examples=[problem_example("match_not_waiting", 409,
                                  "The match is no longer waiting for its second player",
                                  "The match is playing: only a match nobody has joined can "
                                  "be cancelled (resign instead).")],
    )
    def post(self, request, match_id):
        invitations.expire_if_due(match_id)  # an invitation past its days is gone already
        return _cancelled(request, match_id)


def _cancelled(request, match_id):
    """Cancel (or, its invitee, decline; or leave while abortable) the match, and answer with
    it: a cancel's and a seek's withdrawal alike."""

    def cancel(match, game):
        invitations.match_cancel(match=match, game=game, player=request.user)
        return status.HTTP_200_OK, output(request, match)

    return write_on_match(request, match_id, cancel)


class InvitationView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "games"
    throttle_reads = True

    @extend_schema(
        tags=TAG, operation_id="spite_malice_invitations_retrieve",
        summary="An open invitation, as you would join it",
        description=(
            "Who invites, the clock, the length, and whether the match would be `rated` if "
            "you joined it now (without a token: as a new guest would, never rated), with "
            "`unrated_reason` when not: shown before the invitation is accepted. As a join "
            "would be: 404 `not_found` for a code that names no invitation open to you "
            "(unknown, cancelled, expired, or a direct invitation to someone else), 409 "
            "`match_full` once someone has joined."),
        parameters=[OpenApiParameter(
            "code", {"type": "string", "minLength": 1, "maxLength": 32}, OpenApiParameter.PATH,
            description="The invitation's code, as for a join: any case; spaces and dashes "
                        "ignored.")],
        responses={200: outputs.InvitationOutput, **problems(401, 404, 409, 429,
                                                       s409="`match_full`.")},
    )
    def get(self, request, code: str):
        invitations.code_expire_if_due(code)
        viewer = viewer_of(request)
        match, rated, reason = invitations.invitation_preview(code=code, viewer=viewer)
        return Response({
            "code": match.invite_code,
            "from": player_ref(match.player0),
            "invitee": player_ref(match.invitee) if match.invitee_id else None,
            "target": match.target,
            "turn_seconds": match.turn_seconds,
            "expires_at": iso_datetime(match.invite_expires_at),
            "rated": rated,
            "unrated_reason": reason or None,
        })


class MatchRematchView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_rematch",
        summary="Offer a rematch of a finished match between people",
        description=(
            "201, a new `waiting` match with the same `turn_seconds` and `target`, your "
            "opponent its `invitee` (it appears in their list: they join it with its code, "
            "like any invitation) and `rematch_of` the finished match, whose `rematch` then "
            "names the new one. One rematch per match."
        ),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={201: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s409="`rematch_unavailable` (not between people, not finished, or offered "
                 "already) or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
        examples=[problem_example("rematch_unavailable", 409,
                                  "No rematch can be offered for this match",
                                  "This match has its rematch already: "
                                  "5f0c2b8e-0d7a-4c3e-9b1a-2e4f6a8c0d1e.")],
    )
    def post(self, request, match_id):
        def rematch(match, _game):
            offered = invitations.match_rematch(match=match, player=request.user)
            return status.HTTP_201_CREATED, output(request, offered)

        return _located(request, write_on_match(request, match_id, rematch))


class MatchFairnessView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_fairness",
        summary="The commitment to a match's server seed; its seeds once the match is over",
        description="Made in the fairness log when the match was created, before any card was "
                    "dealt (docs/FAIRNESS.md). A daily has none: its date's commitment "
                    "(`GET /api/v1/fairness/commitments/spitemalice/{date}`) covers it.",
        parameters=[MATCH_ID],
        responses={200: SeedsOutput, **problems(
            401, 404, s404="`not_found`: no such match of yours, or a daily.")},
    )
    def get(self, request, match_id):
        match = selectors.match_of(request.user, match_id)
        seeds = fairness.match_fairness(match)
        if seeds is None:
            raise NotFound("A daily has no server seed: its date's commitment covers it "
                           f"(GET /api/v1/fairness/commitments/spitemalice/{match.daily}).")
        return Response(seeds)


class BotCommitmentView(ApiView):
    permission_classes = [IsAuthenticated]
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_bot_commitment",
        summary="The commitment to the server seed of your next match against the bot",
        description="Drawn and committed in the fairness log now, before you choose the client "
                    "seed to mix with it (docs/FAIRNESS.md, \"Against the house bot\"): send "
                    "both with `POST /spite-malice/matches` (`commitment`, `client_seed`), and "
                    "the match (its id in `subject`) is dealt from them. The same one until a "
                    "match takes it.",
        request=None,
        responses={200: SeedsOutput, **problems(401)},
    )
    def post(self, request):
        seeds = services.bot_seed_offer(player=request.user)
        return Response(fairness.offer_output(seeds))


class RecordView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAG, operation_id="spite_malice_games_record",
        summary="A game's seed and actions, and the whole deal laid open, once it is over",
        parameters=[MATCH_ID, OpenApiParameter("number", {"type": "integer", "minimum": 1},
                                               OpenApiParameter.PATH)],
        responses={200: outputs.MatchRecordOutput, **problems(
            401, 404, 409, s409="`game_in_progress`: the deal stays hidden until the end.")},
    )
    def get(self, request, match_id, number: int):
        match = selectors.match_of(request.user, match_id)
        game = selectors.game_of(match, number)
        if not game.is_over:
            raise GameInProgress("Finish the game first: the deal stays hidden until the end.")
        seeds = fairness.match_fairness(match)
        if seeds is not None:
            seeds["game"] = game.number
        return Response({"seed": game.seed, "actions": game.actions, "status": game.status,
                         "winner": game.winner, "points": game.points, **revealed(game),
                         "fairness": seeds})


class HintView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "hints"
    throttle_reads = True  # each hint costs the bot's CPU time

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_hint",
        summary="The hard bot's suggestion for your next action (matches against the bot)",
        description="The bot sees only what you see. Never in a daily or against a person: "
                    "403 `hints_not_allowed`.",
        parameters=[MATCH_ID],
        responses={200: outputs.MatchHintOutput, **problems(
            401, 403, 404, 409, 429, s403="`hints_not_allowed`: a daily, or not the bot.",
            s409="`game_over` or `not_your_turn` (with `turn`, `game` and `actions`).")},
    )
    def get(self, request, match_id):
        match = selectors.match_of(request.user, match_id)
        if match.mode != Match.Mode.BOT:
            raise HintsNotAllowed("Hints are given only in matches against the bot, never in "
                                  "a daily or against a person.")
        if match.is_over:
            raise GameOver("The match is over; there is nothing to hint.")
        seat = match.seat_of(request.user)
        if match.turn != seat:
            raise services.not_your_turn(match, "It is the bot's turn; ask again when it "
                                                "is yours.")
        game = selectors.current_game(match)
        return Response({"action": services.hint_of(match=match, game=game, seat=seat)})


class DailyView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True
    query_parameters = frozenset({"date"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_daily_retrieve",
        summary="Today's Spite & Malice daily (or another day's)",
        description="How many started it and won it, and with a token your match of it.",
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE,
                                     description="YYYY-MM-DD (default: today in UTC).")],
        responses={200: outputs.SpiteMaliceDailyOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request):
        query = DateQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        day = board_selectors.board_ref(
            Period.DAY, query.validated_data.get("date") or utc_today(), GAME).day
        viewer = viewer_of(request)
        match = selectors.daily_match_of(viewer, day) if viewer else None
        players, winners = board_selectors.daily_summary(day=day, game=GAME)
        return Response({"date": day.isoformat(), "number": daily_number(day),
                         "players": players, "winners": winners,
                         "your_match": match_output(match, 0) if match else None})


class DailyBoardView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    reads_replica = True  # may lag a little: the replica serves it when there is one
    throttle_reads = True
    query_parameters = frozenset({"limit", "cursor", "around"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_daily_leaderboard",
        summary="A Spite & Malice daily's leaderboard",
        description=(
            "Winners only, by points (the bot's pay-off cards left when you won) highest "
            "first, competition ranking (1, 2, 2, 4); within a tie the earlier finish is "
            "listed first. Lost, tied, resigned and unfinished dailies hold no rank but "
            "count in `players`. The bot's own result is never ranked. Same shape as "
            "Foursquare's daily board."
        ),
        parameters=[DAY_PATH_PARAMETER, *PAGE_PARAMETERS],
        responses={200: BoardOutput, **problems(400, 401, 404, 429)},
    )
    def get(self, request, day: str):
        query = page_query(request, PageQuery)
        ref = board_selectors.board_ref(Period.DAY, parse_day(day), GAME)
        return board_response(request, ref, query)


class SpiteMaliceRatingsView(RatingBoardView):
    game = rating_rules.GAME

    @extend_schema(
        tags=["spite-malice"], operation_id="spite_malice_ratings",
        summary="Spite & Malice ratings: Glicko-2 over matches between people",
        description=(
            "Finished rated matches between two people rate both players (a resignation or "
            "a timeout is a loss, a tied single game a draw); matches against the bot, "
            "dailies, casual and aborted matches never do (docs/RATINGS.md). `results`: "
            "established players by rating, highest first, with ranks; `provisional`: "
            f"players with {rating_serializers.PROVISIONAL_RULE}, apart and unranked. A page "
            "holds up to `limit` players, the established ones first; `next` continues. With "
            "a token, `me` is your entry wherever it is."
        ),
        parameters=RATING_PAGE_PARAMETERS,
        responses={200: rating_serializers.RatingBoardOutput, **problems(400, 401, 429)},
    )
    def get(self, request):
        return super().get(request)


# --- Challenges: accept and decline by id --------------------------------------------------------


class MatchAcceptView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_accept",
        summary="Accept a challenge to you: join it by its id",
        description=(
            "The invitee of a direct invitation (a challenge, or a rematch offered) takes "
            "seat 1 and the first game is dealt, exactly as a join with its code. 404 "
            "`not_found` for a match that is no challenge to you (or one that closed: "
            "`reason` says how), 409 `match_full` once you accepted it, `own_match` for your "
            "own, `too_many_matches` at the limit of active matches."),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s404="`not_found`: no open challenge to you has this id.",
            s409="`match_full`, `own_match` or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
    )
    def post(self, request, match_id):
        invitations.expire_if_due(match_id)
        code = invitations.accept_code(request.user, match_id)

        def accept(_locked):
            match = invitations.match_join(player=request.user, code=code)
            return status.HTTP_200_OK, output(request, match)

        return idempotency.respond_idempotently(
            request, accept, lock=lambda: invitations.join_lock(request.user, code))


class MatchDeclineView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"

    @extend_schema(
        tags=TAG, operation_id="spite_malice_matches_decline",
        summary="Decline a challenge to you, saying why",
        description=(
            "The invitation is `cancelled` with reason `declined` and a `cancelled` event "
            "(`reason: \"declined\"`, `by: 1`, and `decline_reason`); the challenger sees "
            "the match's `decline_reason`. The body may be left out (`generic`). 404 for a "
            "match that is no invitation to you; 409 `own_match` for your own (cancel it), "
            "`match_not_waiting` once it began or closed."),
        parameters=[MATCH_ID, IDEMPOTENCY_PARAMETER],
        request=inputs.DeclineInput,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 413, 415, 422, 429,
            s409="`own_match` or `match_not_waiting`.",
            s422="`idempotency_key_reused`.")},
        examples=[OpenApiExample("too fast", value={"reason": "too_fast"}, request_only=True)],
    )
    def post(self, request, match_id):
        data = inputs.DeclineInput(data=request.data)
        data.is_valid(raise_exception=True)
        invitations.expire_if_due(match_id)

        def decline(match, game):
            invitations.match_decline(match=match, game=game, player=request.user,
                                      reason=data.validated_data["reason"])
            return status.HTTP_200_OK, output(request, match)

        return write_on_match(request, match_id, decline)


# --- Open seeks ----------------------------------------------------------------------------------

SEEK_ID = OpenApiParameter("match_id", OpenApiTypes.UUID, OpenApiParameter.PATH,
                           description="The seek's id (its match's).")


def seek_output(seek: Match, viewer) -> dict:
    rated, reason = rating_rules.rating_for_viewer(seek, viewer, timezone.now())
    return {
        "id": str(seek.pk),
        "from": player_ref(seek.player0),
        "rating": ratings.rating_of(seek.player0, rating_rules.GAME),
        "turn_seconds": seek.turn_seconds,
        "target": seek.target,
        "rated": rated,
        "unrated_reason": reason or None,
        "created_at": iso_datetime(seek.created_at),
        "expires_at": iso_datetime(seek.invite_expires_at),
    }


class SeekListCreateView(ApiView):
    permission_classes = [IsAuthenticated]
    query_parameters = frozenset({"limit", "cursor"})
    throttle_scope = "seeks"  # posted seeks, per token and per address (reads are not counted)

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_list",
        summary="Open seeks of other players, the newest first",
        description=(
            "Seeks you may take (not your own; yours are in your match list, `seek: true`), "
            "the newest first, paged by cursor: follow `next`. Each says who seeks (with "
            "their `bot` flag and rating), the clock, the length, and whether the match "
            "would be rated if you took it now."),
        parameters=[
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 100},
                             description="Page size, 1-100 (default 20)."),
            OpenApiParameter("cursor", {"type": "string",
                                        "pattern": selectors.SEEK_CURSOR_PATTERN},
                             description="From a `next` link."),
        ],
        responses={200: outputs.SeekPageOutput, **problems(400, 401)},
    )
    def get(self, request):
        query = inputs.SeekListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        seeks, after = selectors.seeks_page(request.user, limit=values["limit"],
                                            cursor=values.get("cursor"), now=timezone.now())
        url = request.build_absolute_uri()
        return Response({
            "next": replace_query_param(url, "cursor", after.encode()) if after else None,
            "results": [seek_output(seek, request.user) for seek in seeks],
        })

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_create",
        summary="Seek an opponent: an open match the first taker joins",
        description=(
            "201, a `waiting` match between people with `seek: true` and no invitee: it is "
            "listed in GET /seeks for every other player until one takes it (POST "
            "/seeks/{id}/accept), you withdraw it (DELETE /seeks/{id}, or cancel the match) "
            f"or it expires after {INVITE_DAYS} days. It has no code to share (`invite` is "
            f"null). It counts among your {services.ACTIVE_MATCHES} active matches (409 "
            "`too_many_matches`)."),
        parameters=[IDEMPOTENCY_PARAMETER],
        request=inputs.SeekInput,
        responses={201: outputs.MatchOutput, **problems(
            400, 401, 409, 413, 415, 422, 429, s409="`too_many_matches`.",
            s422="`idempotency_key_reused`.",
            s429="`throttled`: seeks posted per token (60 an hour) or per address (120 an "
                 "hour).")},
        examples=[OpenApiExample("a turn a day, a single game",
                                 value={"turn_seconds": 86400, "target": 1, "rated": True},
                                 request_only=True)],
    )
    def post(self, request):
        data = inputs.SeekInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def post(_locked):
            match = invitations.seek_post(player=request.user, **values)
            return status.HTTP_201_CREATED, output(request, match)

        return _located(request, idempotency.respond_idempotently(request, post))


class SeekDetailView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_delete",
        summary="Withdraw your seek",
        description="As cancelling its match: 200, the match `cancelled` (reason "
                    "`cancelled`). 404 for a seek that is not yours, 409 `match_not_waiting` "
                    "once it was taken or closed.",
        parameters=[SEEK_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429, s409="`match_not_waiting`.",
            s422="`idempotency_key_reused`.")},
    )
    def delete(self, request, match_id):
        invitations.expire_if_due(match_id)
        if not Match.objects.filter(pk=match_id, seek=True, player0=request.user).exists():
            raise SeekNotFound("You have no seek with this id.")
        return _cancelled(request, match_id)


class SeekAcceptView(ApiView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "games"
    takes_body = False

    @extend_schema(
        tags=TAG, operation_id="spite_malice_seeks_accept",
        summary="Take an open seek: its match begins",
        description=(
            "You take seat 1 and the first game is dealt, as a join. Only the first taker "
            "gets it: 409 `match_full` for the others, `own_match` for your own, "
            "`too_many_matches` at the limit; 404 `not_found` for a seek withdrawn or "
            "expired (`reason` says which) or no seek at all."),
        parameters=[SEEK_ID, IDEMPOTENCY_PARAMETER], request=None,
        responses={200: outputs.MatchOutput, **problems(
            400, 401, 404, 409, 422, 429,
            s409="`match_full`, `own_match` or `too_many_matches`.",
            s422="`idempotency_key_reused`.")},
    )
    def post(self, request, match_id):
        invitations.expire_if_due(match_id)
        code = invitations.seek_code(match_id)

        def take(_locked):
            match = invitations.match_join(player=request.user, code=code)
            return status.HTTP_200_OK, output(request, match)

        return idempotency.respond_idempotently(
            request, take, lock=lambda: invitations.join_lock(request.user, code))


# A bot account counts as online when it used the API this recently: its token's last use is
# written at most every 5 minutes (``LAST_USED_RESOLUTION``), and a stream it holds is opened
# again every 5 minutes, so a connected bot is always seen within 10.
ONLINE_MINUTES = 10
ONLINE_LISTED = 100
# As docs/SPITE_MALICE_BOT.md describes and measures them.
HOUSE_LEVELS = {
    "easy": "A casual player: never misses a pay-off play it sees, often misjudges the rest "
            "(45% against a greedy player).",
    "normal": "Searches the whole known part of its turn; the daily's level (82% against a "
              "greedy player).",
    "hard": "normal's search, its best endings judged again over sampled deals of the unseen "
            "cards; the hints' level (87% against a greedy player).",
}


class BotsView(ApiView):
    permission_classes = [AllowAny]
    throttle_scope = "boards"
    throttle_reads = True
    query_parameters = frozenset({"limit"})

    @extend_schema(
        tags=TAG, operation_id="spite_malice_bots",
        summary="The bots to play: the house bot's levels, and the bot accounts online",
        description=(
            "`house`: the house bot's levels (`POST /matches {\"opponent\": \"bot\", "
            "\"level\"}`). `online`: the bot accounts (`PATCH /players/me {\"bot\": "
            f"true}}`) that used the API in the last {ONLINE_MINUTES} minutes, the most "
            "recently seen first, at most `limit` (default and most: "
            f"{ONLINE_LISTED}), each with its rating (or null); "
            "challenge one by its id (`invitee`), as its `challenges` setting allows."),
        parameters=[inputs.BotsQuery],
        responses={200: outputs.BotsOutput, **problems(400, 401, 429)},
    )
    def get(self, request):
        query = inputs.BotsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        since = timezone.now() - timedelta(minutes=ONLINE_MINUTES)
        seen = list(AccessToken.objects
                    .filter(player__bot=True, player__is_active=True, last_used_at__gte=since)
                    .values("player_id").annotate(seen_at=Max("last_used_at"))
                    .order_by("-seen_at", "player_id")[:query.validated_data["limit"]])
        players = Player.objects.in_bulk([row["player_id"] for row in seen])
        rated = ratings.ratings_of(list(players), GAME)
        return Response({
            "house": [{"level": level, "description": HOUSE_LEVELS[level]} for level in LEVELS],
            "online": [{"player": player_ref(players[row["player_id"]]),
                        "rating": rated.get(row["player_id"]),
                        "seen_at": iso_datetime(row["seen_at"])} for row in seen],
            "online_minutes": ONLINE_MINUTES,
        })
