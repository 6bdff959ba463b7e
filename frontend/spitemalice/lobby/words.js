// The lobby's names for a match's settings: a clock, a length, a level.

import { t } from "../../i18n.js";

export const clockName = (seconds) => t(`sm.clock.${seconds}`);
export const lengthName = (target) => (target === 1 ? t("sm.length.single") : t("sm.length.points", { n: target }));
export const levelName = (level) => t(`sm.bot.level_${level}`);
