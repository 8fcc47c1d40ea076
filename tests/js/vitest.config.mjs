// Unit tests of the study scripts (docs/assets/js), in happy-dom: each test loads a script into a
// fresh page and calls the functions it exposes. Pages as a whole are tested in Chromium (pytest).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: new URL(".", import.meta.url).pathname,
    include: ["*.test.js"],
    environment: "happy-dom",
    environmentOptions: { happyDOM: { url: "http://localhost/practice/" } },
  },
});
