// What the match page adds to a board for the feel of play, for every game (the box to type a
// move in is move-box.js): a spoken line for screen readers, the tab title on your turn, the
// low-time tick, the sound and premove switches, and the earlier positions for looking back
// during play.
import { el } from "../../dom.js";
import { prefSwitch } from "../../prefs.js";
import { playSound } from "../../sound.js";
import { t } from "../../i18n.js";

// A line that screen readers speak when it changes (each move: "Attackers: h6-h3").
export function announcer() {
  const node = el("p", { class: "sr-only", "aria-live": "polite", "data-testid": "announce" });
  return {
    node,
    say(text) {
      node.textContent = text.charAt(0).toUpperCase() + text.slice(1);
    },
  };
}

// The document title: "Your move · <the opponent's last move> · <the page's own title>" while it
// is the user's turn, the page's own title otherwise. `restore()` puts the original back.
export function turnTitle() {
  const plain = document.title;
  return {
    set(yourMove, lastAction) {
      document.title = yourMove ? [t("title.your-move"), lastAction, plain].filter(Boolean).join(" · ") : plain;
    },
    restore() {
      document.title = plain;
    },
  };
}

// Under this many milliseconds a clock turns red and the user's own clock ticks.
export const LOW_TIME_MS = 10000;

// The low-time tick: `check(ms)` with the user's own running clock sounds one tick for each
// second under LOW_TIME_MS (called more often than once a second; null when none runs).
export function lowTimeTicker() {
  let lastSecond = null;
  return (ms) => {
    if (ms === null || ms >= LOW_TIME_MS || ms <= 0) return;
    const second = Math.ceil(ms / 1000);
    if (second === lastSecond) return;
    lastSecond = second;
    playSound("tick");
  };
}

// The sound switch, and the premove one for a board that offers premoves.
export function settings(premoves) {
  return el("div", { class: "row settings" },
    prefSwitch("sound", t("settings.sound")),
    premoves ? prefSwitch("premoves", t("settings.premoves")) : null);
}

// Every position of a match by the number of actions before it: kept as events bring them, and
// the rest (moves played before the page opened) fetched once from the match's replay.
export function positions(api, matchId) {
  const views = [];
  return {
    keep(count, view) {
      views[count] = view;
      // Positions after it were taken back, if there were any.
      views.length = count + 1;
    },
    async get(count) {
      if (views[count] === undefined) {
        const replay = await api.get(`/api/matches/${matchId}/replay`);
        replay.views.forEach((view, i) => {
          views[i] ??= view;
        });
      }
      return views[count];
    },
  };
}
