// Loads a study script into the test's page the way a <script> tag would: run once, at top level.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as FSRS from "ts-fsrs";

const JS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "assets", "js");

export function loadScript(name) {
  globalThis.FSRS = FSRS;  // what assets/vendor/ts-fsrs.umd.js defines on the page
  new Function(readFileSync(join(JS, name), "utf8"))();
}
