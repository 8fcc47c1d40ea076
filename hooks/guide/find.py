"""Authors' lookups: `make find Q=…` (which ids exist for these words) and the warnings of
`make check` (two notes claiming one search word, two questions asking the same thing).

Both read the validated corpus only; neither is part of the build. Words are cut with the
search tokenizer (`search.query_tokens` / `index_tokens`), so "find" matches what readers'
searches would match: Chinese by character bigrams, identifiers whole and in parts.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from .errors import Problem
from .model import Corpus
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

NEAR_DUPLICATE = 0.8
"""Share of character bigrams two questions' texts must have in common (Jaccard) to be flagged."""


def _key(word: str) -> str:
    return re.sub(r"\s+", "", normalize(word))


def warnings(corpus: Corpus, lines: dict[str, dict[tuple, int]] | None = None) -> list[Problem]:
    """Search words claimed by two notes, and questions that ask nearly the same thing.

    `lines` maps a file path to its front-matter lines (Document.lines), to point at the field.
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

    # Questions asking the same thing: compared only with those sharing rare bigrams (linear in practice).
    grams = {q.id: set(index_tokens(q.text)) for q in corpus.questions.values()}
    frequency = Counter(g for tokens in grams.values() for g in tokens)
    common = max(20, len(grams) // 20)
    postings: dict[str, list[str]] = defaultdict(list)
    for qid, tokens in grams.items():
        for g in tokens:
            if frequency[g] <= common:
                postings[g].append(qid)
    reported: set[tuple[str, str]] = set()
    for qid, tokens in grams.items():
        shared = Counter(other for g in tokens if frequency[g] <= common for other in postings[g] if other != qid)
        for other, _ in shared.items():
            pair = tuple(sorted((qid, other)))
            if pair in reported:
                continue
            a, b = grams[qid], grams[other]
            if a and b and len(a & b) / len(a | b) >= NEAR_DUPLICATE:
                reported.add(pair)
                first, second = corpus.questions[pair[0]], corpus.questions[pair[1]]
                found.append(Problem(second.loc.path, line(second.loc.path, "text"), "text",
                                     f"warning: nearly the same question as {first.loc.path} (“{first.text}”); "
                                     "merge them, or word them so the difference shows"))
    return sorted(found)
