"""The server's Ed25519 key: 32 bytes of SHA-256 of a secret text (docs/FAIRNESS.md, "The
key"), from ``FAIRNESS_SIGNING_KEY`` or, outside production, a secret kept in the data folder."""

from __future__ import annotations

import base64
import hashlib
from functools import cache

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

from fairness import key_id


def _private_key(secret: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(secret.encode()).digest())


@cache
def _key_of(secret: str) -> tuple[Ed25519PrivateKey, bytes]:
    private = _private_key(secret)
    return private, private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def public_key() -> bytes:
    return _key_of(settings.FAIRNESS_SIGNING_KEY)[1]


def current_key_id() -> str:
    return key_id(public_key())


def sign(body: bytes) -> str:
    return base64.b64encode(_key_of(settings.FAIRNESS_SIGNING_KEY)[0].sign(body)).decode()


def previous_public_keys() -> list[bytes]:
    """The keys that signed earlier entries (``FAIRNESS_PREVIOUS_PUBLIC_KEYS``)."""
    return [base64.b64decode(text) for text in settings.FAIRNESS_PREVIOUS_PUBLIC_KEYS]
