// Puts the client's English message catalog in use, as the app does once loaded, so that the
// texts under test read as the pages show them. Imported first by every test file that reads a
// text.
import { readFileSync } from "node:fs";
import { useMessages } from "../web/i18n.js";

export const catalog = (code) => JSON.parse(readFileSync(new URL(`../web/i18n/${code}.json`, import.meta.url), "utf8"));
export const english = catalog("en");
useMessages("en", english);
