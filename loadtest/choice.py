"""Which loads ``LOAD_GAME`` names, and how many times ``LOAD_ROUNDS`` plays them. Apart from
``loadtest.run`` so that the test suite, which installs no load generator (psutil and locust
are ``make load``'s alone), can check it."""

from __future__ import annotations

GAMES = ("foursquare", "spite-malice", "races")
GROUPS = {"both": ("foursquare", "spite-malice"), "all": GAMES}


def games_of(choice: str) -> tuple[str, ...]:
    """The loads ``LOAD_GAME`` names, in order: a game, ``both``, ``all`` or a list of them."""
    games = GROUPS.get(choice) or tuple(name.strip() for name in choice.split(",") if name.strip())
    if not games or any(game not in GAMES for game in games) or len(set(games)) != len(games):
        raise SystemExit(f"LOAD_GAME is {', '.join(GAMES)}, both, all or a list of them, "
                         f"not {choice!r}")
    return games


def rounds_of(text: str) -> int:
    """``LOAD_ROUNDS``: how many times the loads are played, one after another."""
    if not text.isdigit() or int(text) < 1:
        raise SystemExit(f"LOAD_ROUNDS is a whole number of rounds, 1 or more, not {text!r}")
    return int(text)
