"""A k-ary randomized response written as its users would, for ``relations audit`` (docs/auditing.md).

``privatise`` reports the true value with probability 1/2 and each of the three other values with
probability 1/6, so its budget is eps_d = ln((1/2) / (1/6)) = ln(3) on the domain 0, 1, 2, 3::

    relations audit examples/randomizer.py:privatise --domain 0,1,2,3 --eps 'ln(3)'        # consistent, exactly

``privatise_biased`` draws the other value from all four with ``rng.integers(0, 4)`` and, when it hits
the truth, reports the next value instead: that value gets 1/4 and the two others 1/8 each, so the budget
it claims, ln(3), fails: eps_d = ln((1/2) / (1/8)) = ln(4)::

    relations audit examples/randomizer.py:privatise_biased --domain 0,1,2,3 --eps 'ln(3)'  # violated
"""

K = 4


def privatise(x: int, rng) -> int:
    """Keep ``x`` with probability 1/2, otherwise report one of the other K - 1 values uniformly."""
    if rng.random() < 0.5:
        return x
    other = int(rng.integers(0, K - 1))  # 0 .. K-2, then skip over x
    return other + 1 if other >= x else other


def privatise_biased(x: int, rng) -> int:
    """The same, with a bug: the other value is drawn from all K values and moved off the truth."""
    if rng.random() < 0.5:
        return x
    other = int(rng.integers(0, K))
    return (other + 1) % K if other == x else other
