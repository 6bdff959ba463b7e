"""Matches between people: the invitation (a code anyone may join with, or a player
challenged directly, as their ``challenges`` setting allows), joining it (by code, or by id:
the invitee's accept), cancelling or declining it (with a reason), the open seek any other
player may take, its expiry, and the rematch.

A challenge accepted, or a seek taken, is a join (``match_join``); a decline is the invitee's
close (``_close``, reason ``declined``): each flow passes through the same functions.

A friend match is created ``waiting``, with nobody in seat 1 and no game dealt; whoever joins
with its code takes seat 1 and the first game is dealt (``services.match_deal``), which starts
the first turn's clock. An invitation that nobody joined within ``INVITE_DAYS`` is cancelled
with ``reason: "expired"``, on the reads that show it and by the worker (``clocks.sweep``).
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from server.api.idempotency import SettleFirst
from server.core import codes
from server.core.codes import CODE_ALPHABET  # noqa: F401 (its tests read it here)
from server.core.queries import one_or_none
from server.leagues.problems import NotALeagueMate
from server.leagues.selectors import league_mates
from server.players.models import Player
from server.spitemalice import fairness, notify, rating_rules, services
from server.spitemalice.engine import Log
from server.spitemalice.models import INVITE_CODE_LENGTH, Match
from server.spitemalice.problems import (
    ChallengesClosed,
    InvitationNotFound,
    MatchFull,
    MatchNotFound,
    MatchNotWaiting,
    OwnMatch,
    RematchUnavailable,
    SeekNotFound,
)
from server.streams.services import account_events_add

_CODE_TRIES = 5  # 32^8 codes: a collision is rare; a second one in a row rarer still


def new_code() -> str:
    return codes.new_code(INVITE_CODE_LENGTH)


def code_normalise(text: str) -> str | None:
    """The code ``text`` names (``server.core.codes``); None if it cannot be one."""
    return codes.code_normalise(text, INVITE_CODE_LENGTH)


def _challenged(player, other_id) -> Player:
    """The player ``other_id``, whom ``player`` may challenge: not themselves, and as the
    other's ``challenges`` setting allows (anyone; a fellow member of a league, the default;
    or nobody)."""
    other = (one_or_none(Player.objects.filter(pk=other_id, is_active=True))
             if other_id != player.pk else None)
    if other is not None and other.challenges == Player.Challenges.NOBODY:
        raise ChallengesClosed(f"{other.name} takes no challenges; send them the "
                               "invitation's code instead, if they want it.")
    if other is None or (other.challenges == Player.Challenges.LEAGUE_MATES
                         and not league_mates(player, other)):
        raise NotALeagueMate("Invite directly only a player who takes challenges from you (a "
                             "fellow member of one of your leagues, unless they take them "
                             "from anyone), not yourself; or send anyone the invitation's "
                             "code.")
    return other


def _waiting_create(*, player, turn_seconds: int | None, target: int, rated: bool, invitee=None,
                    rematch_of: Match | None = None, seek: bool = False,
                    client_seed: str | None = None) -> Match:
    """A new waiting match, rated as far as its players are known (both, for an invitee)."""
    for attempt in range(_CODE_TRIES):
        try:
            with transaction.atomic():  # a savepoint: a taken code rolls back only this try
                match = Match(
                    mode=Match.Mode.FRIEND, target=target, status=Match.Status.WAITING,
                    seed=secrets.token_bytes(32).hex(), player0=player,
                    turn_seconds=turn_seconds, invite_code=new_code(), invitee=invitee,
                    rematch_of=rematch_of, seek=seek, player0_bot=player.bot,
                    player1_bot=invitee is not None and invitee.bot)
                rating_rules.rating_decide(
                    match, requested=rated, now=timezone.now(),
                    players=[player] if invitee is None else [player, invitee])
                match.save(force_insert=True)
                fairness.match_commit(match, [client_seed, None])  # seat 1's when it joins
                if invitee is not None:  # told on their account stream
                    account_events_add([notify.invitation_received(match)])
                return match
        except IntegrityError:
            if attempt == _CODE_TRIES - 1:
                raise
    raise AssertionError("unreachable")


def match_invite(*, player, turn_seconds: int, target: int, invitee_id=None,
                 rated: bool = True, client_seed: str | None = None) -> Match:
    """A waiting match of ``player``'s in seat 0, to be joined with its code; with
    ``invitee_id``, a challenge: an invitation to that player only, if they take challenges
    from ``player``. ``rated`` False asks for a casual match; True a rated one, if the rules
    allow (``rating_rules``)."""
    # No savepoint inside a caller's transaction (the idempotent request's): a refusal rolls
    # back the caller's block with it, as it would this one.
    with transaction.atomic(savepoint=False):
        invitee = _challenged(player, invitee_id) if invitee_id is not None else None
        services.active_matches_check(player)
        return _waiting_create(player=player, turn_seconds=turn_seconds, target=target,
                               rated=rated, invitee=invitee, client_seed=client_seed)


_CLOSED = {
    Match.Reason.EXPIRED: "This invitation has expired: nobody joined it in time.",
    Match.Reason.CANCELLED: "This invitation was cancelled by the player who made it.",
    Match.Reason.DECLINED: "This invitation was declined.",
}


def _closed(match: Match) -> InvitationNotFound:
    """The 404 for an invitation that is over, to someone it was open to: ``reason`` says how
    it closed (expired, cancelled or declined)."""
    reason = (Match.Reason.EXPIRED if match.status == Match.Status.WAITING
              else Match.Reason(match.reason or Match.Reason.CANCELLED))
    return InvitationNotFound(_CLOSED.get(reason, _CLOSED[Match.Reason.CANCELLED]),
                              reason=str(reason))


def _match_with(code: str):
    normal = code_normalise(code)
    if normal is None:
        return None
    return one_or_none(Match.objects.filter(invite_code=normal).values_list("pk", flat=True))


def invitation_preview(*, code: str, viewer) -> tuple[Match, bool, str]:
    """The open invitation with ``code`` as ``viewer`` (a player, or None for a new guest)
    would join it now: (the match, whether it would be rated, why not). 404 as a join would
    be for a code that names no invitation open to them."""
    found = _match_with(code)
    match = _preview_read(found)
    now = timezone.now()
    if match is not None and match.is_expired(now) and expire_if_due(match.pk):
        match = _preview_read(found)  # gone, and marked so
    if (match is None or (match.invitee_id is not None
                          and (viewer is None or match.invitee_id != viewer.pk))):
        raise InvitationNotFound("No invitation with this code is open to you.")
    if match.status == Match.Status.CANCELLED or match.is_expired(now):
        raise _closed(match)
    if match.status != Match.Status.WAITING:  # as a join would say
        raise MatchFull("Someone has already joined this match."
                        if viewer is None or match.player1_id != viewer.pk
                        else "You joined it already.")
    rated, reason = rating_rules.rating_for_viewer(match, viewer, now)
    return match, rated, reason


def _preview_read(found) -> Match | None:
    if found is None:
        return None
    return one_or_none(Match.objects.select_related("player0", "invitee").filter(pk=found))


def join_lock(player, code: str) -> None:
    """Before a join: lock the joiner's row and the invitation's creator's, in id order, so
    that two people joining each other's invitations at once cannot deadlock. An invitation
    past its days expires first, in a transaction of its own (``SettleFirst``: the join is
    refused then, and a refused join rolls its own transaction back)."""
    normal = code_normalise(code)
    # The row ``_match_with`` finds, read in the same query: its creator and whether it expired.
    match = (one_or_none(Match.objects.filter(invite_code=normal)
                         .only("player0_id", "status", "created_at"))
             if normal is not None else None)
    if match is not None and match.is_expired(timezone.now()):
        match_id = match.pk
        raise SettleFirst(lambda: expire_if_due(match_id))
    creator = match.player0_id if match is not None else None
    services.player_lock(player, *([Player(pk=creator)] if creator is not None else []))


def match_join(*, player, code: str, client_seed: str | None = None) -> Match:
    """``player`` takes seat 1 of the waiting match with ``code``: 404 for a code that names
    no open invitation to them (unknown, cancelled, expired, or addressed to someone else)."""
    found = _match_with(code)
    if found is None:
        raise InvitationNotFound("No invitation has this code.")
    with transaction.atomic(savepoint=False):  # as match_invite's
        match = one_or_none(Match.objects.select_for_update().filter(pk=found))
        if match is None:  # deleted (its creator's account with it) since the lookup
            raise InvitationNotFound("No invitation has this code.")
        if match.player0_id == player.pk:
            raise OwnMatch("You created this match: send its code to your opponent.")
        if match.invitee_id is not None and match.invitee_id != player.pk:
            raise InvitationNotFound("No invitation with this code is open to you.")
        if match.status == Match.Status.CANCELLED or match.is_expired(timezone.now()):
            raise _closed(match)
        if match.status != Match.Status.WAITING:
            raise MatchFull("Someone has already joined this match."
                            if match.player1_id != player.pk else "You joined it already.")
        # Both rows, in id order, before the limit's own lock on the joiner: the pair's
        # allowance of rated matches is checked under them (``rating_rules``).
        services.player_lock(match.player0, player)
        services.active_matches_check(player, locked=True)
        return services.match_deal(match=match, opponent=player, client_seed=client_seed,
                                   locked=True)


def _close(match: Match, reason: str, by: int | None, decline_reason: str = "") -> None:
    """Cancel the locked waiting ``match``: a ``cancelled`` event, nothing dealt. A decline
    may say why (``decline_reason``, one of ``Match.DeclineReason``)."""
    log = Log(match)
    match.status = Match.Status.CANCELLED
    match.reason = reason
    match.finished_at = log.now
    match.clock_stop()
    log.event("cancelled",
              {"reason": reason, "by": by, "decline_reason": decline_reason or None})
    match.decline_reason = decline_reason  # known to what the store tells the players
    services._store(match=match, game=None, new_games=[], log=log)
    if decline_reason:  # not among the fields the store writes
        match.save(update_fields=["decline_reason"])


def match_cancel(*, match: Match, game, player, decline_reason: str = "") -> Match:
    """The creator cancels their locked waiting match, or its invitee declines it (saying
    why with ``decline_reason``, if they want); a seat leaves a match being played before each
    seat completed its first turn (it is aborted)."""
    if match.is_abortable(game):
        services.match_abort(match=match, game=game, seat=match.seat_of(player),
                             reason=Match.Reason.CANCELLED)
        return match
    if match.status != Match.Status.WAITING:
        raise MatchNotWaiting(
            f"The match is {match.status}: only a match nobody has joined, or one whose "
            "first turns are not both played, can be cancelled"
            + (" (resign instead)." if match.status == Match.Status.PLAYING else "."))
    by = match.viewer_seat(player)
    # Seat 1 of a waiting match is its invitee's: they said no, which the creator is told.
    _close(match, Match.Reason.DECLINED if by == 1 else Match.Reason.CANCELLED, by=by,
           decline_reason=decline_reason if by == 1 else "")
    return match


def match_decline(*, match: Match, game, player, reason: str) -> Match:
    """The invitee of the locked waiting ``match`` declines it, saying why (``reason``, one of
    ``Match.DeclineReason``): a ``cancelled`` event with reason ``declined``."""
    if match.player0_id == player.pk:
        raise OwnMatch("You created this match: cancel it instead.")
    if match.invitee_id != player.pk or match.status != Match.Status.WAITING:
        if match.status == Match.Status.WAITING:  # a seat's, not theirs to decline
            raise MatchNotFound()
        raise MatchNotWaiting(f"The match is {match.status}: only an invitation nobody has "
                              "joined can be declined.")
    return match_cancel(match=match, game=game, player=player, decline_reason=reason)


def _code_of(match_id, **conditions) -> str | None:
    return one_or_none(Match.objects.filter(pk=match_id, **conditions)
                       .values_list("invite_code", flat=True))


def accept_code(player, match_id) -> str:
    """The code of the challenge ``match_id`` addressed to ``player``: 404 for a match that is
    not one, 409 ``own_match`` for their own."""
    if Match.objects.filter(pk=match_id, player0=player).exists():
        raise OwnMatch("You created this match: wait for your opponent to accept it.")
    code = _code_of(match_id, invitee=player)
    if code is None:
        raise MatchNotFound("No challenge to you has this id.")
    return code


# --- Open seeks ----------------------------------------------------------------------------------


def seek_post(*, player, turn_seconds: int, target: int, rated: bool = True) -> Match:
    """An open seek of ``player``'s: a waiting match with no invitee that any other player may
    take (a join with its hidden code: ``seek_code``); it expires as an invitation does and
    counts among their active matches."""
    with transaction.atomic():
        services.active_matches_check(player)
        return _waiting_create(player=player, turn_seconds=turn_seconds, target=target,
                               rated=rated, seek=True)


def seek_code(match_id) -> str:
    """The hidden code of the seek ``match_id`` (open or not): 404 if it is none."""
    code = _code_of(match_id, seek=True)
    if code is None:
        raise SeekNotFound("No seek has this id.")
    return code


def expire_if_due(match_id) -> bool:
    """Cancel the waiting match ``match_id`` (``reason: "expired"``) if nobody joined it within
    its days; exactly once, under its lock. Whether it did."""
    with transaction.atomic():
        match = one_or_none(Match.objects.select_for_update().filter(pk=match_id))
        if match is None or not match.is_expired(timezone.now()):
            return False
        _close(match, Match.Reason.EXPIRED, by=None)
        return True


def match_rematch(*, match: Match, player) -> Match:
    """A new waiting match for the locked finished friend ``match``: same settings, the other
    player invited. One rematch per match."""
    if match.mode != Match.Mode.FRIEND:
        raise RematchUnavailable("A rematch is offered only between people; against the bot "
                                 "start a new match.")
    if match.status != Match.Status.FINISHED:
        raise RematchUnavailable(f"The match is {match.status}: a rematch follows a match "
                                 "that finished.")
    existing = one_or_none(Match.objects.filter(rematch_of=match).values_list("pk", flat=True))
    if existing is not None:
        raise RematchUnavailable(f"This match has its rematch already: {existing}.")
    seat = match.seat_of(player)
    opponent = match.player1 if seat == 0 else match.player0
    services.active_matches_check(player)
    return _waiting_create(player=player, turn_seconds=match.turn_seconds, target=match.target,
                           rated=match.unrated_reason != Match.Unrated.CASUAL,
                           invitee=opponent, rematch_of=match)
