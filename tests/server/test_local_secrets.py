"""A server started without secrets makes its own on first start and keeps them."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.exceptions import ImproperlyConfigured

from server.local_secrets import local_secret
from tests.make_run import REPO_ROOT


def _settings_of(data_dir, **env) -> dict[str, str]:
    """SECRET_KEY and FOURSQUARE_DAILY_SECRET as a fresh process started like `make run`
    (no secret in its environment) computes them."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in {"DJANGO_SECRET_KEY", "FOURSQUARE_DAILY_SECRET",
                                  "DJANGO_ENV", "DJANGO_ALLOWED_HOSTS"}}
    environment.update(FOURSQUARE_DATA_DIR=str(data_dir), DJANGO_SETTINGS_MODULE="server.settings",
                       **env)
    script = ("from django.conf import settings; "
              "print(settings.SECRET_KEY); print(settings.FOURSQUARE_DAILY_SECRET)")
    output = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, env=environment,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    return {"SECRET_KEY": output[0], "FOURSQUARE_DAILY_SECRET": output[1]}


def test_first_start_makes_random_secrets_and_later_starts_reuse_them(tmp_path):
    first = _settings_of(tmp_path / "data")
    assert first == _settings_of(tmp_path / "data")  # the restart deals the same dailies
    other_server = _settings_of(tmp_path / "elsewhere")
    assert other_server["SECRET_KEY"] != first["SECRET_KEY"]
    assert other_server["FOURSQUARE_DAILY_SECRET"] != first["FOURSQUARE_DAILY_SECRET"]
    assert first["SECRET_KEY"] != first["FOURSQUARE_DAILY_SECRET"]
    assert len(first["FOURSQUARE_DAILY_SECRET"]) >= 64


def test_secret_files_are_readable_by_their_owner_only(tmp_path):
    _settings_of(tmp_path)
    for name in ("secret-key", "daily-secret"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600


def test_secrets_from_the_environment_win_and_no_file_is_written(tmp_path):
    daily = "a daily secret the operator chose, long enough to be one"
    chosen = _settings_of(tmp_path, DJANGO_SECRET_KEY="k" * 60, FOURSQUARE_DAILY_SECRET=daily)
    assert chosen == {"SECRET_KEY": "k" * 60, "FOURSQUARE_DAILY_SECRET": daily}
    assert not (tmp_path / "secret-key").exists() and not (tmp_path / "daily-secret").exists()


def test_processes_starting_together_agree_on_one_secret(tmp_path):
    with ThreadPoolExecutor(8) as pool:
        values = set(pool.map(lambda _: local_secret(tmp_path, "daily-secret"), range(32)))
    assert len(values) == 1
    assert [path.name for path in tmp_path.iterdir()] == ["daily-secret"]  # no draft left


def test_a_damaged_secret_file_stops_the_start_with_a_clear_message(tmp_path):
    (tmp_path / "daily-secret").write_text("short\n")
    with pytest.raises(ImproperlyConfigured, match="delete it"):
        local_secret(tmp_path, "daily-secret")
