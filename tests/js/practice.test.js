// practice.js: what is due, how new questions mix into today's review, what is stored, no fuzz.
import { beforeEach, describe, expect, test } from "vitest";
import * as FSRS from "ts-fsrs";
import { loadScript } from "./load.js";

let P, s;
const DAY = 86400e3;
const NOW = new Date(Date.UTC(2026, 5, 1, 9));

beforeEach(async () => {
  localStorage.clear();
  loadScript("practice.js");
  P = window.guideProgress;
  s = await P.withScheduler();
});

function questions(n, prefix = "q") {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}` }));
}

describe("what is due", () => {
  test("a card graded 重来 an hour ago is due; one graded 简单 an hour ago is not", () => {
    const progress = P.empty();
    P.grade(s, progress, "again", 1, new Date(NOW - 3600e3));
    P.grade(s, progress, "easy", 4, new Date(NOW - 3600e3));
    expect(P.isDue(s, progress, "again", NOW)).toBe(true);
    expect(P.isDue(s, progress, "easy", NOW)).toBe(false);
  });

  test("a card is due exactly at its due time, not a millisecond before", () => {
    const progress = P.empty();
    const card = P.grade(s, progress, "q", 3, NOW);
    expect(P.isDue(s, progress, "q", new Date(card.due.getTime() - 1))).toBe(false);
    expect(P.isDue(s, progress, "q", card.due)).toBe(true);
  });

  test("a question never graded is new, not due", () => {
    expect(P.isDue(s, P.empty(), "never", NOW)).toBe(false);
    expect(P.seen(P.empty(), "never")).toBe(false);
  });
});

describe("today's review", () => {
  function withDue(n) {
    const progress = P.empty();
    questions(n, "d").forEach((q, i) => P.grade(s, progress, q.id, 1, new Date(NOW - (n - i) * 3600e3)));
    progress.newDays = {};
    return progress;
  }

  test("one new question after every three due ones, the oldest due first", () => {
    const progress = withDue(7);
    const queue = P.todaysQueue(s, progress, [...questions(7, "d"), ...questions(3, "n")], NOW).map((q) => q.id);
    expect(queue).toEqual(["d0", "d1", "d2", "n0", "d3", "d4", "d5", "n1", "d6", "n2"]);
  });

  test("due cards come oldest due first whatever the order of the pool", () => {
    const progress = P.empty();
    P.grade(s, progress, "late", 1, new Date(NOW - 1 * 3600e3));
    P.grade(s, progress, "early", 1, new Date(NOW - 5 * 3600e3));
    P.grade(s, progress, "middle", 1, new Date(NOW - 3 * 3600e3));
    progress.newDays = {};
    const queue = P.todaysQueue(s, progress, [{ id: "late" }, { id: "middle" }, { id: "early" }], NOW).map((q) => q.id);
    expect(queue).toEqual(["early", "middle", "late"]);
  });

  test("a question graded only under the old marks is not new: grading it counts nothing for today", () => {
    const progress = P.empty();
    progress.last.old = { rating: 3, at: new Date(NOW - 10 * DAY).toISOString() };
    P.grade(s, progress, "old", 3, NOW);
    expect(progress.newDays[P.dayKey(NOW)] || 0).toBe(0);
    P.grade(s, progress, "fresh", 3, NOW);
    expect(progress.newDays[P.dayKey(NOW)]).toBe(1);
  });

  test("new questions stop at the reader's pace and count what today already brought", () => {
    const progress = withDue(0);
    progress.settings.newPerDay = 4;
    progress.newDays[P.dayKey(NOW)] = 1;
    expect(P.newLeft(progress, NOW)).toBe(3);
    expect(P.todaysQueue(s, progress, questions(10, "n"), NOW).map((q) => q.id)).toEqual(["n0", "n1", "n2"]);
  });

  test("grading a new question counts it for today", () => {
    const progress = P.empty();
    P.grade(s, progress, "n0", 3, NOW);
    P.grade(s, progress, "n0", 3, new Date(NOW.getTime() + 60e3));  // the same card again: not new
    expect(progress.newDays[P.dayKey(NOW)]).toBe(1);
  });
});

describe("what is stored", () => {
  test("the stored due date is the scheduler's, and survives a reload", () => {
    const progress = P.empty();
    const card = P.grade(s, progress, "q", 3, NOW);
    const stored = JSON.parse(localStorage.getItem("guide-progress-v2"));
    expect(stored.cards.q.due).toBe(card.due.toISOString());
    expect(stored.last.q).toEqual({ rating: 3, at: NOW.toISOString() });
    expect(P.load().cards.q.due).toBe(card.due.toISOString());
    expect(P.cardOf(s, P.load(), "q", NOW).due.getTime()).toBe(card.due.getTime());
  });

  test("intervals are not fuzzed: the schedule is ts-fsrs's own with fuzz off, to the millisecond", () => {
    // ts-fsrs seeds its fuzz from the review itself, so a fuzzed schedule repeats: compare with
    // the unfuzzed scheduler instead.
    const reference = FSRS.fsrs(FSRS.generatorParameters({ enable_fuzz: false }));
    const progress = P.empty();
    let card = FSRS.createEmptyCard(NOW);
    let at = NOW;
    for (const rating of [3, 3, 3, 2, 3, 4, 3, 3]) {
      const mine = P.grade(s, progress, "q", rating, at);
      card = reference.next(card, at, rating).card;
      expect(mine.due.getTime()).toBe(card.due.getTime());
      at = card.due;
    }
    expect(card.scheduled_days).toBeGreaterThan(30);  // long intervals, where fuzz would move the date
  });

  test("old 会 / 不会 marks become 良好 / 重来 at the time they were given", () => {
    localStorage.setItem("guide-progress-v1", JSON.stringify({ version: 1, questions: {
      a: { status: "known", at: "2026-01-02T00:00:00.000Z" }, b: { status: "unknown", at: "2026-01-03T00:00:00.000Z" } } }));
    const progress = P.load();
    expect(progress.last).toEqual({ a: { rating: 3, at: "2026-01-02T00:00:00.000Z", migrated: true },
                                    b: { rating: 1, at: "2026-01-03T00:00:00.000Z", migrated: true } });
    expect(P.known(progress, "a")).toBe("known");
    expect(P.known(progress, "b")).toBe("unknown");
  });

  test("an import keeps the newer of two grades and refuses a file that is not progress", () => {
    const mine = P.empty();
    mine.last = { a: { rating: 1, at: "2026-02-01T00:00:00Z" }, b: { rating: 4, at: "2026-03-01T00:00:00Z" } };
    const theirs = { version: 2, cards: {}, last: { a: { rating: 3, at: "2026-02-02T00:00:00Z" },
                                                    b: { rating: 1, at: "2026-02-15T00:00:00Z" } } };
    expect(P.merge(mine, theirs)).toBe(2);
    expect(mine.last.a.rating).toBe(3);
    expect(mine.last.b.rating).toBe(4);
    expect(() => P.merge(mine, { hello: 1 })).toThrow("不是本指南导出的进度文件");
  });

  test("an import brings the newer grade's schedule and the reader's settings with it", () => {
    const mine = P.empty();
    P.grade(s, mine, "a", 1, new Date(NOW - 2 * DAY));
    const theirs = P.empty();
    const card = P.grade(s, theirs, "a", 4, NOW);
    theirs.settings.newPerDay = 7;
    P.merge(mine, JSON.parse(JSON.stringify(theirs)));
    expect(mine.settings.newPerDay).toBe(7);
    expect(new Date(mine.cards.a.due).getTime()).toBe(card.due.getTime());
    expect(P.isDue(s, mine, "a", new Date(NOW.getTime() + 3600e3))).toBe(false);
  });
});

describe("the intervals shown on the grade buttons", () => {
  test.each([[30e3, "1 分钟"], [45 * 60e3, "45 分钟"], [5 * 3600e3, "5 小时"], [3 * DAY, "3 天"], [90 * DAY, "3 个月"],
             [400 * DAY, "1.1 年"], [730 * DAY, "2 年"],
             // where one unit gives way to the next
             [59 * 60e3, "59 分钟"], [3600e3, "1 小时"], [23 * 3600e3, "23 小时"], [DAY, "1 天"], [30 * DAY, "30 天"],
             [31 * DAY, "1 个月"], [364 * DAY, "12 个月"], [365 * DAY, "1 年"]])("%d ms reads %s", (ms, text) => {
    expect(P.interval(ms)).toBe(text);
  });
});

describe("the study plan's days", () => {
  test("a ticked day is stored with its time, and an import keeps the newer of two marks", () => {
    const mine = P.empty();
    P.markDay(mine, "day-1", true, new Date(NOW - DAY));
    P.markDay(mine, "day-2", true, new Date(NOW));
    expect(P.dayDone(mine, "day-1")).toBe(true);
    expect(P.dayDone(mine, "day-3")).toBe(false);
    const theirs = P.empty();
    P.markDay(theirs, "day-1", false, new Date(NOW));             // unticked later elsewhere: wins
    P.markDay(theirs, "day-2", false, new Date(NOW - DAY));       // unticked earlier: loses
    P.markDay(theirs, "day-3", true, new Date(NOW));              // new
    expect(P.merge(mine, JSON.parse(JSON.stringify(theirs)))).toBe(2);
    expect([1, 2, 3].map((n) => P.dayDone(mine, `day-${n}`))).toEqual([false, true, true]);
  });

  test("a file from before the plan had checkboxes imports without touching the days", () => {
    const mine = P.empty();
    P.markDay(mine, "day-4", true, new Date(NOW));
    const old = { version: 2, cards: {}, last: {}, settings: { newPerDay: 5 }, newDays: {} };
    expect(P.merge(mine, old)).toBe(0);
    expect(P.dayDone(mine, "day-4")).toBe(true);
  });
});

describe("the one-line answer on a card", () => {
  test("its $…$ formulas become formula elements for math.js; other text, and a lone $, stay text", () => {
    const el = document.createElement("p");
    P.appendWithFormulas(el, "熵 $H=-\\sum_i p_i\\log p_i$ 越低，$x_t$ 越确定；花了 5$ 不是公式");
    expect([...el.childNodes].map((n) => (n.nodeType === 3 ? n.textContent : `[${n.className}:${n.textContent}]`))).toEqual([
      "熵 ", "[arithmatex:\\(H=-\\sum_i p_i\\log p_i\\)]", " 越低，", "[arithmatex:\\(x_t\\)]", " 越确定；花了 5$ 不是公式"]);
  });
});
