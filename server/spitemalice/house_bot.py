"""The one place the server asks the house bot (``spitemalice.bot``) for its actions.

``bot_actions(view, unseen, level, seed)`` returns the actions the bot plays now from its
seat's view and the cards it has not seen (never a ``Game``: it cannot see hidden cards),
stopping where a card from the stock comes into play; the caller plays them and asks again
while it is still the bot's turn. ``TurnTimer`` times those calls, turn by turn
(``foursquare_bot_turn_cpu_seconds``: the CPU a turn took, the figure the levels' limits are
stated in).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Mapping
from contextlib import contextmanager

from server.spitemalice.metrics import bot_turn_cpu
from spitemalice import Action, PlayerView
from spitemalice.bot import bot_turn


def bot_actions(view: PlayerView, unseen: Mapping[str, int], level: str,
                seed: bytes) -> list[Action]:
    return bot_turn(view, unseen, level, seed)


class TurnTimer:
    """Adds up the CPU time of the calls of ``bot_actions`` that play one of the bot's turns (a
    turn is one call per card that comes into play from the stock or from under the pay-off
    top), and observes each turn's total in ``foursquare_bot_turn_cpu_seconds`` once another
    turn is timed, or at ``done()``: the part of a turn played in one request or one job.

    CPU time, not the wall clock: the thread's own (``time.thread_time``), so neither the
    process's other threads nor a busy machine count in it, as in the benchmark's figures
    (``spitemalice.bot_bench``)::

        with timer.turn((game_number, turn_number)):
            actions = bot_actions(view, unseen, level, seed)
    """

    def __init__(self, level: str, where: str) -> None:
        # The labelled child is looked up when a turn is observed, not here: most of a bot
        # match's actions are the person's, and play no bot turn.
        self._labels = (level, where)
        self._turn: Hashable | None = None
        self._cpu = 0.0

    @contextmanager
    def turn(self, turn: Hashable) -> Iterator[None]:
        """Time the block as part of the turn named ``turn`` (any value that differs from one
        of the bot's turns to the next, e.g. (game number, turn number))."""
        if turn != self._turn:
            self.done()
            self._turn = turn
        started = time.thread_time()
        try:
            yield
        finally:
            self._cpu += time.thread_time() - started

    def done(self) -> None:
        """Observe the turn timed last, if any (call once no more of it is played here)."""
        if self._turn is not None:
            bot_turn_cpu.labels(*self._labels).observe(self._cpu)
        self._turn = None
        self._cpu = 0.0
