// Calendar arithmetic for the daily: your local date picks your daily, and the next one starts
// at your next local midnight.

export function localDate(now = new Date()) {
  const pad = (value) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function nextMidnight(now = new Date()) {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
}

/** { hours, minutes, seconds } until `then`, never negative. */
export function until(then, now = new Date()) {
  const total = Math.max(0, Math.floor((then - now) / 1000));
  return { hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

/** ISO dates from `to` back to `from`, newest first, at most `limit`. */
export function datesBack(from, to, limit = 30) {
  const dates = [];
  const first = Date.parse(`${from}T00:00:00Z`);
  for (let day = Date.parse(`${to}T00:00:00Z`); day >= first && dates.length < limit; day -= 86400000) {
    dates.push(new Date(day).toISOString().slice(0, 10));
  }
  return dates;
}

export function addDays(isoDate, days) {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}
