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

test("a Han pair is looked up whole even as the word being typed; a single character as a prefix", () => {
  // Pagefind replaces a word it cannot find with its longest prefix that is a stored word: a pair
  // looked up without its end mark could come back as the pages of its first character.
  const pair = S.pagefindWord("量子", true), one = S.pagefindWord("量", true);
  expect(pair.endsWith("\u01c3")).toBe(true);
  expect(one.endsWith("\u01c3")).toBe(false);
  expect(pair.startsWith(one)).toBe(true);
  expect(S.pagefindWord("量", false)).toBe(one + "\u01c3");
  expect(S.pagefindWord("ppo", true)).toBe("ppo");
  expect(S.pagefindWord("ppo", false)).toBe("ppo\u01c3");
});

test("the query's tokens: Han pairs, words, identifiers whole and in parts, particles dropped, each once", () => {
  expect(S.queryTokens("熵")).toEqual(["熵"]);
  expect(S.queryTokens("熵坍塌")).toEqual(["熵坍", "坍塌"]);
  expect(S.queryTokens("GRPO 的 KL")).toEqual(["grpo", "kl"]);
  expect(S.queryTokens("的")).toEqual(["的"]);
  expect(S.queryTokens("ppo_mini_batch")).toEqual(["ppo", "mini", "batch", "ppominibatch"]);
  expect(S.queryTokens("Kv-Cache kv")).toEqual(["kv", "cache", "kvcache"]);
  expect(S.queryTokens("ＰＰＯ ppo")).toEqual(["ppo"]);
});

test("a Han character's code: three symbols, the same the indexer writes (search.py, _han_code)", () => {
  const SYMBOLS = "0123456789bcdfghjklmnpqrstvwxz";
  const code = (c) => { const v = c.codePointAt(0) - 0x4e00; return [900, 30, 1].map((d) => SYMBOLS[Math.floor(v / d) % 30]).join(""); };
  expect(S.pagefindWord("一", false)).toBe("\u01c2000\u01c3");
  expect(S.pagefindWord("熵", false)).toBe("\u01c2" + code("熵") + "\u01c3");
  expect(S.pagefindWord("熵坍", false)).toBe("\u01c2" + code("熵") + code("坍") + "\u01c3");
  expect(code("熵")).not.toBe("000");
});

test("an English synonym matches whole words only; a Chinese one anywhere in the query", () => {
  const groups = [["奖励模型", "rm", "reward model"], ["幻觉", "hallucination"]];
  expect(S.terms("rmsnorm", groups)).toEqual([{ alternatives: [["rmsnorm"]], typed: ["rmsnorm"] }]);
  expect(S.terms("RM 训练", groups).map((t) => t.typed)).toEqual([["训练"], ["rm"]]);
  expect(S.terms("控制幻觉的方法", groups).at(-1).alternatives).toEqual([["幻觉"], ["hallucination"]]);
  expect(S.terms("a.b", [["a.b", "c"]]).at(-1).typed).toEqual(["a", "b", "ab"]);
});

test("a word the text repeats counts a little more, up to three times; body below every other field", () => {
  const pages = { once: { grpo: [at.body] }, twice: { grpo: [at.body, at.body + 9] },
                  often: { grpo: [at.body, at.body + 9, at.body + 19, at.body + 29, at.body + 39] },
                  heading: { grpo: [at.heading] } };
  const ranked = S.rank(S.terms("grpo", []), hits(pages), 1000, ["grpo"]);
  expect(ranked.map((p) => p.result.id)).toEqual(["heading", "often", "twice", "once"]);
  const score = Object.fromEntries(ranked.map((p) => [p.result.id, p.score]));
  expect(score.twice / score.once).toBeCloseTo(1.3, 5);
  expect(score.often / score.once).toBeCloseTo(1.6, 5);
});

test("a phrase bonus needs the pair in the query's order and next to each other", () => {
  const pages = { ordered: { ppo: [at.body], clip: [at.body + 1] }, reversed: { ppo: [at.body + 1], clip: [at.body] } };
  const ranked = S.rank(S.terms("ppo clip", []), hits(pages), 1000, ["ppo", "clip"]);
  expect(ranked.map((p) => p.result.id)).toEqual(["ordered", "reversed"]);
  expect(ranked[0].score).toBeGreaterThan(ranked[1].score);
});

test("equal scores keep a fixed order, by page id", () => {
  const pages = { b: { grpo: [at.title] }, a: { grpo: [at.title] }, c: { grpo: [at.title] } };
  expect(order("grpo", pages)).toEqual(["a", "b", "c"]);
});

test("of two titles with the query, the one it opens ranks first", () => {
  const pages = { named: { "重要": [at.title], "要性": [at.title + 1] }, inside: { "重要": [at.title + 4], "要性": [at.title + 5] },
                  question: { "重要": [at.qtitle], "要性": [at.qtitle + 1] } };
  const ranked = order("重要性", pages);
  expect(ranked[0]).toBe("named");
  expect(ranked.indexOf("named")).toBeLessThan(ranked.indexOf("inside"));
  const q = S.rank(S.terms("重要性", []), hits({ opens: pages.question, inner: { "重要": [at.qtitle + 3], "要性": [at.qtitle + 4] } }),
                   1000, S.queryTokens("重要性"));
  expect(q.map((p) => p.result.id)).toEqual(["opens", "inner"]);
});

test("the word being typed, looked up whole and as a prefix: each page once, with all its positions", () => {
  const data = () => "d";
  const whole = [{ id: "a", words: [3, 9], data }, { id: "b", words: [1], data }];
  const prefix = [{ id: "a", words: [9, 40], data }, { id: "c", words: [7], data }];
  const merged = S.mergeResults(whole, prefix);
  expect(merged.map((r) => [r.id, [...r.words].sort((x, y) => x - y)])).toEqual([["a", [3, 9, 40]], ["b", [1]], ["c", [7]]]);
  // Pagefind's own objects, not copies: Pagefind frees the data of a result object once it is
  // collected, so a copy's data() would resolve to null and its page drop out of the list.
  expect(merged[0]).toBe(whole[0]);
  expect(merged[1]).toBe(whole[1]);
  expect(merged[2]).toBe(prefix[1]);
});

test("where a word sits weighs as documented: title 8, names 6, summary 3, heading 2, text 1; a question's own sentence ×0.8, a page named by it ×1.15, a title it opens ×1.03", () => {
  const pages = { title: { dpo: [at.title] }, names: { dpo: [at.names] }, summary: { dpo: [at.summary] },
                  qtitle: { dpo: [at.qtitle] }, qnames: { dpo: [HEAD + 50] }, qsummary: { dpo: [HEAD + 130] },
                  heading: { dpo: [at.heading] }, body: { dpo: [at.body] } };
  const ranked = S.rank(S.terms("dpo", []), hits(pages), 1000, ["dpo"]);
  const score = Object.fromEntries(ranked.map((p) => [p.result.id, p.score / ranked.find((r) => r.result.id === "body").score]));
  expect(score.title).toBeCloseTo(8 * 1.15 * 1.03, 5);
  expect(score.names).toBeCloseTo(6 * 1.15, 5);
  expect(score.summary).toBeCloseTo(3, 5);
  expect(score.qtitle).toBeCloseTo(8 * 0.8 * 1.03, 5);
  expect(score.qnames).toBeCloseTo(6 * 0.8, 5);
  expect(score.qsummary).toBeCloseTo(3 * 0.8, 5);
  expect(score.heading).toBeCloseTo(2, 5);
  expect(ranked.every((p) => p.complete)).toBe(true);
});

test("a synonym the reader did not type counts 0.9 of the word typed; a word no page has finds nothing", () => {
  const groups = [["参考模型", "reference model"]];
  const pages = { typed: { "参考": [at.body], "考模": [at.body + 10], "模型": [at.body + 20] },  // apart: no phrase bonus
                  other: { reference: [at.body], model: [at.body + 1] } };
  const ranked = S.rank(S.terms("参考模型", groups), hits(pages), 1000, S.queryTokens("参考模型"));
  const score = Object.fromEntries(ranked.map((p) => [p.result.id, p.score]));
  expect(score.other / score.typed).toBeCloseTo(0.9, 5);
  expect(S.rank(S.terms("量子", []), hits({}), 1000, ["量子"])).toEqual([]);
});
