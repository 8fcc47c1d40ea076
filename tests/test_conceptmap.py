"""Concept maps: every concept once, edges left to right, nothing overlapping, deterministic, escaped."""
from __future__ import annotations

import dataclasses
import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT, concept, valid_files, write_corpus
from guide.conceptmap import MAX_LABEL_EM, _em_width, topic_map
from guide.pipeline import build

SVG = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def href(concept_id: str) -> str:
    return f"../concepts/{concept_id}/"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory):
    """basics: alpha → beta → gamma (and alpha → gamma, skipping a column), delta needs two
    concepts of another topic, lonely has no edges; one title needs escaping, one is long."""
    root = tmp_path_factory.mktemp("conceptmap")
    files = valid_files()
    files.update({
        "concepts/gamma.md": concept("伽马 x<y & z>w", extra="prerequisites: [beta, alpha]\n"),
        "concepts/delta.md": concept("德尔塔", extra="prerequisites: [outer, far-away]\n"),
        "concepts/lonely.md": concept("孤立概念"),
        "concepts/outer.md": concept("外部前置", topic="advanced-topic"),
        "concepts/far-away.md": concept("一个非常非常长的外部前置概念标题，需要截断显示", topic="advanced-topic",
                                        extra="prerequisites: [outer]\n"),
    })
    write_corpus(root, files)
    return build(root, templates=ROOT / "templates")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def nodes(root: ET.Element) -> dict[str, ET.Element]:
    found: dict[str, ET.Element] = {}
    for a in root.iter(f"{SVG}a"):
        assert a.get("data-id") not in found, f"node {a.get('data-id')} drawn twice"
        found[a.get("data-id")] = a
    return found


def box(a: ET.Element) -> tuple[float, float, float, float]:
    rect = a.find(f"{SVG}rect")
    x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
    return x, y, x + w, y + h


def edges(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    return {(p.get("data-from"), p.get("data-to")): p for p in root.iter(f"{SVG}path") if p.get("class") == "map-edge"}


def endpoints(path: ET.Element) -> tuple[tuple[float, float], tuple[float, float]]:
    numbers = [float(n) for n in NUMBER.findall(path.get("d"))]
    return (numbers[0], numbers[1]), (numbers[-2], numbers[-1])


def test_svg_element(tiny):
    svg = topic_map(tiny.corpus, tiny.links, "basics", href)
    assert svg.startswith("<svg ") and svg.endswith("</svg>") and "<?xml" not in svg
    assert "\n\n" not in svg and all(line.strip() for line in svg.splitlines())
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and "基础" in root.get("aria-label")
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    marker = root.find(f"{SVG}defs/{SVG}marker")
    assert marker.get("id") == "arrow-basics"
    assert all(p.get("marker-end") == "url(#arrow-basics)" for p in edges(root).values())
    # a map per topic can share a page: marker ids differ
    other = parse(topic_map(tiny.corpus, tiny.links, "advanced-topic", href))
    assert other.find(f"{SVG}defs/{SVG}marker").get("id") == "arrow-advanced-topic"


def test_every_concept_once_with_its_link(tiny):
    """(a) every concept of the topic is one node, linked where href says."""
    found = nodes(parse(topic_map(tiny.corpus, tiny.links, "basics", href)))
    members = {c.id for c in tiny.corpus.concepts.values() if c.topic == "basics"}
    assert members == {"alpha", "beta", "gamma", "delta", "lonely"}
    assert members <= set(found)
    for cid in members:
        a = found[cid]
        assert a.get("href") == href(cid)
        assert a.get("class") == "map-node"
        assert [child.tag for child in a] == [f"{SVG}rect", f"{SVG}text", f"{SVG}title"]
        assert a.find(f"{SVG}title").text == tiny.corpus.concepts[cid].title


def test_prerequisite_edges_go_left_to_right(tiny):
    """(b) every in-topic prerequisite is an edge from the right side of one box to the left side of the other."""
    root = parse(topic_map(tiny.corpus, tiny.links, "basics", href))
    found, drawn = nodes(root), edges(root)
    expected = {(p, c.id) for c in tiny.corpus.concepts.values() if c.topic == "basics" for p in c.prerequisites}
    assert expected == set(drawn)
    for (pre, dep), path in drawn.items():
        (x0, y0), (x1, y1) = endpoints(path)
        pre_box, dep_box = box(found[pre]), box(found[dep])
        assert pre_box[0] < dep_box[0], f"{pre} is not left of {dep}"
        assert (x0, x1) == (pre_box[2], dep_box[0])
        assert pre_box[1] <= y0 <= pre_box[3] and dep_box[1] <= y1 <= dep_box[3]
    # the column is the longest chain of prerequisites: alpha, beta, gamma in three columns
    xs = [box(found[c])[0] for c in ("alpha", "beta", "gamma")]
    assert xs == sorted(set(xs))


def test_no_boxes_overlap(tiny):
    """(c) no two node rectangles overlap, and all lie inside the picture."""
    for topic in ("basics", "advanced-topic"):
        root = parse(topic_map(tiny.corpus, tiny.links, topic, href))
        boxes = [box(a) for a in nodes(root).values()]
        width, height = float(root.get("width")), float(root.get("height"))
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
        for a, b in itertools.combinations(boxes, 2):
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"{a} overlaps {b}"


def test_external_prerequisites(tiny):
    """(d) prerequisites from other topics are lighter nodes in a column of their own, on the left."""
    root = parse(topic_map(tiny.corpus, tiny.links, "basics", href))
    found, drawn = nodes(root), edges(root)
    externals = {cid for cid, a in found.items() if a.get("class") == "map-node map-node--external"}
    assert externals == {"outer", "far-away"}
    for cid in externals:
        assert found[cid].get("href") == href(cid)
        assert (cid, "delta") in drawn
    left = max(box(found[c])[2] for c in externals)
    assert all(box(a)[0] > left for cid, a in found.items() if cid not in externals)
    # the edge between the two externals belongs to the other topic's map
    assert ("outer", "far-away") not in drawn
    assert not any(a.get("class") != "map-node" for a in nodes(parse(topic_map(tiny.corpus, tiny.links, "advanced-topic", href))).values())


def test_long_titles_are_shortened(tiny):
    found = nodes(parse(topic_map(tiny.corpus, tiny.links, "basics", href)))
    a = found["far-away"]
    label, title = a.find(f"{SVG}text").text, a.find(f"{SVG}title").text
    assert title == "一个非常非常长的外部前置概念标题，需要截断显示"
    assert label.endswith("…") and title.startswith(label[:-1]) and _em_width(label) <= MAX_LABEL_EM
    assert found["beta"].find(f"{SVG}text").text == "贝塔"


def test_deterministic(tiny):
    """(e) the same input gives the same string, whatever order the concepts were loaded in."""
    first = topic_map(tiny.corpus, tiny.links, "basics", href)
    assert topic_map(tiny.corpus, tiny.links, "basics", href) == first
    shuffled = dataclasses.replace(tiny.corpus, concepts=dict(reversed(tiny.corpus.concepts.items())))
    assert topic_map(shuffled, tiny.links, "basics", href) == first


def test_text_is_escaped(tiny):
    """(f) titles and links are XML-escaped."""
    svg = topic_map(tiny.corpus, tiny.links, "basics", lambda cid: f"/c?id={cid}&x=\"1\"")
    assert "x&lt;y &amp; z&gt;w" in svg and "x<y" not in svg
    found = nodes(parse(svg))
    assert found["gamma"].find(f"{SVG}title").text == "伽马 x<y & z>w"
    assert found["gamma"].get("href") == '/c?id=gamma&x="1"'


def test_a_cycle_still_draws_every_concept(tiny):
    """Validation rejects prerequisite cycles; the map must not loop or drop a node if one slips through."""
    concepts = dict(tiny.corpus.concepts)
    concepts["alpha"] = dataclasses.replace(concepts["alpha"], prerequisites=("gamma",))
    looped = dataclasses.replace(tiny.corpus, concepts=concepts)
    found = nodes(parse(topic_map(looped, tiny.links, "basics", href)))
    assert {"alpha", "beta", "gamma", "delta", "lonely"} <= set(found)


def test_empty_topic(tmp_path: Path):
    write_corpus(tmp_path, valid_files())
    built = build(tmp_path, templates=ROOT / "templates")
    root = parse(topic_map(built.corpus, built.links, "advanced-topic", href))
    assert nodes(root) == {} and edges(root) == {}


@pytest.mark.heavy
def test_real_guide_maps():
    """(g) on the real guide every topic's map holds all its concepts, once each, without overlaps."""
    built = build(ROOT)
    for topic in built.corpus.taxonomy.topics:
        root = parse(topic_map(built.corpus, built.links, topic.id, href))
        found = nodes(root)
        members = {c.id for c in built.corpus.concepts.values() if c.topic == topic.id}
        inside = {cid for cid, a in found.items() if a.get("class") == "map-node"}
        assert inside == members, topic.id
        boxes = [box(a) for a in found.values()]
        for a, b in itertools.combinations(boxes, 2):
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"{topic.id}: {a} overlaps {b}"
        for (pre, dep), path in edges(root).items():
            assert box(found[pre])[0] < box(found[dep])[0], f"{topic.id}: {pre} -> {dep}"
