// search.js on a page as the guide builds it: the dialog opening and closing, a query's results
// with their marks, links and counts, keys, the phone's scroll lock, and the terms highlighted on
// the page a result leads to. Pagefind is a stand-in (tests/js/fake-site/pagefind/pagefind.js).
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { FAKE_SITE, key, leavePage, mountSearch } from "./page.js";
import { loadScript } from "./load.js";

const S = createRequire(import.meta.url)("../../docs/assets/js/search.js");
const HEAD = 192, BODY = 2 * HEAD + 96;
const ROOT = `file://${FAKE_SITE}/`;

// pages: {id: {tokens: {token: [positions]}, meta}}; every token is found whole and as a prefix.
function index(pages, extra = {}) {
  const words = {}, data = {};
  Object.entries(pages).forEach(([id, page]) => {
    data[id] = { url: `/${page.meta.url}`, meta: page.meta };
    Object.entries(page.tokens).forEach(([token, positions]) => {
      new Set([S.pagefindWord(token, false), S.pagefindWord(token, true)]).forEach((word) => {
        (words[word] = words[word] || []).push({ id, words: positions });
      });
    });
  });
  globalThis.fakePagefind = { words, data, ...extra };
}

const PAGES = {
  clip: { tokens: { ppo: [0], clip: [1] },
          meta: { url: "concepts/ppo-clip/", title: "PPO-Clip 目标", kind: "概念", context: "策略优化",
                  text: "PPO 用 clip 把新旧策略的比值限制在 1±ε 之内，越界的方向不再给梯度。" } },
  grpo: { tokens: { ppo: [BODY + 3] },
          meta: { url: "concepts/grpo/", title: "GRPO", kind: "概念", context: "",
                  text: "GRPO 去掉了 critic。".repeat(3) + "它和 PPO 一样裁剪比值，但优势来自同组回答。" } },
};

let ui;
const elements = () => ({
  toggle: document.getElementById("__search"), input: document.querySelector(".guide-search input[name=q]"),
  meta: document.querySelector(".md-search-result__meta"), list: document.querySelector(".md-search-result__list"),
  form: document.querySelector(".guide-search form"),
});

async function page(path = "concepts/ppo/", article = "", pages = PAGES, extra = {}) {
  index(pages, extra);
  mountSearch(path, article);
  loadScript("search.js");
  ui = elements();
}

async function type(query) {
  ui.input.value = query;
  ui.input.dispatchEvent(new InputEvent("input", { bubbles: true }));
  await vi.waitFor(() => expect(ui.list.dataset.query === query || /不可用/.test(ui.meta.textContent) || !query.trim()).toBe(true));
}

const results = () => [...ui.list.querySelectorAll("li")].map((li) => ({
  title: li.querySelector("h1").innerHTML, href: li.querySelector("a").href,
  context: li.querySelector(".guide-search__context") ? li.querySelector(".guide-search__context").textContent : null,
  snippet: li.querySelectorAll("p")[li.querySelectorAll("p").length - 1].innerHTML,
}));

beforeEach(() => {
  vi.stubGlobal("fetch", vi.fn(async (url) => {
    if (url !== `${ROOT}pagefind/guide-search.json`) throw new Error(`unexpected fetch ${url}`);
    return { json: async () => ({ pages: 100, synonyms: [["clip", "裁剪"]] }) };
  }));
});

afterEach(() => {
  leavePage();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("a query", () => {
  test("lists the pages best first, titles and snippets marked, each linking to its page with the query to highlight", async () => {
    await page();
    await type("PPO clip");
    expect(ui.meta.textContent).toBe("找到 1 个页面，另有部分匹配");
    expect(results()).toEqual([
      { title: "<mark>PPO</mark>-<mark>Clip</mark> 目标", href: `${ROOT}concepts/ppo-clip/?h=PPO+clip`, context: "概念 · 策略优化",
        snippet: "<mark>PPO</mark> 用 <mark>clip</mark> 把新旧策略的比值限制在 1±ε 之内，越界的方向不再给梯度。" },
      { title: "GRPO", href: `${ROOT}concepts/grpo/?h=PPO+clip`, context: "概念",
        snippet: "…去掉了 critic。GRPO 去掉了 critic。它和 <mark>PPO</mark> 一样裁剪比值，但优势来自同组回答。" },
    ]);
    expect(Number(ui.list.dataset.ms)).toBeGreaterThanOrEqual(0);
    // Pagefind is asked for each word alone; `ppo` (done) exactly, `clip` (being typed) also as a prefix
    expect([...fakePagefind.asked].sort()).toEqual([S.pagefindWord("ppo", false), S.pagefindWord("clip", false),
                                                    S.pagefindWord("clip", true), S.pagefindWord("裁剪", false)].sort());
  });

  test("says when no page has every word, when nothing matches, and what to type when the box is empty", async () => {
    await page();
    await type("PPO 量子");
    expect(ui.meta.textContent).toBe("没有页面包含所有关键词；下面是部分匹配的页面");
    await type("量子纠缠");
    expect(ui.meta.textContent).toBe("没有找到结果：换个说法，或者查看关键词索引");
    expect(ui.list.innerHTML).toBe("");
    await type("ppo");
    await type("  ");
    expect(ui.list.innerHTML).toBe("");
    expect(ui.meta.textContent).toBe("输入中文或英文关键词，例如 熵坍塌、重要性采样、ppo_mini_batch_size");
  });

  test("shows at most eight pages, and skips one whose data Pagefind no longer holds", async () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${String(i).padStart(2, "0")}`,
      { tokens: { kl: [BODY + i] }, meta: { url: `p${i}/`, title: `页面 ${i}`, kind: "问题", text: "KL 散度" } }]));
    await page("concepts/ppo/", "", many, { gone: ["p00"] });
    await type("KL ");
    expect(results().map((r) => r.title)).toEqual(["页面 1", "页面 2", "页面 3", "页面 4", "页面 5", "页面 6", "页面 7"]);
  });

  test("an index that fails says search is unavailable, and text still being composed is not searched", async () => {
    await page("concepts/ppo/", "", PAGES, { fail: "index gone" });
    ui.input.value = "pp";
    ui.input.dispatchEvent(new InputEvent("input", { bubbles: true, isComposing: true }));
    await new Promise((done) => setTimeout(done, 20));
    expect(fakePagefind.asked).toBeUndefined();
    ui.input.value = "ppo";
    ui.input.dispatchEvent(new Event("compositionend"));
    await vi.waitFor(() => expect(ui.meta.textContent).toBe("搜索暂时不可用：Error: index gone"));
  });

  test("a result that arrives after the reader typed on is dropped", async () => {
    await page();
    ui.input.value = "clip";
    ui.input.dispatchEvent(new InputEvent("input", { bubbles: true }));
    await type("grpo");
    await new Promise((done) => setTimeout(done, 20));
    expect(ui.list.dataset.query).toBe("grpo");
    expect(ui.meta.textContent).toBe("没有找到结果：换个说法，或者查看关键词索引");
  });

  test("escapes what a page's metadata holds", async () => {
    await page("concepts/ppo/", "", { x: { tokens: { ppo: [0] }, meta: { url: "x/", title: "<b>PPO</b> & \"co\"", kind: "概念", text: "<img src=x>" } } });
    await type("ppo");
    expect(results()[0].title).toBe("&lt;b&gt;<mark>PPO</mark>&lt;/b&gt; &amp; \"co\"");
    expect(ui.list.querySelector("img")).toBeNull();
  });
});

describe("the dialog", () => {
  test("opens on / or s outside a text field, loads the index once, and closes on Escape", async () => {
    await page();
    key("/", ui.input);
    expect(ui.toggle.checked).toBe(false);
    const ctrl = new KeyboardEvent("keydown", { key: "s", ctrlKey: true, bubbles: true, cancelable: true });
    document.body.dispatchEvent(ctrl);
    expect(ui.toggle.checked).toBe(false);
    const slash = new KeyboardEvent("keydown", { key: "/", bubbles: true, cancelable: true });
    document.body.dispatchEvent(slash);
    expect(slash.defaultPrevented).toBe(true);
    expect(ui.toggle.checked).toBe(true);
    expect(document.activeElement).toBe(ui.input);
    await vi.waitFor(() => expect(fakePagefind.inits).toBe(1));
    key("Escape", ui.input);
    expect(ui.toggle.checked).toBe(false);
    key("s");
    expect(ui.toggle.checked).toBe(true);
    await type("ppo");
    expect(fakePagefind.inits).toBe(1);
  });

  test("Enter opens the first result, the arrows move through them and back to the box, a click closes the dialog", async () => {
    await page();
    await type("ppo");
    const links = [...ui.list.querySelectorAll("a")];
    const opened = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function () { opened.href = this.href; });
    const enter = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
    ui.input.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    expect(opened.href).toBe(links[0].href);
    opened.mockRestore();
    key("ArrowDown", ui.input);
    expect(document.activeElement).toBe(links[0]);
    key("ArrowDown", links[0]);
    expect(document.activeElement).toBe(links[1]);
    key("ArrowDown", links[1]);
    expect(document.activeElement).toBe(links[1]);
    key("ArrowUp", links[1]);
    expect(document.activeElement).toBe(links[0]);
    key("ArrowUp", links[0]);
    expect(document.activeElement).toBe(ui.input);
    ui.toggle.checked = true;
    key("Escape", links[0]);
    expect(ui.toggle.checked).toBe(false);
    ui.toggle.checked = true;
    links[1].querySelector("h1").dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    expect(ui.toggle.checked).toBe(false);
  });

  test("the clear button empties the results; Enter with no results does nothing", async () => {
    await page();
    await type("ppo");
    ui.input.value = "";
    ui.form.dispatchEvent(new Event("reset"));
    await vi.waitFor(() => expect(ui.list.innerHTML).toBe(""));
    expect(document.activeElement).toBe(ui.input);
    const enter = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
    ui.input.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(false);
    const submit = new Event("submit", { cancelable: true });
    ui.form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
  });

  test("?q= opens the dialog with the words typed and their results shown", async () => {
    await page("concepts/ppo/?q=PPO%20clip");
    expect(ui.toggle.checked).toBe(true);
    expect(ui.input.value).toBe("PPO clip");
    await vi.waitFor(() => expect(ui.list.dataset.query).toBe("PPO clip"));
    expect(results()).toHaveLength(2);
  });

  test("on a phone the page behind the open dialog is locked where it was, and restored when it closes", async () => {
    const phone = vi.fn(() => ({ matches: true }));
    vi.stubGlobal("matchMedia", phone);
    const scrolled = vi.fn();
    vi.stubGlobal("scrollTo", scrolled);
    await page();
    Object.defineProperty(window, "scrollY", { configurable: true, value: 420 });
    ui.toggle.checked = true;
    ui.toggle.dispatchEvent(new Event("change"));
    expect(phone).toHaveBeenCalledWith("(max-width: 59.984375em)");
    expect(document.body.hasAttribute("data-md-scrolllock")).toBe(true);
    expect(document.body.style.top).toBe("-420px");
    ui.toggle.checked = false;
    ui.toggle.dispatchEvent(new Event("change"));
    expect(document.body.hasAttribute("data-md-scrolllock")).toBe(false);
    expect(document.body.style.top).toBe("");
    expect(scrolled).toHaveBeenCalledWith(0, 420);
    delete window.scrollY;
  });

  test("on a wide screen the page is not locked", async () => {
    vi.stubGlobal("matchMedia", () => ({ matches: false }));
    await page();
    ui.toggle.checked = true;
    ui.toggle.dispatchEvent(new Event("change"));
    expect(document.body.hasAttribute("data-md-scrolllock")).toBe(false);
  });

  test("a page shown again (back button) has its search and drawer closed", async () => {
    await page();
    ui.toggle.checked = true;
    document.getElementById("__drawer").checked = true;
    window.dispatchEvent(new Event("pageshow"));
    expect(ui.toggle.checked).toBe(false);
    expect(document.getElementById("__drawer").checked).toBe(false);
  });
});

describe("the page a result leads to", () => {
  test("marks the query's words in its text, leaving formulas and the heading links alone", async () => {
    const scrolled = vi.spyOn(HTMLElement.prototype, "scrollIntoView").mockImplementation(() => {});
    await page("concepts/ppo/?h=PPO%20熵坍塌",
      '<h1>PPO 与熵坍塌<a class="headerlink">PPO</a></h1><p>熵坍塌时 ppo 的 <span class="arithmatex">PPO</span> 还在。</p>');
    const marks = [...document.querySelectorAll("mark.guide-hit")].map((m) => m.textContent);
    expect(marks).toEqual(["PPO", "熵坍塌", "熵坍塌", "ppo"]);
    expect(document.querySelector("h1").textContent).toBe("PPO 与熵坍塌PPO");
    expect(document.querySelector(".arithmatex").innerHTML).toBe("PPO");
    expect(document.querySelector("article").dataset.highlighted).toBe("PPO 熵坍塌");
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.instances[0]).toBe(document.querySelector("mark.guide-hit"));
  });

  test("with no ?h= the page is left as built", async () => {
    await page("concepts/ppo/", "<p>PPO</p>");
    expect(document.querySelector("article").innerHTML).toBe("<p>PPO</p>");
  });
});
