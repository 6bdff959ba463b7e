// The lobby's names for a match's settings: a clock, a length, a level.

import { lt } from "./strings.js";

export const clockName = (seconds) => lt(`clock.${seconds}`);
export const lengthName = (target) => (target === 1 ? lt("length.single") : lt("length.points", { n: target }));
export const levelName = (level) => lt(`bot.level_${level}`);
