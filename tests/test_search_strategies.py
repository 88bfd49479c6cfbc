"""The public hypothesis strategies (relations.search.strategies) draw what they promise.

Checked independently of the package's measures: sums, shapes and connectivity are
computed here from the raw entries (connectivity by a breadth-first search written
in this file)."""

from __future__ import annotations

from collections import deque
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from relations.model import GraphInputs, HammingInputs, LocalInputs, ProductChannel, ProductPrior
from relations.search import strategies as S

FAST = settings(max_examples=30, deadline=None)


def _connected(n: int, edges) -> bool:
    adjacency = {i: set() for i in range(n)}
    for i, j in edges:
        adjacency[i].add(j)
        adjacency[j].add(i)
    seen, queue = {0}, deque([0])
    while queue:
        for v in adjacency[queue.popleft()]:
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return len(seen) == n


@FAST
@given(st.data(), st.integers(1, 7), st.booleans(), st.booleans())
def test_distributions_are_exact_and_sum_to_one(data, size, zeros, skew):
    p = data.draw(S.distributions(size, zeros=zeros, skew=skew))
    assert len(p) == size and all(isinstance(v, Fraction) and v >= 0 for v in p)
    assert sum(p) == 1
    if not zeros:
        assert all(v > 0 for v in p)


@FAST
@given(st.data(), st.integers(1, 5), st.integers(1, 5))
def test_channels_are_row_stochastic(data, n, m):
    q = data.draw(S.channels(n, m))
    assert len(q) == n and all(len(r) == m and sum(r) == 1 and min(r) >= 0 for r in q)


@FAST
@given(S.local_mechanisms(max_inputs=5, max_outputs=4))
def test_local_mechanisms(mech):
    n, m = mech.channel.shape
    assert mech.setting == "local" and isinstance(mech.inputs, LocalInputs)
    assert 2 <= n <= 5 and 2 <= m <= 4 and mech.exact
    assert sum(mech.prior.exact) == 1 and all(sum(r) == 1 for r in mech.channel.exact)


@FAST
@given(S.central_dense_mechanisms(max_rows=27))
def test_central_dense_mechanisms(mech):
    assert mech.setting == "central" and isinstance(mech.inputs, HammingInputs)
    k, r = mech.inputs.k, mech.inputs.records
    assert 2 <= k <= 3 and r >= 1 and k**r <= 27
    assert mech.channel.shape[0] == k**r == len(mech.prior.exact)


@FAST
@given(S.graph_mechanisms(max_inputs=6))
def test_graph_mechanisms_are_connected(mech):
    assert isinstance(mech.inputs, GraphInputs)
    n = mech.channel.shape[0]
    assert 2 <= n <= 6
    assert all(0 <= i < j < n for i, j in mech.inputs.edges)
    assert _connected(n, mech.inputs.edges)


@FAST
@given(S.product_mechanisms(max_records=6))
def test_product_mechanisms_stay_products(mech):
    assert isinstance(mech.channel, ProductChannel) and isinstance(mech.prior, ProductPrior)
    assert 2 <= mech.channel.records <= 6
    assert mech.prior.records == mech.channel.records
    assert all(sum(f.exact) == 1 and len(f.exact) == mech.channel.local.shape[0] for f in mech.prior.factors)


@FAST
@given(S.mechanisms(zeros=False))
def test_full_support_when_zeros_are_off(mech):
    dense = mech.dense() if mech.is_product and mech.channel.records <= 3 else mech
    rows = dense.channel.local.exact if dense.is_product else dense.channel.exact
    assert all(v > 0 for r in rows for v in r)


@FAST
@given(st.data(), st.sampled_from(["local", "central"]))
def test_mechanisms_of_one_setting(data, setting):
    assert data.draw(S.mechanisms(setting)).setting == setting
