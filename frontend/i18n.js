// Every string the player reads is t(key) of a table: locales/ (the app's), joined by a game's
// own with loadStrings(). A key is the active language's, else shown as itself. Numbers,
// percentages and dates are formatted by Intl in the active language.

export const LANGUAGES = [
  { code: "en", name: "English", dir: "ltr" },
  { code: "ml", name: "മലയാളം", dir: "ltr" },
  { code: "ka", name: "ქართული", dir: "ltr" },
  { code: "fa", name: "فارسی", dir: "rtl" },
  { code: "bn", name: "বাংলা", dir: "ltr" },
];
export const DEFAULT_LANGUAGE = "en";

export function isSupported(code) {
  return LANGUAGES.some((language) => language.code === code);
}

/** The first supported language among the browser's preferences (e.g. "fa-IR" → "fa"). */
export function matchLanguage(preferences = []) {
  for (const preference of preferences) {
    const base = String(preference).toLowerCase().split(/[-_]/)[0];
    if (isSupported(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

export function direction(code) {
  return LANGUAGES.find((language) => language.code === code)?.dir ?? "ltr";
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** A translator over one table: t(key, params), plus Intl formatting in that language. */
export function createTranslator(lang, table, { dateData } = {}) {
  const numbers = new Intl.NumberFormat(lang);
  const percents = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
  const twoDigits = new Intl.NumberFormat(lang, { minimumIntegerDigits: 2, useGrouping: false });
  const plain = new Intl.NumberFormat(lang, { useGrouping: false });
  const plurals = new Intl.PluralRules(lang);

  function number(value) {
    return numbers.format(value);
  }

  function t(key, params = {}) {
    let message = table[key];
    if (message === undefined) {
      // A missing key is a bug the unit tests catch; show the key rather than nothing.
      return key;
    }
    if (typeof message === "object") {
      const count = params.n ?? params.count ?? 0;
      message = message[plurals.select(count)] ?? message.other;
    }
    return message.replace(PLACEHOLDER, (whole, name) => {
      if (!(name in params)) return whole;
      const value = params[name];
      return typeof value === "number" ? number(value) : String(value);
    });
  }

  // A browser without this language's calendar data (Georgian is often missing) formats dates
  // in its own default language: then the table's month names and pattern are used instead.
  const intlDates = dateData ?? hasDateData(lang);

  function date(isoDate, style = "long") {
    // A daily's date is a calendar date, not an instant: format it in UTC so no zone shifts it.
    const [year, month, day] = isoDate.split("-").map(Number);
    if (!intlDates && table["date.months"]) return tableDate({ year, month, day }, style);
    return new Intl.DateTimeFormat(lang, { dateStyle: style, timeZone: "UTC" })
      .format(new Date(Date.UTC(year, month - 1, day)));
  }

  function tableDate({ year, month, day }, style) {
    const names = table[style === "long" || style === "full" ? "date.months" : "date.months_short"] ?? table["date.months"];
    return t("date.pattern", { day, month: names.split("|")[month - 1], year: plain.format(year) });
  }

  function dateTime(iso) {
    const when = new Date(iso);
    if (!intlDates && table["date.months"]) {
      const local = `${when.getFullYear()}-${when.getMonth() + 1}-${when.getDate()}`;
      return `${date(local, "medium")} ${twoDigits.format(when.getHours())}:${twoDigits.format(when.getMinutes())}`;
    }
    return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(when);
  }

  /** Joins values ("4 · 5 · 7") with this language's separator: in Persian "·" reads as zero. */
  const separator = table["list.separator"] ?? " · ";
  function list(parts) {
    return parts.filter((part) => part !== null && part !== undefined && part !== "").join(separator);
  }

  return {
    lang,
    dir: direction(lang),
    t,
    has: (key) => key in table,
    number,
    percent: (fraction) => percents.format(fraction),
    twoDigits: (value) => twoDigits.format(value),
    date,
    dateTime,
    list,
    separator,
    intlDates,
  };
}

/** Whether Intl has calendar data for `lang`, rather than falling back to another language. */
export function hasDateData(lang, DateTimeFormat = Intl.DateTimeFormat) {
  try {
    return new DateTimeFormat(lang).resolvedOptions().locale.toLowerCase().split("-")[0] === lang;
  } catch {
    return false;
  }
}

// Spelled out, not a template: the static files are served under hashed names, and only a
// literal import() is rewritten to them (server/core/storage.py).
const TABLES = {
  en: () => import("./locales/en.js"),
  ml: () => import("./locales/ml.js"),
  ka: () => import("./locales/ka.js"),
  fa: () => import("./locales/fa.js"),
  bn: () => import("./locales/bn.js"),
};

// The app's table and the games' loaded since, in the active language (keys are unique).
let strings = {};
let added = new Set();
let active = createTranslator(DEFAULT_LANGUAGE, strings);
const listeners = new Set();

/**
 * What `lang`'s module in `modules` exports by default, or English's if `lang` has none.
 * `modules` maps a language code to a function importing that language's module: each caller
 * spells its own out, since only a literal import() is rewritten to the hashed file names.
 */
export async function moduleIn(modules, lang = current().lang) {
  return (await (modules[lang] ?? modules[DEFAULT_LANGUAGE])()).default;
}

/** Loads a language's table and makes it the active one (a game's is loaded again on use). */
export async function loadLanguage(code) {
  const lang = isSupported(code) ? code : DEFAULT_LANGUAGE;
  strings = { ...await moduleIn(TABLES, lang) };
  added = new Set();
  active = createTranslator(lang, strings);
  for (const listener of listeners) listener(active);
  return active;
}

/** Adds a game's table (`modules` as for moduleIn) in the active language to t()'s strings. */
export async function loadStrings(modules) {
  if (added.has(modules)) return;
  const { lang } = active;
  const table = await moduleIn(modules, lang);
  // Switched meanwhile: the screen, drawn again, asks again.
  if (active.lang !== lang || added.has(modules)) return;
  Object.assign(strings, table);
  added.add(modules);
}

export function onLanguageChange(listener) {
  listeners.add(listener);
}

export function current() {
  return active;
}

export function t(key, params) {
  return active.t(key, params);
}
