"""Held-out-style conjectures between notions, true and false, each labelled by hand (issue 41).

Shapes: algebraic rewrites of true bounds, wrong constants, wrong directions, wrong scopes.  The label
is derived here, independently of the prover and of the searches: ``true`` with the argument, ``false``
with a mechanism that refutes it (``tests/test_heldout_conjectures.py`` checks each such witness
with the exact decider).  Notation: ``E = e^eps_d``; binary randomized response ``RR(E)`` has rows
``(E, 1)/(E + 1)`` and ``(1, E)/(E + 1)``, ``tv = (E - 1)/(E + 1) = tanh(eps_d / 2)``,
``kl = eps_d tanh(eps_d / 2)``.
"""

from __future__ import annotations

#: (statement, setting, why it is true).
TRUE = (
    ("tv <= (exp(eps_d) - 1)/(exp(eps_d) + 1)", "local", "= tanh(eps_d / 2), Kairouz-Oh-Viswanath"),
    ("tv <= 1 - exp(-eps_d)", "local", "(E-1)/(E+1) <= (E-1)/E"),
    ("tv * (exp(eps_d) + 1) <= exp(eps_d) - 1", "local", "the tanh bound multiplied out"),
    ("tv <= tanh(eps_d/2)", "local", "Kairouz-Oh-Viswanath"),
    ("tv <= eps_d/2", "local", "tanh(x) <= x"),
    ("2*tv <= exp(eps_d) - 1", "local", "(E-1)/(E+1) <= (E-1)/2 as E + 1 >= 2"),
    ("tv <= 1 - exp(-2*eps_d)", "local", "(E-1)/(E+1) <= (E-1)(E+1)/E^2 as (E+1)^2 >= E^2"),
    ("gdp_mu <= 2*eps_d", "local", "Dong-Roth-Su: mu <= 2 Phi^-1(E/(1+E)) <= 2 eps_d"),
    ("gdp_mu <= 3*eps_d", "local", "weaker than 2 eps_d"),
    ("rho <= 2*eps_d^2", "local", "rho <= eps_d^2 / 2"),
    ("bayes_leakage <= prior_vulnerability * (exp(eps_d) - 1)", "local",
     "sum_y max_x p(x) Q[x][y] <= V(p) E sum_y Q[x0][y]"),
    ("bayes_vulnerability <= prior_vulnerability * exp(eps_d)", "local", "the same, before subtracting V(p)"),
    ("bayes_leakage <= 1 - prior_vulnerability", "local", "posterior vulnerability at most 1"),
    ("renyi(1/2) <= -2*ln(1 - hellinger)", "local", "D_1/2 = -2 ln BC, H^2 = 1 - BC (equality)"),
    ("-2*ln(1 - hellinger) <= renyi(1/2)", "local", "the same equality, the other way"),
    ("hellinger <= 1 - exp(-renyi(1/2)/2)", "local", "the same equality, solved for H^2"),
    ("1 - hellinger >= exp(-kl/2)", "local", "D_1/2 <= D_1 (van Erven-Harremoes)"),
    ("hellinger <= 1 - exp(-kl)", "local", "1 - e^(-kl/2) <= 1 - e^(-kl)"),
    ("tv <= sqrt(1 - exp(-kl))", "local", "Bretagnolle-Huber, through Le Cam's tv <= sqrt(1 - BC^2)"),
    ("tv^2 <= kl/2", "local", "Pinsker squared"),
    ("cmi <= eps_d", "local", "I(X;Y) <= eps_d (one record)"),
    ("kl <= eps_d", "local", "D_1 <= D_inf"),
    ("kl/2 <= eps_d", "local", "weaker than kl <= eps_d"),
    ("exp(kl) <= exp(eps_d)", "local", "kl <= eps_d, exp increasing"),
    ("renyi(2) <= ln(1 + chi2)", "local", "D_2 = ln(1 + chi2) (equality)"),
    ("chi2 <= exp(eps_d) - 1", "local", "D_2 <= D_inf"),
    ("delta(1) <= tv", "local", "delta decreases, delta(0) = tv"),
    ("delta(2) <= delta(1)", "local", "delta decreases"),
    ("delta(ln(3)) <= delta(1.0986122886681096)", "local", "1.0986122886681096 < ln 3 = 1.09861228866810969..."),
    ("hellinger <= tv", "local", "sqrt(P R) >= min(P, R)"),
    ("renyi(3/2) <= renyi(2)", "local", "Renyi divergence increases in its order"),
    ("kl <= renyi(2)", "local", "the same, orders 1 and 2"),
    ("eps_m <= eps_d", "local", "Cuff-Yu"),
    ("pml <= eps_d", "local", "p(y) >= min_x Q[x][y]"),
    ("min_entropy_leakage <= eps_d", "local", "mel <= ml <= eps_all = eps_d"),
    ("eps_delta(1/10) <= eps_d", "local", "delta(eps_d) = 0"),
    ("cmi <= eps_d", "central", "Cuff-Yu: given the other records, record i's channel is eps_d-DP"),
    ("cmi <= kl", "central", "the same conditioning, convexity of KL"),
    ("kl <= eps_d", "central", "pair by pair"),
    ("tv <= 1 - exp(-eps_d)", "central", "pair by pair"),
    ("gdp_mu <= 2*eps_d", "central", "pair by pair"),
    ("renyi(1/2) <= -2*ln(1 - hellinger)", "central", "pair by pair (equality)"),
    ("rho <= eps_d^2/2", "central", "Bun-Steinke, pair by pair"),
)

#: (statement, setting, a refuting mechanism as (rows, prior) of a local channel, or a central description).
FALSE = (
    ("delta(ln(3)) <= delta(1.0986122886681097)", "local", "RR(4): delta(ln 3) = 1/5 > delta(r) as r > ln 3"),
    ("delta(ln(10)) <= delta(2.3025850929940458)", "central", "RR(11) on one edge: 2.3025850929940458 > ln 10"),
    ("tv <= tanh(eps_d/4)", "local", "RR(E): tv = tanh(eps_d/2)"),
    ("tv <= 1 - exp(-eps_d/2)", "local", "RR(E): (E-1)/(E+1) > 1 - 1/sqrt(E) for E > 1"),
    ("tv <= (exp(eps_d) - 1)/(exp(eps_d) + 2)", "local", "RR(E): tv = (E-1)/(E+1)"),
    ("tv <= eps_d/4", "local", "RR(E) with small eps_d: tanh(eps/2) > eps/4"),
    ("gdp_mu <= eps_d", "local", "RR(E) with small eps_d: mu ~ 1.25 eps_d"),
    ("gdp_mu^2/2 <= kl", "local", "RR(E): kl ~ eps^2/2 < mu^2/2 ~ 0.785 eps^2"),
    ("bayes_leakage <= prior_vulnerability * (exp(eps_d) - 1)", "central",
     "an input in no neighbour pair: eps_d = 0 while the output reveals it"),
    ("bayes_leakage <= prior_vulnerability * (exp(eps_d/2) - 1)", "local", "4-RR(4), uniform: 9/28 > 1/4"),
    ("min_entropy_leakage <= eps_d/2", "local", "8-RR(4), uniform: ln(32/11) > ln 2"),
    ("pml <= eps_d/2", "local", "8-RR(4), uniform: ln(32/11) > ln 2"),
    ("renyi(1/2) <= -ln(1 - hellinger)", "local", "the constant 2 halved: RR(3)"),
    ("hellinger >= tv", "local", "RR(3): H^2 = 1 - sqrt(3)/2 < tv = 1/2"),
    ("kl >= eps_d", "local", "RR(3): kl = ln(3)/2 < ln 3"),
    ("chi2 <= kl", "local", "chi2 >= e^kl - 1 > kl"),
    ("rho <= eps_d^2/4", "local", "RR(E) small eps: rho >= kl ~ eps^2/2"),
    ("kl <= eps_d*tanh(eps_d/4)", "local", "RR(E): kl = eps tanh(eps/2)"),
    ("delta(1) <= delta(2)", "local", "RR(10): delta(1) = (10 - e)/11 > delta(2) = (10 - e^2)/11"),
    ("eps_m <= eps_d/2", "local", "k-RR with k > 32"),
)
