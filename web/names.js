// The names players read for the ids the server speaks: games, variants, rating pools, time
// controls and the AI's accounts. Every page names an id through this module, in the reader's
// language (`game.<id>`, `variant.<id>`, `time.<id>`, `ai.level` in the catalogs); an id no
// catalog names (a newer server's, a custom variant) reads as its words, tidied.
import { games } from "./catalog.js";
import { t } from "./i18n.js";

// An id as words, for one no catalog names: `new-variant_2` reads "New variant 2".
export function tidy(id) {
  const words = String(id).replace(/[-_/]+/g, " ").replace(/\s+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function gameName(gameId) {
  return t(`game.${gameId}`, {}, games.find((g) => g.id === gameId)?.serverName ?? tidy(gameId));
}

// The side of a tafl board, from its OpenTafl rules string (`dim:11`), or null.
export function boardSide(rules) {
  const side = /(?:^|\s)dim:(\d+)/.exec(rules ?? "")?.[1];
  return side ? Number(side) : null;
}

// A custom tafl variant is its own rules string.
const isCustom = (variant) => String(variant).includes(":");

// A variant's name with its board's size where the game has boards of several sizes
// ("Copenhagen 11×11"); a custom one reads "Custom 11×11".
export function variantName(gameId, variant) {
  if (isCustom(variant)) {
    const side = boardSide(variant);
    return side ? t("variant.custom-size", { side }) : t("variant.custom");
  }
  const named = t(`variant.${variant}`, {}, null);
  if (named !== null) return named;
  const side = boardSide(games.find((g) => g.id === gameId)?.rulesByVariant[variant]);
  return side ? `${tidy(variant)} ${side}×${side}` : tidy(variant);
}

// A game and its variant, as headings, lists and rating pools show them: "Tafl · Brandubh 7×7".
export function poolName(gameId, variant) {
  return `${gameName(gameId)} · ${variantName(gameId, variant)}`;
}

// A rating pool written as the server writes it, `tafl/brandubh`.
export function poolIdName(pool) {
  const [gameId, ...rest] = String(pool).split("/");
  return poolName(gameId, rest.join("/"));
}

// A time control with its clock ("Blitz 5+3"), or a correspondence one with its days.
export function timeName(control) {
  return t(`time.${control}`, {}, tidy(control));
}

// A player's name; the AI's accounts (`ai-level-3`) read "AI, level 3".
export function playerName(name) {
  const level = /^ai-level-(\d+)$/.exec(name ?? "")?.[1];
  return level ? t("ai.level", { level }) : name;
}

// The groups of the tafl variant picker, by each preset's source (`docs/rules/tafl.md`,
// "Variant groups"): rulesets played today, the seed document's own boards, and reconstructions
// of historical games. A variant in none (a custom rules string, a newer server's) is custom.
const TAFL_GROUPS = {
  today: ["copenhagen", "copenhagen-13", "fetlar", "brandubh"],
  seed: ["hnefatafl", "hnefatafl-weaponless", "hnefatafl-second-board", "hnefatafl-axes", "hnefatafl-13", "tawlbwrdd-13",
    "fithcheall", "ard-ri", "irish-board"],
  historical: ["tablut", "tawlbwrdd", "alea-evangelii"],
};
const GROUP_ORDER = ["today", "seed", "historical", "custom"];

// A game's variants in the picker's groups, in order: [[group, [variant, ...]], ...], or a
// single group `null` for a game whose variants are not grouped.
export function variantGroups(gameId, variants) {
  if (gameId !== "tafl") return [[null, variants]];
  const groupOf = (v) => Object.keys(TAFL_GROUPS).find((g) => TAFL_GROUPS[g].includes(v)) ?? "custom";
  return GROUP_ORDER
    .map((group) => [group, variants.filter((v) => groupOf(v) === group)])
    .filter(([, members]) => members.length);
}

// The group's heading in the picker.
export function groupName(group) {
  return t(`variant-group.${group}`);
}
