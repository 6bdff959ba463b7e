"""Streaks, counted by daily number rather than by calendar.

Daily #n is the same deal for everyone, whatever their time zone, so a player who flies
across the date line can neither skip a daily nor play one twice: the streak is consecutive
numbers. A streak is *current* while it can still be extended: the daily after its last one is
still being played somewhere on Earth (number ``first_open`` or later) and has not been lost.
A game still in progress neither extends nor breaks a win streak until it ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Streaks:
    current_win: int
    longest_win: int
    current_played: int
    longest_played: int


def _runs(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """Runs of consecutive numbers as (last number, length), in order."""
    runs: list[tuple[int, int]] = []
    for number in sorted(set(numbers)):
        if runs and runs[-1][0] == number - 1:
            runs[-1] = (number, runs[-1][1] + 1)
        else:
            runs.append((number, 1))
    return runs


def streaks(results: Iterable[tuple[int, str]], *, first_open: int) -> Streaks:
    """``results``: (daily number, status) of one player's daily games, in any order;
    ``first_open``: the number of the earliest daily still being played somewhere."""
    status = dict(results)

    def still_open(run_end: int) -> bool:
        following = run_end + 1
        return following >= first_open and status.get(following, "playing") == "playing"

    played = _runs(status)
    won = _runs(number for number, state in status.items() if state == "won")
    return Streaks(
        current_win=max((length for end, length in won if still_open(end)), default=0),
        longest_win=max((length for _, length in won), default=0),
        current_played=played[-1][1] if played and played[-1][0] + 1 >= first_open else 0,
        longest_played=max((length for _, length in played), default=0),
    )
