"""The load audit's tests play real matches through the API, with the server tests' fixtures."""

from tests.server.conftest import _fresh_rate_limits, make_player  # noqa: F401  (fixtures)
