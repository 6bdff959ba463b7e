"""Spite & Malice's part in bot accounts (``server.players.bots``): a player whose match
between people finished, or is being played, stays a person; once marked, their seats in
every other match of theirs say so (``Match.player0_bot``, ``player1_bot``)."""

from __future__ import annotations

from django.db.models import Q

from server.players.bots import BotRules, register
from server.spitemalice.models import Match


def refusal(player) -> str | None:
    played = (Match.objects.filter(Q(player0=player) | Q(player1=player),
                                   mode=Match.Mode.FRIEND,
                                   status__in=[Match.Status.PLAYING, Match.Status.FINISHED])
              .exists())
    if played:
        return ("This account has played Spite & Malice against a person (a match finished or "
                "being played): its results stay a person's. Create a new account for the "
                "bot.")
    return None


def marked(player) -> None:
    Match.objects.filter(player0=player).update(player0_bot=True)
    Match.objects.filter(Q(player1=player) | Q(invitee=player)).update(player1_bot=True)


def register_bot_rules() -> None:
    register(BotRules(refusal=refusal, marked=marked))
