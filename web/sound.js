// The client's sounds: a move, a capture and the low-time tick, short WAV files made by
// `scripts/make-sounds` and served with the client (nothing is fetched from elsewhere). They play
// through HTMLAudioElement, unless the player muted them (the `sound` switch, kept per browser).
//
// For tests: every sound is one call of `HTMLAudioElement.prototype.play` on a fresh element
// whose `dataset.sound` names it ("move", "capture", "tick"), so a test can stub `play` to count.
import { pref } from "./prefs.js";

const loaded = new Map();

export function playSound(name) {
  if (!pref("sound")) return;
  let audio = loaded.get(name);
  if (!audio) {
    // Relative to this module, so under its version's path (see server/src/web.rs).
    audio = new Audio(new URL(`./sounds/${name}.wav`, import.meta.url).href);
    audio.preload = "auto";
    loaded.set(name, audio);
  }
  // A copy, so that sounds close together overlap instead of cutting each other off.
  const copy = audio.cloneNode();
  copy.dataset.sound = name;
  // A browser refuses sound before the first user gesture: the move is still shown.
  copy.play()?.catch?.(() => {});
}
