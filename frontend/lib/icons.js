// The app's own icons: small inline SVGs built element by element (no icon font, no emoji, which
// shows as an empty box where no emoji font is installed, and nothing the CSP would refuse).
// They draw in `currentColor`, are hidden from screen readers (the button around one carries
// the words), and the ones that point along the line mirror in right-to-left pages (app.css).

const SVG = "http://www.w3.org/2000/svg";

// 16 × 16 drawings: [element, attributes] pairs.
const DRAWINGS = {
  // Playing is a solid triangle, stepping a chevron (against a bar at the ends).
  first: [["rect", { x: 2.5, y: 3, width: 2, height: 10 }], ["path", { d: "M12.4 3.4L11 2 5 8l6 6 1.4-1.4L7.8 8z" }]],
  previous: [["path", { d: "M11.4 3.4L10 2 4 8l6 6 1.4-1.4L6.8 8z" }]],
  play: [["path", { d: "M3.5 2v12L14 8z" }]],
  pause: [["rect", { x: 3.5, y: 3, width: 3, height: 10 }], ["rect", { x: 9.5, y: 3, width: 3, height: 10 }]],
  next: [["path", { d: "M4.6 3.4L6 2l6 6-6 6-1.4-1.4L9.2 8z" }]],
  last: [["path", { d: "M3.6 3.4L5 2l6 6-6 6-1.4-1.4L8.2 8z" }], ["rect", { x: 11.5, y: 3, width: 2, height: 10 }]],
  bot: [["rect", { x: 2.5, y: 5, width: 11, height: 8.5, rx: 2 }], ["rect", { x: 7.25, y: 1.5, width: 1.5, height: 3.5 }],
    ["circle", { cx: 6, cy: 9, r: 1.3, class: "icon-cut" }], ["circle", { cx: 10, cy: 9, r: 1.3, class: "icon-cut" }]],
  you: [["circle", { cx: 8, cy: 5, r: 3 }], ["path", { d: "M2.5 14.5c0-3.3 2.5-5.5 5.5-5.5s5.5 2.2 5.5 5.5z" }]],
  share: [["path", { d: "M8 1.5l4 4h-2.75v5h-2.5v-5H4z" }], ["path", { d: "M2 9h2v4h8V9h2v6H2z" }]],
  star: [["path", { d: "M8 1l2.1 4.6 5 .5-3.8 3.3 1.1 4.9L8 11.8l-4.4 2.5 1.1-4.9L.9 6.1l5-.5z" }]],
  cross: [["path", { d: "M3.4 2L8 6.6 12.6 2 14 3.4 9.4 8l4.6 4.6-1.4 1.4L8 9.4 3.4 14 2 12.6 6.6 8 2 3.4z" }]],
  turn: [["path", { d: "M8 2.5a5.5 5.5 0 1 0 5.3 7h-2a3.6 3.6 0 1 1-.9-3.8L8.5 7.5H14V2l-2.2 2.2A5.5 5.5 0 0 0 8 2.5z" }]],
  dash: [["rect", { x: 2.5, y: 7, width: 11, height: 2 }]],
  mistake: [["path", { d: "M8 1.5l7 12.5H1z" }], ["rect", { x: 7.2, y: 5.5, width: 1.6, height: 4.5, class: "icon-cut" }],
    ["rect", { x: 7.2, y: 11, width: 1.6, height: 1.6, class: "icon-cut" }]],
};

// Icons that point "forwards" or "backwards" along the reading direction.
const DIRECTIONAL = new Set(["first", "previous", "play", "next", "last"]);

/** An icon as an <svg> element; `name` is one of the drawings above. */
export function icon(name, { className = "" } = {}) {
  const element = document.createElementNS(SVG, "svg");
  element.setAttribute("viewBox", "0 0 16 16");
  element.setAttribute("aria-hidden", "true");
  element.setAttribute("focusable", "false");
  element.setAttribute("class", ["icon", `icon-${name}`, DIRECTIONAL.has(name) ? "icon-directional" : "", className].filter(Boolean).join(" "));
  for (const [tag, attributes] of DRAWINGS[name] ?? []) {
    const part = document.createElementNS(SVG, tag);
    for (const [attribute, value] of Object.entries(attributes)) part.setAttribute(attribute, String(value));
    element.append(part);
  }
  return element;
}

export const ICONS = Object.keys(DRAWINGS);
export { DRAWINGS as ICON_DRAWINGS };
