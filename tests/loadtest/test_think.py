"""The paced mix's think times and the load they offer (loadtest.think)."""

import pytest

from loadtest.think import offered_per_second, think_range


def test_a_range_of_seconds_is_read_from_its_variable(monkeypatch):
    monkeypatch.setenv("LOAD_THINK", "1-3")
    assert think_range() == (1.0, 3.0)


def test_one_number_is_a_fixed_pause(monkeypatch):
    monkeypatch.setenv("LOAD_SM_THINK", "2")
    assert think_range("LOAD_SM_THINK") == (2.0, 2.0)


def test_unset_means_the_load_aims_at_its_pace(monkeypatch):
    monkeypatch.delenv("LOAD_THINK", raising=False)
    assert think_range() is None


@pytest.mark.parametrize("text", ["3-1", "0-2", "-1"])
def test_a_range_that_is_no_pause_is_refused(monkeypatch, text):
    monkeypatch.setenv("LOAD_THINK", text)
    with pytest.raises(SystemExit):
        think_range()


def test_players_thinking_two_seconds_on_average_offer_half_a_request_each():
    assert offered_per_second(200, (1.0, 3.0)) == 100.0
