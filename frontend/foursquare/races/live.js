// Keeps a race's screen current: a WebSocket to /ws/races/<id> on this origin (the browser
// cannot set headers, so the token goes in the first message, never in the URL). It hands on
// the whole race (`ready`, `race`) and each racer's progress (`progress`). A dropped socket is
// tried again with backoff; while there is none, the race is read (GET /races/{id}) every few
// seconds instead, which holds every racer's progress, so nothing is missed either way.

import * as api from "../../api.js";
import * as raceApi from "./api.js";

const BACKOFF = [1000, 2000, 4000, 8000, 15000];
// After this many sockets in a row that never became ready, the race is read instead and a
// socket tried again only now and then.
const GIVE_UP = 3;
const RETRY_SOCKET = 60000;
const POLL_MS = 2000;

/**
 * Follows race `id`. onRace(race) gets the whole race (the socket's `ready` and `race`, or a
 * poll); onProgress({player, progress, board}) one racer's move; onState(state) "live",
 * "polling" or "reconnecting". Returns {stop, refresh}: refresh() reads the race now.
 */
export function followRace(id, { onRace, onProgress = () => {}, onState = () => {}, pollMs = POLL_MS, WebSocketClass = globalThis.WebSocket } = {}) {
  let socket = null;
  let stopped = false;
  let failures = 0;
  let everReady = false;
  let state = null;
  let pollTimer = null;
  let socketTimer = null;
  let reading = false;

  const setState = (value) => {
    if (value === state) return;
    state = value;
    onState(value);
  };

  function url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/races/${encodeURIComponent(id)}`;
  }

  function openSocket() {
    if (stopped || !WebSocketClass) return;
    let ready = false;
    let opened;
    try {
      opened = new WebSocketClass(url());
    } catch {
      lost(false);
      return;
    }
    socket = opened;
    opened.addEventListener("open", () => opened.send(JSON.stringify({ type: "auth", token: api.token() })));
    opened.addEventListener("message", (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data.type === "ready" || data.type === "race") {
        if (data.type === "ready") {
          ready = true;
          everReady = true;
          failures = 0;
          stopPolling();
          setState("live");
        }
        if (data.race) onRace(data.race);
      } else if (data.type === "progress") onProgress(data);
    });
    opened.addEventListener("close", () => {
      if (socket === opened) socket = null;
      if (!stopped) lost(ready);
    });
  }

  function lost(wasReady) {
    if (!wasReady) failures += 1;
    const retry = failures >= GIVE_UP ? RETRY_SOCKET : BACKOFF[Math.min(failures, BACKOFF.length - 1)];
    setState(everReady && failures < GIVE_UP ? "reconnecting" : "polling");
    startPolling();
    clearTimeout(socketTimer);
    socketTimer = setTimeout(() => { failures = Math.min(failures, GIVE_UP - 1); openSocket(); }, retry);
  }

  async function read() {
    if (stopped || reading) return;
    reading = true;
    try {
      const race = await raceApi.race(id);
      if (!stopped) onRace(race);
    } catch {
      // Lost on the network too: the next read or the socket catches up.
    } finally {
      reading = false;
    }
  }

  function startPolling() {
    if (pollTimer) return;
    read();
    pollTimer = setInterval(() => { if (state !== "live") read(); }, pollMs);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  if (WebSocketClass) openSocket();
  else { setState("polling"); startPolling(); }

  return {
    stop() {
      stopped = true;
      stopPolling();
      clearTimeout(socketTimer);
      socket?.close();
    },
    refresh: () => read(),
    get state() { return state; },
  };
}
