// An invitation to a friend match. #/spite-malice/invite/<match id> is the inviter's: the link
// to send (copied, or shared where the device has the Web Share API), and, until someone joins,
// a way to cancel it; it goes to the table once the friend has joined. #/spite-malice/join/<code>
// is what the link opens (through /spite-malice/join/<code>): the invitation as the server
// previews it (who invites, the clock, the length, whether it would be rated) and a Join button.
// Both say before anyone accepts whether the match will count on the ratings board, and why not.

import * as api from "../../api.js";
import * as smApi from "../api.js";
import { copyText, h, loading, replace } from "../../lib/dom.js";
import { problemView } from "../../lib/problems.js";
import { navigate, redirect } from "../../lib/router.js";
import { current, t } from "../../i18n.js";
import { form } from "../../components/form.js";
import { nameOffer, needsName, playerNameField, saveName } from "../../components/player-name.js";
import { toast } from "../../components/toast.js";
import { DECLINE_REASONS, opponent } from "./model.js";
import { declinePicker } from "./decline.js";
import { confirmFirst } from "./confirm.js";
import { ratedSentence } from "./rated.js";
import { clockName, lengthName } from "./words.js";

// How often the inviter's screen asks whether the friend has joined.
const POLL_MS = 2500;

const back = () => h("p", {}, h("a", { href: "#/spite-malice" }, t("sm.lobby.back")));
const settings = (match) => current().list([t("sm.invite.clock", { clock: clockName(match.turn_seconds) }), lengthName(match.target)]);
// The join screen is a card, as a league's invite link's is.
const card = (section) => { section.classList.add("today-intro"); return section; };
const page = (id, ...children) => h("section", { class: "page sm-lobby sm-invitation", "aria-labelledby": id }, children);
/** Whether the match will be rated, and if not why; nothing where the server does not say. */
function ratedLine(info, { id, open = false }) {
  const key = ratedSentence(info, { open });
  return key ? h("p", { class: "sm-rated", id, dataset: { rated: String(info.rated), reason: info.unrated_reason ?? "" } }, t(key)) : null;
}

async function invitePage(root, route, { signal }) {
  const id = route.parts[2];
  replace(root, loading());
  let match;
  try {
    match = await smApi.smMatch(id);
  } catch (error) {
    if (!signal.aborted) replace(root, page("", back(), problemView(error)));
    return;
  }
  if (signal.aborted) return;
  if (match.status !== "waiting") return settled(root, match);

  const { url, code, expires_at: expires } = match.invite ?? {};
  const invitee = opponent(match)?.name ?? null;
  const link = h("input", { id: "sm-invite-link", class: "sm-link", readonly: true, value: url ?? "", dir: "ltr", "aria-label": t("sm.invite.link") });
  link.addEventListener("focus", () => link.select());
  const copy = h("button", { type: "button", class: "button primary", id: "sm-invite-copy" }, t("sm.invite.copy"));
  copy.addEventListener("click", async () => toast((await copyText(url)) ? t("sm.invite.copied") : t("sm.invite.copy_failed")));
  const shareData = { title: t("sm.lobby.title"), text: t("sm.invite.share_text", { settings: settings(match) }), url };
  const share = navigator.share && (!navigator.canShare || navigator.canShare(shareData))
    ? h("button", { type: "button", class: "button", id: "sm-invite-share" }, t("sm.invite.share")) : null;
  share?.addEventListener("click", () => navigator.share(shareData).catch(() => null));
  const cancel = h("button", { type: "button", class: "button danger", id: "sm-invite-cancel" }, t("sm.invite.cancel"));
  const problems = h("div");
  confirmFirst(cancel, { question: t("sm.confirm.cancel_question"), yes: t("sm.confirm.yes_cancel") }, async () => {
    try {
      await smApi.smCancel(id);
    } catch (error) {
      replace(problems, problemView(error));
      return false;
    }
    toast(t("sm.invite.cancelled"));
    navigate("/spite-malice");
    return true;
  });

  replace(root, page("sm-invite-heading",
    back(),
    h("h1", { id: "sm-invite-heading" }, t("sm.invite.title")),
    h("p", { class: "lead" }, invitee ? t("sm.invite.text_invitee", { name: invitee }) : t("sm.invite.text")),
    h("p", { class: "sm-settings" }, settings(match)),
    // An open link's rating still depends on who joins; a league mate's is known now.
    ratedLine(match, { id: "sm-invite-rated", open: !match.invitee }),
    h("div", { class: "card-section field" },
      h("label", { for: "sm-invite-link" }, t("sm.invite.link")),
      link,
      h("div", { class: "actions" }, copy, share),
      h("p", { class: "subtle" }, t("sm.invite.code_line"), " ", h("code", { id: "sm-invite-code", dir: "ltr" }, code)),
      expires ? h("p", { class: "subtle" }, t("sm.invite.expires", { date: current().dateTime(expires) })) : null),
    h("p", { class: "sm-waiting", role: "status", id: "sm-invite-status" }, invitee ? t("sm.invite.waiting_for", { name: invitee }) : t("sm.invite.waiting")),
    h("div", { class: "actions" }, cancel),
    problems));

  // Until the friend joins (or the invitation is cancelled elsewhere, or expires).
  const timer = setInterval(async () => {
    try {
      const now = await smApi.smMatch(id);
      if (signal.aborted || now.status === "waiting") return;
      clearInterval(timer);
      if (now.status === "playing") toast(t("sm.invite.joined", { name: opponent(now)?.name ?? "" }));
      settled(root, now);
    } catch {
      // A lost answer: ask again at the next tick.
    }
  }, POLL_MS);
  signal.addEventListener("abort", () => clearInterval(timer));
}

/** A match that is no longer waiting: to its table, or why there is nothing to join. */
function settled(root, match) {
  if (match.status !== "cancelled") return redirect(`/spite-malice/match/${match.id}`);
  replace(root, page("sm-invite-heading", back(),
    h("h1", { id: "sm-invite-heading" }, t("sm.invite.title")),
    h("p", { class: "lead", id: "sm-invite-over" }, match.reason === "declined"
      ? t("sm.invite.was_declined", { name: opponent(match)?.name ?? "" })
      : t(match.reason === "expired" ? "sm.invite.expired" : "sm.invite.was_cancelled")),
    // Why, if the invitee said (POST /matches/{id}/decline).
    DECLINE_REASONS.includes(match.decline_reason) ? h("p", { id: "sm-invite-why" }, t(`sm.decline.${match.decline_reason}`)) : null,
    h("div", { class: "actions" }, h("a", { class: "button primary", href: "#/spite-malice/friend" }, t("sm.invite.new")))));
}

const JOIN_PROBLEMS = { not_found: "sm.join.unknown", invitation_not_found: "sm.join.unknown", match_full: "sm.join.full", own_match: "sm.join.own" };
// An invitation that was open to you and has closed: the 404's `reason` says how.
const CLOSED = { cancelled: "sm.join.cancelled", declined: "sm.join.was_declined", expired: "sm.join.expired" };

/** Why a join would be refused, as the join screen says it: null for a problem it does not
 *  know (a lost answer), which the Join button then meets again. */
const joinRefusal = (error) => (error.status === 404 && CLOSED[error.body?.reason])
  || (JOIN_PROBLEMS[error.code] ?? (error.status === 404 ? "sm.join.unknown" : null));

/** The invitation's terms, each named: who invites, the turn clock, the length, and whether
 *  it is rated (the sentence below says why not). */
function terms(about, from) {
  const term = (key, value, id) => value ? [h("dt", {}, t(key)), h("dd", { id }, value)] : null;
  const rated = typeof about.rated === "boolean" ? t(about.rated ? "sm.rated.tag_rated" : "sm.rated.tag_unrated") : null;
  return h("dl", { class: "sm-terms", id: "sm-join-terms" },
    term("sm.join.term_from", from, "sm-term-from"),
    term("sm.join.term_clock", about.turn_seconds ? t("sm.invite.clock", { clock: clockName(about.turn_seconds) }) : null, "sm-term-clock"),
    term("sm.join.term_length", lengthName(about.target), "sm-term-length"),
    term("sm.join.term_rating", rated, "sm-term-rating"));
}

/** The invitation before joining (GET /invitations/{code}), or {refused: key} where no join
 *  would succeed (no open invitation has the code); null where the server could not say. */
const previewOf = (code) => smApi.smInvitation(code).catch((error) => {
  const refused = joinRefusal(error);
  return refused ? { refused, code: error.code } : null;
});

async function joinPage(root, route, { signal }) {
  const code = (route.parts[2] ?? "").trim();
  replace(root, loading());
  // A league mate's invitation to you is in your list: then the screen can decline it, and
  // knows your own invitation.
  const [known, preview] = await Promise.all([
    api.hasToken() ? smApi.smMatches({ limit: 50 }).then(({ results }) =>
      results.find((match) => match.status === "waiting" && match.invite?.code?.toUpperCase() === code.toUpperCase()) ?? null, () => null) : null,
    previewOf(code),
  ]);
  if (signal.aborted) return;
  if (known && known.you === 0) return ownInvitation(root, known);
  if (preview?.refused) return refusedInvitation(root, code, preview);

  const problems = h("div", { id: "sm-join-problem" });
  // A guest (or a player still called "Player 7K3M9Q") is asked for the name the table shows.
  const askName = await needsName();
  if (signal.aborted) return;
  const joinForm = form({
    id: "sm-join-form",
    fields: askName ? playerNameField({ label: t("sm.join.your_name"), hint: t("sm.join.your_name_hint") }) : [],
    submit: t("sm.join.button"),
    action: async (values) => {
      replace(problems);
      try {
        await saveName(values);
      } catch (error) {
        if (error.code !== "name_taken") throw error;
        replace(problems, nameOffer(joinForm, error, {
          name: values.player_name.trim(), id: "sm-join-suggestion",
          taken: (name) => t("sm.join.name_taken", { name }), takeLabel: (name) => t("sm.join.use_name", { name }),
        }));
        problems.querySelector("button")?.focus();
        return;
      }
      try {
        const match = await smApi.smJoin(code);
        redirect(`/spite-malice/match/${match.id}`);
      } catch (error) {
        const key = joinRefusal(error);
        if (!key) throw error;
        replace(problems, joinProblem(error.code, key));
        join.hidden = true;
      }
    },
  });
  const join = joinForm.querySelector("button[type=submit]");
  join.id = "sm-join";
  join.classList.add("big");
  // A challenge to you is declined saying why (decline.js), as from the list.
  const picker = known ? declinePicker(known, { problems, done: () => { toast(t("sm.join.declined")); navigate("/spite-malice"); } }) : null;
  if (picker) picker.open.id = "sm-decline";
  const about = preview ?? known;
  const from = preview?.from?.name ?? (known ? opponent(known)?.name : null);
  const expires = preview?.expires_at ?? known?.invite?.expires_at;
  replace(root, card(page("sm-join-heading",
    h("h1", { id: "sm-join-heading" }, t("sm.join.title")),
    h("p", { class: "lead" }, from ? t("sm.join.from", { name: from }) : t("sm.join.text")),
    about ? terms(about, from) : null,
    // As the server would rate it if you joined now: your account and the pair's matches today.
    about ? ratedLine(about, { id: "sm-join-rated" }) : null,
    // The name and Join right after the terms (in a phone's first screen); the fine print after.
    joinForm,
    picker?.box ?? null,
    problems,
    h("p", { class: "subtle" }, t("sm.join.clock_note")),
    h("p", { class: "subtle" }, t("sm.invite.code_line"), " ", h("code", { dir: "ltr", id: "sm-join-code" }, code.toUpperCase())),
    expires ? h("p", { class: "subtle" }, t("sm.invite.expires", { date: current().dateTime(expires) })) : null)));
  joinForm.querySelector(".actions").append(picker?.open ?? "", h("a", { class: "button", href: "#/spite-malice/rules" }, t("sm.lobby.rules")));
}

const joinProblem = (code, key) =>
  h("div", { class: "problem", role: "alert", dataset: { code } }, h("p", { class: "problem-text" }, t(key)));

/** A code no join would succeed with (never made, cancelled, lapsed, taken): said before any
 *  name is asked for or Join offered. */
function refusedInvitation(root, code, { refused, code: problemCode }) {
  replace(root, card(page("sm-join-heading",
    h("h1", { id: "sm-join-heading" }, t("sm.join.title")),
    h("div", { id: "sm-join-problem" }, joinProblem(problemCode, refused)),
    h("p", { class: "subtle" }, t("sm.invite.code_line"), " ", h("code", { dir: "ltr", id: "sm-join-code" }, code.toUpperCase())),
    h("div", { class: "actions" },
      h("a", { class: "button primary", href: "#/spite-malice/friend" }, t("sm.invite.new")),
      h("a", { class: "button", href: "#/spite-malice" }, t("sm.lobby.back"))))));
}

function ownInvitation(root, match) {
  replace(root, page("sm-join-heading",
    h("h1", { id: "sm-join-heading" }, t("sm.join.title")),
    h("div", { class: "problem", role: "alert", dataset: { code: "own_match" } }, h("p", { class: "problem-text" }, t("sm.join.own"))),
    h("div", { class: "actions" }, h("a", { class: "button primary", href: `#/spite-malice/invite/${match.id}` }, t("sm.join.own_link")))));
}

export default function invitation(root, route, context) {
  return route.parts[1] === "join" ? joinPage(root, route, context) : invitePage(root, route, context);
}
