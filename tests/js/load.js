// Loads a study script into the test's page the way a <script> tag would: run once, at top level.
// Code made by `new Function` cannot import() under vitest, so a script's dynamic import (search.js
// loads Pagefind that way) goes through this module's own import(), which reads file: URLs.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as FSRS from "ts-fsrs";

const JS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "assets", "js");

export function loadScript(name) {
  globalThis.FSRS = FSRS;  // what assets/vendor/ts-fsrs.umd.js defines on the page
  const source = readFileSync(join(JS, name), "utf8").replace(/\bimport\(/g, "__import(");
  new Function("__import", source)((url) => import(/* @vite-ignore */ url));
}
