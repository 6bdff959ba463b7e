"""axe-core, the accessibility checker, run on a screen a browser test shows: the npm package
(pinned in package.json and package-lock.json; `make test-e2e` runs `npm ci` when node_modules
is missing or older than the lock), injected by Playwright from node_modules/axe-core/axe.min.js.
A screen passes with no violation axe rates serious or critical."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
AXE = REPO_ROOT / "node_modules" / "axe-core" / "axe.min.js"
# What fails a screen: axe's two highest impacts (its others are minor and moderate).
FAILING = ("serious", "critical")
AXE_PATH = "/__tests__/axe-core/axe.min.js"


def axe_violations(page) -> list[dict]:
    """axe's serious and critical violations on the page as it is now, each with its rule, its
    help text and where (selectors of the first few elements)."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: run `make test-e2e` (it runs `npm ci`)")
    if not page.evaluate("typeof window.axe === 'object'"):
        # A script tag of the page's own origin, which Playwright answers with the package's
        # file: the page's Content-Security-Policy (script-src 'self') stays as it is served.
        page.route(f"**{AXE_PATH}", lambda route: route.fulfill(
            path=str(AXE), content_type="text/javascript"))
        page.add_script_tag(url=AXE_PATH)
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ["violations"]});
        return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            where: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + ": "
                + (n.failureSummary || "").split("\\n").slice(1, 2).join(""))}));
    }""")
    return [violation for violation in found if violation["impact"] in FAILING]


def assert_accessible(page, name: str) -> None:
    """No serious or critical violation on the page; the message names the screen."""
    violations = axe_violations(page)
    assert violations == [], f"{name}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {v['where']}" for v in violations)
