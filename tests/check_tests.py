"""`make lint`'s check of the tests themselves (docs/TESTING.md, "Tests that can fail"):

- every test function asserts something: an ``assert``, Playwright's ``expect(...)``,
  ``pytest.raises``/``warns``/``fail``, or a call of a helper that does. A helper is any
  function defined under tests/ that asserts in one of these ways, itself or through another
  such helper (matched by name: ``ok(...)``, ``assert_accessible(...)``, ``shoot(...)`` if it
  asserts). A test that only runs code proves nothing it could lose.
- the browser tests (tests/e2e) never wait a fixed time: ``time.sleep`` and
  ``page.wait_for_timeout`` only inside a loop (a poll until a condition holds, or the pace of
  a player), never on their own; wait for the condition itself (``expect``, ``wait_for``) or
  move the page's clock (``page.clock``).

Run: ``python tests/check_tests.py`` (exit 1, each offence printed as path:line).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ASSERTING_CALLS = {"expect", "raises", "warns", "fail", "deprecated_call"}
FIXED_WAITS = {"sleep", "wait_for_timeout"}


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _calls(node: ast.AST) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and (name := _called_name(child)):
            yield name


def _asserts_itself(node: ast.AST) -> bool:
    return any(isinstance(child, ast.Assert) for child in ast.walk(node)) or any(
        name in ASSERTING_CALLS for name in _calls(node))


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _tests(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """pytest's test functions: ``test_*`` at module level or in a ``Test*`` class."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            body = node.body
        else:
            body = [node]
        for item in body:
            if (isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                    and item.name.startswith("test")):
                yield item


def asserting_helpers(trees: dict[Path, ast.Module]) -> set[str]:
    """Names of the functions under tests/ that assert, directly or through another one."""
    calls: dict[str, set[str]] = {}
    asserting: set[str] = set()
    for tree in trees.values():
        for function in _functions(tree):
            calls.setdefault(function.name, set()).update(_calls(function))
            if _asserts_itself(function):
                asserting.add(function.name)
    changed = True
    while changed:
        changed = False
        for name, called in calls.items():
            if name not in asserting and called & asserting:
                asserting.add(name)
                changed = True
    return asserting


def _fixed_waits(tree: ast.Module) -> Iterator[ast.Call]:
    """Calls of ``sleep``/``wait_for_timeout`` that no loop encloses."""

    def visit(node: ast.AST, in_loop: bool) -> Iterator[ast.Call]:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            in_loop = False  # a function's body runs where it is called
        if isinstance(node, ast.Call) and _called_name(node) in FIXED_WAITS and not in_loop:
            yield node
        looping = isinstance(node, ast.For | ast.AsyncFor | ast.While)
        for child in ast.iter_child_nodes(node):
            inside = in_loop or (looping and child not in (getattr(node, "iter", None),
                                                            getattr(node, "test", None)))
            yield from visit(child, inside)

    yield from visit(tree, False)


def offences(root: Path = TESTS) -> list[str]:
    trees = {path: ast.parse(path.read_text(), str(path)) for path in sorted(root.rglob("*.py"))}
    helpers = asserting_helpers(trees)
    found = []
    for path, tree in trees.items():
        where = path.relative_to(root.parent)
        if path.name.startswith("test_"):
            for test in _tests(tree):
                if not (_asserts_itself(test) or set(_calls(test)) & helpers):
                    found.append(f"{where}:{test.lineno}: {test.name} asserts nothing")
        if "e2e" in path.relative_to(root).parts:
            for call in _fixed_waits(tree):
                found.append(f"{where}:{call.lineno}: a fixed wait ({_called_name(call)}) "
                             "outside a loop: wait for the condition instead")
    return found


def main() -> int:
    found = offences()
    for offence in found:
        print(offence)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
