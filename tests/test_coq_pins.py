"""The definitions the Coq statements use are pinned: a changed definition drops the citations that use it.

A theorem about a hollowed definition still compiles (a ``graph_nb`` in which no edge counts leaves every
theorem over graphs proved).  ``relations.proofs._coq_definitions.COQ_DEFINITIONS`` registers the body of
each definition the statements use; the checker ``relations verify`` runs (:func:`check_theorems`) declares
them afresh over the standard library in its coqc session and requires the compiled library's definitions
to be convertible with them.  Here: the registry is what the files hold and covers what the statements
use; a registered body that differs from the library's drops exactly the theorems whose statements use it
(derived here from the statements' text, not from the checker's closure), with the definition named; and
(slow) the same when the file is changed in a temporary copy and compiled, where without the pin every
theorem stayed cited.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from relations.proofs import _coq as coq
from relations.proofs._coq import COQ_LEMMAS, COQ_PROOFS, check_theorems
from relations.proofs._coq_definitions import COQ_DEFINITIONS, DEFINITION_FILES, read_definitions

ROOT = Path(__file__).resolve().parents[1]
COQ_DIR = ROOT / "proofs" / "coq"
BUILD_PRODUCTS = ("*.vo", "*.vok", "*.vos", "*.glob", "*.aux", ".*.aux", ".lia.cache", ".nra.cache")

#: Changes to the four definitions the issue names, each as (file, old text, new text).  graph_nb: no edge
#: counts (every theorem over graphs still compiles: the proofs only use its symmetry).
HOLLOW = {
    "graph_nb": ("Budgets.v", "fun x x' => existsb (fun e => (Nat.eqb (fst e) x && Nat.eqb (snd e) x')\n"
                              "                             || (Nat.eqb (fst e) x' && Nat.eqb (snd e) x)) edges.",
                 "fun x x' => existsb (fun e => (Nat.eqb (fst e) x && Nat.eqb (snd e) x' && false)\n"
                 "                             || (Nat.eqb (fst e) x' && Nat.eqb (snd e) x && false)) edges."),
    "is_channel": ("Mechanism.v", "(forall y, (y < m)%nat -> 0 <= Q x y) /\\ sum m (Q x) = 1.",
                   "(forall y, (y < m)%nat -> 0 <= Q x y) /\\ sum m (Q x) = 1 * 1."),
    "ele": ("Budgets.v", "  | NInf, _ => True\n", "  | NInf, _ => ~ False\n"),
    "charged": ("Budgets.v", "reach nb n n x z = true /\\ 0 < p z.", "reach nb n (S n) x z = true /\\ 0 < p z."),
}


def _users(name: str) -> set[str]:
    """The relations whose registered statement uses ``name``, read from the statement text: ``graph_nb`` and
    ``charged`` are used by no other definition, so by the statements naming them; every statement assumes
    ``is_channel`` and concludes with ``ele``."""
    return {rid for rid, p in COQ_PROOFS.items() if re.search(rf"\b{name}\b", p.statement)}


def test_the_registry_is_what_the_files_define():
    """Each registered body is the text of its file now (a deliberate change to a definition changes the
    registry in the same commit), and the registry holds every definition of the definition files that a
    statement uses, directly or through another definition; ``symmetric`` (used by lemmas only) is left out."""
    assert read_definitions(COQ_DIR, COQ_DEFINITIONS) == COQ_DEFINITIONS
    every = read_definitions(COQ_DIR)
    assert set(every) - set(COQ_DEFINITIONS) == {"symmetric"}
    statements = " ".join(p.statement for p in (*COQ_PROOFS.values(), *COQ_LEMMAS))
    assert "symmetric" not in statements and not any(re.search(r"\bsymmetric\b", d.text)
                                                     for d in COQ_DEFINITIONS.values())
    assert {d.file for d in COQ_DEFINITIONS.values()} == set(DEFINITION_FILES)
    assert _users("graph_nb") and _users("charged") < _users("graph_nb") and _users("is_channel") == set(COQ_PROOFS)
    assert _users("ele") == set(COQ_PROOFS)


@pytest.fixture(scope="module")
def library(coq_build):
    """The repository's theorem files compiled by the checker (once per test run, tests/conftest.py)."""
    return shutil.which("coqc"), coq_build


#: The default run changes one definition of each kind: ``ele``, which every statement uses (all dropped), and
#: ``graph_nb``, which some use (those dropped); the slow tier also ``is_channel`` (every statement) and
#: ``charged`` (some): one coqc session each, about 0.9 s of CPU.
_KIND_SEEN = {"is_channel": "ele", "charged": "graph_nb"}


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if name in _KIND_SEEN else name
                                  for name in sorted(HOLLOW)])
def test_a_definition_without_its_registered_body_drops_the_theorems_using_it(library, monkeypatch, name):
    """The registry says the changed body, the compiled library has the committed one: exactly the theorems
    whose statements use the definition fail, each naming it; the others are checked."""
    coqc, build = library
    file, old, new = HOLLOW[name]
    registered = COQ_DEFINITIONS[name]
    assert old in registered.text
    monkeypatch.setitem(COQ_DEFINITIONS, name, type(registered)(file, registered.text.replace(old, new)))
    out = coq._check_session(coqc, build.folder, build.release, list(COQ_PROOFS.values()), dict(build.known))
    dropped = {rid for rid, p in COQ_PROOFS.items() if out[p].status != "checked"}
    assert dropped == _users(name)
    for rid in dropped:
        assert out[COQ_PROOFS[rid]].detail.endswith(f"does not have its registered body "
                                                    f"(relations/proofs/_coq_definitions.py): {name} ({file})")


def test_an_inductive_type_with_another_constructor_is_caught(library, monkeypatch):
    """``ER`` registered with a fourth constructor: the compiled one's match is not exhaustive for it, so
    every theorem (each concludes with ``ele`` over ``ER``) fails, naming ``ER``."""
    coqc, build = library
    registered = COQ_DEFINITIONS["ER"]
    monkeypatch.setitem(COQ_DEFINITIONS, "ER", type(registered)(registered.file,
                                                                registered.text.replace("| PInf.", "| PInf | Junk.")))
    out = coq._check_session(coqc, build.folder, build.release, list(COQ_PROOFS.values())[:3], dict(build.known))
    assert all(o.status == "failed" and o.detail.endswith(": ER (Budgets.v)") for o in out.values()), out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOLLOW))
def test_a_changed_definition_in_the_files_drops_the_citations(tmp_path, monkeypatch, name):
    """The issue's case: the definition changed in a copy of the files, compiled by the checker.  ``graph_nb``
    with no edge counting and ``ele`` with ``~ False`` for ``True`` compile (every theorem was cited before the
    pin); the changes to ``is_channel`` and ``charged`` tried here break a proof, so coqc drops them already.
    Either way exactly the theorems using the definition are dropped, each saying why."""
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path / "cache"))
    copy = tmp_path / "coq"
    shutil.copytree(COQ_DIR, copy, ignore=shutil.ignore_patterns(*BUILD_PRODUCTS))
    file, old, new = HOLLOW[name]
    text = (copy / file).read_text(encoding="utf-8")
    assert old in text
    (copy / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    out = check_theorems(COQ_PROOFS.values(), copy)
    dropped = {rid for rid, p in COQ_PROOFS.items() if out[p].status != "checked"}
    compiled = not any(o.detail.startswith("coqc ") for o in out.values())
    if name in ("graph_nb", "ele"):
        assert compiled
    if compiled:
        assert dropped == _users(name)
        assert all(out[COQ_PROOFS[rid]].detail.endswith(f": {name} ({file})") for rid in dropped)
    else:
        assert dropped == set(COQ_PROOFS)
