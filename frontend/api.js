// The only module that talks to the server. It keeps the player's token (the API takes a Bearer
// token and no cookies), creates a guest player the first time one is needed, and turns
// RFC 9457 problem+json answers into ApiError with the server's `code` and `detail`.

import { read, write } from "./prefs.js";

const BASE = "/api/v1";

export class ApiError extends Error {
  constructor({ status = 0, code = "network", title = "", detail = "", body = null } = {}) {
    super(detail || title || code);
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.body = body;
  }
}

export function token() {
  return read("token");
}

export function hasToken() {
  return Boolean(token());
}

function setToken(value) {
  write("token", value);
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function send(method, path, { body, bearer, key = null } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (key) headers["Idempotency-Key"] = key;
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
  } catch (error) {
    throw new ApiError({ code: "network", detail: String(error?.message ?? error) });
  }
  if (response.status === 204) return null;
  const type = response.headers.get("Content-Type") ?? "";
  const data = type.includes("json") ? await response.json().catch(() => null) : null;
  if (!response.ok || type.includes("application/problem+json")) {
    throw new ApiError({
      status: response.status,
      code: data?.code ?? `http_${response.status}`,
      title: data?.title ?? response.statusText,
      detail: data?.detail ?? "",
      body: data,
    });
  }
  return data;
}

async function sendWithRetry(method, path, options, retries) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send(method, path, options);
    } catch (error) {
      if (error.code !== "network" || attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 400 * (attempt + 1)));
    }
  }
}

let guestPending = null;

/** The stored token, or a new guest's: whoever opens the page can play at once. */
async function ensureToken() {
  const existing = token();
  if (existing) return existing;
  guestPending ??= send("POST", "/players", { body: {} })
    .then((player) => {
      setToken(player.token);
      return player.token;
    })
    .finally(() => { guestPending = null; });
  return guestPending;
}

/**
 * auth: "required" signs in as a guest if needed; "optional" sends a token only if there is one
 * (public boards say where you stand); "none" sends nothing.
 */
export async function call(method, path, { auth = "required", idempotent = false, ...options } = {}) {
  const bearer = auth === "required" ? await ensureToken() : auth === "optional" ? token() : null;
  // One key for the request and its retries: if the first attempt reached the server and only
  // the answer was lost, the retry gets that answer instead of acting twice.
  const key = idempotent ? newKey() : null;
  try {
    return await sendWithRetry(method, path, { ...options, bearer, key }, idempotent || method === "GET" ? 2 : 0);
  } catch (error) {
    // A token revoked elsewhere (signed out on another device) is useless: start afresh once.
    if (error.status === 401 && bearer && error.code === "not_authenticated") {
      setToken(null);
      if (auth === "required") return send(method, path, { ...options, bearer: await ensureToken() });
      if (auth === "optional") return send(method, path, options);
    }
    throw error;
  }
}

/** `?a=1&b=2` of the params that are set, or "". */
export const query = (params) => {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== null && value !== "");
  return entries.length ? `?${new URLSearchParams(entries)}` : "";
};

// --- Players and sessions ----------------------------------------------------------------------

export const me = () => call("GET", "/players/me");
export const rename = (name) => call("PATCH", "/players/me", { body: { name } });
/** Who may challenge you directly: "anyone", "league_mates" or "nobody". */
export const setChallenges = (challenges) => call("PATCH", "/players/me", { body: { challenges } });
export const claim = (username, password) => call("POST", "/players/me/claim", { body: { username, password } });
export const player = (id) => call("GET", `/players/${encodeURIComponent(id)}`, { auth: "optional" });

export async function signIn(username, password) {
  const session = await send("POST", "/sessions", { body: { username, password } });
  setToken(session.token);
  return session;
}

export async function signOut() {
  const bearer = token();
  setToken(null);
  if (bearer) await send("DELETE", "/sessions/current", { bearer }).catch(() => null);
}

// --- Games -------------------------------------------------------------------------------------

export const startGame = ({ mode, date, deal }) => call("POST", "/games", { body: { mode, date, deal }, idempotent: true });
export const game = (id) => call("GET", `/games/${encodeURIComponent(id)}`);
export const games = (limit = 20) => call("GET", `/games${query({ limit })}`);
export const record = (id) => call("GET", `/games/${encodeURIComponent(id)}/record`);
export const play = (id, { row, col, move }) =>
  call("POST", `/games/${encodeURIComponent(id)}/moves`, { body: { row, col, move }, idempotent: true });
/** The bot's review of a finished game: {"status": "pending"} until it is ready. */
export const analysis = (id) => call("GET", `/games/${encodeURIComponent(id)}/analysis`);
/** What a challenge link's game is (deal, outcome, score, name): public, so no token. */
export const challengeResult = (gameId) => call("GET", `/challenges/${encodeURIComponent(gameId)}`, { auth: "none" });
/** The bot's suggestion in a practice game. */
export const hint = (id) => call("GET", `/games/${encodeURIComponent(id)}/hint`);

// --- Dailies, boards, stats --------------------------------------------------------------------

export const daily = (date) => call("GET", `/daily${query({ date })}`, { auth: "optional" });
export const stats = () => call("GET", "/players/me/stats");

/** A leaderboard: period "day" (a daily, by date), "week" (its ISO week) or "all". With a
 *  token the page says where you stand; around: true centres it on you. */
export function leaderboard({ period = "day", date, limit = 20, around = false } = {}) {
  const params = query({ limit, around: around ? "me" : undefined });
  if (period === "day") return call("GET", `/daily/${date}/leaderboard${params}`, { auth: "optional" });
  return call("GET", `/leaderboard${query({ period, date, limit, around: around ? "me" : undefined })}`, { auth: "optional" });
}

/** The page a board's `next` link points to. */
export function leaderboardNext(next) {
  const url = new URL(next, location.href);
  return call("GET", url.pathname.replace(/^\/api\/v1/, "") + url.search, { auth: "optional" });
}

// --- Leagues -----------------------------------------------------------------------------------

export const leagues = () => call("GET", "/leagues");
export const league = (id) => call("GET", `/leagues/${encodeURIComponent(id)}`);
export const leagueCreate = (name) => call("POST", "/leagues", { body: { name }, idempotent: true });
export const leagueJoin = (code) => call("POST", "/leagues/join", { body: { code } });
export const leagueLeave = (id) => call("POST", `/leagues/${encodeURIComponent(id)}/leave`);
export const leagueRename = (id, name) => call("PATCH", `/leagues/${encodeURIComponent(id)}`, { body: { name } });
export const leagueRotateCode = (id) => call("POST", `/leagues/${encodeURIComponent(id)}/code`);
export const leagueRemove = (id, playerId) =>
  call("DELETE", `/leagues/${encodeURIComponent(id)}/members/${encodeURIComponent(playerId)}`);
/** A league's board; `game` "spite-malice" for Spite & Malice's (the server's default is Foursquare). */
export const leagueBoard = (id, { period = "day", date, limit = 50, game } = {}) =>
  call("GET", `/leagues/${encodeURIComponent(id)}/leaderboard${query({ period, date, limit, game })}`);
