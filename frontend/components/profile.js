// Your profile: display name, who may challenge you to a match, claiming the guest account with
// a username and password, signing in on this device, signing out.

import * as api from "../api.js";
import { h, loading, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { write } from "../prefs.js";
import { RULE_PARAMS } from "../lib/problems.js";
import { t } from "../i18n.js";
import { field, form } from "./form.js";
import { toast } from "./toast.js";

export default async function profile(root, route, { signal }) {
  replace(root, loading());
  let me = null;
  if (api.hasToken()) {
    try {
      me = await api.me();
    } catch (error) {
      if (error.status !== 401) {
        if (!signal.aborted) replace(root, h("section", { class: "page" }, problemView(error)));
        return;
      }
    }
  }
  if (signal.aborted) return;
  const again = () => profile(root, route, { signal });

  const heading = h("h1", { id: "profile-heading" }, me ? t("profile.title_named", { name: me.name }) : t("profile.title"));
  const sections = [];
  if (me) {
    sections.push(h("section", { class: "card-section", "aria-labelledby": "name-heading" },
      h("h2", { id: "name-heading" }, t("profile.name_title")),
      form({
        id: "name-form",
        fields: field(t("profile.name"), h("input", { name: "name", value: me.name, maxlength: "24", minlength: "2", autocomplete: "nickname", required: true }),
          { hint: t("error.name_rule", RULE_PARAMS) }),
        submit: t("common.save"),
        action: async ({ name }) => {
          me = await api.rename(name);
          // The server may store the name tidied (spaces, width): show what it kept.
          heading.textContent = t("profile.title_named", { name: me.name });
          document.querySelector("#name-form input[name=name]").value = me.name;
          toast(t("profile.saved"));
        },
      })));
    const challenges = me.challenges ?? "league_mates";
    sections.push(h("section", { class: "card-section", "aria-labelledby": "challenges-heading" },
      h("h2", { id: "challenges-heading" }, t("profile.challenges_title")),
      form({
        id: "challenges-form",
        fields: field(t("profile.challenges"), h("select", { name: "challenges" },
          ["anyone", "league_mates", "nobody"].map((value) => h("option", { value, selected: value === challenges }, t(`profile.challenges_${value}`)))),
        { hint: t("profile.challenges_hint") }),
        submit: t("common.save"),
        action: async (values) => {
          me = await api.setChallenges(values.challenges);
          toast(t("profile.challenges_saved"));
        },
      })));
    if (me.guest) {
      sections.push(h("section", { class: "card-section", "aria-labelledby": "claim-heading" },
        h("h2", { id: "claim-heading" }, t("profile.claim_title")),
        h("p", {}, t("profile.claim_text")),
        form({
          id: "claim-form",
          fields: credentialFields("new-password", { rules: true }),
          submit: t("profile.claim"),
          action: async ({ username, password }) => {
            await api.claim(username, password);
            toast(t("profile.claimed", { username }));
            again();
          },
        })));
    } else {
      sections.push(h("section", { class: "card-section" },
        h("p", { id: "signed-in" }, t("profile.signed_in_as", { username: me.username }))));
    }
  } else {
    sections.push(h("p", { class: "lead" }, t("profile.no_account")));
  }

  const signIn = [
    h("p", {}, me?.guest ? t("profile.signin_replaces") : t("profile.signin_text")),
    form({
      id: "signin-form",
      fields: credentialFields("current-password"),
      submit: t("profile.signin"),
      action: async ({ username, password }) => {
        const session = await api.signIn(username, password);
        write("practice", null);
        toast(t("profile.welcome_back", { name: session.name }));
        again();
      },
    })];
  // A guest sees the form that keeps this account first; signing in to another one is a step
  // aside, folded away so the two username-and-password forms are not side by side.
  sections.push(me?.guest
    ? h("details", { class: "card-section signin-other", id: "signin-section" },
      h("summary", { id: "signin-heading" }, t("profile.signin_title")), signIn)
    : h("section", { class: "card-section", "aria-labelledby": "signin-heading", id: "signin-section" },
      h("h2", { id: "signin-heading" }, t("profile.signin_title")), signIn));

  if (me) {
    const confirm = h("p", { class: "warning", hidden: true }, t("profile.signout_guest_warning"));
    const signOut = h("button", { type: "button", class: "button danger", id: "sign-out" }, t("profile.signout"));
    signOut.addEventListener("click", async () => {
      if (me.guest && confirm.hidden) {
        confirm.hidden = false;
        signOut.textContent = t("profile.signout_confirm");
        return;
      }
      await api.signOut();
      write("practice", null);
      toast(t("profile.signed_out"));
      again();
    });
    sections.push(h("section", { class: "card-section", "aria-labelledby": "signout-heading" },
      h("h2", { id: "signout-heading" }, t("profile.signout_title")), confirm, h("div", { class: "actions" }, signOut)));
  }

  replace(root, h("div", { class: "page" },
    heading,
    me ? h("p", { class: "subtle" }, me.guest ? t("profile.guest") : t("profile.claimed_note")) : null,
    sections));
  if (me) spiteMalice(root.querySelector(".page"), signal);
}

/** Spite & Malice's rating and record, as the stats page shows them (loaded on its own). */
async function spiteMalice(page, signal) {
  const [data, { spiteMaliceStats }] = await Promise.all([api.stats().catch(() => null), import("../spitemalice/lobby/stats.js")]);
  if (!data?.spite_malice || signal.aborted) return;
  const section = await spiteMaliceStats(data.spite_malice);
  if (!signal.aborted) page.querySelector("#signin-section")?.before(section);
}

/** Username and password inputs; `passwordAutocomplete` tells password managers which kind. */
function credentialFields(passwordAutocomplete, { rules = false } = {}) {
  return [
    field(t("profile.username"), h("input", { name: "username", autocomplete: "username", required: true, autocapitalize: "none", spellcheck: "false", dir: "ltr" }),
      { hint: rules ? t("error.username_rule", RULE_PARAMS) : null }),
    field(t("profile.password"), h("input", { name: "password", type: "password", autocomplete: passwordAutocomplete, required: true, dir: "ltr" }),
      { hint: rules ? t("error.password_rule", RULE_PARAMS) : null }),
  ];
}
