// How a game object from the API is laid out on screen. The API is the authority: piles come
// from `grid`, targets from `legal_moves`; nothing here decides what is legal.

/** The loss threshold RULES.md states ("more than four piles show a face-down card"), shown
 *  as the meter's maximum so the player sees the danger coming. The server decides the loss. */
export const FACE_DOWN_LIMIT = 4;

export const key = (row, col) => `${row},${col}`;

// Every pile of a game lies within four rows and four columns of the first card, so a fixed
// frame of seven numbered rows and columns, the first card at row 4, column 4, holds them all.
// Names in that frame never change as the grid grows: "row 2, column 5" stays the same place
// for the whole game, which a player who cannot see the board needs to keep a map of it.
const FRAME_CENTRE = 4;

/** The numbers a place on the board is called by, the same all game long. */
export function cellPlace(row, col) {
  return { row: row + FRAME_CENTRE, col: col + FRAME_CENTRE };
}

/** The name of a place on the board (t is the active translator's). */
export function cellWhere(row, col, t) {
  return t("cell.where", cellPlace(row, col));
}

/**
 * The rectangle that holds every pile and every target, row by row, each cell with its game
 * coordinates (row, col), its 1-based place on screen (line, column) and what is there.
 */
export function layout(game) {
  const piles = new Map(game.grid.map((pile) => [key(pile.row, pile.col), pile]));
  const targets = new Set(game.legal_moves.map(([row, col]) => key(row, col)));
  const positions = [...game.grid.map((pile) => [pile.row, pile.col]), ...game.legal_moves];
  if (positions.length === 0) return { rows: [], rowCount: 0, colCount: 0, cells: [], fullRows: [], fullCols: [] };
  const rowsOf = positions.map(([row]) => row);
  const colsOf = positions.map(([, col]) => col);
  const [top, bottom] = [Math.min(...rowsOf), Math.max(...rowsOf)];
  const [left, right] = [Math.min(...colsOf), Math.max(...colsOf)];
  const rows = [];
  for (let row = top; row <= bottom; row += 1) {
    const line = [];
    for (let col = left; col <= right; col += 1) {
      line.push({
        row,
        col,
        line: row - top + 1,
        column: col - left + 1,
        pile: piles.get(key(row, col)) ?? null,
        target: targets.has(key(row, col)),
      });
    }
    rows.push(line);
  }
  // A line holding only targets (at the grid's edge) can be drawn narrower than the piles'.
  const hasPile = (cells) => cells.some((cell) => cell.pile);
  const any = game.grid.length > 0;
  const fullRows = rows.map((line) => !any || hasPile(line));
  const fullCols = rows[0].map((_, index) => !any || hasPile(rows.map((line) => line[index])));
  return {
    rows, rowCount: bottom - top + 1, colCount: right - left + 1, cells: rows.flat(), fullRows, fullCols,
  };
}

/** The server's `previews` keyed like cells: what placing the current card there would do. */
export function previewsByCell(game) {
  return new Map((game.previews ?? []).map((preview) => [key(preview.at[0], preview.at[1]), preview]));
}

/**
 * A preview in words, as short phrases: what turns over, and the face-down count after (or
 * that the move wins or loses). The server said what happens; this only names it.
 */
export function previewPhrases(preview, t) {
  const turns = preview.flipped.length
    ? t("preview.turns", { n: preview.flipped.length }) : t("preview.turns_none");
  const after = preview.status === "won" ? t("preview.wins")
    : preview.status === "lost" ? t("preview.loses", { n: preview.face_down })
      : t("preview.after", { n: preview.face_down });
  return [turns, after];
}

export function findCell(grid, row, col) {
  return grid.cells.find((cell) => cell.row === row && cell.col === col) ?? null;
}

/** The face-down meter: "ok", "caution" (3), "danger" (4: one more loses), "over". */
export function meter(faceDown) {
  const level = faceDown > FACE_DOWN_LIMIT ? "over" : faceDown === FACE_DOWN_LIMIT ? "danger"
    : faceDown === FACE_DOWN_LIMIT - 1 ? "caution" : "ok";
  return { value: faceDown, max: FACE_DOWN_LIMIT, level };
}

/**
 * Where keyboard focus goes from (row, col) for an arrow key. On a right-to-left page the
 * board is mirrored, so "ArrowRight" moves towards lower columns. Focus stops at the edges.
 */
export function step(grid, from, arrow, rtl = false) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const delta = moves[arrow];
  if (!delta) return from;
  const [dr, dc] = [delta[0], rtl ? -delta[1] : delta[1]];
  const next = findCell(grid, from.row + dr, from.col + dc);
  return next ? { row: next.row, col: next.col } : from;
}

/** Where focus rests when the board is drawn: kept if still there, else the first target. */
export function restingFocus(grid, previous) {
  if (previous && findCell(grid, previous.row, previous.col)) return previous;
  const target = grid.cells.find((cell) => cell.target) ?? grid.cells[0];
  return target ? { row: target.row, col: target.col } : null;
}

/** The screen-reader name of a cell (t is the active translator's t, cardName its card namer;
 *  `where` names its place another way). */
export function cellLabel(cell, t, cardName, where = cellWhere(cell.row, cell.col, t)) {
  let what;
  if (!cell.pile) what = cell.target ? t("cell.empty_target") : t("cell.empty");
  else {
    const height = t("cell.height", { n: cell.pile.height });
    // A finished game's replay shows what a face-down card was.
    const top = cell.pile.face_up ? cardName(cell.pile.card)
      : cell.pile.card ? `${t("cell.face_down")}: ${cardName(cell.pile.card)}` : t("cell.face_down");
    what = `${top}, ${height}`;
    if (cell.target) what += `. ${t("cell.place_on")}`;
  }
  const preview = cell.target && cell.preview ? `. ${previewPhrases(cell.preview, t).join(". ")}` : "";
  return `${where}: ${what}${preview}`;
}

/** What to announce after a move: the card, where it landed, what turned over, the meter. */
export function moveAnnouncement(game, grid, t, cardName) {
  const last = game.last_move;
  if (!last) return "";
  const parts = [t("announce.placed", {
    card: cardName(last.card),
    ...cellPlace(last.at[0], last.at[1]),
  })];
  parts.push(last.flipped.length ? t("announce.flipped", { n: last.flipped.length }) : t("announce.no_flip"));
  parts.push(t("announce.meter", { n: game.face_down, max: FACE_DOWN_LIMIT }));
  if (game.status === "won") parts.push(t("result.won_title"));
  else if (game.status === "lost" || game.status === "unfinished") parts.push(t(`result.${game.status}_title`));
  else if (game.current_card) parts.push(t("announce.next", { card: cardName(game.current_card) }));
  return parts.join(" ");
}
