"""The package's shape: layers import only downwards, no import cycles, modules of readable size,
``__all__`` everywhere, and every named mechanism listed."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "relations"

#: Rank of each layer; a module may import from its own subpackage and from lower ranks only.
LAYERS = {
    "errors": 0, "kinds": 0, "_lazy": 0, "_cache": 0, "_install": 0, "_processes": 0, "notions": 0.5, "_json": 0.5,
    "numbers": 1,
    "model": 2,
    "measures": 3, "mechanisms": 3,
    "catalogue": 4,
    "checking": 5,
    "proofs": 6, "search": 6, "tradeoffs": 6, "audit": 6,
    "pipeline": 7, "sweeps": 7,
    "io": 8,
    "app": 9,
    "figures": 10, "cli": 11, "__main__": 12, "data": 0,
    # the live classroom page ('relations demo') sits with the figures: it uses the layers below, cli uses it
    "demo": 10,
}

def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "data" and path.name != "__init__.py":
            continue  # links to the top-level docs/ and examples/ (files the wheel carries)
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def imports(path: Path, name: str) -> set[str]:
    """Every ``relations.*`` module imported anywhere in the file (function-level imports included)."""
    out = set()
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("relations")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if target.startswith("relations"):
                out.add(target)
                out |= {f"{target}.{a.name}" for a in node.names
                        if (PACKAGE.parent / f"{target}.{a.name}".replace(".", "/")).with_suffix(".py").exists()}
    return out


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


@functools.cache
def graph() -> dict[str, set[str]]:
    """Every module's imports of the package: parsed once per process, when a test first asks (not while
    collecting: each xdist worker collects every test, and this parse is about 2 s of CPU)."""
    return {name: imports(path, name) for name, path in modules()}


@pytest.mark.parametrize("name", sorted(n for n, _ in modules() if layer(n)))
def test_layers_import_only_downwards(name):
    own = layer(name)
    assert own in LAYERS, f"{name}: its layer {own!r} has no rank in LAYERS"
    for target in graph()[name]:
        other = layer(target)
        if other is None or other == own:
            continue
        assert LAYERS[other] < LAYERS[own], f"{name} (layer {own}) imports {target} (layer {other})"


def test_no_import_cycles():
    known = set(graph())
    edges = {n: {t for t in ts if t in known and t != n} for n, ts in graph().items() if n != "relations"}
    state: dict[str, int] = {}

    def visit(n, path):
        state[n] = 1
        for t in edges.get(n, ()):
            if t == "relations":
                continue
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path + [t]))
            if t not in state:
                visit(t, path + [t])
        state[n] = 2

    for n in edges:
        if n not in state:
            visit(n, [n])


@pytest.mark.parametrize("name,path", list(modules()), ids=[n for n, _ in modules()])
def test_module_docstring_and_all(name, path):
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    assert ast.get_docstring(tree), f"{name} has no module docstring"
    if name not in ("relations.cli",):
        assert any((isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in n.targets))
                   or (isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "__all__")
                   for n in tree.body), f"{name} has no __all__"


def test_every_constructor_is_registered_and_listed():
    from conftest import run_cli

    import relations.mechanisms._local as local
    import relations.mechanisms._paper as paper
    import relations.mechanisms._ranges as ranges
    from relations.mechanisms._registry import REGISTRY

    registered = {e.function.__name__ for e in REGISTRY.values()}
    combinators = {"product", "krr_rows", "utility_sensitivity", "paper_local", "paper_central"}
    constructors = {n for m in (local, paper, ranges) for n in m.__all__ if callable(getattr(m, n))
                    and getattr(getattr(m, n), "__module__", "") == m.__name__} - combinators
    assert constructors <= registered, constructors - registered
    listing = run_cli("mechanisms", "--json").stdout
    for name in REGISTRY:
        assert f'"mechanism": "{name}"' in listing


WORKER_SAFE = {"relations.audit._enumerate", "relations.audit._generator", "relations.audit._vectors", "relations.audit._exact",
               "relations.audit._outputs", "relations.audit._states", "relations.audit._iteration", "relations.audit._source",
               "relations.audit._proven", "relations.audit._independent",
               "relations.audit._intercept", "relations.audit._libraries", "relations.audit._worker"}


@pytest.mark.parametrize("name", sorted(WORKER_SAFE))
def test_worker_modules_stand_alone(name):
    """A worker interpreter (--python) loads these modules without the rest of the package:
    at module level they import only each other (the package's other layers only inside functions)."""
    path = PACKAGE.parent / (name.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        targets = []
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("relations"):
            targets = [node.module]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names if a.name.startswith("relations")]
        for t in targets:
            assert t in WORKER_SAFE, f"{name} imports {t} at module level"


def test_one_name_per_idea_with_shims_for_the_old_names():
    """Verdict and Notion each name one thing (the enums of relations.kinds); the 0.1 names of the relation's
    result and the notion table's entry still resolve, with a DeprecationWarning."""
    import relations.measures._notions as notions
    import relations.pipeline._verify as verify
    from relations.kinds import Notion, Verdict

    assert not hasattr(verify, "__all__") or "Verdict" not in verify.__all__
    assert "Notion" not in notions.__all__ and Verdict.UNREFUTED == "unrefuted" and Notion.EPS_D == "eps_d"
    with pytest.warns(DeprecationWarning, match="RelationVerdict"):
        assert verify.Verdict is verify.RelationVerdict
    with pytest.warns(DeprecationWarning, match="NotionSpec"):
        assert notions.Notion is notions.NotionSpec


def test_the_0_2_module_paths_still_work_with_a_warning():
    """Old paths import as the same module (warned), keep the module's own spec (reload works), resolve as
    package attributes, and never shadow a public name of the package."""
    import importlib
    import subprocess
    import sys

    import relations.measures as measures
    import relations.measures._ratios as ratios
    import relations.pipeline as pipeline
    import relations.search as search

    with pytest.warns(DeprecationWarning, match="internal since 0.3"):
        old = importlib.import_module("relations.measures.ratios")
    assert old is ratios and ratios.__spec__.name == "relations.measures._ratios"
    real = ratios.max_log_ratio
    ratios.max_log_ratio = None
    importlib.reload(ratios)
    assert ratios.max_log_ratio is not None and ratios.max_log_ratio.__name__ == real.__name__
    with pytest.warns(DeprecationWarning):
        assert search.smt.__name__ == "relations.proofs._smt" and measures.ratios is ratios
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("relations.pipeline.conjecture")  # a public function, never a 0.2 module
    assert callable(pipeline.conjecture) and not hasattr(measures, "no_such_module")
    run = subprocess.run([sys.executable, "-W", "always", "-m", "relations.search.solvers"], capture_output=True,
                         text=True, timeout=60)
    assert "relations.proofs.solvers" in run.stderr and "Traceback" not in run.stderr, run.stderr
