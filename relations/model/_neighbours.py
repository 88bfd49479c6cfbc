"""Input spaces and their neighbour relations.

A neighbour relation ``x ~ x'`` on the rows of a channel is stored as a union
of *cliques*: sets of inputs any two of which are neighbours.  Every relation
the tool knows has that shape, and it is what makes the budgets cheap:

* **local** — all of ``D`` is one clique (every two distinct values are
  neighbours);
* **central** ``D^r`` — two datasets are neighbours iff they differ in exactly
  one record (Hamming distance 1), so for each record ``j`` and each choice of
  the other ``r-1`` records the ``k`` datasets obtained by varying record ``j``
  form a clique (a *fibre* along axis ``j`` of the array reshaped to
  ``(k,)*r + (m,)``); there are ``r * k**(r-1)`` of them;
* **central, explicit** — an undirected edge list; every edge is a clique of
  two.

For a non-negative matrix ``A`` (the channel ``Q``, the joint ``p(x)Q[x][y]``,
or the prior as one column) the largest ratio ``A[x][y] / A[x'][y]`` over
neighbours in one clique is ``max / min`` of that clique's column, so the
maximum over all neighbour pairs is found by per-clique ``max``/``min``
reductions: ``O(n m)`` for local, ``O(n m r)`` for ``D^r`` (numpy reductions
along each record axis, never enumerating pairs), ``O(|E| m)`` for edges.

Rows of ``D^r`` are in lexicographic order of the domain's listed order: row
``i`` is the dataset whose records are the base-``k`` digits of ``i``, the
first record most significant (``numpy.unravel_index`` in C order).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from relations.errors import InputError
from relations.numbers._text import json_repr

__all__ = ["LocalInputs", "HammingInputs", "GraphInputs", "InputSpace", "diameter", "edge_list", "MAX_EDGES", "MAX_DIAMETER_WORK"]


def _default_labels(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(n))


@dataclass(frozen=True)
class _Labelled:
    """Inputs named by a tuple of labels, one per row."""

    labels: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.labels)

    def label(self, i: int) -> str:
        return self.labels[i]


@dataclass(frozen=True)
class LocalInputs(_Labelled):
    """The local setting: ``n`` single values, every two distinct ones neighbours."""

    def extrema(self, a: np.ndarray) -> Iterator[tuple[object, np.ndarray, np.ndarray]]:
        """Yield ``(family, max, min)`` (fresh arrays, cliques x columns): one family, one clique (all rows)."""
        if self.size >= 2:
            yield 0, a.max(axis=0)[None, :], a.min(axis=0)[None, :]

    def members(self, family: object, clique: int) -> Sequence[int]:
        return range(self.size)

    def pairs(self) -> Iterator[tuple[int, int]]:
        """All unordered neighbour pairs (for brute-force cross-checks)."""
        n = self.size
        return ((i, j) for i in range(n) for j in range(i + 1, n))


@dataclass(frozen=True)
class HammingInputs:
    """Central ``D^r``: datasets of ``r`` records over ``k = len(domain)`` values.

    Neighbours differ in exactly one record.  Row ``i`` is the dataset
    ``numpy.unravel_index(i, (k,)*r)``.
    """

    domain: tuple[str, ...]
    records: int

    @property
    def k(self) -> int:
        return len(self.domain)

    @property
    def size(self) -> int:
        return self.k ** self.records

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.k,) * self.records

    def record_indices(self, i: int) -> tuple[int, ...]:
        return tuple(int(v) for v in np.unravel_index(i, self.shape))

    def label(self, i: int) -> str:
        return "(" + ",".join(self.domain[v] for v in self.record_indices(i)) + ")"

    def extrema(self, a: np.ndarray) -> Iterator[tuple[object, np.ndarray, np.ndarray]]:
        """Yield ``(j, max, min)`` for each record axis ``j``: reductions of the
        ``(k,)*r + (m,)`` view along axis ``j``, flattened to ``(k**(r-1), m)``
        (clique ``c`` is the other records' indices raveled in C order)."""
        if self.k < 2:
            return
        m, k = a.shape[1], self.k
        for j in range(self.records):
            view = a.reshape(k**j, k, -1)  # axis 1 is record j
            # elementwise over whole slices: faster than reducing a middle axis
            mx, mn = np.maximum(view[:, 0], view[:, 1]), np.minimum(view[:, 0], view[:, 1])
            for v in range(2, k):
                np.maximum(mx, view[:, v], out=mx)
                np.minimum(mn, view[:, v], out=mn)
            yield j, mx.reshape(-1, m), mn.reshape(-1, m)

    def members(self, family: object, clique: int) -> Sequence[int]:
        j = int(cast(int, family))  # a record axis, as extrema() yields it
        rest = np.unravel_index(clique, (self.k,) * (self.records - 1)) if self.records > 1 else ()
        rows = []
        for v in range(self.k):
            coords = list(int(c) for c in rest)
            coords.insert(j, v)
            rows.append(int(np.ravel_multi_index(coords, self.shape)))
        return rows

    def pairs(self) -> Iterator[tuple[int, int]]:
        """All unordered neighbour pairs ``(i, j)``, ``i < j``, in increasing order: ``j`` is ``i`` with one
        record raised (``+ (v - d) k^(r-1-position)``)."""
        k, r = self.k, self.records
        strides = [k ** (r - 1 - p) for p in range(r)]
        for i in range(self.size):
            higher: list[int] = []
            for stride in strides:
                d = (i // stride) % k
                higher.extend(i + (v - d) * stride for v in range(d + 1, k))
            for j in sorted(higher):
                yield i, j


@dataclass(frozen=True)
class GraphInputs(_Labelled):
    """Central inputs with an explicit, undirected neighbour edge list over row indices."""

    edges: tuple[tuple[int, int], ...] = ()

    def extrema(self, a: np.ndarray) -> Iterator[tuple[object, np.ndarray, np.ndarray]]:
        """One family: each edge ``{i, j}`` is a clique of two rows."""
        if self.edges:
            e = np.asarray(self.edges, dtype=np.intp)
            first, second = a[e[:, 0]], a[e[:, 1]]
            yield 0, np.maximum(first, second), np.minimum(first, second)

    def members(self, family: object, clique: int) -> Sequence[int]:
        return self.edges[clique]

    def pairs(self) -> Iterator[tuple[int, int]]:
        return iter(self.edges)


InputSpace = LocalInputs | HammingInputs | GraphInputs


def diameter(space: InputSpace) -> int | None:
    """The neighbour graph's diameter (longest shortest path); ``None`` if disconnected.

    Local: 1 (0 for a single input).  ``D^r``: ``r`` (0 when ``k = 1``).
    Explicit edges: a small graph (:data:`SMALL_GRAPH_WORK`) by a breadth-first search from every row; else
    connectivity in ``O(V + E)`` (plain Python up to :data:`PLAIN_GRAPH_SIZE`, else scipy); a tree's diameter by
    two breadth-first sweeps; otherwise networkx's bounding-diameters algorithm (Takes and
    Kosters 2011, exact, usually a few sweeps instead of one per row), refused above
    :data:`MAX_DIAMETER_WORK`.
    """
    if isinstance(space, LocalInputs):
        return 1 if space.size >= 2 else 0
    if isinstance(space, HammingInputs):
        return space.records if space.k >= 2 else 0
    known = space.__dict__.get("_diameter", _UNKNOWN)  # remembered on the (immutable) object itself
    if known is _UNKNOWN:
        known = space.__dict__["_diameter"] = _graph_diameter(space)
    return known


_UNKNOWN = object()


def _graph_diameter(space: GraphInputs) -> int | None:
    """:func:`diameter` of an explicit graph (the searches ask again for the same mechanism's inputs,
    relation after relation: :func:`diameter` keeps the answer on the object)."""
    n = space.size
    if n <= 1:
        return 0
    if not space.edges:
        return None
    if n * (n + len(space.edges)) <= SMALL_GRAPH_WORK:  # the searches' graphs: no scipy, no networkx to import
        return _sweeps_diameter(n, space.edges)
    tree = len({(min(i, j), max(i, j)) for i, j in space.edges}) == n - 1
    if n + len(space.edges) <= PLAIN_GRAPH_SIZE:  # connectivity and a tree's sweeps in plain Python: no scipy
        near = _adjacency(n, space.edges)
        depth = _depths(near, 0)
        if len(depth) < n:
            return None  # O(V + E)
        if tree:  # two sweeps are exact
            return max(_depths(near, max(depth, key=depth.__getitem__)).values())
    else:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components, shortest_path

        e = np.asarray(space.edges, dtype=np.intp)
        graph = coo_matrix((np.ones(len(e), dtype=np.int8), (e[:, 0], e[:, 1])), shape=(n, n)).tocsr()
        if connected_components(graph, directed=False, return_labels=False) > 1:
            return None  # O(V + E)
        if tree:  # two sweeps are exact
            far = int(np.argmax(shortest_path(graph, directed=False, unweighted=True, indices=0)))
            return int(np.max(shortest_path(graph, directed=False, unweighted=True, indices=far)))
    if n * (n + len(space.edges)) > MAX_DIAMETER_WORK:
        raise InputError(f"key 'neighbours': the diameter of a {n}-row graph with {len(space.edges)} pairs that is "
                         f"not a tree may need a search from every row (rows x (rows + pairs) above "
                         f"{MAX_DIAMETER_WORK:.0e})")
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(space.edges)
    return int(nx.diameter(g, usebounds=True))  # Takes and Kosters' bounding diameters: exact, few sweeps


#: Largest ``rows x (rows + pairs)`` of a graph whose diameter is one breadth-first search per row in plain
#: Python (:func:`_sweeps_diameter`: microseconds there, where importing scipy and networkx costs a second).
SMALL_GRAPH_WORK = 4096


def _sweeps_diameter(n: int, edges: Sequence[tuple[int, int]]) -> int | None:
    """The diameter of the graph on ``0..n-1`` with ``edges`` by a breadth-first search from every row; ``None``
    if it is disconnected.

    Examples
    --------
    >>> _sweeps_diameter(4, [(0, 1), (1, 2), (2, 3)]), _sweeps_diameter(4, [(0, 1), (1, 2), (2, 3), (3, 0)])
    (3, 2)
    >>> _sweeps_diameter(4, [(0, 1), (2, 3)]) is None
    True
    """
    near = _adjacency(n, edges)
    longest = 0
    for start in range(n):
        depth = _depths(near, start)
        if len(depth) < n:
            return None
        longest = max(longest, max(depth.values()))
    return longest


#: Largest ``rows + pairs`` of a graph whose connectivity (and, for a tree, diameter) :func:`_graph_diameter`
#: finds by breadth-first searches in plain Python (under 0.1 s), where importing scipy costs more.
PLAIN_GRAPH_SIZE = 100_000


def component_labels(space: GraphInputs) -> np.ndarray:
    """The connected component of each row of an explicit graph, as integer labels (one per component).

    >>> component_labels(GraphInputs(tuple("abcde"), ((0, 1), (3, 4)))).tolist()
    [0, 0, 1, 2, 2]
    """
    n = space.size
    if n + len(space.edges) <= PLAIN_GRAPH_SIZE:  # plain Python breadth-first searches: no scipy to import
        near = _adjacency(n, space.edges)
        label = [-1] * n
        count = 0
        for start in range(n):
            if label[start] < 0:
                for x in _depths(near, start):
                    label[x] = count
                count += 1
        return np.asarray(label, dtype=np.intp)
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    e = np.asarray(space.edges, dtype=np.intp)
    graph = coo_matrix((np.ones(len(e), dtype=np.int8), (e[:, 0], e[:, 1])), shape=(n, n))
    return connected_components(graph, directed=False)[1]


def _adjacency(n: int, edges: Sequence[tuple[int, int]]) -> list[list[int]]:
    near: list[list[int]] = [[] for _ in range(n)]
    for i, j in edges:
        near[i].append(j)
        near[j].append(i)
    return near


def _depths(near: list[list[int]], start: int) -> dict[int, int]:
    """The number of steps from ``start`` to each row it reaches (breadth-first)."""
    depth = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for x in frontier:
            for y in near[x]:
                if y not in depth:
                    depth[y] = depth[x] + 1
                    nxt.append(y)
        frontier = nxt
    return depth


#: Largest ``rows x (rows + pairs)`` for the diameter of a neighbour graph that is not a tree (its worst
#: case, e.g. a cycle, is one breadth-first search per row).
MAX_DIAMETER_WORK = 50_000_000

#: Most neighbour pairs an explicit graph may list (each costs a Python tuple and a hash entry).
MAX_EDGES = 1_000_000


def edge_list(value: object, n: int) -> tuple[tuple[int, int], ...]:
    """Validate an undirected edge list over ``n`` rows: pairs ``[i, j]`` of distinct indices in range.

    Each edge is stored once as ``(min, max)``, in order of first appearance.

    Raises
    ------
    InputError
        If ``value`` is not a list of pairs of whole numbers, an index is out of range, ``i == j``,
        or there are more than :data:`MAX_EDGES` pairs.

    Examples
    --------
    >>> edge_list([[0, 1], [1, 0], [2, 1]], 3)
    ((0, 1), (1, 2))
    """
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise InputError(f"key 'neighbours': expected a list of [i, j] pairs, got {json_repr(value)}")
    if len(value) > MAX_EDGES:
        raise InputError(f"key 'neighbours': {len(value)} pairs, more than the limit of {MAX_EDGES}")
    seen = set()
    edges = []
    for e, pair in enumerate(value):
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(_index(v) is not None for v in pair)):
            raise InputError(f"neighbours[{e}]: expected a pair of row indices [i, j], got {json_repr(pair)}")
        i, j = _index(pair[0]), _index(pair[1])
        assert i is not None and j is not None  # checked above
        if i >= n or j >= n:
            raise InputError(f"neighbours[{e}]: row index {max(i, j)} out of range (the channel has {n} rows)")
        if i == j:
            raise InputError(f"neighbours[{e}]: a row cannot neighbour itself ({i})")
        key = (min(i, j), max(i, j))
        if key not in seen:
            seen.add(key)
            edges.append(key)
    return tuple(edges)


def _index(v: object) -> int | None:
    """A row index: a whole number >= 0 (an int, not a bool)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v if v >= 0 else None
    return None
