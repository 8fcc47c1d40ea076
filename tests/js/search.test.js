// search.js's ranking on hand-made Pagefind results: what a reader's query finds, and in what order.
import { createRequire } from "node:module";
import { expect, test } from "vitest";

const require = createRequire(import.meta.url);
const S = require("../../docs/assets/js/search.js");
const HEAD = 192, BODY = 2 * HEAD + 96;
const at = { title: 0, names: 50, summary: 130, qtitle: HEAD, heading: 2 * HEAD, body: BODY + 10 };

// hits[token] = [{id, words}] as Pagefind returns them; every page also has some unrelated text.
function hits(pages) {
  const out = {};
  Object.entries(pages).forEach(([id, tokens]) => {
    Object.entries(tokens).forEach(([token, positions]) => {
      (out[token] = out[token] || []).push({ id, words: positions });
    });
  });
  return out;
}

function order(query, pages, synonyms = [], total = 1000) {
  const terms = S.terms(query, synonyms);
  return S.rank(terms, hits(pages), total, S.queryTokens(query)).map((p) => p.result.id);
}

test("no word is required: a page with the rare words is found when another word is on no page", () => {
  const found = order("熵坍塌 量子纠缠", { collapse: { "熵坍": [at.title], "坍塌": [at.title + 1] } });
  expect(found).toEqual(["collapse"]);
});

test("a rare word counts more than a common one, and a title more than the text", () => {
  const pages = {
    common: { grpo: [at.body], "作用": [at.title] },
    rare: { grpo: [at.title] },
    text: { grpo: [at.body + 5] },
  };
  const filler = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { "作用": [at.body] }]));
  // `rare` has the rare word in its title; `common` has it in its text and only the common word in
  // its title: the rare word decides.
  expect(order("GRPO 作用", { ...pages, ...filler }).slice(0, 3)).toEqual(["rare", "common", "text"]);
  expect(order("GRPO", pages)).toEqual(["rare", "common", "text"]);
});

test("a page that owns the name (concept, task) ranks above a question with the name in its sentence", () => {
  expect(order("DPO", { question: { dpo: [at.qtitle] }, concept: { dpo: [at.title] } })).toEqual(["concept", "question"]);
});

test("words side by side in the page as in the query rank above the same words apart", () => {
  const apart = { "奖励": [at.body], "励黑": [at.body + 40], "黑客": [at.body + 80] };
  const phrase = { "奖励": [at.body], "励黑": [at.body + 1], "黑客": [at.body + 2] };
  expect(order("奖励黑客", { apart, phrase })).toEqual(["phrase", "apart"]);
});

test("a Han word weighs as one term, not one per character pair", () => {
  // "数据构造" is three pairs; DPO one word: a page with DPO in the title and the other word in its
  // text beats a page with only the Han word in its title.
  const pages = { dpoPage: { dpo: [at.title], "数据": [at.body], "据构": [at.body + 1], "构造": [at.body + 2] },
                  dataPage: { "数据": [at.title], "据构": [at.title + 1], "构造": [at.title + 2] } };
  expect(order("DPO 数据构造", pages)).toEqual(["dpoPage", "dataPage"]);
});

test("a synonym group finds the page that uses another of its words, a little below the word typed", () => {
  const groups = [["幻觉", "hallucination"]];
  const pages = { english: { hallucination: [at.title] }, chinese: { "幻觉": [at.title] }, none: { "控制": [at.body] } };
  expect(order("幻觉", pages, groups).slice(0, 2)).toEqual(["chinese", "english"]);
  const terms = S.terms("控制幻觉", groups);
  expect(terms).toEqual([{ alternatives: [["控制", "制幻"]], typed: ["控制", "制幻"] },
                         { alternatives: [["幻觉"], ["hallucination"]], typed: ["幻觉"] }]);
});

test("a page with every term of the query is marked complete", () => {
  const ranked = S.rank(S.terms("ppo clip", []), hits({ both: { ppo: [at.title], clip: [at.body] }, one: { ppo: [at.title] } }), 1000,
                        ["ppo", "clip"]);
  expect(ranked.map((p) => [p.result.id, p.complete])).toEqual([["both", true], ["one", false]]);
});

test("positions tell the field", () => {
  expect([0, 47, 48, 127, 128, 191, 192, 239, 240, 384, 479, 480, 5000].map(S.field)).toEqual(
    ["title", "title", "names", "names", "summary", "summary", "title", "title", "names", "headings", "headings", "body", "body"]);
});
