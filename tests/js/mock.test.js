// mock.js: which questions a mock interview opens with, and which follow-up a good answer earns.
import { beforeEach, expect, test } from "vitest";
import { loadScript } from "./load.js";

let M;
const q = (id, asked, topic, follow_ups = []) => ({ id, asked, topic, follow_ups });
const DATA = {
  questions: { a: q("a", 1, "rl", ["b", "c"]), b: q("b", 5, "rl"), c: q("c", 0, "rl", ["a"]), d: q("d", 9, "llm"), e: q("e", 2, "rl") },
  companies: { acme: ["e", "a", "d"] },
};

beforeEach(() => {
  loadScript("practice.js");
  loadScript("mock.js");
  M = window.guideMock;
});

test("without a company: questions that start a chain first, each group most asked first", () => {
  expect(M.openings(DATA, "", "").map((x) => x.id)).toEqual(["a", "c", "d", "b", "e"]);
  expect(M.openings(DATA, "", "rl").map((x) => x.id)).toEqual(["a", "c", "b", "e"]);
});

test("a company's mock keeps its reports' order, chains first, and its topic filter", () => {
  expect(M.openings(DATA, "acme", "").map((x) => x.id)).toEqual(["a", "e", "d"]);
  expect(M.openings(DATA, "acme", "llm").map((x) => x.id)).toEqual(["d"]);
  expect(M.openings(DATA, "nobody", "")).toEqual([]);
});

test("a good answer earns the first follow-up not asked yet; a weak one earns none", () => {
  expect(M.followUp(DATA, DATA.questions.a, 3, {}).id).toBe("b");
  expect(M.followUp(DATA, DATA.questions.a, 4, { b: true }).id).toBe("c");
  expect(M.followUp(DATA, DATA.questions.a, 3, { b: true, c: true })).toBeNull();
  expect(M.followUp(DATA, DATA.questions.a, 2, {})).toBeNull();
  expect(M.followUp(DATA, DATA.questions.b, 4, {})).toBeNull();
});
