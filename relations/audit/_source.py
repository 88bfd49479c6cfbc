"""The source of the code that runs: a function's ``def`` read from its file, only when the file, compiled, holds
that very code.

Proofs about a randomizer from its source (:mod:`relations.audit._iteration`, :mod:`relations.audit._proven`) rest
on this: a file edited after the import, reloaded, or code built by ``exec`` under the file's name has no source
here, and the proofs refuse.  Stdlib only (a worker interpreter loads it alone).
"""

from __future__ import annotations

import ast
import linecache
from types import CodeType
from typing import Any

__all__ = ["function_node", "compiles_to", "module_tree"]

_TREES: dict[CodeType, ast.AST | None] = {}


def module_tree(filename: str) -> ast.Module | None:
    """The parsed source of ``filename`` as :mod:`linecache` holds it, or ``None`` when it cannot be read.

    Examples
    --------
    >>> module_tree("<no such file>") is None
    True
    """
    lines = linecache.getlines(filename)
    if not lines:
        return None
    try:
        return ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        return None


def function_node(code: CodeType) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The ``def`` of ``code`` in its source file, or ``None`` when the source cannot be read or, compiled, does
    not hold ``code`` itself (:func:`compiles_to`).

    Examples
    --------
    >>> function_node(function_node.__code__).name
    'function_node'
    >>> namespace = {}
    >>> exec(compile("def f(x):\\n    return x\\n", __file__, "exec"), namespace)  # built under this file's name
    >>> function_node(namespace["f"].__code__) is None
    True
    """
    if code in _TREES:
        return _TREES[code]  # type: ignore[return-value]
    node = None
    tree = module_tree(code.co_filename)
    for n in ast.walk(tree) if tree is not None else ():
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == code.co_name:
            first = min([n.lineno] + [d.lineno for d in n.decorator_list])
            if code.co_firstlineno in (n.lineno, first):
                node = n
                break
    if node is not None and not compiles_to(tree, code):
        node = None  # the source read is not the code that runs (edited, reloaded, built by ``exec``)
    if len(_TREES) > 256:
        _TREES.clear()
    _TREES[code] = node
    return node


def compiles_to(tree: Any, code: CodeType) -> bool:
    """Whether the file's source ``tree``, compiled, holds ``code`` itself (the same instructions, constants,
    names and positions): only then does the source describe what runs.

    Examples
    --------
    >>> tree = ast.parse("def f(x):\\n    return x\\n")
    >>> namespace = {}
    >>> exec(compile(tree, "<f>", "exec", dont_inherit=True), namespace)
    >>> compiles_to(tree, namespace["f"].__code__), compiles_to(ast.parse("def f(x):\\n    return -x\\n"), namespace["f"].__code__)
    (True, False)
    """
    try:
        compiled = compile(tree, code.co_filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, TypeError):
        return False
    todo = [compiled]
    while todo:
        c = todo.pop()
        if c.co_name == code.co_name and c.co_firstlineno == code.co_firstlineno and c == code:
            return True
        todo.extend(k for k in c.co_consts if isinstance(k, CodeType))
    return False
