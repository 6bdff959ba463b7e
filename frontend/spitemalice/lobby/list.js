// The lobby's home, #/spite-malice: the ways to start a match and your matches, what waits for
// you first (invitations to you, your turns, soonest deadline first), each with whose turn it is
// and the turn's time left, ticking; a challenge to you is accepted or declined with a reason,
// your invitations and seeks can be cancelled and a finished friend match offers a rematch.
// Below them, the open seeks of others (./seeks.js).

import * as api from "../../api.js";
import * as smApi from "../api.js";
import { h, loading, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { navigate } from "../../lib/router.js";
import { current, t } from "../../i18n.js";
import { toast } from "../../components/toast.js";
import { field, form } from "../../components/form.js";
import { botBadge } from "../../components/bot-badge.js";
import { DECLINE_REASONS, abortedLine, canRematch, clockParts, invitationCode, isActive, matchState, opponent, scores, sortMatches } from "./model.js";
import { confirmFirst } from "./confirm.js";
import { declinePicker } from "./decline.js";
import { ratedTag } from "./rated.js";
import { matchHref } from "./turns.js";
import { clockName, lengthName, levelName } from "./words.js";
import { seeksSection } from "./seeks.js";

const PAGE = 50;
// What a finished match says of the rematch offered after it, by its rematch_status: while it
// waits, and once its invitee said no; one being played or over is in the list itself.
const REMATCH_LINES = { waiting: "sm.list.rematch_offered", declined: "sm.list.rematch_declined" };

/** "2:05:09 left", or "1 d 04:10:00 left": a turn's clock as it runs down. */
export function timeLeft(deadline, now = Date.now()) {
  const { days, hours, minutes, seconds } = clockParts((Date.parse(deadline) - now) / 1000);
  const { number, twoDigits } = current();
  const clock = `${number(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}`;
  if (days + hours + minutes + seconds === 0) return t("sm.list.time_up");
  return t("sm.list.left", { time: days ? t("sm.list.days_clock", { n: days, clock }) : clock });
}

function who(match) {
  const other = opponent(match);
  if (other?.bot) return t("sm.list.computer", { level: levelName(other.bot).toLocaleLowerCase(current().lang) });
  return other?.name ?? null;
}

function stateLine(match, state) {
  const name = who(match);
  switch (state) {
    case "their_turn": return opponent(match)?.bot ? t("sm.list.computer_turn") : t("sm.list.their_turn", { name });
    case "waiting":
      if (match.seek) return t("sm.list.seeking");
      return name ? t("sm.list.waiting_for", { name }) : t("sm.list.waiting");
    case "invited": return t("sm.list.invited", { name });
    case "cancelled":
      if (match.reason === "declined") {
        if (match.you === 1) return t("sm.list.you_declined");
        return match.decline_reason && DECLINE_REASONS.includes(match.decline_reason)
          ? t("sm.list.declined_why", { name, reason: t(`sm.decline.${match.decline_reason}`) })
          : t("sm.list.declined", { name });
      }
      return t(match.reason === "expired" ? "sm.list.expired" : "sm.list.cancelled");
    case "aborted": return t(abortedLine(match));
    case "won": case "lost": return ["timeout", "resigned"].includes(match.reason) ? t(`sm.list.${state}_${match.reason}`, { name }) : t(`sm.list.${state}`);
    default: return t(`sm.list.${state}`);
  }
}

function detailLine(match) {
  const name = who(match);
  const [mine, theirs] = scores(match);
  const rated = ratedTag(match);
  return current().list([
    match.mode === "daily" && match.date ? t("sm.list.daily", { date: current().date(match.date, "medium") }) : null,
    name && match.mode !== "daily" ? t("sm.list.against", { name }) : null,
    match.turn_seconds ? t("sm.invite.clock", { clock: clockName(match.turn_seconds) }) : null,
    match.mode === "daily" ? null : lengthName(match.target),
    rated ? t(rated) : null,
    ["waiting", "aborted"].includes(match.status) || match.target === 1 ? null : t("sm.list.score", { mine, theirs }),
  ]);
}

/** What a finished match says of its rematch: offered, or declined (with the reason the
 *  invitee gave, read from the rematch itself where it is in the list too). */
function rematchLine(match, rematch) {
  const reason = match.rematch_status === "declined" && DECLINE_REASONS.includes(rematch?.decline_reason) ? rematch.decline_reason : null;
  const text = reason ? t("sm.list.rematch_declined_why", { reason: t(`sm.decline.${reason}`) }) : t(REMATCH_LINES[match.rematch_status]);
  return h("span", { class: "subtle", dataset: { rematch: match.rematch_status } }, text);
}

function matchItem(match, { again, rematch = null }) {
  const state = matchState(match);
  const problems = h("div");
  const act = (label, id, run, className = "button") => {
    const button = h("button", { type: "button", class: className, dataset: { action: id } }, label);
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await run();
      } catch (error) {
        button.disabled = false;
        replace(problems, problemView(error));
      }
    });
    return button;
  };
  const actions = [];
  let declineBox = null;
  if (state === "waiting") {
    // A seek has no link to send: it is listed for everyone until someone takes it.
    if (!match.seek) actions.push(h("a", { class: "button", href: `#/spite-malice/invite/${match.id}`, dataset: { action: "invitation" } }, t("sm.list.invitation")));
    const cancel = h("button", { type: "button", class: "button danger", dataset: { action: "cancel" } }, t(match.seek ? "sm.seek.withdraw" : "sm.invite.cancel"));
    confirmFirst(cancel, { question: t(match.seek ? "sm.seek.withdraw_question" : "sm.confirm.cancel_question"), yes: t("sm.confirm.yes_cancel") }, async () => {
      try {
        await (match.seek ? smApi.smSeekWithdraw(match.id) : smApi.smCancel(match.id));
      } catch (error) {
        replace(problems, problemView(error));
        return false;
      }
      toast(t(match.seek ? "sm.seek.withdrawn" : "sm.invite.cancelled"));
      again();
      return true;
    });
    actions.push(cancel);
  } else if (state === "invited") {
    actions.push(act(t("sm.list.accept"), "accept", async () => {
      const accepted = await smApi.smAccept(match.id);
      navigate(matchHref(accepted).slice(1));
    }, "button primary"));
    const picker = declinePicker(match, { problems, done: () => { toast(t("sm.join.declined")); again(); } });
    actions.push(picker.open);
    declineBox = picker.box;
  } else if (state !== "cancelled") {
    actions.push(h("a", { class: ["button", state === "your_turn" ? "primary" : null], href: matchHref(match), dataset: { action: "open" } },
      t(state === "your_turn" ? "sm.list.play" : "sm.list.open")));
  }
  if (match.mode === "bot" && match.status === "playing") {
    // A match against the computer left aside need not stay "Your turn" for ever.
    const abandon = h("button", { type: "button", class: "button danger", dataset: { action: "abandon" } }, t("sm.list.abandon"));
    confirmFirst(abandon, { question: t("sm.confirm.abandon_question"), yes: t("sm.confirm.yes_abandon") }, async () => {
      try {
        await smApi.smResign(match.id);
      } catch (error) {
        replace(problems, problemView(error));
        return false;
      }
      toast(t("sm.list.abandoned"));
      again();
      return true;
    });
    actions.push(abandon);
  }
  if (canRematch(match)) {
    actions.push(act(t("sm.list.rematch"), "rematch", async () => {
      const rematch = await smApi.smRematch(match.id);
      navigate(`/spite-malice/invite/${rematch.id}`);
    }));
  } else if (REMATCH_LINES[match.rematch_status]) {
    actions.push(rematchLine(match, rematch));
  }
  return h("li", { class: ["sm-match", `sm-state-${state}`], dataset: { match: match.id, state } },
    h("p", { class: "sm-match-state" }, h("span", {}, h("strong", {}, stateLine(match, state)), opponent(match)?.botAccount ? botBadge({ bot: true }) : null),
      match.deadline && isActive(match) ? h("time", { class: "sm-due", datetime: match.deadline, dataset: { deadline: match.deadline } }, timeLeft(match.deadline)) : null),
    h("p", { class: "sm-match-detail subtle" }, detailLine(match)),
    h("div", { class: "actions" }, actions),
    declineBox,
    problems);
}

/** A friend's invitation reached by its code (or its link pasted), as races' list has. */
function codeSection() {
  const codeForm = form({
    id: "sm-code-form",
    fields: [field(t("sm.lobby.code"), h("input", {
      name: "code", required: true, autocapitalize: "characters", spellcheck: "false", dir: "ltr", maxlength: "200", autocomplete: "off",
    }), { hint: t("sm.lobby.code_hint") })],
    submit: t("sm.lobby.code_join"),
    action: async ({ code }) => navigate(`/spite-malice/join/${encodeURIComponent(invitationCode(code))}`),
  });
  codeForm.querySelector("button[type=submit]").id = "sm-code-join";
  return h("section", { class: "card-section sm-code", "aria-labelledby": "sm-code-heading" },
    h("h2", { id: "sm-code-heading" }, t("sm.lobby.code_title")), codeForm);
}

export default async function list(root, route, { signal }) {
  const body = h("div", { id: "sm-list" }, loading());
  replace(root, h("section", { class: "page sm-lobby", "aria-labelledby": "sm-lobby-heading" },
    h("h1", { id: "sm-lobby-heading" }, t("sm.lobby.title")),
    h("p", { class: "lead" }, t("sm.lobby.intro")),
    h("div", { class: "actions" },
      h("a", { class: "button primary", href: "#/spite-malice/play", id: "sm-new-bot" }, t("sm.bot.title")),
      h("a", { class: "button", href: "#/spite-malice/friend", id: "sm-new-friend" }, t("sm.friend.title")),
      h("a", { href: "#/spite-malice/rules" }, t("sm.lobby.rules")),
      h("a", { href: "#/spite-malice/tutorial" }, t("sm.lobby.tutorial"))),
    codeSection(),
    h("h2", {}, t("sm.lobby.yours")),
    body));
  if (!api.hasToken()) {
    replace(body, h("p", { class: "subtle" }, t("sm.lobby.none")));
    return;
  }
  const again = () => list(root, route, { signal });
  body.after(seeksSection({ again, signal }));
  let page;
  try {
    page = await smApi.smMatches({ limit: PAGE });
  } catch (error) {
    if (!signal.aborted) replace(body, problemView(error));
    return;
  }
  if (signal.aborted) return;
  const matches = sortMatches(page.results);
  if (!matches.length) {
    replace(body, h("p", { class: "subtle" }, t("sm.lobby.none")));
    return;
  }
  const byId = new Map(matches.map((match) => [match.id, match]));
  const item = (match) => matchItem(match, { again, rematch: match.rematch ? byId.get(match.rematch) : null });
  const going = matches.filter(isActive);
  const done = matches.filter((match) => !isActive(match));
  replace(body,
    going.length ? h("ul", { class: "sm-matches", id: "sm-active" }, going.map(item)) : h("p", { class: "subtle" }, t("sm.lobby.none_active")),
    done.length ? [h("h2", {}, t("sm.lobby.finished")), h("ul", { class: "sm-matches", id: "sm-finished" }, done.map(item))] : null);

  // Every clock on the page ticks together; one that runs out reloads the list (the server
  // decides what the timeout did).
  const timer = setInterval(() => {
    for (const element of body.querySelectorAll(".sm-due")) {
      element.textContent = timeLeft(element.dataset.deadline);
      if (Date.parse(element.dataset.deadline) <= Date.now() - 3000 && !element.dataset.reloaded) {
        element.dataset.reloaded = "1";
        clearInterval(timer);
        again();
        return;
      }
    }
  }, 1000);
  signal.addEventListener("abort", () => clearInterval(timer));
}
