// StrykerJS for `make mutation`: plants small bugs in the study scripts, one at a time, and runs
// the vitest unit tests (tests/js) against each; a bug no test notices is listed as a survivor.
export default {
  testRunner: "vitest",
  // related: false, as the tests read the scripts from disk (tests/js/load.js) rather than import them
  vitest: { configFile: "tests/js/vitest.config.mjs", related: false },
  mutate: ["docs/assets/js/practice.js", "docs/assets/js/mock.js", "docs/assets/js/search.js", "docs/assets/js/offline.js"],
  coverageAnalysis: "perTest",
  reporters: ["clear-text", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  concurrency: 2,
  timeoutMS: 20000,
  ignorePatterns: ["site", ".cache", ".mutation", "reports", "content", ".venv", "*.log"],
};
