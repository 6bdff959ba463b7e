// Keeps a match's table live: a WebSocket to /ws/spite-malice/matches/<id> on this origin
// (the browser cannot set headers, so the token goes in the first message, never in the URL),
// with ?after=N so nothing between two connections is missed. A dropped socket says it is
// reconnecting and tries again with backoff; where a socket cannot be held, the events feed is
// polled instead (GET /matches/{id}/events?after=N). The feed is the truth either way: every
// event is handed on by number, and the table drops one it has already shown.

import * as api from "../api.js";
import * as smApi from "./api.js";

const BACKOFF = [1000, 2000, 4000, 8000, 15000, 30000];
// After this many sockets in a row that never opened, the feed is polled and the socket is
// tried again only now and then.
const GIVE_UP = 3;
const RETRY_SOCKET = 60000;

/**
 * Follows match `id` from event `after`. onEvents(events, last) gets every new batch;
 * onPresence(seats) the connected flags; onState(state) "live" | "polling" | "reconnecting".
 * pollEvery() says how often to poll (ms) when there is no socket. Returns {stop, poke,
 * after(n)}: poke() polls at once, after(n) moves the mark after events shown elsewhere.
 */
export function follow(id, { after = 0, onEvents, onPresence = () => {}, onState = () => {}, pollEvery = () => 3000 } = {}) {
  let last = after;
  let socket = null;
  let stopped = false;
  let failures = 0; // sockets in a row that never became ready
  let everReady = false;
  let state = null;
  let pollTimer = null;
  let socketTimer = null;
  let polling = false;

  const setState = (value) => {
    if (value === state) return;
    state = value;
    onState(value);
  };

  function deliver(events, upTo) {
    const fresh = (events ?? []).filter((event) => event.number > last);
    if (fresh.length) onEvents(fresh, upTo);
    last = Math.max(last, upTo ?? 0, ...fresh.map((event) => event.number));
  }

  function url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/spite-malice/matches/${encodeURIComponent(id)}?after=${last}`;
  }

  function openSocket() {
    if (stopped || typeof WebSocket === "undefined") return;
    let ready = false;
    try {
      socket = new WebSocket(url());
    } catch {
      socket = null;
      lost(false);
      return;
    }
    const current = socket;
    current.addEventListener("open", () => {
      current.send(JSON.stringify({ type: "auth", token: api.token() }));
    });
    current.addEventListener("message", (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data.type === "ready") {
        ready = true;
        everReady = true;
        failures = 0;
        stopPolling();
        setState("live");
      } else if (data.type === "events") deliver(data.events, data.last);
      else if (data.type === "presence") onPresence(data.seats);
    });
    current.addEventListener("close", () => {
      if (socket === current) socket = null;
      if (!stopped) lost(ready);
    });
  }

  function lost(wasReady) {
    if (!wasReady) failures += 1;
    if (everReady && failures < GIVE_UP) {
      // A socket that was live dropped: say so, keep the table current from the feed, retry.
      setState("reconnecting");
      startPolling();
      socketTimer = setTimeout(openSocket, BACKOFF[Math.min(failures, BACKOFF.length - 1)]);
    } else {
      // No socket to be had here (yet): the feed alone keeps the table current.
      setState("polling");
      startPolling();
      socketTimer = setTimeout(() => { failures = Math.min(failures, GIVE_UP - 1); openSocket(); },
        failures >= GIVE_UP ? RETRY_SOCKET : BACKOFF[Math.min(failures, BACKOFF.length - 1)]);
    }
  }

  async function poll() {
    if (stopped || polling) return;
    polling = true;
    try {
      const answer = await smApi.smEvents(id, last);
      deliver(answer.events, answer.last);
      if (state === "reconnecting" && failures >= GIVE_UP - 1) setState("polling");
    } catch {
      // The network is down too: the next poll or the socket will catch up.
    } finally {
      polling = false;
    }
  }

  function schedule() {
    clearTimeout(pollTimer);
    if (stopped || state === "live") return;
    pollTimer = setTimeout(async () => { await poll(); schedule(); }, pollEvery());
  }

  function startPolling() {
    if (!pollTimer) poll();
    schedule();
  }

  function stopPolling() {
    clearTimeout(pollTimer);
    pollTimer = null;
  }

  openSocket();
  if (typeof WebSocket === "undefined") { setState("polling"); startPolling(); }

  return {
    stop() {
      stopped = true;
      stopPolling();
      clearTimeout(socketTimer);
      socket?.close();
    },
    /** Asks the feed now (after an action, or when the bot is still thinking). */
    poke: () => poll(),
    /** The pace of polling may have changed (the turn passed): the next poll is timed anew. */
    repace: () => { if (pollTimer) schedule(); },
    after(number) { last = Math.max(last, number); },
    get state() { return state; },
  };
}
