// The player's switches kept in this browser (localStorage): sound on or off, premoves on or off.
import { el } from "./dom.js";

const PREFIX = "tafl.pref.";

// A switch's value: true or false once set here, `fallback` until then.
export function pref(name, fallback = true) {
  const value = localStorage.getItem(PREFIX + name);
  return value === null ? fallback : value === "on";
}

export function setPref(name, on) {
  localStorage.setItem(PREFIX + name, on ? "on" : "off");
}

// A labelled checkbox for a switch (test id `pref-<name>`), saved as soon as it is clicked.
export function prefSwitch(name, label, fallback = true) {
  const box = el("input", { type: "checkbox", "data-testid": `pref-${name}` });
  box.checked = pref(name, fallback);
  box.onchange = () => setPref(name, box.checked);
  return el("label", { class: "check" }, box, label);
}
