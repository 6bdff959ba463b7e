"""Which loads ``LOAD_GAME`` names. Apart from ``loadtest.run`` so that the test suite, which
installs no load generator (psutil and locust are ``make load``'s alone), can check it."""

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
