"""Concept maps: each topic's prerequisite graph drawn as a static inline SVG.

A small layered ("Sugiyama") layout, standard library only:

1. **Columns.**  A concept's column is the length of the longest chain of
   in-topic prerequisites before it (0 for none).  Prerequisites from other
   topics are drawn as lighter "external" nodes in an extra column on the
   left, and the topic's own columns shift right by one when there are any.
2. **Lanes.**  An edge that skips columns gets a placeholder in every column
   it crosses, so it runs through a reserved lane instead of through a node.
3. **Order.**  Within each column, nodes (and lanes) are sorted by the mean
   position of their neighbours, sweeping left to right and back a few
   times, each sweep followed by swaps of neighbours that remove crossings;
   the order with the fewest crossings wins.  Ties go by id, so the same
   input always gives the same picture.  Concepts with no edges go last.
4. **Height.**  Each column is then placed as close as possible to its
   neighbours' heights while keeping its order and minimum gaps (isotonic
   regression by pool-adjacent-violators).

Colours come from CSS (`.map-node rect`, `.map-node text`, `.map-edge`,
`.map-arrow`, and `--external` variants); the presentation attributes written
here are only defaults that read on white and any stylesheet overrides them.
Text widths are estimated (CJK 1 em, ASCII about 0.55 em), so labels are
drawn at a fixed font size and longer titles are shortened with "…".
"""
from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from html import escape

from .link import Links
from .model import Corpus

FONT_SIZE = 13
"""px; widths below are estimated for this size, so stylesheets should not change it."""
MAX_LABEL_EM = 12.0
"""Longer titles are shortened with "…" on the node (the full title stays in <title>)."""
NODE_H = 30
PAD_X = 10
"""Space between a label and the sides of its box."""
MIN_NODE_W = 48
COL_GAP = 48
"""Horizontal room between columns, where the edges bend."""
NODE_EXTENT = NODE_H / 2 + 7
"""Half a node's height plus half the gap kept around it: two nodes sit 14 px apart."""
LANE_EXTENT = 4.0
"""Half the room a passing edge takes in a column it crosses."""
MARGIN = 4
ORDER_ROUNDS = 4
"""Left-to-right-and-back barycenter sweeps tried when ordering columns."""
TRANSPOSE_ROUNDS = 8
TRANSPOSE_MAX_NODES = 40
"""The neighbour-swap step costs degree × degree per pair of nodes; above this many nodes in a map
(far beyond a readable map) only the linear barycenter sweeps run, so build time stays linear."""
"""Passes of neighbour swaps after each sweep (each pass only swaps when crossings drop)."""
PLACE_ROUNDS = 4
"""Sweeps that pull nodes level with their neighbours."""
ELLIPSIS = "…"


def topic_map(corpus: Corpus, links: Links, topic_id: str, href: Callable[[str], str]) -> str:
    """Inline SVG (a single <svg> element, no XML prolog, no blank lines inside) of the topic's concepts.

    `href(concept_id)` gives each node's link.  `links` is not needed yet (prerequisites are read
    from the concepts) but keeps the signature of the other page builders.
    """
    members = sorted(c.id for c in corpus.concepts.values() if c.topic == topic_id)
    inside = set(members)
    preds: dict[str, list[str]] = {}
    external: set[str] = set()
    edges: list[tuple[str, str]] = []
    for cid in members:
        own = sorted({p for p in corpus.concepts[cid].prerequisites if p != cid and p in corpus.concepts})
        preds[cid] = [p for p in own if p in inside]
        external.update(p for p in own if p not in inside)
        edges.extend((p, cid) for p in own)
    edges.sort()

    shift = 1 if external else 0
    column = {cid: level + shift for cid, level in _levels(members, preds).items()}
    column.update((e, 0) for e in external)
    ncols = max(column.values(), default=-1) + 1

    # Lanes: a chain of placeholder items for every edge that skips columns.
    items: list[list[str]] = [[] for _ in range(ncols)]
    for node, col in column.items():
        items[col].append(node)
    up: dict[str, list[str]] = {node: [] for node in column}
    down: dict[str, list[str]] = {node: [] for node in column}
    chains: dict[tuple[str, str], list[str]] = {}
    lane_column: dict[str, int] = {}
    for src, dst in edges:
        if column[dst] <= column[src]:
            continue  # only on a prerequisite cycle, which validation rejects; drawn, not laid out
        chain = [src]
        for col in range(column[src] + 1, column[dst]):
            lane = f"~{src}>{dst}"  # "~" sorts after ids; unique within a column
            key = f"{lane}@{col}"
            items[col].append(key)
            lane_column[key] = col
            up[key], down[key] = [], []
            chain.append(key)
        chain.append(dst)
        for a, b in zip(chain, chain[1:]):
            down[a].append(b)
            up[b].append(a)
        chains[(src, dst)] = chain[1:-1]

    # Unconnected concepts start at the bottom of their column; the rest by id until the sweeps.
    layers = _order([sorted(layer, key=lambda i: (not (up[i] or down[i]), i)) for layer in items], up, down)
    ys = _place(layers, up, down)

    labels = {node: _label(corpus.concepts[node].title) for node in column}
    widths = []
    for layer in layers:
        ems = [_em_width(labels[n]) for n in layer if n in labels]
        widths.append(max(MIN_NODE_W, round(max(ems, default=0) * FONT_SIZE + 2 * PAD_X)))
    xs = []
    x = MARGIN
    for w in widths:
        xs.append(x)
        x += w + COL_GAP
    width = (x - COL_GAP + MARGIN) if widths else 2 * MARGIN
    top = min((ys[i] - _drawn(i) for i in ys), default=0.0)
    bottom = max((ys[i] + _drawn(i) for i in ys), default=0.0)
    ys = {i: y + MARGIN - top for i, y in ys.items()}
    height = round(bottom - top) + 2 * MARGIN

    topic = corpus.taxonomy.topic.get(topic_id)
    name = topic.title if topic else topic_id
    marker = f"arrow-{topic_id}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="concept-map" role="img" aria-label="{_attr(name + " 概念关系图")}"'
        f' viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-size="{FONT_SIZE}">',
        "<defs>",
        f'<marker id="{_attr(marker)}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8"'
        ' markerUnits="userSpaceOnUse" orient="auto">',
        '<path class="map-arrow" d="M0,0L10,5L0,10z" fill="#888"/>',
        "</marker>",
        "</defs>",
    ]
    for src, dst in edges:
        start = (xs[column[src]] + widths[column[src]], ys[src])
        end = (xs[column[dst]], ys[dst])
        d = f"M{_num(start[0])},{_num(start[1])}"
        at = start
        for lane in chains.get((src, dst), ()):
            col = lane_column[lane]
            d += _curve(at, (xs[col], ys[lane])) + f"L{_num(xs[col] + widths[col])},{_num(ys[lane])}"
            at = (xs[col] + widths[col], ys[lane])
        d += _curve(at, end)
        out.append(
            f'<path class="map-edge" d="{d}" marker-end="url(#{_attr(marker)})" fill="none" stroke="#888"'
            f' data-from="{_attr(src)}" data-to="{_attr(dst)}"/>'
        )
    for col, layer in enumerate(layers):
        for node in layer:
            if node not in column:
                continue
            kind = "map-node map-node--external" if node in external else "map-node"
            x, y, w = xs[col], ys[node], widths[col]
            title = _clean(corpus.concepts[node].title)
            out.append(
                f'<a href="{_attr(href(node))}" class="{kind}" data-id="{_attr(node)}">'
                f'<rect x="{_num(x)}" y="{_num(y - NODE_H / 2)}" width="{_num(w)}" height="{NODE_H}" rx="4"'
                f' fill="{"#f5f5f5" if node in external else "#fff"}" stroke="#888"/>'
                f'<text x="{_num(x + w / 2)}" y="{_num(y)}" dy="0.35em" text-anchor="middle"'
                f' fill="{"#666" if node in external else "#222"}">{_text(labels[node])}</text>'
                f"<title>{_text(title)}</title></a>"
            )
    out.append("</svg>")
    return "\n".join(out)


# --- layout -----------------------------------------------------------------


def _levels(members: list[str], preds: dict[str, list[str]]) -> dict[str, int]:
    """Longest chain of prerequisites before each concept; an edge closing a cycle is ignored."""
    level: dict[str, int] = {}
    for root in members:
        if root in level:
            continue
        stack = [(root, iter(preds[root]))]
        open_ = {root}
        while stack:
            node, rest = stack[-1]
            for p in rest:
                if p not in level and p not in open_:
                    open_.add(p)
                    stack.append((p, iter(preds[p])))
                    break
            else:
                stack.pop()
                open_.discard(node)
                level[node] = max((level[p] + 1 for p in preds[node] if p in level), default=0)
    return level


def _order(layers: list[list[str]], up: dict[str, list[str]], down: dict[str, list[str]]) -> list[list[str]]:
    """Barycenter sweeps, each tidied by `_transpose`; the order with the fewest crossings wins (the first on ties)."""
    best = [list(layer) for layer in layers]
    best_count = _crossings(best, down)
    for _ in range(ORDER_ROUNDS):
        if best_count == 0:
            break
        for cols, neighbours in ((range(1, len(layers)), up), (range(len(layers) - 2, -1, -1), down)):
            for col in cols:
                pos = {}
                for layer in (layers[col - 1] if neighbours is up else layers[col + 1], layers[col]):
                    half = (len(layer) - 1) / 2
                    pos.update((item, i - half) for i, item in enumerate(layer))
                bary = {}
                for item in layers[col]:
                    near = neighbours[item]
                    if near:
                        bary[item] = sum(pos[n] for n in near) / len(near)
                    else:  # unconnected concepts gather at the bottom
                        bary[item] = pos[item] if up[item] or down[item] else math.inf
                layers[col].sort(key=lambda item: (bary[item], item))
            if sum(len(layer) for layer in layers) <= TRANSPOSE_MAX_NODES:
                _transpose(layers, up, down)
            count = _crossings(layers, down)
            if count < best_count:
                best, best_count = [list(layer) for layer in layers], count
    return best


def _transpose(layers: list[list[str]], up: dict[str, list[str]], down: dict[str, list[str]]) -> None:
    """Swap neighbours within a column while that removes crossings (the "transpose" step of Graphviz dot)."""
    where = {item: i for layer in layers for i, item in enumerate(layer)}

    def crossings(above: str, below: str) -> int:
        return sum(1 for side in (up, down) for a in side[above] for b in side[below] if where[a] > where[b])

    for _ in range(TRANSPOSE_ROUNDS):
        improved = False
        for layer in layers:
            for i in range(len(layer) - 1):
                v, w = layer[i], layer[i + 1]
                if crossings(w, v) < crossings(v, w):
                    layer[i], layer[i + 1] = w, v
                    where[v], where[w] = i + 1, i
                    improved = True
        if not improved:
            return


def _crossings(layers: list[list[str]], down: dict[str, list[str]]) -> int:
    """Edge crossings between neighbouring columns (inversions, counted with a Fenwick tree)."""
    total = 0
    for left, right in zip(layers, layers[1:]):
        where = {item: i for i, item in enumerate(right)}
        ends = sorted((i, where[t]) for i, item in enumerate(left) for t in down[item])
        tree = [0] * (len(right) + 1)
        for seen, (_, j) in enumerate(ends):
            k, below = j + 1, 0  # edges seen so far that end at or above j
            while k > 0:
                below += tree[k]
                k -= k & -k
            total += seen - below
            k = j + 1
            while k <= len(right):
                tree[k] += 1
                k += k & -k
    return total


def _extent(item: str) -> float:
    return LANE_EXTENT if item.startswith("~") else NODE_EXTENT


def _drawn(item: str) -> float:
    """Half the height an item takes on the page: a node's box, or an edge's stroke."""
    return 1.0 if item.startswith("~") else NODE_H / 2


def _place(layers: list[list[str]], up: dict[str, list[str]], down: dict[str, list[str]]) -> dict[str, float]:
    """Vertical centres: each column near its neighbours' heights, in order, never closer than the gaps."""
    y: dict[str, float] = {}
    for layer in layers:
        offsets = _offsets(layer)
        middle = offsets[-1] / 2 if layer else 0.0
        y.update((item, o - middle) for item, o in zip(layer, offsets))

    def settle(col: int, sides: tuple[dict[str, list[str]], ...]) -> None:
        layer = layers[col]
        linked = len(layer)  # unconnected concepts close the column (see _order) and follow the rest, packed
        while linked and not (up[layer[linked - 1]] or down[layer[linked - 1]]):
            linked -= 1
        if not linked:
            return
        wanted = []
        for item in layer[:linked]:
            near = [n for side in sides for n in side[item]]
            wanted.append(sum(y[n] for n in near) / len(near) if near else y[item])
        offsets = _offsets(layer)
        fitted = _isotonic([w - o for w, o in zip(wanted, offsets)])
        fitted += [fitted[-1]] * (len(layer) - linked)
        y.update((item, f + o) for item, f, o in zip(layer, fitted, offsets))

    for _ in range(PLACE_ROUNDS):
        for col in range(1, len(layers)):
            settle(col, (up,))
        for col in range(len(layers) - 2, -1, -1):
            settle(col, (down,))
    for col in range(len(layers)):
        settle(col, (up, down))
    return y


def _offsets(layer: list[str]) -> list[float]:
    """Each item's lowest possible centre when the column is packed from 0."""
    offsets, at = [], 0.0
    for i, item in enumerate(layer):
        if i:
            at += _extent(layer[i - 1]) + _extent(item)
        offsets.append(at)
    return offsets


def _isotonic(values: list[float]) -> list[float]:
    """The non-decreasing sequence nearest to `values` (least squares): pool adjacent violators."""
    blocks: list[list[float]] = []  # [mean, count]
    for v in values:
        blocks.append([v, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, count = blocks.pop()
            prev_mean, prev_count = blocks[-1]
            blocks[-1] = [(prev_mean * prev_count + mean * count) / (prev_count + count), prev_count + count]
    return [mean for mean, count in blocks for _ in range(int(count))]


def _curve(a: tuple[float, float], b: tuple[float, float]) -> str:
    """A horizontal-tangent cubic from a to b (bulging outwards when b is not to the right)."""
    dx = max((b[0] - a[0]) / 2, 24)
    return f"C{_num(a[0] + dx)},{_num(a[1])} {_num(b[0] - dx)},{_num(b[1])} {_num(b[0])},{_num(b[1])}"


# --- text -------------------------------------------------------------------


def _char_em(ch: str) -> float:
    if ch.isascii():
        return 0.65 if ch.isupper() else 0.55
    if unicodedata.combining(ch):
        return 0.0
    return 1.0 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 0.6


def _em_width(text: str) -> float:
    return sum(_char_em(ch) for ch in text)


def _clean(text: str) -> str:
    """One line of printable text: whitespace runs become one space, control characters go."""
    return " ".join("".join(ch for ch in text if ch.isprintable() or ch.isspace()).split())


def _label(title: str) -> str:
    """The title as shown on a node: at most MAX_LABEL_EM wide, shortened with "…"."""
    title = _clean(title)
    if _em_width(title) <= MAX_LABEL_EM:
        return title
    room, kept = MAX_LABEL_EM - _char_em(ELLIPSIS), []
    for ch in title:
        room -= _char_em(ch)
        if room < 0:
            break
        kept.append(ch)
    return "".join(kept).rstrip(" ：:，,、；;（(/-–—·") + ELLIPSIS


def _text(text: str) -> str:
    return escape(text, quote=False)


def _attr(text: str) -> str:
    return escape(_clean(text), quote=True)


def _num(value: float) -> str:
    """Coordinates to a tenth of a pixel, without a trailing .0 or a negative zero."""
    text = f"{round(value, 1) + 0.0:.1f}"
    return text[:-2] if text.endswith(".0") else text
