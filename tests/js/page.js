// A study page as the guide builds it (tests/js/fixtures/, cut from the built site by
// scripts/js_fixtures.py), with a small bank of the test's own, and the study scripts loaded on it.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { vi } from "vitest";
import { loadScript } from "./load.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

// The app `name` (practice, mock) on the page, its data script holding `data`, with the <script>
// tags the page loads the study scripts from (mock.js finds the site's root from its own).
export function mount(name, data) {
  // (type: not run by happy-dom; the test loads the scripts itself)
  document.body.innerHTML = '<script type="text/x-loaded-by-test" src="http://localhost/assets/js/practice.js"></script>' +
    `<script type="text/x-loaded-by-test" src="http://localhost/assets/js/${name}.js"></script>` +
    readFileSync(join(FIXTURES, `${name}.html`), "utf8");
  document.getElementById(`${name}-data`).textContent = JSON.stringify(data);
  return document.getElementById(name);
}

// Loads the scripts the page loads and waits until the app says it is ready.
export async function start(app, scripts) {
  scripts.forEach(loadScript);
  // Polled on the real clock: a test's fake clock stays where the test set it.
  for (let i = 0; i < 200 && app.dataset.ready !== "true"; i++) await new Promise((done) => setTimeout(done, 0));
  if (app.dataset.ready !== "true") {
    throw new Error(`the ${app.id} app never became ready: ${app.querySelector(".guide-practice__status").textContent}`);
  }
  return app;
}

export const $ = (app, selector) => app.querySelector(selector);
export const click = (el) => el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
export const key = (k, target = document.body) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));

// Answer pages as fetch returns them: a question page's .guide-answer, by URL.
export function answerPages(pages) {
  return vi.fn(async (url) => ({
    text: async () => pages[new URL(url).pathname] ||
      "<html><body><p>no answer here</p></body></html>",
  }));
}

// Each test is a page of its own: the listeners a script put on document and window go with it.
const added = [];
for (const target of [document, window]) {
  const add = target.addEventListener.bind(target);
  target.addEventListener = (type, listener, options) => { added.push([target, type, listener, options]); add(type, listener, options); };
}
export function leavePage() {
  added.splice(0).forEach(([target, type, listener, options]) => target.removeEventListener(type, listener, options));
  document.body.innerHTML = "";
  localStorage.clear();
}

// A page of the guide with its search dialog (as every built page has it), `article` as its text,
// at `path` under tests/js/fake-site/ (a file: URL, so that search.js's import() of Pagefind reads
// tests/js/fake-site/pagefind/pagefind.js, a stand-in the test fills with its own index).
export const FAKE_SITE = join(dirname(fileURLToPath(import.meta.url)), "fake-site");
export function mountSearch(path, article = "") {
  window.happyDOM.setURL(new URL(path, `file://${FAKE_SITE}/`).href);
  document.body.innerHTML = '<input class="md-toggle" type="checkbox" id="__drawer">' +
    readFileSync(join(FIXTURES, "search.html"), "utf8") +
    `<div class="md-content"><article class="md-content__inner md-typeset">${article}</article></div>`;
}
