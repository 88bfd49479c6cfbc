"""The mechanism: a prior and a channel over an input space with a neighbour relation.

:class:`Mechanism` is an immutable value object, validated when it is built.  Build
one with the constructor that says which neighbour structure it has:

* :meth:`Mechanism.local` -- single values, every two distinct ones neighbours;
* :meth:`Mechanism.central` -- datasets ``D^r`` of ``r`` records (a dense ``k^r``-row
  channel), neighbours differing in one record;
* :meth:`Mechanism.graph` -- central, with an explicit neighbour edge list;
* :meth:`Mechanism.product` -- ``D^r`` with every record perturbed independently by
  one local channel (never expanded).

Each accepts Fractions, ints, rational text, Python floats (exact binary values), numpy
arrays and pandas DataFrames (:mod:`relations.model._arrays`: a frame's index and columns
label the inputs and outputs; floats are their exact binary values, rows renormalised), and raises
:class:`~relations.errors.InputError` with one line naming the offending input.  Their ``mode``
(:class:`~relations.kinds.NumericMode`) says how float arrays are taken: ``"auto"`` (the default)
is the documented rule, a float array beyond 65536 entries being *float mode* (approximate results);
``"exact"`` and ``"float"`` choose (``docs/semantics.md``, "Numeric mode").  :meth:`Mechanism.in_mode`
converts a mechanism built one way to the other, and ``mode_rule`` says why it is in its mode.  A mechanism
shows itself in Jupyter and converts with ``to_dict()`` and ``to_pandas()``
(:mod:`relations.model._display`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from relations.errors import InputError
from relations.kinds import NumericMode, Setting
from relations.model._arrays import labelled
from relations.model._display import MechanismDisplay
from relations.model._distributions import Channel, Prior
from relations.model._floats import FLOAT_ROUNDING, exact_flag, float_rounding, mode_rule, numeric_mode
from relations.model._neighbours import (
    GraphInputs,
    HammingInputs,
    InputSpace,
    LocalInputs,
    edge_list,
)
from relations.model._products import ProductChannel, ProductPrior
from relations.model._runs import Runs
from relations.model._validate import (
    MAX_PRODUCT_RECORDS,
    _flat,
    dataset_count,
    labels_of,
    product_prior,
    records_of,
)

__all__ = ["MAX_DENSE_ENTRIES", "Mechanism"]

#: Largest dense expansion (entries) allowed when a product form meets a dense one.
MAX_DENSE_ENTRIES = 1 << 22


def _default(n: int) -> tuple[str, ...]:
    return tuple(map(str, range(n)))


def _dense_prior(prior: Any, n: int, channel: Channel, exact: bool | None = None) -> Prior:
    """The prior of a dense channel: taken like the channel (``exact`` True for mode ``exact``)."""
    if prior is None or (isinstance(prior, str) and prior == "uniform"):
        return Prior.uniform(n) if channel.exact is not None else Prior(np.full(n, 1.0 / n))
    p = Prior.of(prior, exact=(True if exact else None) if channel.exact is not None else False)
    if p.size != n:
        raise InputError(f"prior: {p.size} entries but the channel has {n} rows")
    if channel.exact is None and p.exact is not None:  # a float-mode channel takes its prior in floats
        p = Prior(p.array, rounding=p.rounding + (FLOAT_ROUNDING if p.rounding == 0 else 0))
    return p


def _auto_rule(channel: Any) -> str:
    """Why a channel handed in (made :func:`~relations.model._arrays.plain`) is in its mode under ``auto``."""
    return "auto: a Channel as built" if isinstance(channel, Channel) else mode_rule(channel, NumericMode.AUTO)


def _channel_in(channel: Channel, exact: bool, where: str) -> Channel:
    """``channel`` exact (its floats at their binary values) or in float mode (its float64 copy)."""
    if (channel.exact is not None) == exact:
        return channel
    if exact:
        return Channel.of(channel.array, where=where, exact=True)
    return Channel(channel.array, rounding=channel.rounding + float_rounding(channel.array))


def _prior_in(prior: Prior, exact: bool) -> Prior:
    """``prior`` exact or in float mode, as :func:`_channel_in` (a float uniform prior is the exact one)."""
    if (prior.exact is not None) == exact:
        return prior
    if not exact:
        return Prior(prior.array, rounding=prior.rounding + float_rounding(prior.array[None, :]))
    if not prior.rounding and np.all(prior.array == prior.array[0]):  # Prior(np.full(n, 1/n)): "uniform"
        return Prior.uniform(prior.size)
    return Prior.of(prior.array, exact=True)


def _exactness(prior: Prior, channel: Channel) -> bool:
    exact = prior.exact is not None and channel.exact is not None
    if not exact and (prior.exact is not None) != (channel.exact is not None):
        raise InputError("prior and channel must both be exact or both float arrays")
    return exact


@dataclass(frozen=True, eq=False, repr=False)  # a short repr: MechanismDisplay.__repr__
class Mechanism(MechanismDisplay):
    """A prior and a channel over an input space with a neighbour relation.

    ``setting`` is ``"local"`` or ``"central"``; ``inputs`` is the input space
    (:class:`~relations.model._neighbours.LocalInputs`,
    :class:`~relations.model._neighbours.HammingInputs` or
    :class:`~relations.model._neighbours.GraphInputs`); ``outputs`` labels the
    channel's columns (the local outputs of a product channel); ``exact`` is
    False in float mode; ``mode_rule`` says why the mechanism is exact or in float
    mode (``"auto: a float array of more than 65536 entries"``, ``"chosen by the caller"``;
    empty when not recorded), as the table's title shows it.
    """

    setting: str
    prior: Prior | ProductPrior
    channel: Channel | ProductChannel
    inputs: InputSpace
    outputs: tuple[str, ...]
    exact: bool = True
    source: str = field(default="", compare=False)
    mode_rule: str = field(default="", compare=False)

    # ------------------------------------------------------------------ constructors

    @classmethod
    def local(cls, channel: Any, *, prior: Any = "uniform", inputs: Sequence | None = None,
              outputs: Sequence | None = None, source: str = "",
              mode: NumericMode | str = NumericMode.AUTO) -> Mechanism:
        """A local mechanism: ``n`` single values, every two distinct ones neighbours.

        Parameters
        ----------
        channel : Channel, sequence of rows, numpy.ndarray or pandas.DataFrame
            ``Q[x][y] = p(y | x)``; rows sum to 1.  A frame's index and columns (unless the
            default ``0, 1, ...``) are the input and output labels.
        prior : "uniform", Prior, sequence, numpy.ndarray or pandas.Series, optional
            ``p(x)``; uniform by default.  A labelled Series is taken in the inputs' order.
        inputs, outputs : sequence of str or int, optional
            Labels of the rows and columns (default ``"0"``, ``"1"``, ...).
        source : str, optional
            Where it came from (a file name), shown in reports.
        mode : NumericMode or str, optional
            ``"auto"`` (the default: a float array of more than
            :data:`~relations.model._floats.MAX_EXACT_FLOAT_ENTRIES` entries is float mode, anything
            else exact), ``"exact"`` (float arrays at their binary values, at most
            :data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES` entries) or ``"float"``
            (float64 arithmetic); see :meth:`in_mode`.

        Returns
        -------
        Mechanism
            Local: any two inputs are neighbours.

        Raises
        ------
        InputError
            If the channel or the prior is not a distribution, a size disagrees, ``mode`` is
            unknown, or mode ``exact`` meets a float array too large to be taken exactly.

        Examples
        --------
        >>> m = Mechanism.local([["13/20", "7/20"], ["7/20", "13/20"]], prior=["19/20", "1/20"])
        >>> str(m.setting), m.channel.shape, m.prior.exact[1]
        ('local', (2, 2), Fraction(1, 20))
        """
        mode = numeric_mode(mode)
        channel, inputs, outputs, prior = labelled(channel, inputs, outputs, prior)
        q = Channel.of(channel, exact=exact_flag(mode))
        n, m = q.shape
        p = _dense_prior(prior, n, q, exact_flag(mode))
        space = LocalInputs(labels_of(inputs, "inputs", n) if inputs is not None else _default(n))
        outs = labels_of(outputs, "outputs", m) if outputs is not None else _default(m)
        return cls(Setting.LOCAL, p, q, space, outs, _exactness(p, q), source, _auto_rule(channel)).in_mode(mode)

    @classmethod
    def central(cls, channel: Any, *, records: int, domain: Sequence | int | None = None, prior: Any = "uniform",
                outputs: Sequence | None = None, source: str = "",
                mode: NumericMode | str = NumericMode.AUTO) -> Mechanism:
        """A central mechanism on ``D^r`` with a dense channel of ``k^r`` rows.

        Row ``i`` is the dataset whose records are the base-``k`` digits of ``i``, the first
        record most significant; neighbours differ in exactly one record.

        Parameters
        ----------
        channel : Channel, sequence of rows or numpy.ndarray
            ``k^r`` rows.
        records : int
            ``r``, from 1 to :data:`MAX_RECORDS`.
        domain : sequence of labels or int, optional
            The ``k`` record values (or ``k`` itself); by default ``k`` is the ``r``-th root
            of the number of rows.
        prior : "uniform", Prior, sequence, numpy.ndarray or ProductPrior, optional
            A dense prior over the ``k^r`` datasets, or a :class:`ProductPrior` (expanded).
        outputs : sequence of labels, optional
        source : str, optional
        mode : NumericMode or str, optional
            As for :meth:`local`.

        Returns
        -------
        Mechanism
            Central on ``D^r``: two datasets are neighbours when they differ in one record.

        Raises
        ------
        InputError
            If the row count is not ``k^r`` or an entry is invalid.

        Examples
        --------
        >>> m = Mechanism.central([["1/2", "1/2"]] * 4, records=2)
        >>> m.inputs.k, m.inputs.records, m.input_label(3)
        (2, 2, '(1,1)')
        """
        mode = numeric_mode(mode)
        r = records_of(records)
        channel, _, outputs, prior = labelled(channel, None, outputs, prior)
        q = Channel.of(channel, exact=exact_flag(mode))
        n, m = q.shape
        if domain is None:
            k = round(n ** (1 / r))
            k = next((c for c in (k - 1, k, k + 1) if c >= 1 and dataset_count(c, r) == n), None)
            if k is None:
                raise InputError(f"channel: {n} rows is not k^{r} for a whole number k")
            domain = _default(k)
        elif isinstance(domain, int) and not isinstance(domain, bool):
            domain = _default(domain)
        dom = labels_of(domain, "domain", None)
        if not dom:
            raise InputError("key 'domain': needs at least one value")
        expected = dataset_count(len(dom), r)
        if expected != n:
            raise InputError(f"channel: {n} rows but domain^records = {len(dom)}^{r}"
                             f"{'' if expected is None else ' = ' + str(expected)}")
        if isinstance(prior, ProductPrior):
            prior = prior.dense()
        p = _dense_prior(prior, n, q, exact_flag(mode))
        outs = labels_of(outputs, "outputs", m) if outputs is not None else _default(m)
        return cls(Setting.CENTRAL, p, q, HammingInputs(dom, r), outs, _exactness(p, q), source,
                   _auto_rule(channel)).in_mode(mode)

    @classmethod
    def graph(cls, channel: Any, edges: Any, *, prior: Any = "uniform", inputs: Sequence | None = None,
              outputs: Sequence | None = None, source: str = "",
              mode: NumericMode | str = NumericMode.AUTO) -> Mechanism:
        """A central mechanism whose neighbours are an explicit, undirected edge list over row indices.

        Parameters
        ----------
        channel : Channel, sequence of rows or numpy.ndarray
        edges : sequence of pairs of int
            ``[[i, j], ...]``; duplicates and both orders are merged.
        prior, inputs, outputs, source, mode
            As for :meth:`local`.

        Returns
        -------
        Mechanism
            Central, its neighbours the edges.

        Raises
        ------
        InputError
            If an edge is not a pair of distinct row indices in range.

        Examples
        --------
        >>> m = Mechanism.graph([["1", "0"], ["1/2", "1/2"], ["0", "1"]], [[0, 1], [2, 1]])
        >>> m.inputs.edges
        ((0, 1), (1, 2))
        """
        mode = numeric_mode(mode)
        channel, inputs, outputs, prior = labelled(channel, inputs, outputs, prior)
        q = Channel.of(channel, exact=exact_flag(mode))
        n, m = q.shape
        p = _dense_prior(prior, n, q, exact_flag(mode))
        labels = labels_of(inputs, "inputs", n) if inputs is not None else _default(n)
        outs = labels_of(outputs, "outputs", m) if outputs is not None else _default(m)
        return cls(Setting.CENTRAL, p, q, GraphInputs(labels, edge_list(edges, n)), outs, _exactness(p, q), source,
                   _auto_rule(channel)).in_mode(mode)

    @classmethod
    def product(cls, channel: Any, *, records: int, prior: Any = "uniform", domain: Sequence | None = None,
                outputs: Sequence | None = None, source: str = "",
                mode: NumericMode | str = NumericMode.AUTO) -> Mechanism:
        """A central product form: each of ``r`` records through the same local channel ``W``.

        Nothing of size ``k^r`` is built: the measures reduce to the local channel
        (:mod:`relations.measures._product`).

        Parameters
        ----------
        channel : Channel, sequence of rows or numpy.ndarray
            The local channel ``W`` (``k x m``).
        records : int
            ``r``, from 1 to :data:`MAX_PRODUCT_RECORDS` (``2**62``): the cost depends on the
            runs of local priors, not on ``r``.
        prior : "uniform", ProductPrior, or a sequence of ``r`` local priors, optional
            Independent records.  A dense prior over the ``k^r`` datasets is accepted when
            the dense channel has at most :data:`MAX_DENSE_ENTRIES` entries, and gives the
            expanded (dense) mechanism.
        domain, outputs : sequence of labels, optional
            Labels of the record values (rows of ``W``) and of ``W``'s outputs.
        source : str, optional
        mode : NumericMode or str, optional
            As for :meth:`local` (the local channel ``W`` decides under ``auto``).

        Returns
        -------
        Mechanism
            Central, a product form (never expanded).

        Raises
        ------
        InputError
            If ``W``, a local prior or a size is invalid.

        Examples
        --------
        >>> m = Mechanism.product([["3/4", "1/4"], ["1/4", "3/4"]], records=1000)
        >>> m.is_product, m.inputs.records, m.channel.local.shape
        (True, 1000, (2, 2))
        """
        mode = numeric_mode(mode)
        r = records_of(records, limit=MAX_PRODUCT_RECORDS)
        channel, domain, outputs, prior = labelled(channel, domain, outputs, prior)
        w = Channel.of(channel, where="channel.product", exact=exact_flag(mode))
        rule = _auto_rule(channel)
        k, m = w.shape
        dom = labels_of(domain, "domain", None) if domain is not None else _default(k)
        if not dom:
            raise InputError("key 'domain': needs at least one value")
        if k != len(dom):
            raise InputError(f"channel.product: {k} rows but the domain has {len(dom)} values")
        outs = labels_of(outputs, "outputs", m) if outputs is not None else _default(m)
        space = HammingInputs(dom, r)
        exact = w.exact is not None
        if prior is None or (isinstance(prior, str) and prior == "uniform"):
            factor = Prior.uniform(k) if exact else Prior(np.full(k, 1.0 / k))
            pp = ProductPrior.repeated(factor, r)
        elif isinstance(prior, Prior) or _flat(prior):
            dense = Prior.of(prior)
            rows = dataset_count(k, r)
            if dense.size != rows:
                raise InputError(f"prior: {dense.size} entries but the channel has {rows} rows")
            size = dataset_count(k * m, r)
            if size is None or size > MAX_DENSE_ENTRIES:
                raise InputError("a dense prior with a product channel needs the dense channel, which is too "
                                 "large; use \"uniform\" or {\"product\": [...]} for the prior")
            return cls(Setting.CENTRAL, dense, ProductChannel(w, r), space, outs, exact, source,
                       rule).dense().in_mode(mode)
        else:
            pp = product_prior(prior, r, k)
        if pp.records != r:
            raise InputError(f"prior.product: {pp.records} local priors but records = {r}")
        return cls(Setting.CENTRAL, pp, ProductChannel(w, r), space, outs, exact, source, rule).in_mode(mode)

    # ------------------------------------------------------------------ views

    def with_entries(self, *, prior: Any = None, channel: Any = None) -> Mechanism:
        """The same input space and labels with another dense prior and/or channel of the same shape.

        Raises
        ------
        InputError
            If a new prior or channel is not a distribution or has another shape.

        Examples
        --------
        >>> m = Mechanism.local([["1", "0"], ["0", "1"]])
        >>> m.with_entries(prior=["1/3", "2/3"]).prior.exact
        (Fraction(1, 3), Fraction(2, 3))
        """
        if isinstance(self.channel, ProductChannel) or not isinstance(self.prior, Prior):  # is_product, spelt out
            raise InputError("with_entries() needs a dense mechanism")
        p = self.prior if prior is None else Prior.of(prior)
        q = self.channel if channel is None else Channel.of(channel)
        if q.shape != self.channel.shape or p.size != self.prior.size:
            raise InputError("with_entries(): the new prior and channel must keep the shape")
        return Mechanism(self.setting, p, q, self.inputs, self.outputs, _exactness(p, q), self.source,
                         self.mode_rule if channel is None else "")

    def in_mode(self, mode: NumericMode | str) -> Mechanism:
        """The same mechanism in the numeric mode ``mode`` (``"auto"``: this one, as built).

        ``"exact"`` takes the floats of a float-mode mechanism at their binary values, rows renormalised
        exactly (as a float array handed in with mode ``exact``; a float uniform prior is the uniform
        prior), after checking the size limit
        (:data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES` channel entries); ``"float"`` keeps only
        the float64 copy of an exact one, its rounding radius widened by that of the copy
        (:func:`~relations.model._floats.float_rounding`).  ``mode_rule`` records the choice.

        Parameters
        ----------
        mode : NumericMode or str
            ``"auto"``, ``"exact"`` or ``"float"``.

        Returns
        -------
        Mechanism
            This mechanism in the numeric mode ``mode``.

        Raises
        ------
        InputError
            If ``mode`` is unknown, or ``"exact"`` meets a float array of more than
            :data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES` entries (before anything is converted).

        Examples
        --------
        >>> import numpy as np
        >>> big = Mechanism.local(np.full((257, 256), 1 / 256))
        >>> big.exact, big.mode_rule
        (False, 'auto: a float array of more than 65536 entries')
        >>> taken = big.in_mode("exact")
        >>> taken.exact, taken.channel.exact[0][0], taken.prior.exact[0], taken.mode_rule
        (True, Fraction(1, 256), Fraction(1, 257), 'chosen by the caller')
        >>> floats = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]]).in_mode("float")
        >>> floats.exact, floats.channel.array[0].tolist(), floats.mode_rule
        (False, [0.75, 0.25], 'chosen by the caller')
        """
        mode = numeric_mode(mode)
        if mode is NumericMode.AUTO:
            return self
        exact = mode is NumericMode.EXACT
        channel: Channel | ProductChannel
        prior: Prior | ProductPrior
        if isinstance(self.channel, ProductChannel):
            channel = ProductChannel(_channel_in(self.channel.local, exact, "channel.product"), self.channel.records)
        else:
            channel = _channel_in(self.channel, exact, "channel")
        if isinstance(self.prior, ProductPrior):
            distinct, which, counts = self.prior.run_index
            taken = [_prior_in(f, exact) for f in distinct]
            prior = ProductPrior(Runs.trusted([taken[i] for i in which.tolist()], counts))
        else:
            prior = _prior_in(self.prior, exact)
        return Mechanism(self.setting, prior, channel, self.inputs, self.outputs, exact, self.source,
                         mode_rule(None, mode))

    def __post_init__(self) -> None:
        object.__setattr__(self, "setting", Setting(self.setting))

    @property
    def is_product(self) -> bool:
        return isinstance(self.channel, ProductChannel)

    @property
    def rounding(self) -> tuple[Fraction, Fraction]:
        """``(channel, prior)`` relative rounding radii (per record for products): 0 for exact input.

        Examples
        --------
        >>> Mechanism.local([[0.75, 0.25], [0.25, 0.75]]).rounding[0] == 2**-42
        True
        """
        ch, pr = self.channel, self.prior
        return ((ch.local if isinstance(ch, ProductChannel) else ch).rounding, pr.rounding)

    def dense(self) -> Mechanism:
        """The same mechanism with product forms expanded (small sizes only).

        Raises
        ------
        InputError
            If the expansion would have more than :data:`MAX_DENSE_ENTRIES` channel (or prior) entries.
        """
        if not self.is_product and isinstance(self.prior, Prior):
            return self
        if isinstance(self.channel, ProductChannel):
            (k, m), r = self.channel.local.shape, self.channel.records
            size = dataset_count(k * m, r)
            if size is None or size > MAX_DENSE_ENTRIES:
                raise InputError(f"this needs the dense {k}^{r} x {m}^{r} channel, more than {MAX_DENSE_ENTRIES} "
                                 "entries (the limit of a dense expansion); product forms are measured and "
                                 "checked without it")
        prior = self.prior.dense() if isinstance(self.prior, ProductPrior) else self.prior
        channel = self.channel.dense() if isinstance(self.channel, ProductChannel) else self.channel
        outputs = self.outputs
        if isinstance(self.channel, ProductChannel):
            outputs = tuple(_tuple_label(t) for t in np.ndindex(*(len(self.outputs),) * self.channel.records)
                            for t in [tuple(self.outputs[i] for i in t)])
        return Mechanism(self.setting, prior, channel, self.inputs, outputs, self.exact, self.source, self.mode_rule)

    def repeated(self, k: int):
        """This mechanism used ``k`` times on the same input, every use independent given the input.

        Nothing of size ``m^k`` is built: the result is a
        :class:`~relations.model._composed.Composition`, measured through the counts of each
        output (:meth:`~relations.model._composed.Composition.sufficient`) or, for the privacy
        profile, the privacy loss distribution (:mod:`relations.measures._composition`).

        Parameters
        ----------
        k : int
            The number of uses, from 1 to :data:`~relations.model._composed.MAX_REPEAT`.

        Returns
        -------
        Composition
            The ``k`` uses, never expanded.

        Raises
        ------
        InputError
            If ``k`` is out of range, or this is a product form or in float mode.

        Examples
        --------
        >>> rr = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])
        >>> rr.repeated(30).type_counts()
        31
        """
        from relations.model._composed import compose

        return compose(self, counts=[k])

    def input_label(self, x) -> str:
        """The label of input ``x``: a row index, or per-record value indices (a tuple or
        :class:`~relations.model._runs.Runs`; a run of ``n > 1`` equal values is written ``a×n``)."""
        if isinstance(x, Runs):
            assert isinstance(self.inputs, HammingInputs)
            return _runs_label(x, self.inputs.domain)
        if isinstance(x, tuple):
            assert isinstance(self.inputs, HammingInputs)
            return _tuple_label(tuple(self.inputs.domain[v] for v in x))
        return self.inputs.label(x)

    def output_label(self, y) -> str:
        """The label of output ``y`` (an index, or per-record indices as in :meth:`input_label`)."""
        if isinstance(y, Runs):
            return _runs_label(y, self.outputs)
        if isinstance(y, tuple):
            return _tuple_label(tuple(self.outputs[v] for v in y))
        return self.outputs[y]


def _tuple_label(parts: tuple[str, ...]) -> str:
    return "(" + ",".join(parts) + ")"


def _runs_label(runs: Runs, labels: Sequence[str]) -> str:
    return _tuple_label(tuple(labels[v] if n == 1 else f"{labels[v]}×{n}" for v, n in runs.runs))


