"""Conjecture files and verdicts as data: a strict reader for ``{"conjectures": [...]}`` and the JSON of a verdict.

Used by ``relations conjecture --file`` and ``relations verify --conjectures`` (a user's own relations
verified with the catalogue); ``docs/claims-and-verdicts.md`` describes both.
"""

from __future__ import annotations

import json
import math
import re

from relations._json import read_json
from relations.errors import InputError
from relations.io._inputs import read_input
from relations.numbers._text import whole_number

__all__ = ["MAX_FILE_BYTES", "MAX_FILE_CONJECTURES", "parse_conjecture_file", "read_conjecture_file", "result_json"]

#: Largest ``--file`` accepted (bytes) and most conjectures in it.
MAX_FILE_BYTES, MAX_FILE_CONJECTURES = 1 << 20, 200

_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def parse_conjecture_file(text: str, *, where: str, setting: str) -> list[tuple[str, str, str]]:
    """``(id, statement, setting)`` for each conjecture of a file's text, strictly checked.

    Duplicate keys, unknown keys, a missing statement, bad or repeated ids, unknown settings and more
    than :data:`MAX_FILE_CONJECTURES` entries are refused with one line naming the entry.

    Examples
    --------
    >>> parse_conjecture_file('{"conjectures": [{"id": "a", "statement": "eps_m <= eps_d"}]}', where="f",
    ...                       setting="local")
    [('a', 'eps_m <= eps_d', 'local')]
    """
    def pairs(items):
        keys = [k for k, _ in items]
        dup = next((k for k in keys if keys.count(k) > 1), None)
        if dup is not None:
            raise InputError(f"{where}: duplicate key {dup!r}")
        return dict(items)

    try:
        data = read_json(text, source=where, object_pairs_hook=pairs, parse_int=lambda t: whole_number(t, where))
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(data, dict) or set(data) != {"conjectures"} or not isinstance(data["conjectures"], list):
        raise InputError(f'{where}: expected {{"conjectures": [...]}} and no other key')
    items = data["conjectures"]
    if len(items) > MAX_FILE_CONJECTURES:
        raise InputError(f"{where}: {len(items)} conjectures, more than {MAX_FILE_CONJECTURES}")
    out, seen = [], set()
    for i, item in enumerate(items):
        at = f"{where}: conjectures[{i}]"
        if not isinstance(item, dict):
            raise InputError(f"{at}: expected an object")
        extra = set(item) - {"id", "statement", "setting"}
        if extra:
            raise InputError(f"{at}: unknown key {sorted(extra)[0]!r} (keys: id, statement, setting)")
        cid, statement, where_setting = item.get("id", f"c{i + 1}"), item.get("statement"), item.get("setting", setting)
        if not isinstance(cid, str) or not _ID.fullmatch(cid) or cid in seen:
            raise InputError(f"{at}: id must be 1-64 characters of A-Z a-z 0-9 _ . - and unique")
        if not isinstance(statement, str):
            raise InputError(f"{at}: 'statement' must be text")
        if where_setting not in ("local", "central"):
            raise InputError(f"{at}: setting {where_setting!r}: one of local, central")
        seen.add(cid)
        out.append((cid, statement, where_setting))
    return out


def _number(x: float):
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf" if x < 0 else "nan")


def result_json(result, *, cid: str | None = None, witness_file: str | None = None) -> dict:
    """The JSON object of one verdict (``docs/claims-and-verdicts.md``).

    A degenerate witness (``degenerate``: what makes it an edge case) comes with ``full_witness``, the smallest
    one of full support, distinct rows and finite values the search met (a mechanism file's dict, as
    ``witness``), and its exact re-check ``full_recheck`` (as ``recheck``); both ``None`` otherwise."""
    from relations.io._writing import to_dict

    d, full = result.decision, getattr(result, "full_decision", None)
    return {"id": cid, "statement": result.text, "setting": result.setting, "verdict": result.verdict,
            "evidence": result.evidence, "used": list(result.used), "proof": result.proof,
            "trace": list(getattr(result, "trace", ())),
            "witness": None if result.witness is None else to_dict(result.witness), "witness_file": witness_file,
            "recheck": None if d is None else {"status": d.status, "lhs": _number(d.lhs), "rhs": _number(d.rhs),
                                               "how": d.how},
            "searched": list(result.searched), "checked": result.checked, "undefined": result.undefined,
            "undecided": result.undecided, "best_gap": _number(result.best_gap), "exhaustive": result.exhaustive,
            "seconds": round(result.seconds, 3),
            "witness_size": None if getattr(result, "witness_size", None) is None else list(result.witness_size),
            "screened": getattr(result, "screened", 0),
            "degenerate": list(getattr(result, "degenerate", ())),
            "full_witness": None if getattr(result, "full_witness", None) is None else to_dict(result.full_witness),
            "full_recheck": None if full is None else {"status": full.status, "lhs": _number(full.lhs),
                                                       "rhs": _number(full.rhs), "how": full.how}}


def read_conjecture_file(path: str, *, setting: str = "local") -> list[tuple[str, str, str]]:
    """``(id, statement, setting)`` for each conjecture of the file at ``path`` (``-``: standard input).

    Raises
    ------
    InputError
        An unreadable, oversized, non-UTF-8 or malformed file (one line), or a statement that does not
        parse (every statement is parsed before anything is searched).
    """
    from relations.checking._conjecture_eval import parse_defined

    data = read_input(path, what="conjecture file").data
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    items = parse_conjecture_file(text, where=path, setting=setting)
    for _, statement, _ in items:
        parse_defined(statement)
    return items
