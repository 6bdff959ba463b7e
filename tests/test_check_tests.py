"""The check `make lint` runs on the tests (tests/check_tests.py) finds what it says it does."""

from __future__ import annotations

from pathlib import Path

from tests.check_tests import offences


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_test_that_asserts_nothing_or_waits_a_fixed_time_in_a_browser_test_is_refused(
        tmp_path):
    root = tmp_path / "tests"
    write(root, "helpers.py", "def ok(status):\n    assert status == 200\n\n"
                              "def through(status):\n    ok(status)\n")
    write(root, "test_things.py",
          "import pytest\n\n"
          "def test_runs_only():\n    print(1)\n\n"
          "def test_asserts():\n    assert 1\n\n"
          "def test_raises():\n    with pytest.raises(ValueError):\n        int('x')\n\n"
          "def test_through_a_helper():\n    through(200)\n\n"
          "class TestGroup:\n    def test_in_a_class(self):\n        pass\n")
    write(root, "e2e/test_page.py",
          "import time\n\n"
          "def test_waits(page):\n    time.sleep(1)\n    expect(page).to_be_ok()\n\n"
          "def test_polls(page):\n    while not page.ready():\n        time.sleep(0.1)\n"
          "    page.wait_for_timeout(600)\n    expect(page).to_be_ok()\n")

    assert offences(root) == [
        "tests/e2e/test_page.py:4: a fixed wait (sleep) outside a loop: wait for the "
        "condition instead",
        "tests/e2e/test_page.py:10: a fixed wait (wait_for_timeout) outside a loop: wait for "
        "the condition instead",
        "tests/test_things.py:3: test_runs_only asserts nothing",
        "tests/test_things.py:17: test_in_a_class asserts nothing",
    ]


def test_the_suite_passes_its_own_check():
    assert offences() == []
