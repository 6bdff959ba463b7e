// Keeps a match's table live: a WebSocket to /ws/spite-malice/matches/<id> on this origin
// (the browser cannot set headers, so the token goes in the first message, never in the URL),
// with ?after=N so nothing between two connections is missed. A dropped socket says it is
// reconnecting and tries again with backoff; where a socket cannot be held, the events feed is
// polled instead (GET /matches/{id}/events?after=N). The feed is the truth either way: every
// event is handed on by number, and the table drops one it has already shown.

import { GIVE_UP, liveSocket, socketUrl } from "../lib/live-socket.js";
import * as smApi from "./api.js";

const BACKOFF = [1000, 2000, 4000, 8000, 15000, 30000];

/**
 * Follows match `id` from event `after`. onEvents(events, last) gets every new batch;
 * onPresence(seats) the connected flags; onState(state) "live" | "polling" | "reconnecting".
 * pollEvery() says how often to poll (ms) when there is no socket. Returns {stop, poke,
 * after(n)}: poke() polls at once, after(n) moves the mark after events shown elsewhere.
 */
export function follow(id, { after = 0, onEvents, onPresence = () => {}, onState = () => {}, pollEvery = () => 3000 } = {}) {
  let last = after;
  let stopped = false;
  let state = null;
  let pollTimer = null;
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

  async function poll() {
    if (stopped || polling) return;
    polling = true;
    try {
      const answer = await smApi.smEvents(id, last);
      deliver(answer.events, answer.last);
      if (state === "reconnecting" && socket.failures >= GIVE_UP - 1) setState("polling");
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

  const WebSocketClass = globalThis.WebSocket;
  const socket = liveSocket({
    url: () => socketUrl(`/ws/spite-malice/matches/${encodeURIComponent(id)}?after=${last}`),
    backoff: BACKOFF,
    WebSocketClass,
    onLive: () => { stopPolling(); setState("live"); },
    // A live socket that dropped says so ("reconnecting"); with none to be had here (yet),
    // "polling": either way the feed keeps the table current meanwhile.
    onDown: (value) => { setState(value); startPolling(); },
    onMessage: (data) => {
      if (data.type === "events") deliver(data.events, data.last);
      else if (data.type === "presence") onPresence(data.seats);
    },
  });
  if (!WebSocketClass) { setState("polling"); startPolling(); }

  return {
    stop() {
      stopped = true;
      stopPolling();
      socket.stop();
    },
    /** Asks the feed now (after an action, or when the bot is still thinking). */
    poke: () => poll(),
    /** The pace of polling may have changed (the turn passed): the next poll is timed anew. */
    repace: () => { if (pollTimer) schedule(); },
    after(number) { last = Math.max(last, number); },
    get state() { return state; },
  };
}
