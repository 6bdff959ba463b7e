// Spite & Malice's lobby, #/spite-malice/...: the match list (the lobby's home), a match against
// the computer, an invitation to a friend and its join screen, the rules and the tutorial. The
// match's table (#/spite-malice/match/<id>) is a screen of its own.

import { h, replace } from "../../lib/dom.js";
import { t } from "../../i18n.js";
import { loadLobbyStrings, lobbyStyles } from "./strings.js";

// Literal import()s, each loaded when its screen is first shown.
const SCREENS = {
  "": () => import("./list.js"),
  daily: () => import("./daily.js"),
  play: () => import("./new-match.js"),
  friend: () => import("./new-match.js"),
  invite: () => import("./invitation.js"),
  join: () => import("./invitation.js"),
  rules: () => import("./rules.js"),
  tutorial: () => import("./tutorial.js"),
};

export default async function lobby(root, route, context) {
  const screen = SCREENS[route.parts[1] ?? ""];
  if (!screen) {
    replace(root, h("section", { class: "page" }, h("h1", {}, t("notfound.title")),
      h("p", {}, h("a", { href: "#/spite-malice" }, t("smhome.matches")))));
    return;
  }
  const [module] = await Promise.all([screen(), loadLobbyStrings(), lobbyStyles()]);
  if (context.signal.aborted) return;
  await module.default(root, route, context);
}
