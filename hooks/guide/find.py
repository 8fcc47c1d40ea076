"""Authors' lookups: `make find Q=…` (which ids exist for these words) and the warnings of
`make check` (two notes claiming one search word, two questions asking the same thing).

Both read the validated corpus only; neither is part of the build. Words are cut with the
search tokenizer (`search.query_tokens` / `index_tokens`), so "find" matches what readers'
searches would match: Chinese by character bigrams, identifiers whole and in parts.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from .errors import Problem
from .model import Corpus, Question
from .search import index_tokens, normalize, query_tokens

FIELD_WEIGHTS = {"id": 5.0, "title": 4.0, "en": 3.0, "aliases": 3.0, "text": 2.0, "summary": 1.0}
"""How much a match in each field counts: names first, then what the entity says about itself."""


@dataclass(frozen=True)
class Found:
    kind: str
    id: str
    title: str
    score: float
    matched: str
    """The field whose words matched best, shown so the author sees why."""


def entries(corpus: Corpus) -> list[tuple[str, str, str, dict[str, list[str]]]]:
    """(kind, id, title, {field: texts}) for every concept, question and report."""
    found = []
    for c in corpus.concepts.values():
        found.append(("concept", c.id, c.title, {"id": [c.id], "title": [c.title], "en": [c.en], "aliases": list(c.aliases),
                                                 "summary": [c.summary]}))
    for q in corpus.questions.values():
        found.append(("question", q.id, q.text, {"id": [q.id], "title": [q.text], "summary": [q.brief]}))
    for r in corpus.reports.values():
        company = corpus.taxonomy.company.get(r.company or "")
        found.append(("report", r.id, r.title, {"id": [r.id], "title": [r.title], "text": [company.name if company else "", r.team],
                                                "summary": [r.summary]}))
    for t in getattr(corpus, "coding", {}).values():
        found.append(("coding", t.id, t.title, {"id": [t.id], "title": [t.title], "en": [t.en], "aliases": list(t.aliases),
                                                "summary": [t.summary]}))
    return found


def find(corpus: Corpus, query: str, limit: int = 15) -> list[Found]:
    """Entities whose names or text share the query's words, best first.

    Score: for each field, the weight times the share of the query's tokens found there; the best
    field counts fully, the others a tenth (a note that names the words beats one that only uses
    them). Entities matching every token rank before partial matches.
    """
    wanted = query_tokens(query)
    if not wanted:
        return []
    results = []
    for kind, entity_id, title, fields in entries(corpus):
        best, best_field, rest, covered = 0.0, "", 0.0, set()
        for name, texts in fields.items():
            tokens = set(index_tokens(" ".join(texts)))
            hits = [t for t in wanted if t in tokens or (name == "id" and t in entity_id)]
            covered.update(hits)
            score = FIELD_WEIGHTS[name] * len(hits) / len(wanted)
            if normalize(query).strip() in [normalize(x).strip() for x in texts]:
                score *= 2  # the query is exactly this title, alias or id
            if score > best:
                best, best_field, rest = score, name, rest + best
            else:
                rest += score
        if covered:
            total = best + rest / 10 + (10.0 if len(covered) == len(wanted) else 0.0)
            results.append(Found(kind, entity_id, title, total, best_field))
    results.sort(key=lambda f: (-f.score, f.kind, f.id))
    return results[:limit]


# --- warnings of make check ----------------------------------------------------------------

CLOSE, MARGIN = 0.2, 1.5
"""A new question is flagged as perhaps repeating the existing question nearest to it on the same
concept when their similarity (QuestionIndex) is at least CLOSE and at least MARGIN times that of
the next nearest. Measured on the guide (2026-12): five questions reworded from existing ones, with
briefs written afresh, scored 0.24 to 0.43 against their originals, each at least 1.6 times the
runner-up; of the 367 existing questions, 28 would be flagged against a neighbour were they new."""


@dataclass(frozen=True)
class QuestionIndex:
    """Every bank question as a vector of its search tokens (text and brief), each weighted by how
    rare it is among the questions: what `close_questions` compares."""

    df: dict[str, int]
    vectors: dict[str, dict[str, float]]

    @classmethod
    def of(cls, corpus: Corpus) -> "QuestionIndex":
        tokens = {q.id: Counter(index_tokens(f"{q.text} {q.brief}")) for q in corpus.questions.values()}
        index = cls(dict(Counter(t for counts in tokens.values() for t in counts)), {})
        index.vectors.update({qid: index.weigh(counts, len(tokens)) for qid, counts in tokens.items()})
        return index

    def weigh(self, counts: Counter[str], n: int | None = None) -> dict[str, float]:
        n = n or len(self.vectors)
        return {t: (1 + math.log(c)) * math.log(1 + n / (self.df.get(t) or 1)) for t, c in counts.items()}


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    dot = sum(v * b.get(t, 0.0) for t, v in a.items())
    norm = math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))
    return dot / norm if norm else 0.0


def close_questions(corpus: Corpus, text: str, brief: str = "", primary: str | None = None, exclude: str = "",
                    limit: int = 5, index: QuestionIndex | None = None) -> list[tuple[float, Question]]:
    """The existing questions nearest to a question's text and brief, most similar first: the
    cosine of their weighted search tokens (QuestionIndex). With `primary`, only questions that
    test the same concept."""
    index = index or QuestionIndex.of(corpus)
    mine = index.weigh(Counter(index_tokens(f"{text} {brief}")))
    scored = [(_cosine(mine, index.vectors[q.id]), q) for q in corpus.questions.values()
              if q.id != exclude and (primary is None or q.primary == primary)]
    scored.sort(key=lambda s: (-s[0], s[1].id))
    return [s for s in scored[:limit] if s[0] > 0]


def _key(word: str) -> str:
    return re.sub(r"\s+", "", normalize(word))


def warnings(corpus: Corpus, lines: dict[str, dict[tuple, int]] | None = None, new: set[str] | None = None) -> list[Problem]:
    """Search words claimed by two notes, and new questions that may repeat an existing one.

    `lines` maps a file path to its front-matter lines (Document.lines), to point at the field.
    `new`: the paths of files being added or changed (None: unknown, every question is compared).
    """
    lines = lines or {}
    found: list[Problem] = []

    def line(path: str, *field: object) -> int:
        for end in range(len(field), 0, -1):
            if field[:end] in lines.get(path, {}):
                return lines[path][field[:end]]
        return 1

    # A note's own names (id, title, English name) are its search words: another note that claims
    # one of them as an alias pulls readers away from it (SimPO, an alias of dpo, once hid the
    # new simpo note). Aliases two notes share (位置编码 for RoPE and ALiBi) are not names: allowed.
    names: dict[str, list[tuple[str, str]]] = defaultdict(list)  # name -> [(path, field)]
    notes = [(c.loc.path, c.id, c.title, c.en, c.aliases) for c in corpus.concepts.values()]
    notes += [(t.loc.path, t.id, t.title, t.en, t.aliases) for t in getattr(corpus, "coding", {}).values()]
    for path, entity_id, title, en, _ in notes:
        for field, word in (("id", entity_id), ("title", title), ("en", en)):
            if _key(word) and (path, field) not in names[_key(word)]:
                names[_key(word)].append((path, field))
    for path, _, _, _, aliases in notes:
        for index, alias in enumerate(aliases):
            owners = sorted({(p, f) for p, f in names.get(_key(alias), []) if p != path})
            if owners:
                what = " and ".join(f"the {'English name' if f == 'en' else f} of {p}" for p, f in owners)
                found.append(Problem(path, line(path, "aliases", index), "aliases",
                                     f"warning: '{alias}' is {what}; as an alias here it leads readers away from "
                                     "that note: drop it, or link there"))

    # A new question close to one that tests the same concept may be the same question in other words.
    index = QuestionIndex.of(corpus)
    for question in corpus.questions.values():
        if new is not None and question.loc.path not in new:
            continue
        near = close_questions(corpus, question.text, question.brief, question.primary, exclude=question.id, index=index)
        if near and near[0][0] >= CLOSE and (len(near) == 1 or near[0][0] >= MARGIN * near[1][0]):
            other = near[0][1]
            if new is None and (other.loc.path, other.id) > (question.loc.path, question.id):
                continue  # without a way to tell the new file, warn once per pair, on the later one
            found.append(Problem(question.loc.path, line(question.loc.path, "text"), "text",
                                 f"warning: perhaps the same question as {other.loc.path} (“{other.text}”), which tests the "
                                 "same concept; if it is, merge them, else word them so the difference shows"))
    return sorted(found)
