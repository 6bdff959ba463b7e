// A score distribution as bars: {"9": 12, "3": 4} → bars in score order with relative heights.
// Of the empty scores before the first and after the last non-empty one (a day's board lists
// every score 0-24) only a few are kept, and your own score always stays in.

const PAD = 3;

export function bars(distribution = {}, mine = null) {
  const entries = Object.entries(distribution)
    .map(([score, count]) => ({ score: Number(score), count: Number(count) }))
    .filter((bar) => Number.isFinite(bar.score) && Number.isFinite(bar.count) && bar.count >= 0)
    .sort((a, b) => a.score - b.score);
  const kept = entries.filter((bar) => bar.count > 0 || bar.score === mine);
  if (kept.length === 0) return [];
  // A lone bar says little: show up to three scores either side of the data for scale.
  const [low, high] = [kept[0].score - PAD, kept[kept.length - 1].score + PAD];
  const shown = entries.filter((bar) => bar.score >= low && bar.score <= high);
  const highest = Math.max(1, ...shown.map((bar) => bar.count));
  return shown.map((bar) => ({ ...bar, share: bar.count / highest, mine: mine !== null && bar.score === mine }));
}
