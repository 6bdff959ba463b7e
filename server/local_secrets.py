"""Secrets for a server started without any: random on first start, kept in the data folder.

`make run` needs no configuration, yet a key published in the source would let anyone sign
sessions or compute every daily deal of such a server. So where the environment names no
secret, the first process to start draws one from ``secrets`` and keeps it in a file of the
(git-ignored) data folder, readable by its owner only; every later start, and every other
worker, reads the same file. Production never comes here: it refuses to start without its own
secrets (server.settings).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def local_secret(data_dir: Path, name: str) -> str:
    """The secret kept as ``data_dir/name``, made on first use (safe when several processes
    start at once: the file appears whole or not at all, and the first one made wins)."""
    path = data_dir / name
    try:
        value = path.read_text().strip()
    except FileNotFoundError:
        value = _create(path)
    if len(value) < 50:
        raise ImproperlyConfigured(f"{path} holds no usable secret: delete it to make a new one")
    return value


def _create(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(64)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(value + "\n")
        # link() fails if the name exists: a process that lost the race reads the winner's.
        os.link(draft, path)
    except FileExistsError:
        return path.read_text().strip()
    finally:
        draft.unlink(missing_ok=True)
    return value
