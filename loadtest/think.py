"""The paced mix: players who think between turns, as people do (``LOAD_THINK=1-3``: a pause
drawn evenly between 1 and 3 s before each move or action), instead of aiming at a rate.

A flat-out load measures the most the machine serves, and its latencies are queueing; a paced
one should ask for less than that, so that its latencies say what a player waits for. What it
asks for (the offered load) is known beforehand: each player who may act sends one request per
think time and answer, so at most ``players / mean think`` a second. The report prints it
beside what was served, which falls short of it by the answers' own time, and by a queue when
the machine cannot keep up.
"""

from __future__ import annotations

import os


def think_range(variable: str = "LOAD_THINK") -> tuple[float, float] | None:
    """``(shortest, longest)`` pause in seconds from ``variable`` (``"1-3"``, or ``"2"`` for a
    fixed one); None when unset (the load aims at its pace instead)."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return None
    low, _, high = text.partition("-")
    try:
        shortest, longest = float(low), float(high or low)
    except ValueError:
        shortest = longest = 0.0
    if not 0 < shortest <= longest:
        raise SystemExit(f"{variable} is a pause in seconds (2) or a range (1-3), not {text!r}")
    return shortest, longest


def offered_per_second(players_acting: float, think: tuple[float, float]) -> float:
    """The requests a second that ``players_acting`` thinking players ask for at most."""
    return players_acting / ((think[0] + think[1]) / 2)
