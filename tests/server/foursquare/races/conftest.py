"""Fixtures of the race tests."""

from __future__ import annotations

import pytest

from tests.server.foursquare.races.support import fixed_deal


@pytest.fixture
def known_deal(monkeypatch):
    """Every race started in the test deals the same known deck (``fixed_deal``)."""
    fixed_deal(monkeypatch)
