// The player's settings kept in this browser (localStorage): switches, on or off (sound,
// premoves), and choices among named options (the colour and board themes: see settings.js).
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

// A choice's value: one of `values`, the one picked here, else the first.
export function choice(name, values) {
  const value = localStorage.getItem(PREFIX + name);
  return values.includes(value) ? value : values[0];
}

// A labelled drop-down for a choice among `options`, [value, label] pairs (test id
// `pref-<name>`): the pick is saved and handed to `onPick` at once.
export function prefChoice(name, label, options, onPick) {
  const select = el("select", { "data-testid": `pref-${name}` },
    options.map(([value, text]) => el("option", { value }, text)));
  select.value = choice(name, options.map(([value]) => value));
  select.onchange = () => {
    localStorage.setItem(PREFIX + name, select.value);
    onPick(select.value);
  };
  return el("label", {}, label, select);
}
