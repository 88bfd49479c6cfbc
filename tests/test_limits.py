"""Limits and algorithms that keep time and memory bounded (claims, neighbour graphs).

Each limit is checked up front with an error that names it; the diameter of an explicit graph
is computed without a breadth-first search from every row and agrees with networkx's.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations.checking._claims import MAX_CLAIM_LENGTH, parse_claim
from relations.errors import InputError
from relations.model._neighbours import MAX_EDGES, GraphInputs, diameter, edge_list


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 14))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return n, edges


@settings(max_examples=300, deadline=None, database=None)
@given(graphs())
def test_diameter_agrees_with_networkx(graph):
    import networkx as nx  # here, not at collection (0.25 s of CPU in each xdist worker)

    n, edges = graph
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    expected = 0 if n == 1 else (nx.diameter(g) if nx.is_connected(g) else None)
    assert diameter(GraphInputs(tuple(map(str, range(n))), tuple(edges))) == expected


@pytest.mark.parametrize("plain", [True, False], ids=["plain-python", "scipy"])
def test_long_paths_and_trees(plain, monkeypatch):
    """Both ways of finding connectivity and a tree's diameter: plain Python up to ``PLAIN_GRAPH_SIZE``, scipy
    above; the components the scopes read (``component_labels``) agree."""
    import relations.model._neighbours as neighbours

    if not plain:
        monkeypatch.setattr(neighbours, "PLAIN_GRAPH_SIZE", 0)
    n = 5000
    labels = tuple(map(str, range(n)))
    path = tuple((i, i + 1) for i in range(n - 1))
    assert diameter(GraphInputs(labels, path)) == n - 1
    star = tuple((0, i) for i in range(1, n))
    assert diameter(GraphInputs(labels, star)) == 2
    m = 400
    cycle = tuple((i, (i + 1) % m) for i in range(m))
    assert diameter(GraphInputs(tuple(map(str, range(m))), cycle)) == m // 2
    split = tuple(e for e in path if e != (2000, 2001))
    assert diameter(GraphInputs(labels, split)) is None
    labels_of = neighbours.component_labels(GraphInputs(labels, split))
    assert len(set(labels_of[:2001])) == len(set(labels_of[2001:])) == 1 and labels_of[0] != labels_of[-1]
    big = 20_000
    big_cycle = tuple((i, (i + 1) % big) for i in range(big))
    with pytest.raises(InputError, match="not a tree"):
        diameter(GraphInputs(tuple(map(str, range(big))), big_cycle))


def test_edge_limit_named():
    with pytest.raises(InputError, match=str(MAX_EDGES)):
        edge_list([[0, 1]] * (MAX_EDGES + 1), 2)


def test_claims_parse_without_backtracking_and_point_at_the_token():
    with pytest.raises(InputError, match="column"):
        parse_claim("eps_d <=" + " " * 9000 + "x")
    with pytest.raises(InputError, match=f"longer than {MAX_CLAIM_LENGTH}"):
        parse_claim("eps_d" + " " * 130_000 + "<= 1")
    assert str(parse_claim("eps_d <=" + " " * 9000 + "ln(3)").bound) == "ln(3)"


def test_huge_claim_on_the_command_line_is_one_line(tmp_path):
    mech = tmp_path / "m.json"
    mech.write_text(json.dumps({"setting": "local", "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}))
    res = subprocess.run([sys.executable, "-m", "relations.cli", "check", str(mech), "--claim",
                          "eps_d" + " " * 130_000 + "<= 1"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "longer than" in res.stderr
