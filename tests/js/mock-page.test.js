// mock.js on the /mock/ page as the guide builds it: a session from its first question to its
// summary, follow-ups, the clock, keys, and a session resumed after the reader left the page.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { $, answerPages, click, key, leavePage, mount, start } from "./page.js";

const NOW = new Date(Date.UTC(2026, 5, 1, 9));
const SESSION = "guide-mock-session";
const q = (id, concept, topic, asked, follow_ups = []) =>
  ({ id, text: `问题 ${id}？`, brief: `答案 ${id}：$x_${id}$ 的值`, url: `questions/${id}/`, concept, topic, asked, follow_ups });
// With every draw at 0.5, openings come by weight: a (asked 3 times, starts a chain), c, then b, d.
const DATA = {
  questions: {
    a: q("a", "ppo", "policy-optimization", 3, ["b"]),
    b: q("b", "ppo", "policy-optimization", 0),
    c: q("c", "dpo", "preference-optimization", 1),
    d: q("d", "dpo", "preference-optimization", 0),
  },
  concepts: {
    ppo: { title: "PPO", url: "concepts/ppo/", sheet: "cheatsheets/policy-optimization/" },
    dpo: { title: "DPO", url: "concepts/dpo/", sheet: "cheatsheets/preference-optimization/" },
  },
  companies: { bytedance: ["c", "a"] },
};
const ANSWER = '<html><body><details class="guide-answer"><summary>参考答案</summary>' +
  "<p>一句话答案：不该出现两次</p><p>完整的答案在这里。</p></details></body></html>";

let app, page;
const text = (selector) => $(app, selector).textContent;
const shown = (selector) => !$(app, selector).hidden;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
  vi.setSystemTime(NOW);
  vi.spyOn(Math, "random").mockReturnValue(0.5);
  vi.stubGlobal("fetch", answerPages({ "/questions/a/": ANSWER }));
  app = mount("mock", DATA);
});

afterEach(() => {
  leavePage();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function open(setup) {
  page = await start(app, ["practice.js", "mock.js"]);
  if (setup) setup(app.querySelector("form").elements);
  return app;
}

function question() {
  const link = $(app, ".guide-practice__question a");
  const tag = $(app, ".guide-practice__tag");
  return { text: link.textContent, href: link.href, target: link.target, tag: tag ? tag.textContent : null };
}

const grade = (rating) => click($(app, `[data-rating="${rating}"]`));
const reveal = () => click($(app, "[data-action=reveal]"));
const progress = () => window.guideProgress.load();

describe("a session", () => {
  test("begins with the most weighted opening, its page opening in a new tab, and the clock at the chosen length", async () => {
    await open();
    expect(shown(".guide-practice__card")).toBe(false);
    click($(app, "[data-action=begin]"));
    expect(question()).toEqual({ text: "问题 a？", href: "http://localhost/questions/a/", target: "_blank", tag: null });
    expect($(app, ".guide-practice__question a").rel).toBe("noopener");
    expect(text(".guide-practice__count")).toBe("第 1 题");
    expect(text(".guide-practice__status")).toBe("先开口答，再点“显示答案”对照。");
    expect(text(".guide-mock__timer")).toBe("剩余 30:00");
    expect(shown(".guide-mock__timer") && shown("[data-action=finish]")).toBe(true);
    expect(shown(".guide-practice__marks")).toBe(false);
    const kept = JSON.parse(localStorage.getItem(SESSION));
    expect(kept).toEqual({ company: "", topic: "", deadline: NOW.getTime() + 30 * 60000, label: "", openings: ["c", "b", "d"],
                           asked: { a: true }, current: "a", log: [] });
  });

  test("showing the answer gives the one-line answer with its formula, the full answer once, and each grade's interval", async () => {
    await open();
    click($(app, "[data-action=begin]"));
    reveal();
    expect(text(".guide-practice__status")).toBe("答得怎么样？如实打分：答好了才会被追问。");
    const brief = $(app, ".guide-practice__answer p");
    expect(brief.querySelector("strong").textContent).toBe("一句话答案：");
    expect(brief.querySelector(".arithmatex").textContent).toBe("\\(x_a\\)");
    expect(brief.textContent).toBe("一句话答案：答案 a：\\(x_a\\) 的值");
    expect(fetch).toHaveBeenCalledWith("http://localhost/questions/a/");
    await vi.waitFor(() => expect($(app, ".guide-practice__full")).not.toBeNull());
    expect($(app, ".guide-practice__full").textContent).toBe("完整的答案在这里。");
    const intervals = [...app.querySelectorAll(".guide-grade__interval")].map((el) => el.textContent);
    expect(intervals).toHaveLength(4);
    intervals.forEach((label) => expect(label).toMatch(/^\d+ (分钟|小时|天)$/));
    expect(new Set(intervals).size).toBe(4);
    expect(shown(".guide-practice__marks")).toBe(true);
    expect(shown("[data-action=reveal]")).toBe(false);
    reveal();  // a second click adds nothing
    expect(app.querySelectorAll(".guide-practice__answer > p")).toHaveLength(1);
  });

  test("a good answer earns the follow-up, a weak one moves on to a new question, and both grades are kept", async () => {
    await open();
    click($(app, "[data-action=begin]"));
    grade(3);  // the grades are hidden until the answer shows: nothing happens
    expect(question().text).toBe("问题 a？");
    reveal();
    grade(3);
    expect(question()).toMatchObject({ text: "问题 b？", tag: "追问" });
    expect(text(".guide-practice__count")).toBe("第 2 题（追问）");
    expect(progress().last.a.rating).toBe(3);
    reveal();
    grade(1);
    expect(question()).toMatchObject({ text: "问题 c？", tag: null });
    expect(text(".guide-practice__count")).toBe("第 3 题（换个问题）");
    expect(progress().last.b.rating).toBe(1);
    const kept = JSON.parse(localStorage.getItem(SESSION));
    expect(kept.log).toEqual([{ id: "a", rating: 3 }, { id: "b", rating: 1 }]);
    expect(kept).toMatchObject({ current: "c", label: "换个问题", openings: ["b", "d"] });
  });

  test("the summary counts the follow-ups and links the concepts that went badly to their notes and sheets", async () => {
    await open();
    click($(app, "[data-action=begin]"));
    reveal(); grade(3);
    reveal(); grade(1);
    click($(app, "[data-action=finish]"));
    const summary = $(app, ".guide-mock__summary");
    expect(summary.hidden).toBe(false);
    expect(summary.querySelector("h2").textContent).toBe("总结");
    expect(summary.querySelector("p").textContent).toBe("提前结束。共问了 2 题，其中追问 1 题。");
    expect([...summary.querySelectorAll("h3")].map((h) => h.textContent)).toEqual(["没答好的知识点", "问过的题"]);
    const weak = [...summary.querySelectorAll(".guide-mock__weak li")];
    expect(weak.map((li) => li.textContent)).toEqual(["PPO · 速查表"]);
    expect([...weak[0].querySelectorAll("a")].map((a) => a.href))
      .toEqual(["http://localhost/concepts/ppo/", "http://localhost/cheatsheets/policy-optimization/"]);
    const asked = [...summary.querySelectorAll("ol li")];
    expect(asked.map((li) => li.textContent)).toEqual(["问题 a？（良好）", "问题 b？（重来）"]);
    expect(asked[1].querySelector("a").href).toBe("http://localhost/questions/b/");
    expect(text(".guide-practice__status")).toBe("打的分已经记进复习排期，明天去“练习”里复习。");
    expect(shown(".guide-practice__card") || shown("[data-action=finish]") || shown(".guide-mock__timer")).toBe(false);
    expect(localStorage.getItem(SESSION)).toBeNull();
    expect(JSON.parse(localStorage.getItem("guide-mock-recent"))).toEqual([["a", "b", "c"]]);
    click($(app, "[data-action=begin]"));  // a new session clears the summary
    expect(summary.hidden).toBe(true);
    expect(summary.innerHTML).toBe("");
  });

  test("a company's session asks what its reports asked in the topic, and ends when they run out", async () => {
    await open((form) => { form.company.value = "bytedance"; form.topic.value = "preference-optimization"; });
    click($(app, "[data-action=begin]"));
    expect(question().text).toBe("问题 c？");
    reveal(); grade(4);
    const summary = $(app, ".guide-mock__summary");
    expect(summary.querySelector("p").textContent).toBe("这个范围的题问完了。共问了 1 题，其中追问 0 题。");
    expect(summary.querySelector("h3").textContent).toBe("这一轮没有答得不好的题");
    expect(summary.querySelector(".guide-mock__weak")).toBeNull();
  });

  test("a range with no questions says so and starts nothing", async () => {
    await open((form) => { form.company.value = "bytedance"; form.topic.value = "rl-systems"; });
    click($(app, "[data-action=begin]"));
    expect(text(".guide-practice__status")).toBe("这家公司的面经里没有这个专题的题，换个组合试试。");
    expect(shown(".guide-practice__card")).toBe(false);
    app.querySelector("form").elements.company.value = "";
    click($(app, "[data-action=begin]"));
    expect(text(".guide-practice__status")).toBe("这个范围里没有题。");
    expect(localStorage.getItem(SESSION)).toBeNull();
  });

  test("a question answered badly last time, and due again, opens the session ahead of the most asked", async () => {
    const P = window.guideProgress;
    await open();
    const s = await P.withScheduler();
    const stored = P.empty();
    P.grade(s, stored, "d", 1, new Date(NOW.getTime() - 86400e3));
    leavePage();
    localStorage.setItem("guide-progress-v2", JSON.stringify(stored));
    app = mount("mock", DATA);
    await open();
    click($(app, "[data-action=begin]"));
    expect(question().text).toBe("问题 d？");
  });

  test("questions asked in the last sessions open a session last", async () => {
    localStorage.setItem("guide-mock-recent", JSON.stringify([["a"], ["c"]]));
    await open();
    click($(app, "[data-action=begin]"));
    expect(JSON.parse(localStorage.getItem(SESSION)).openings).toEqual(["d", "a", "c"]);
    expect(question().text).toBe("问题 b？");
  });
});

describe("the clock", () => {
  test("counts down each second, and when time is up the next grade ends the session", async () => {
    await open((form) => { form.minutes.value = "15"; });
    click($(app, "[data-action=begin]"));
    expect(text(".guide-mock__timer")).toBe("剩余 15:00");
    vi.advanceTimersByTime(61500);  // the clock shows the last whole second it ticked
    expect(text(".guide-mock__timer")).toBe("剩余 13:59");
    vi.advanceTimersByTime(14 * 60000);
    expect(text(".guide-mock__timer")).toBe("剩余 0:00");
    reveal(); grade(4);  // a good answer, but no follow-up when time is up
    expect($(app, ".guide-mock__summary p").textContent).toBe("时间到。共问了 1 题，其中追问 0 题。");
    vi.advanceTimersByTime(5000);  // the clock has stopped
    expect(text(".guide-mock__timer")).toBe("剩余 0:00");
  });
});

describe("keys", () => {
  test("space shows the answer and 1–4 grade, but not while a setting has the focus or before a session", async () => {
    await open();
    key(" ");
    expect(shown(".guide-practice__card")).toBe(false);
    click($(app, "[data-action=begin]"));
    const select = app.querySelector("select[name=topic]");
    key(" ", select);
    expect(shown(".guide-practice__marks")).toBe(false);
    const space = new KeyboardEvent("keydown", { key: " ", bubbles: true, cancelable: true });
    document.body.dispatchEvent(space);
    expect(space.defaultPrevented).toBe(true);
    expect(shown(".guide-practice__marks")).toBe(true);
    expect(text(".guide-practice__status")).toBe("答得怎么样？如实打分：答好了才会被追问。");
    key("3", select);
    expect(question().text).toBe("问题 a？");
    key("5");
    expect(question().text).toBe("问题 a？");
    key("3");
    expect(question()).toMatchObject({ text: "问题 b？", tag: "追问" });
    key(" ");
    key("2");
    expect(question().text).toBe("问题 c？");
    expect(progress().last.b.rating).toBe(2);
  });
});

describe("leaving and coming back", () => {
  const kept = (deadline, current = "b") => ({
    company: "", topic: "preference-optimization", deadline, label: "追问", openings: ["c", "gone"], asked: { a: true, b: true },
    current, log: [{ id: "a", rating: 3 }, { id: "gone", rating: 1 }],
  });

  test("a session left in the middle resumes at the same question, with the same clock and what is left to ask", async () => {
    localStorage.setItem(SESSION, JSON.stringify(kept(NOW.getTime() + 10 * 60000)));
    await open();
    expect(question()).toMatchObject({ text: "问题 b？", tag: "追问" });
    expect(text(".guide-practice__count")).toBe("第 2 题（追问）");
    expect(text(".guide-practice__status")).toBe("接着上次没做完的模拟面试。先开口答，再点“显示答案”对照。");
    expect(text(".guide-mock__timer")).toBe("剩余 10:00");
    expect(app.querySelector("form").elements.topic.value).toBe("preference-optimization");
    reveal(); grade(1);
    expect(question().text).toBe("问题 c？");
    reveal(); grade(1);
    expect($(app, ".guide-mock__summary p").textContent).toBe("这个范围的题问完了。共问了 3 题，其中追问 1 题。");
    expect([...app.querySelectorAll(".guide-mock__weak li")].map((li) => li.textContent)).toEqual(["PPO · 速查表", "DPO · 速查表"]);
  });

  test("a session whose time ran out over twelve hours ago is dropped, and one whose question is gone is not resumed", async () => {
    localStorage.setItem(SESSION, JSON.stringify(kept(NOW.getTime() - 12 * 3600e3 - 1000)));
    await open();
    expect(shown(".guide-practice__card")).toBe(false);
    expect(localStorage.getItem(SESSION)).toBeNull();
    leavePage();
    localStorage.setItem(SESSION, JSON.stringify(kept(NOW.getTime() - 11 * 3600e3)));
    app = mount("mock", DATA);
    await open();
    expect(question().text).toBe("问题 b？");  // time is up, but within the twelve hours: resumed
    leavePage();
    localStorage.setItem(SESSION, JSON.stringify(kept(NOW.getTime() + 60000, "gone")));
    app = mount("mock", DATA);
    await open();
    expect(shown(".guide-practice__card")).toBe(false);
  });
});
