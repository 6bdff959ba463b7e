// Hash routes (#/boards/week?around=me), so every screen has a link and the server serves one
// page at "/".

export function parse(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, "");
  const [path, search = ""] = raw.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, query: new URLSearchParams(search), path: `/${parts.join("/")}` };
}

export function href(path, params) {
  const search = params ? `?${new URLSearchParams(params)}` : "";
  return `#${path}${search}`;
}

export function navigate(path, params) {
  const target = href(path, params);
  if (location.hash === target) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = target;
}

/** Replaces the current entry (no Back step), e.g. after a challenge link has started its game. */
export function redirect(path, params) {
  history.replaceState(null, "", href(path, params));
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}
