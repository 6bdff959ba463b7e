// Styles that come with a screen rather than with the page: a <link rel="stylesheet"> added the
// first time a screen asks for them (the Content-Security-Policy allows this origin's sheets).

const sheets = new Map();

/** Adds the stylesheet at `url` to the page, once however often it is asked for, and resolves
 *  when it applies (or failed to load), so a screen is not drawn unstyled first. `url` is the
 *  caller's own, e.g. new URL("./table.css", import.meta.url): the sheet beside its module. */
export function loadStylesheet(url) {
  const href = String(url);
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve) => {
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    }));
  }
  return sheets.get(href);
}
