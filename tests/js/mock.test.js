// mock.js: which questions a mock interview opens with, and which follow-up a good answer earns.
import { beforeEach, expect, test } from "vitest";
import { loadScript } from "./load.js";

let M;
const q = (id, asked, topic, follow_ups = []) => ({ id, asked, topic, follow_ups });
const DATA = {
  questions: { a: q("a", 1, "rl", ["b", "c"]), b: q("b", 5, "rl"), c: q("c", 0, "rl", ["a"]), d: q("d", 9, "llm"), e: q("e", 2, "rl") },
  companies: { acme: ["e", "a", "d"] },
};

function seeded(seed) {  // mulberry32: a repeatable random() for the tests
  return function () {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeEach(() => {
  localStorage.clear();
  loadScript("practice.js");
  loadScript("mock.js");
  M = window.guideMock;
});

test("openings are drawn at random: sessions open differently, each with every question of the range once", () => {
  const firsts = new Set();
  for (let seed = 1; seed <= 30; seed++) {
    const order = M.openings(DATA, "", "", null, seeded(seed)).map((x) => x.id);
    expect([...order].sort()).toEqual(["a", "b", "c", "d", "e"]);
    firsts.add(order[0]);
  }
  expect(firsts.size).toBeGreaterThanOrEqual(4);
});

test("a company's mock draws only on what its reports asked, within the topic", () => {
  expect(M.openings(DATA, "acme", "", null, seeded(7)).map((x) => x.id).sort()).toEqual(["a", "d", "e"]);
  expect(M.openings(DATA, "acme", "llm", null, seeded(7)).map((x) => x.id)).toEqual(["d"]);
  expect(M.openings(DATA, "nobody", "", null, seeded(7))).toEqual([]);
});

function openingCounts(known, trials = 4000) {
  const counts = {};
  const random = seeded(42);
  for (let i = 0; i < trials; i++) {
    const first = M.openings(DATA, "", "rl", known, random)[0].id;
    counts[first] = (counts[first] || 0) + 1;
  }
  return counts;
}

test("questions answered badly or due open more often, those asked in the last sessions rarely", () => {
  const plain = openingCounts(() => ({}));
  const weak = openingCounts((id) => ({ weak: id === "e" }));
  const due = openingCounts((id) => ({ due: id === "e" }));
  const recent = openingCounts((id) => ({ recent: id === "a" }));
  expect(weak.e).toBeGreaterThan(1.8 * plain.e);
  expect(due.e).toBeGreaterThan(1.4 * plain.e);
  expect(recent.a || 0).toBeLessThan(0.2 * plain.a);
  expect(plain.a).toBeGreaterThan(plain.e);  // a starts a chain: interviewers open with a core question
});

test("the last three sessions' questions are remembered, no more", () => {
  M.remember(["a"]);
  M.remember(["b"]);
  M.remember(["c"]);
  M.remember(["d"]);
  expect(Object.keys(M.recentIds()).sort()).toEqual(["b", "c", "d"]);
  expect(M.recentIds().d).toBe(true);
});

test("the same random source draws the same openings: the draw is the only chance in it", () => {
  const once = M.openings(DATA, "", "", null, seeded(11)).map((x) => x.id);
  expect(M.openings(DATA, "", "", null, seeded(11)).map((x) => x.id)).toEqual(once);
});

test("a good answer earns the first follow-up not asked yet; a weak one earns none", () => {
  expect(M.followUp(DATA, DATA.questions.a, 3, {}).id).toBe("b");
  expect(M.followUp(DATA, DATA.questions.a, 4, { b: true }).id).toBe("c");
  expect(M.followUp(DATA, DATA.questions.a, 3, { b: true, c: true })).toBeNull();
  expect(M.followUp(DATA, DATA.questions.a, 2, {})).toBeNull();
  expect(M.followUp(DATA, DATA.questions.b, 4, {})).toBeNull();
});
