"""Proved scopes: the mechanisms a relation's proof covers, stated once.

A relation is *stated* for a setting (and, on ``D^r``, a least number of records:
:meth:`Relation.applies_to_setting <relations.catalogue.Relation.applies_to_setting>`);
its *proof* may cover less.  The one case in the catalogue: identifiability
constrains only the posteriors ``p(x|y)``, proportional to ``p(x) Q[x][y]``, so on a
part of the neighbour graph where the prior is zero everywhere every posterior
ratio is ``0/0`` and ``eps_i`` says nothing about ``Q`` there.  The relations
"identifiability implies DP" (``eps_d <= eps_i - sigma_min``) are proved for
every neighbour graph in which **each connected component that has a neighbour
pair carries positive prior** (``docs/proofs/ratio-id-to-dp.md``):

* inside it, either some neighbour pair has one zero and one positive prior, so
  ``sigma_min = -inf`` and the bound is ``+inf``; or every component with a pair
  is entirely positive and the per-triple lemma applies to every pair and output;
* local domains and ``D^r`` are connected, so they are always inside.

The same :class:`Scope` object is used by ``relations verify`` (the verdict says
its scope) and by ``relations check`` (a mechanism outside it gets the status
``outside the proved scope``, whatever the relation does on it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from relations.model._neighbours import GraphInputs, component_labels

__all__ = ["Scope", "EVERY", "PRIOR_ON_COMPONENTS", "RESTRICTIONS", "zero_prior_components"]

#: The restrictions a proof's scope may carry, in words (central only: every restriction holds on every local
#: domain); the provers (``relations.proofs._facts``, ``relations.proofs._derive``) name scopes by these keys.
RESTRICTIONS = {
    "prior-on-components": "explicit neighbour graphs: each connected component with a neighbour pair has an input "
                           "of positive prior",
    "connected": "explicit neighbour graphs: connected (finite diameter)",
    "records>=2": "D^r: at least 2 records",
}


def zero_prior_components(mech) -> list[tuple[int, ...]]:
    """The connected components of an explicit neighbour graph that have an edge and zero prior everywhere.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism; only explicit neighbour graphs (:meth:`Mechanism.graph
        <relations.model._mechanism.Mechanism.graph>`) can have such components.

    Returns
    -------
    list of tuple of int
        Each component's inputs (row indices), smallest first; empty for local
        domains, ``D^r`` and product forms (connected graphs).

    Examples
    --------
    >>> from relations import Mechanism
    >>> rows = [["3/4", "1/4"], ["1/4", "3/4"], ["9/10", "1/10"], ["1/10", "9/10"]]
    >>> zero_prior_components(Mechanism.graph(rows, [[0, 1], [2, 3]], prior=["1/2", "1/2", "0", "0"]))
    [(2, 3)]
    >>> zero_prior_components(Mechanism.graph(rows, [[0, 1], [1, 2], [2, 3]], prior=["1/2", "1/2", "0", "0"]))
    []
    """
    inputs = mech.inputs
    if not isinstance(inputs, GraphInputs) or not inputs.edges:
        return []
    n = inputs.size
    e = np.asarray(inputs.edges, dtype=np.intp)
    label = component_labels(inputs)
    prior = mech.prior
    positive = (np.array([v > 0 for v in prior.exact], dtype=bool) if prior.exact is not None
                else np.asarray(prior.array) > 0)
    has_edge = np.zeros(n, dtype=bool)
    has_edge[e.ravel()] = True
    carried = np.zeros(label.max() + 1, dtype=bool)
    np.logical_or.at(carried, label, positive)
    bad = [c for c in np.unique(label[has_edge]) if not carried[c]]
    return sorted(tuple(int(i) for i in np.flatnonzero(label == c)) for c in bad)


@dataclass(frozen=True)
class Scope:
    """The mechanisms a relation's proof covers.

    Parameters
    ----------
    name : str
        A stable identifier (``"every"``, ``"prior-on-components"``), written into verdicts.
    central : str
        The central mechanisms covered, in words (local domains are always covered).
    needs_prior_on_components : bool, optional
        Explicit neighbour graphs must not have a component with a neighbour pair
        and zero prior everywhere (:func:`zero_prior_components`).

    Examples
    --------
    >>> from relations import Mechanism
    >>> rows = [["3/4", "1/4"], ["1/4", "3/4"], ["9/10", "1/10"], ["1/10", "9/10"]]
    >>> mech = Mechanism.graph(rows, [[0, 1], [2, 3]], prior=["1/2", "1/2", "0", "0"])
    >>> PRIOR_ON_COMPONENTS.outside(mech)
    'the neighbour-graph component {2, 3} has zero prior everywhere'
    >>> EVERY.outside(mech) is None
    True
    >>> PRIOR_ON_COMPONENTS.describe("local")
    'every local domain, any prior'
    """

    name: str
    central: str
    needs_prior_on_components: bool = False

    def describe(self, setting: str) -> str:
        """The scope in words for a relation stated for ``setting`` (``local``, ``central``, ``both``).

        Parameters
        ----------
        setting : str

        Returns
        -------
        str
        """
        local = "every local domain, any prior"
        if setting == "local":
            return local
        if setting == "central":
            return self.central
        return f"{local}; {self.central}"

    @property
    def text(self) -> str:
        """The scope in words for both settings."""
        return self.describe("both")

    def outside(self, mech) -> str | None:
        """``None`` if ``mech`` is inside the scope, else why it is not (one phrase).

        Parameters
        ----------
        mech : Mechanism

        Returns
        -------
        str or None
        """
        if self.needs_prior_on_components:
            bad = zero_prior_components(mech)
            if bad:
                shown = ", ".join("{" + ", ".join(mech.input_label(i) for i in c[:6])
                                  + (", ..." if len(c) > 6 else "") + "}" for c in bad[:3])
                many = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
                s = "s" if len(bad) > 1 else ""
                return f"the neighbour-graph component{s} {shown}{many} {'have' if s else 'has'} zero prior everywhere"
        return None


#: Every mechanism of the relation's setting: local domains, ``D^r``, explicit graphs, products.
EVERY = Scope("every", "every D^r and every explicit neighbour graph, any prior")

#: Identifiability-to-DP: graphs whose components with a neighbour pair carry positive prior.
PRIOR_ON_COMPONENTS = Scope(
    "prior-on-components",
    "every D^r, any prior; an explicit neighbour graph when each of its connected components with a "
    "neighbour pair has an input of positive prior",
    needs_prior_on_components=True)
