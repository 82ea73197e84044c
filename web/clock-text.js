// Clocks in words: a clock's time left, a match's time control, a correspondence clock's days. Pure
// (no DOM), so that the Node tests (web-tests/) read it as the pages do.
import { t } from "./i18n.js";

export const DAY_MS = 24 * 3600 * 1000;

// A duration in ms as m:ss (h:mm:ss past an hour; days and hours past a day, as a
// correspondence clock reads); tenths under ten seconds.
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t >= DAY_MS) return days(t);
  if (t < 10000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// A match's clock as players write it: a Fischer clock's base of whole minutes in minutes, a
// shorter one in seconds, then the increment in seconds ("15+10", "30s+0"); a per-move clock as
// days a move; no clock, said so.
export function clockSpecText(clock) {
  if (!clock) return t("time.none");
  if (clock.per_move) return perMoveText(clock.base_ms);
  const base = clock.base_ms % 60000 ? `${clock.base_ms / 1000}s` : `${clock.base_ms / 60000}`;
  return `${base}+${clock.increment_ms / 1000}`;
}

// A wait counting up, in whole seconds, as m:ss ("0:07", "1:20"): no tenths, which would flicker.
export function waitedText(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A per-move (correspondence) clock's time for a move, as players say it: "3 days a move".
export function perMoveText(ms) {
  return ms % DAY_MS ? t("time.per-move", { time: clockText(ms) }) : t("time.days-a-move", { count: ms / DAY_MS });
}

// Days and hours, in the reader's language ("2 d 5 h").
function days(ms) {
  const hours = Math.floor(ms / 3600000);
  return t("time.days-hours", { days: Math.floor(hours / 24), hours: hours % 24 });
}
