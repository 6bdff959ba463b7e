"""The confusable skeleton of a string (Unicode Technical Standard #39, section 4).

Two strings that look alike have the same skeleton: NFD, then each character replaced by its
prototype from Unicode's ``confusables.txt`` (Cyrillic "а" by Latin "a", "ｍ" and "rn" alike by
"rn", ...), then NFD again. The table is read, once, from the copy of ``confusables.txt`` that the
pinned ``confusables`` package ships (Unicode 13.0; that package's own matching code is not
used). The file has one line per source character: ``SOURCE ; PROTOTYPE ; MA # comment``, both
as hexadecimal code points.
"""

from __future__ import annotations

import functools
import importlib.metadata
import unicodedata
from pathlib import Path

_DATA_PACKAGE, _DATA_FILE = "confusables", "confusables.txt"


def _data_path() -> Path:
    # Located through the package's file list, so its module (which loads a large table of its
    # own) is never imported.
    for file in importlib.metadata.files(_DATA_PACKAGE) or ():
        if file.name == _DATA_FILE:
            return Path(str(file.locate()))
    raise RuntimeError(f"{_DATA_PACKAGE} ships no {_DATA_FILE}; reinstall the dependencies")


def parse_confusables(text: str) -> dict[str, str]:
    """``{source character: prototype}`` from the text of a ``confusables.txt``."""
    prototypes = {}
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not data:
            continue
        source, prototype, *_ = (field.strip() for field in data.split(";"))
        prototypes[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in prototype.split())
    return prototypes


@functools.cache
def prototypes() -> dict[str, str]:
    return parse_confusables(_data_path().read_text(encoding="utf-8"))


def skeleton(text: str) -> str:
    """``text``'s skeleton: equal for two strings a reader could take for one another."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))
