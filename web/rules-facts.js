// How a tafl variant differs from its family's standard (Copenhagen), read from the rules
// strings the engine writes for its variants (OpenTafl's notation, in `GET /api/games`), so the
// rules pages' tables say what the engine plays. A key a string leaves out is at OpenTafl's
// default, as the engine reads it (docs/rules/tafl.md, "Rules strings").
import { t } from "./i18n.js";

const EVERYONE = "tTK";
const DEFAULTS = {
  atkf: "y", esc: "c", ka: "y", ks: "y", sw: "n", efe: "n", surf: "y", tfr: "d", linc: "n", spd: "-1",
  corh: EVERYONE, corp: "K", cors: "K", cenh: "t", cenhe: EVERYONE, cenp: EVERYONE, cens: "K",
};

// The switches of a rules string, each at its default when left out; `cor` and `cen` are lists of
// squares (absent: the four corners and the centre, which only their count matters for here).
export function switches(rules) {
  const found = {};
  for (const pair of rules.split(/\s+/)) {
    const colon = pair.indexOf(":");
    if (colon > 0) found[pair.slice(0, colon)] = pair.slice(colon + 1);
  }
  const squares = (list, absent) => (list === undefined ? absent : list.split(",").filter(Boolean).length);
  return { ...DEFAULTS, ...found, dim: Number(found.dim), corners: squares(found.cor, 4), thrones: squares(found.cen, 1) };
}

// The kinds of piece in an OpenTafl list, ours only, in a fixed order: "tTK" is every kind.
const kinds = (list) => [...EVERYONE].filter((kind) => list.includes(kind)).join("");

// A variant's rules as rows of the table, in the table's order: { row, value, params }. A value
// is a message key's last part (`rules.value.<value>`). The rules of corners and of the throne
// come only with the squares: a variant without them has its `corners` or `throne` row say so.
export function facts(rules) {
  const s = switches(rules);
  const pieces = (list) => `pieces-${kinds(list) || "none"}`;
  const escape = s.esc === "e" ? "escape-edge" : s.corners > 4 ? "escape-blocks" : "escape-corner";
  const corners = !s.corners ? [["corners", "no-corners"]] : [
    ["corners", s.corners > 4 ? "corners-blocks" : "corners-four"],
    ["corner-stop", pieces(s.cors)],
    ["corner-hostile", pieces(s.corh)],
  ];
  const throne = !s.thrones ? [["throne", "no-throne"]] : [
    ["throne", "throne-centre"],
    ["throne-stop", pieces(s.cens)],
    ["throne-pass", pieces(s.cenp)],
    ["throne-hostile-empty", pieces(s.cenhe)],
    ["throne-hostile-king", pieces(s.cenh)],
  ];
  return [
    ["board", "board", { size: s.dim }],
    ["first", s.atkf === "n" ? "first-defenders" : "first-attackers"],
    ["escape", escape],
    // OpenTafl writes a strong king `y` or `s`, a weak one `n` or `w`.
    ["king-capture", `king-${{ s: "y", w: "n" }[s.ks] ?? s.ks}`],
    ["king-armed", s.ka === "n" ? "no" : "yes"],
    ...corners,
    ...throne,
    ["shieldwall", `shieldwall-${s.sw}`],
    ["edge-fort", s.efe === "y" ? "yes" : "no"],
    ["encirclement", s.surf === "y" ? "yes" : "no"],
    ["repetition", `repetition-${s.tfr}`],
    ["linnaean", s.linc === "y" ? "yes" : "no"],
    ["speed", s.spd === "-1" ? "speed-none" : "speed", { count: s.spd }],
  ].map(([row, value, params = {}]) => ({ row, value, params }));
}

// The rows where `variant` differs from `standard`, with both values; the board always, since a
// reader compares boards first. A row only one of them has (the rules of a throne the other
// lacks) is left out: their `throne` row tells that difference.
export function differences(standard, variant) {
  const theirs = new Map(facts(standard).map((fact) => [fact.row, fact]));
  return facts(variant)
    .filter((fact) => theirs.has(fact.row))
    .map((fact) => ({ row: fact.row, standard: theirs.get(fact.row), variant: fact }))
    .filter(({ row, standard: a, variant: b }) => row === "board" || a.value !== b.value || a.params.size !== b.params.size);
}

// A row's name and a value, in the reader's language.
export const rowText = (row) => t(`rules.row.${row}`);
export const valueText = (fact) => t(`rules.value.${fact.value}`, fact.params);
