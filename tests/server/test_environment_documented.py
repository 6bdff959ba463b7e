"""docs/OPERATIONS.md's table under "Configure" names every environment variable the server
reads (``os.environ``, ``os.getenv`` or settings' ``env_*`` helpers, anywhere under server/),
so the table cannot fall behind the code. The benchmarks' own command-line defaults
(``*_bench.py``) are tools, documented by the Makefile, not the service's configuration."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server"
OPERATIONS = ROOT / "docs" / "OPERATIONS.md"
ENV_HELPERS = {"env_bool", "env_int", "env_float", "env_list"}


def _is_environ(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ"
            and isinstance(node.value, ast.Name) and node.value.id == "os")


def _name_pattern(node: ast.AST, constants: dict[str, str]) -> str | None:
    """The variable's name as a regular expression (a formatted part matches any name part)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.Name) and node.id in constants:
        return re.escape(constants[node.id])
    if isinstance(node, ast.JoinedStr):
        return "".join(re.escape(part.value) if isinstance(part, ast.Constant) else "[A-Z_]+"
                       for part in node.values)
    return None


def names_read(path: Path) -> dict[str, int]:
    """The environment variables ``path`` reads (as patterns), with the line of each."""
    tree = ast.parse(path.read_text(), str(path))
    constants = {target.id: node.value.value for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                 and isinstance(node.value.value, str)
                 for target in node.targets if isinstance(target, ast.Name)}
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        argument = None
        if isinstance(node, ast.Call):
            function = node.func
            if ((isinstance(function, ast.Attribute) and function.attr == "get"
                 and _is_environ(function.value))
                    or (isinstance(function, ast.Attribute) and function.attr == "getenv")
                    or (isinstance(function, ast.Name) and function.id in ENV_HELPERS)):
                argument = node.args[0] if node.args else None
        elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
              and _is_environ(node.value)):
            argument = node.slice
        if argument is not None and (pattern := _name_pattern(argument, constants)):
            found.setdefault(pattern, node.lineno)
    return found


def documented_names() -> list[str]:
    """The names in the first column of the Configure section's table; ``<SCOPE>`` and the
    like stand for any name part."""
    section = OPERATIONS.read_text().split("\n## Configure\n", 1)[1].split("\n## ", 1)[0]
    names = []
    for line in section.splitlines():
        if line.startswith("| `"):
            first_column = re.split(r"(?<!\\) \| ", line[2:], maxsplit=1)[0]
            names += [name.replace("\\|", "|") for name in re.findall(r"`([^`]+)`",
                                                                        first_column)]
    return names


def test_every_environment_variable_the_server_reads_is_in_the_operations_table():
    documented = documented_names()
    missing = []
    for path in sorted(SERVER.rglob("*.py")):
        if path.name.endswith("_bench.py"):
            continue
        for pattern, line in names_read(path).items():
            if not any(re.fullmatch(pattern, re.sub(r"<[^>]+>", "X", name))
                       or re.fullmatch(pattern, name) for name in documented):
                missing.append(f"{path.relative_to(ROOT)}:{line}: {pattern}")
    assert not missing, "not in docs/OPERATIONS.md's Configure table:\n" + "\n".join(missing)


def test_the_check_finds_what_settings_reads():
    read = names_read(SERVER / "settings.py")
    assert "DJANGO_SECRET_KEY" in read and "CONN_MAX_AGE" in read
    assert "FOURSQUARE_RATE_[A-Z_]+" in read
    assert "PROMETHEUS_MULTIPROC_DIR" in names_read(SERVER / "core" / "metrics.py")


def test_every_environment_variable_settings_reads_is_in_its_docstring():
    import server.settings

    listed = server.settings.__doc__ or ""
    missing = [pattern for pattern in names_read(SERVER / "settings.py")
               if not re.search(pattern.replace("[A-Z_]+", "<[A-Z]+>"), listed)]
    assert not missing, f"not in server/settings.py's docstring: {missing}"
