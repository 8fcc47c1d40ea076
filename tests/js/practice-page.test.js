// practice.js on the /practice/ page as the guide builds it (the drill), and on the pages it marks:
// today's review, grades and what they store, the filters, the pace, export / import / reset, keys,
// the bank's marks and the study plan's days.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { $, answerPages, click, key, leavePage, mount, start } from "./page.js";
import { loadScript } from "./load.js";

const NOW = new Date(Date.UTC(2026, 5, 1, 9));
const HOUR = 3600e3;
const q = (id, topic, extra = {}) => ({ id, text: `问题 ${id}？`, brief: `答案 ${id}`, url: `questions/${id}/`, topic,
  difficulty: "basic", companies: [], asked: 0, kind: "question", ...extra });
// In the guide's learning order, as the page gives them.
const DATA = {
  questions: [
    q("p1", "policy-optimization", { companies: ["bytedance"] }),
    q("p2", "policy-optimization", { difficulty: "advanced" }),
    q("d1", "preference-optimization"),
    q("t1", "policy-optimization", { kind: "coding", text: "手撕：PPO loss（ppo_loss(...)）", url: "coding/t1/" }),
  ],
};

let app;
const text = (selector) => $(app, selector).textContent;
const shown = (selector) => !$(app, selector).hidden;
const P = () => window.guideProgress;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  vi.spyOn(Math, "random").mockReturnValue(0);
  vi.stubGlobal("fetch", answerPages({}));
});

afterEach(() => {
  leavePage();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// The page opened with `stored` as this browser's progress: grades given `hoursAgo` hours ago.
async function open(grades = {}, settings) {
  loadScript("practice.js");
  const s = await P().withScheduler();
  const stored = P().empty();
  Object.entries(grades).forEach(([id, [rating, hoursAgo]]) => P().grade(s, stored, id, rating, new Date(NOW - hoursAgo * HOUR)));
  stored.newDays = {};
  if (settings) stored.settings = settings;
  localStorage.setItem("guide-progress-v2", JSON.stringify(stored));
  app = mount("practice", DATA);
  return start(app, ["practice.js"]);
}

const row = (topic) => [...app.querySelector(`tr[data-topic="${topic}"]`).cells].slice(1).map((c) => c.textContent);
const current = () => $(app, ".guide-practice__question a").textContent;
const tag = () => { const t = $(app, ".guide-practice__tag"); return t ? t.textContent : null; };
const grade = (rating) => { click($(app, "[data-action=reveal]")); click($(app, `[data-rating="${rating}"]`)); };

describe("the counts", () => {
  test("today's due and new questions, and each topic's learned, due and unlearned, from this browser's progress", async () => {
    await open({ p1: [1, 2], d1: [4, 1] });  // p1 again two hours ago: due; d1 easy an hour ago: not due
    expect(text("[data-count=due]")).toBe("1");
    expect(text("[data-count=new]")).toBe("2");
    expect(row("policy-optimization")).toEqual(["1", "1", "2"]);
    expect(row("preference-optimization")).toEqual(["1", "0", "0"]);
    expect(row("rlhf")).toEqual(["0", "0", "0"]);
    expect(app.querySelector("input[name=new-per-day]").value).toBe("10");
  });

  test("the filters narrow the counts to the topic, company, difficulty and kind chosen", async () => {
    await open({ p1: [1, 2] });
    const form = app.querySelector("form");
    const choose = (name, value) => { form.elements[name].value = value; form.dispatchEvent(new Event("change")); };
    choose("topic", "preference-optimization");
    expect([text("[data-count=due]"), text("[data-count=new]")]).toEqual(["0", "1"]);
    choose("topic", "");
    choose("company", "bytedance");
    expect([text("[data-count=due]"), text("[data-count=new]")]).toEqual(["1", "0"]);
    choose("company", "");
    choose("difficulty", "advanced");
    expect(text("[data-count=new]")).toBe("1");
    choose("difficulty", "");
    choose("kind", "coding");
    expect([text("[data-count=due]"), text("[data-count=new]")]).toEqual(["0", "1"]);
  });

  test("the new-questions pace is kept between 0 and 200 and limits today's new count", async () => {
    await open();
    const perDay = app.querySelector("input[name=new-per-day]");
    const set = (value) => { perDay.value = value; perDay.dispatchEvent(new Event("change")); };
    set("2");
    expect(text("[data-count=new]")).toBe("2");
    expect(P().load().settings.newPerDay).toBe(2);
    set("999");
    expect(perDay.value).toBe("200");
    set("-3");
    expect(perDay.value).toBe("0");
    expect(text("[data-count=new]")).toBe("0");
    set("abc");
    expect(P().load().settings.newPerDay).toBe(0);
  });
});

describe("today's review", () => {
  test("due questions come first, new ones after; a coding task is marked 手撕; an 重来 comes back in the same round", async () => {
    await open({ p2: [1, 3] }, { newPerDay: 2 });
    click($(app, "[data-action=review]"));
    expect(current()).toBe("问题 p2？");
    expect(text(".guide-practice__count")).toBe("第 1 / 3 题");
    expect(text(".guide-practice__status")).toBe("先想一想（或写一写），再点“显示答案”。");
    grade(1);  // back within minutes: asked again at the end of this round
    expect(current()).toBe("问题 p1？");
    expect(text(".guide-practice__count")).toBe("第 2 / 4 题");
    grade(4);
    expect(current()).toBe("问题 d1？");
    expect(tag()).toBeNull();
    grade(4);
    expect(current()).toBe("问题 p2？");
    grade(4);
    expect(shown(".guide-practice__card")).toBe(false);
    expect(text(".guide-practice__status")).toBe("这一轮完成：重来 1，困难 0，良好 0，简单 3（共 4 次）。点“重练答得不好的”再来一遍。");
    expect(row("policy-optimization")).toEqual(["2", "0", "1"]);
    expect(P().load().newDays).toEqual({ [P().dayKey(NOW)]: 2 });
    expect(text("[data-count=new]")).toBe("0");
  });

  test("a coding task drilled on its own is marked 手撕, and a round with only good grades does not offer a retry", async () => {
    await open();
    const form = app.querySelector("form");
    form.elements.kind.value = "coding";
    click($(app, "[data-action=start]"));
    expect(tag()).toBe("手撕");
    expect(current()).toBe("手撕：PPO loss（ppo_loss(...)）");
    expect($(app, ".guide-practice__question a").href).toBe("http://localhost/coding/t1/");
    grade(4);
    expect(text(".guide-practice__status")).toBe("这一轮完成：重来 0，困难 0，良好 0，简单 1（共 1 次）。");
  });

  test("with nothing due and no new questions left today, the review says so", async () => {
    await open({ p1: [4, 1] }, { newPerDay: 0 });
    click($(app, "[data-action=review]"));
    expect(shown(".guide-practice__card")).toBe(false);
    expect(text(".guide-practice__status")).toBe("今天这个范围里没有到期的题，也没有新题额度了。");
  });

  test("the retry drills only the questions answered badly, and says when there are none", async () => {
    await open({ p1: [2, 30], d1: [3, 30] });
    click($(app, "[data-action=retry]"));
    expect(current()).toBe("问题 p1？");
    expect(text(".guide-practice__count")).toBe("第 1 / 1 题");
    grade(3);
    click($(app, "[data-action=retry]"));
    expect(text(".guide-practice__status")).toBe("这个范围里没有答得不好的题。");
  });

  test("a random round covers the whole range in shuffled order", async () => {
    await open();
    click($(app, "[data-action=start]"));
    const seen = [];
    for (let i = 0; i < 4; i++) { seen.push(current()); grade(4); }
    // Math.random() = 0: each step of the shuffle swaps the last open place with the first.
    expect(seen).toEqual(["问题 p2？", "问题 d1？", "手撕：PPO loss（ppo_loss(...)）", "问题 p1？"]);
  });

  test("the grade buttons only work once the answer shows, and the answer says what a grade decides", async () => {
    await open();
    click($(app, "[data-action=review]"));
    click($(app, "[data-rating=\"3\"]"));
    expect(current()).toBe("问题 p1？");
    expect(P().load().last.p1).toBeUndefined();
    click($(app, "[data-action=reveal]"));
    expect(text(".guide-practice__status")).toBe("答得怎么样？按实际情况选一档，它决定下次什么时候再考你。");
    expect($(app, ".guide-practice__answer").textContent).toBe("一句话答案：答案 p1");
    click($(app, "[data-rating=\"2\"]"));
    expect(P().load().last.p1).toEqual({ rating: 2, at: NOW.toISOString() });
    expect(P().load().cards.p1.due > NOW.toISOString()).toBe(true);
  });
});

describe("keys", () => {
  test("space shows the answer and 1–4 grade, except while typing in a field", async () => {
    await open();
    click($(app, "[data-action=review]"));
    const field = app.querySelector("input[name=new-per-day]");
    key(" ", field);
    expect(shown(".guide-practice__marks")).toBe(false);
    const space = new KeyboardEvent("keydown", { key: " ", bubbles: true, cancelable: true });
    document.body.dispatchEvent(space);
    expect(space.defaultPrevented).toBe(true);
    expect(shown(".guide-practice__marks")).toBe(true);
    key("4", field);
    expect(current()).toBe("问题 p1？");
    key("9");
    expect(current()).toBe("问题 p1？");
    key("4");
    expect(current()).toBe("问题 p2？");
    expect(P().load().last.p1.rating).toBe(4);
  });
});

describe("export, import, reset", () => {
  test("export downloads the whole progress as guide-progress.json", async () => {
    await open({ p1: [3, 1] });
    let blob = null;
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: (b) => { blob = b; return "blob:progress"; } }));
    let downloaded = null;
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function () { downloaded = this.download; });
    click($(app, "[data-action=export]"));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(downloaded).toBe("guide-progress.json");
    expect(blob.type).toBe("application/json");
    const saved = JSON.parse(await blob.text());
    expect(saved.last.p1.rating).toBe(3);
    expect(document.querySelector("a[download]")).toBeNull();  // the link is gone again
  });

  test("import merges a file and says how many records it took; a foreign file is refused with a reason", async () => {
    await open();
    const input = app.querySelector("[data-action=import]");
    const incoming = { version: 2, cards: {}, last: { d1: { rating: 1, at: new Date(NOW - 2 * HOUR).toISOString() } }, settings: { newPerDay: 7 },
                       newDays: {}, plan: {} };
    Object.defineProperty(input, "files", { configurable: true, value: [new File([JSON.stringify(incoming)], "p.json")] });
    input.dispatchEvent(new Event("change"));
    await vi.waitFor(() => expect(text(".guide-practice__status")).toBe("已导入 1 条记录。"));
    expect(app.querySelector("input[name=new-per-day]").value).toBe("7");
    expect(row("preference-optimization")).toEqual(["1", "1", "0"]);
    Object.defineProperty(input, "files", { configurable: true, value: [new File(['{"hello": 1}'], "x.json")] });
    input.dispatchEvent(new Event("change"));
    await vi.waitFor(() => expect(text(".guide-practice__status")).toBe("导入失败：不是本指南导出的进度文件"));
  });

  test("reset clears every grade once the reader confirms, keeping the pace; without confirming it keeps all", async () => {
    await open({ p1: [3, 1] }, { newPerDay: 4 });
    localStorage.setItem("guide-progress-v1", "{}");
    vi.stubGlobal("confirm", () => false);
    click($(app, "[data-action=reset]"));
    expect(P().load().last.p1.rating).toBe(3);
    vi.stubGlobal("confirm", () => true);
    click($(app, "[data-action=reset]"));
    const after = P().load();
    expect(after.last).toEqual({});
    expect(after.settings.newPerDay).toBe(4);
    expect(localStorage.getItem("guide-progress-v1")).toBeNull();
    expect(row("policy-optimization")).toEqual(["0", "0", "3"]);
  });
});

describe("the drill's first visit after spaced review came in", () => {
  test("old 会 / 不会 marks count as grades given then, and their cards are stored", async () => {
    localStorage.setItem("guide-progress-v1", JSON.stringify({ version: 1, questions: {
      p1: { status: "unknown", at: new Date(NOW - 48 * HOUR).toISOString() },
      d1: { status: "known", at: new Date(NOW - HOUR).toISOString() } } }));
    app = mount("practice", DATA);
    await start(app, ["practice.js"]);
    // 不会 two days ago is due; 会 an hour ago was a first 良好, back after its ten-minute step
    expect(text("[data-count=due]")).toBe("2");
    expect(row("preference-optimization")).toEqual(["1", "1", "0"]);
    const stored = JSON.parse(localStorage.getItem("guide-progress-v2"));
    expect(Object.keys(stored.cards).sort()).toEqual(["d1", "p1"]);
    expect(stored.last.p1).toMatchObject({ rating: 1, migrated: true });
  });
});

describe("marks on other pages", () => {
  test("the bank shows each question's mark and each list's tally, and leaves a page with nothing practised as built", async () => {
    const stored = { version: 2, cards: {}, settings: { newPerDay: 10 }, newDays: {}, plan: {},
                     last: { a: { rating: 3, at: NOW.toISOString() }, b: { rating: 2, at: NOW.toISOString() } } };
    localStorage.setItem("guide-progress-v2", JSON.stringify(stored));
    document.body.innerHTML = '<p class="guide-progress" data-questions="a b c"></p><p class="guide-progress" data-questions="c"></p>' +
      '<span class="guide-mark" data-question="a"></span><span class="guide-mark" data-question="b"></span>' +
      '<span class="guide-mark" data-question="c"></span>';
    loadScript("practice.js");
    const [all, none] = document.querySelectorAll(".guide-progress");
    expect(all.textContent).toBe("练习进度：会 1 / 不会 1 / 共 3");
    expect(none.textContent).toBe("");
    const marks = [...document.querySelectorAll(".guide-mark")].map((m) => [m.textContent, m.className]);
    expect(marks).toEqual([["✓ 会", "guide-mark guide-mark--known"], ["✗ 不会", "guide-mark guide-mark--unknown"], ["", "guide-mark"]]);
  });

  test("the plan's days become checkboxes whose ticks are kept and counted", async () => {
    const day = (n, text) => `<li class="task-list-item"><input type="checkbox" disabled> 第 ${n} 天：${text}</li>`;
    const page = () => { document.body.innerHTML = '<div class="guide-plan"><p class="guide-plan__count" hidden></p><ul>' +
      day(1, "PPO") + day(2, "DPO") + '<li class="task-list-item"><input type="checkbox" disabled> 复习</li></ul></div>'; };
    page();
    loadScript("practice.js");
    const boxes = () => [...document.querySelectorAll("input[type=checkbox]")];
    const count = () => document.querySelector(".guide-plan__count");
    expect(boxes().map((b) => b.disabled)).toEqual([false, false, true]);
    expect(boxes()[1].getAttribute("aria-label")).toBe("第 2 天已完成");
    expect(count().hidden).toBe(false);
    expect(count().textContent).toBe("已完成 0 / 2 天");
    boxes()[1].checked = true;
    boxes()[1].dispatchEvent(new Event("change"));
    expect(count().textContent).toBe("已完成 1 / 2 天");
    expect(JSON.parse(localStorage.getItem("guide-progress-v2")).plan["day-2"]).toEqual({ done: true, at: NOW.toISOString() });
    page();
    loadScript("practice.js");
    expect(boxes().map((b) => b.checked)).toEqual([false, true, false]);
    expect(count().textContent).toBe("已完成 1 / 2 天");
  });
});
