// Acting on the match screen's table: a tap or click on a source and then a target, drag and
// drop with pointer events (mouse, pen and touch: the place under the finger is found with
// elementFromPoint), the keyboard (arrows among the places offered, mirrored right to left;
// Escape puts the card back), and the cancel, skip and hint buttons. Each becomes a command of
// the controller; where the focus goes next is decided here.

import { announce, replace } from "../lib/dom.js";
import { problemView } from "../lib/problems.js";
import { current, t } from "../i18n.js";
import { activePlaces } from "./table-view.js";
import { placeName } from "./model/events.js";
import { isLegal, step } from "./model/table.js";
import { dropReason } from "./drop-reason.js";

const sourceIn = (table, source) => table.querySelector(`[data-source="${CSS.escape(source)}"]`);

/** Listens to `screen` (match-view.js) for the player's input to `controller`, until `signal`
 *  aborts (the screen was left). */
export function bindInput(screen, controller, { signal }) {
  const { tableSlot, cancelButton, skipButton, hintButton, suggestion, resignButton, confirmYes, confirmNo } = screen;
  let drag = null;
  let suppressClick = false;

  function choose(source) {
    if (!controller.choose(source)) return;
    const { chosen } = controller;
    screen.draw({
      focus: (table) => (chosen
        ? (table.querySelector("[data-target]") ?? sourceIn(table, chosen))
        : sourceIn(table, source))?.focus(),
    });
    if (chosen) announce(t("sm.say.chosen", { card: controller.chosenName() }));
  }

  tableSlot.addEventListener("click", (clickEvent) => {
    if (suppressClick) { suppressClick = false; return; }
    const under = clickEvent.target.closest("button[data-open]");
    if (under) { screen.toggleStack(under.dataset.open); return; }
    const button = clickEvent.target.closest("button.sm-place");
    if (!button) return;
    if (button.dataset.target && controller.chosen) controller.act(controller.chosen, button.dataset.target);
    else if (button.dataset.source) choose(button.dataset.source);
  });

  tableSlot.addEventListener("keydown", (keyEvent) => {
    if (keyEvent.key === "Escape" && screen.closeStack()) {
      const open = keyEvent.target.closest?.("[data-open]")?.dataset.open;
      screen.draw({ focus: (table) => (open ? table.querySelector(`[data-open="${open}"]`)?.focus() : null) });
      keyEvent.preventDefault();
      return;
    }
    if (keyEvent.key === "Escape" && controller.chosen) {
      const was = controller.unchoose();
      screen.draw({ focus: (table) => sourceIn(table, was)?.focus() });
      keyEvent.preventDefault();
      return;
    }
    const places = activePlaces(tableSlot);
    const ids = places.map((element, index) => index);
    const at = places.indexOf(document.activeElement);
    const next = step(ids, at < 0 ? 0 : at, keyEvent.key, { rtl: current().dir === "rtl" });
    if (next === null) return;
    keyEvent.preventDefault();
    places[next]?.focus();
  });

  tableSlot.addEventListener("pointerdown", (down) => {
    const button = down.target.closest("button.sm-place[data-source]");
    if (!button || !controller.interactive() || down.button > 0) return;
    drag = {
      source: button.dataset.source, x: down.clientX, y: down.clientY, moving: false, ghost: null,
      card: button.querySelector(".card"), wasChosen: controller.chosen,
    };
  });

  window.addEventListener("pointermove", (move) => {
    if (!drag) return;
    if (!drag.moving) {
      if (Math.hypot(move.clientX - drag.x, move.clientY - drag.y) < 8) return;
      drag.moving = true;
      const rect = drag.card.getBoundingClientRect();
      drag.offset = { x: drag.x - rect.left, y: drag.y - rect.top };
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.classList.add("sm-drag-ghost");
      drag.ghost.style.setProperty("inline-size", `${rect.width}px`);
      drag.ghost.style.setProperty("block-size", `${rect.height}px`);
      document.body.append(drag.ghost);
      // Picked up: the card is the chosen one, its targets shown.
      if (controller.chosen !== drag.source && controller.pick(drag.source)) screen.draw();
    }
    move.preventDefault();
    drag.ghost.style.setProperty("transform", `translate(${move.clientX - drag.offset.x}px, ${move.clientY - drag.offset.y}px)`);
    const over = document.elementFromPoint(move.clientX, move.clientY)?.closest("[data-target]");
    for (const element of tableSlot.querySelectorAll(".sm-drop-over")) element.classList.remove("sm-drop-over");
    over?.classList.add("sm-drop-over");
  }, { passive: false, signal });

  const endDrag = (up) => {
    if (!drag) return;
    const { moving, ghost, source, wasChosen } = drag;
    drag = null;
    if (!moving) return;
    ghost.remove();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 80);
    const over = up.type === "pointerup" ? document.elementFromPoint(up.clientX, up.clientY)?.closest("[data-target]") : null;
    if (over && isLegal(controller.view, source, over.dataset.target)) {
      controller.act(source, over.dataset.target);
      return;
    }
    // Dropped where it cannot go: the card goes back, and what was chosen before the drag is
    // chosen again (nothing, usually), so any card can be picked up next; a drop on the table
    // says why it went back.
    const place = up.type === "pointerup" ? document.elementFromPoint(up.clientX, up.clientY)?.closest("[data-place]")?.dataset.place : null;
    const reason = place ? dropReason(controller.view, source, place) : null;
    controller.unchoose();
    if (wasChosen && wasChosen !== source) controller.pick(wasChosen);
    screen.draw();
    if (reason) replace(suggestion, reason);
  };
  window.addEventListener("pointerup", endDrag, { signal });
  window.addEventListener("pointercancel", endDrag, { signal });

  cancelButton.addEventListener("click", () => { controller.unchoose(); screen.draw(); });
  resignButton.addEventListener("click", () => screen.askResign());
  confirmNo.addEventListener("click", () => screen.closeResign());
  confirmYes.addEventListener("click", async () => {
    confirmYes.disabled = true;
    try {
      await controller.resign();
    } catch (error) {
      screen.showProblem(error);
    } finally {
      confirmYes.disabled = false;
      screen.closeResign();
    }
  });
  skipButton.addEventListener("click", () => { controller.skip(); announce(t("sm.say.skipped")); });
  hintButton?.addEventListener("click", async () => {
    hintButton.disabled = true;
    try {
      const [, target] = await controller.hint();
      screen.draw({ focus: (table) => table.querySelector(`[data-target="${target}"]`)?.focus() });
      replace(suggestion, t("sm.hint_line", { card: controller.chosenName(), place: placeName(target, t) }));
    } catch (error) {
      replace(suggestion, problemView(error, { role: "status" }));
    } finally {
      hintButton.disabled = false;
    }
  });
}
