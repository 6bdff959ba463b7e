// Leagues: a few friends comparing their dailies. Create one and share its invite link, join
// from a link (#/join/<code>) or a code, see the league's boards; the owner renames it, makes a
// new code and removes members.

import * as api from "../api.js";
import { copyText, h, loading, replace } from "../lib/dom.js";
import { RULE_PARAMS, problemView } from "../lib/problems.js";
import { navigate, redirect } from "../lib/router.js";
import { current, t } from "../i18n.js";
import { localDate } from "../model/time.js";
import { PERIODS, boardSpan, gameSwitch, standingLine } from "./board-parts.js";
import { field, form } from "./form.js";
import { nameToAsk, playerNameField, saveName } from "./player-name.js";
import { leaderboardTable } from "./leaderboard-table.js";
import { toast } from "./toast.js";
import { botBadge } from "./bot-badge.js";

export const inviteLink = (code) => `${location.origin}/#/join/${encodeURIComponent(code)}`;

// Filled with the name the player has (a guest's given one too), so they see what the league
// will show and may keep it.
const nameField = (value) => playerNameField({ label: t("leagues.your_name"), hint: t("leagues.your_name_hint"), value });

export default async function leagues(root, route, context) {
  if (route.parts[0] === "join") return joinPage(root, route.parts[1] ?? "");
  if (route.parts[1]) return leaguePage(root, route, context);
  return listPage(root, context);
}

async function listPage(root, { signal }) {
  const list = h("div", {}, loading());
  const { ask: askName, name: currentName } = await nameToAsk();
  if (signal.aborted) return;
  replace(root, h("section", { class: "page", "aria-labelledby": "leagues-heading" },
    h("h1", { id: "leagues-heading" }, t("leagues.title")),
    h("p", { class: "lead" }, t("leagues.intro")),
    h("h2", {}, t("leagues.yours")), list,
    h("section", { class: "card-section", "aria-labelledby": "create-heading" },
      h("h2", { id: "create-heading" }, t("leagues.create_title")),
      form({
        id: "create-league",
        fields: [field(t("leagues.name"), h("input", { name: "name", required: true, minlength: "2", maxlength: "40" }),
          { hint: t("error.league_name_rule", RULE_PARAMS) }), askName ? nameField(currentName) : null],
        names: { name: "error.league_name_rule" },
        submit: t("leagues.create"),
        action: async (values) => {
          await saveName(values, { current: currentName });
          const league = await api.leagueCreate(values.name);
          toast(t("leagues.created"));
          navigate(`/leagues/${league.id}`);
        },
      })),
    h("section", { class: "card-section", "aria-labelledby": "join-heading" },
      h("h2", { id: "join-heading" }, t("leagues.join_title")),
      form({
        id: "join-league",
        fields: [field(t("leagues.code"), h("input", { name: "code", required: true, autocapitalize: "characters", spellcheck: "false", dir: "ltr", maxlength: "16" })),
          askName ? nameField(currentName) : null],
        submit: t("leagues.join"),
        action: async (values) => {
          await saveName(values, { current: currentName });
          const league = await api.leagueJoin(values.code.trim().toUpperCase());
          toast(t("leagues.joined", { name: league.name }));
          navigate(`/leagues/${league.id}`);
        },
      }))));
  if (!api.hasToken()) {
    replace(list, h("p", { class: "subtle" }, t("leagues.none")));
    return;
  }
  try {
    const mine = await api.leagues();
    if (signal.aborted) return;
    replace(list, mine.length
      ? h("ul", { class: "league-list" }, mine.map((league) => h("li", {},
        h("a", { href: `#/leagues/${league.id}`, dataset: { league: league.id } }, h("bdi", {}, league.name),
          h("span", { class: "subtle" }, `${current().separator}${t("leagues.members_count", { n: league.member_count })}`)))))
      : h("p", { class: "subtle" }, t("leagues.none")));
  } catch (error) {
    if (!signal.aborted) replace(list, problemView(error));
  }
}

async function joinPage(root, code) {
  const { ask: askName, name: currentName } = await nameToAsk();
  const joinForm = form({
    id: "join-link-form",
    fields: askName ? nameField(currentName) : [],
    submit: t("leagues.join"),
    action: async (values) => {
      await saveName(values, { current: currentName });
      const league = await api.leagueJoin(code);
      toast(t("leagues.joined", { name: league.name }));
      redirect(`/leagues/${league.id}`);
    },
  });
  const join = joinForm.querySelector("button[type=submit]");
  join.id = "join-league-button";
  join.classList.add("big");
  joinForm.querySelector(".actions").append(h("a", { class: "button", href: "#/leagues" }, t("leagues.back")));
  replace(root, h("section", { class: "page today-intro", "aria-labelledby": "join-heading" },
    h("h1", { id: "join-heading" }, t("leagues.join_link_title")),
    h("p", { class: "lead" }, t("leagues.join_link_text", { code })),
    joinForm));
}

async function leaguePage(root, route, { signal }) {
  const id = route.parts[1];
  const period = PERIODS.includes(route.query.get("period")) ? route.query.get("period") : "day";
  // The league's boards of either game (the API's `game`; Foursquare's when absent).
  const game = route.query.get("game") === "spite-malice" ? "spite-malice" : "foursquare";
  const gameQuery = game === "spite-malice" ? "game=spite-malice&" : "";
  replace(root, loading());
  let league;
  let me;
  try {
    [league, me] = await Promise.all([api.league(id), api.me()]);
  } catch (error) {
    if (!signal.aborted) replace(root, h("section", { class: "page" }, problemView(error), h("p", {}, h("a", { href: "#/leagues" }, t("leagues.back")))));
    return;
  }
  if (signal.aborted) return;
  const owner = league.owner?.id === me.id;
  const again = () => leaguePage(root, route, { signal });

  const boardSlot = h("div", {}, loading());
  const tabs = h("nav", { class: "segmented", "aria-label": t("boards.periods") }, PERIODS.map((name) =>
    h("a", { href: `#/leagues/${id}?${gameQuery}period=${name}`, "aria-current": name === period ? "page" : null, dataset: { period: name } }, t(`boards.${name}`))));
  const games = gameSwitch(game, { foursquare: `#/leagues/${id}?period=${period}`, spiteMalice: `#/leagues/${id}?game=spite-malice&period=${period}` });

  const copy = h("button", { type: "button", class: "button", id: "copy-invite" }, t("leagues.copy_link"));
  copy.addEventListener("click", async () => {
    const copied = await copyText(inviteLink(league.code));
    toast(copied ? t("leagues.link_copied") : t("result.copy_failed"));
  });
  const rotate = owner ? h("button", { type: "button", class: "button", id: "rotate-code" }, t("leagues.rotate")) : null;
  rotate?.addEventListener("click", async () => {
    try {
      await api.leagueRotateCode(id);
      toast(t("leagues.rotated"));
      again();
    } catch (error) {
      rotate.after(problemView(error));
    }
  });
  const leave = h("button", { type: "button", class: "button danger", id: "leave-league" }, t("leagues.leave"));
  leave.addEventListener("click", async () => {
    try {
      await api.leagueLeave(id);
      toast(t("leagues.left"));
      navigate("/leagues");
    } catch (error) {
      leave.after(problemView(error));
    }
  });

  const members = league.members.map(({ player, owner: isOwner }) => {
    const remove = owner && player.id !== me.id ? h("button", { type: "button", class: "button danger", dataset: { remove: player.id } }, t("leagues.remove")) : null;
    remove?.addEventListener("click", async () => {
      try {
        await api.leagueRemove(id, player.id);
        toast(t("leagues.removed", { name: player.name }));
        again();
      } catch (error) {
        remove.after(problemView(error));
      }
    });
    // A fellow member can be challenged straight to a Spite & Malice match (as their setting
    // allows: the server says no to one who takes no challenges).
    const invite = player.id !== me.id ? h("a", {
      class: "button", dataset: { invite: player.id },
      href: `#/spite-malice/friend?${new URLSearchParams({ invitee: player.id, name: player.name })}`,
    }, t("leagues.sm_invite")) : null;
    return h("li", { dataset: { player: player.id } }, h("span", {}, h("bdi", {}, player.name), botBadge(player),
      isOwner ? h("span", { class: "subtle" }, ` (${t("leagues.owner")})`) : null), h("span", {}, invite, remove ? " " : null, remove));
  });

  replace(root, h("section", { class: "page", "aria-labelledby": "league-heading" },
    h("p", {}, h("a", { href: "#/leagues" }, t("leagues.back"))),
    h("h1", { id: "league-heading" }, h("bdi", {}, league.name)),
    games, h("div", {}, tabs), boardSlot,
    h("section", { class: "card-section", "aria-labelledby": "invite-heading" },
      h("h2", { id: "invite-heading" }, t("leagues.invite")),
      h("p", {}, t("leagues.invite_text")),
      h("div", { class: "invite" }, h("code", { id: "league-code" }, league.code), copy, rotate)),
    h("section", { class: "card-section", "aria-labelledby": "members-heading" },
      h("h2", { id: "members-heading" }, t("leagues.members")),
      h("ul", { class: "members" }, members)),
    owner ? h("section", { class: "card-section", "aria-labelledby": "rename-heading" },
      h("h2", { id: "rename-heading" }, t("leagues.rename")),
      form({
        id: "rename-league",
        fields: field(t("leagues.name"), h("input", { name: "name", value: league.name, required: true, minlength: "2", maxlength: "40" })),
        submit: t("common.save"),
        action: async ({ name }) => {
          await api.leagueRename(id, name);
          toast(t("leagues.renamed"));
          again();
        },
      })) : null,
    h("div", { class: "actions" }, leave)));

  try {
    const board = await api.leagueBoard(id, { period, date: localDate(), game: game === "spite-malice" ? game : undefined });
    if (signal.aborted) return;
    replace(boardSlot,
      h("p", { class: "board-span" }, boardSpan(board)),
      standingLine(board.standing),
      leaderboardTable(board.entries, { me: board.me, period }));
  } catch (error) {
    if (!signal.aborted) replace(boardSlot, problemView(error));
  }
}
