"""``relations conjecture``: a relation the user states, decided over all mechanisms (registered on ``app``).

``relations conjecture 'eps_m <= eps_d * tanh(eps_d / 2)' --setting local`` prints the verdict
(``proved``, ``refuted``, ``survived``) and its evidence; ``--file FILE`` decides every conjecture
of a JSON file ``{"conjectures": [{"id", "statement", "setting"}, ...]}``.  Exit status: 0 proved
or survived, 1 some conjecture refuted, 2 bad input.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Optional

import typer

from relations.cli.app import app, fail
from relations.errors import InputError

__all__ = ["MAX_FILE_BYTES", "MAX_FILE_CONJECTURES", "conjecture_cmd", "parse_conjecture_file", "result_json"]

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
        data = json.loads(text, object_pairs_hook=pairs)
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
    """The JSON object of one verdict (``docs/claims-and-verdicts.md``)."""
    from relations.io.writing import to_dict

    d = result.decision
    return {"id": cid, "statement": result.text, "setting": result.setting, "verdict": result.verdict,
            "evidence": result.evidence, "used": list(result.used), "proof": result.proof,
            "witness": None if result.witness is None else to_dict(result.witness), "witness_file": witness_file,
            "recheck": None if d is None else {"status": d.status, "lhs": _number(d.lhs), "rhs": _number(d.rhs),
                                               "how": d.how},
            "searched": list(result.searched), "checked": result.checked, "undefined": result.undefined,
            "undecided": result.undecided, "best_gap": _number(result.best_gap), "seconds": round(result.seconds, 3)}


@app.command("conjecture")
def conjecture_cmd(
    statement: Optional[str] = typer.Argument(None, help="LHS OP RHS, e.g. 'eps_m <= eps_d * tanh(eps_d / 2)'."),
    setting: str = typer.Option("local", "--setting", help="local or central."),
    file: Optional[str] = typer.Option(None, "--file", help="A JSON file {\"conjectures\": [{\"id\", \"statement\", "
                                       "\"setting\"}, ...]} to decide instead of STATEMENT."),
    json_out: bool = typer.Option(False, "--json", help="Print the verdicts as JSON."),
    quick: bool = typer.Option(False, "--quick", help="A smaller search (CI)."),
    seed: int = typer.Option(2025, "--seed", help="Seed of the searches.", min=0, max=2**32 - 1),
    out: Optional[str] = typer.Option(None, "--out", help="Write a refuting witness here (a mechanism file; with "
                                      "--file, a folder of ID.json files)."),
    force: bool = typer.Option(False, "--force", help="Replace a file relations did not write."),
) -> None:
    """Decide a relation you state over all mechanisms: proved (z3), refuted (an exact witness) or survived.

    Exit status: 0 proved or survived, 1 refuted, 2 bad input."""
    from relations.checking.conjectures import parse_conjecture
    from relations.io.outputs import OutputDir, check_output_file
    from relations.io.writing import dumps, write_text_atomic
    from relations.search.conjecture import conjecture

    if setting not in ("local", "central"):
        fail(f"--setting {setting!r}: one of local, central")
        return
    if (statement is None) == (file is None):
        fail("conjecture: give a STATEMENT or --file FILE (not both)")
        return
    if file is not None:
        from relations.io.inputs import read_input

        data = read_input(file, what="conjecture file").data
        if len(data) > MAX_FILE_BYTES:
            raise InputError(f"{file}: larger than {MAX_FILE_BYTES} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{file}: not UTF-8 text") from None
        items = parse_conjecture_file(text, where=file, setting=setting)
        folder = OutputDir(out, force=force) if out else None
    else:
        items = [(None, statement, setting)]
        folder = None
        if out:
            check_output_file(out, force=force)
    for _, text_, _ in items:
        parse_conjecture(text_)  # every statement checked before any search
    results = [(cid, conjecture(text_, setting=where, quick=quick, seed=seed)) for cid, text_, where in items]
    files: dict[int, str] = {}
    if folder is not None:
        names = [f"{cid}.json" for cid, r in results if r.witness is not None]
        folder.plan(names)
    for i, (cid, r) in enumerate(results):
        if r.witness is None:
            continue
        body = dumps(r.witness, f"counterexample to {r.text} ({r.setting})")
        if folder is not None:
            files[i] = folder.write_text(f"{cid}.json", body)
        elif out:
            files[i] = write_text_atomic(out, body)
    if folder is not None:
        folder.commit()
    if json_out:
        objs = [result_json(r, cid=cid, witness_file=files.get(i)) for i, (cid, r) in enumerate(results)]
        sys.stdout.write(json.dumps(objs[0] if file is None else {"conjectures": objs}, indent=1) + "\n")
    else:
        for i, (cid, r) in enumerate(results):
            name = f"{cid}: " if cid else ""
            sys.stdout.write(f"{name}{r.text} ({r.setting}): {r.verdict}\n  {r.evidence}\n")
            if r.used:
                sys.stdout.write(f"  relations used: {', '.join(r.used)}\n")
            if r.verdict == "survived":
                sys.stdout.write("  searched: " + "; ".join(r.searched) + "\n")
            if r.witness is not None:
                where = f"written to {files[i]}" if i in files else "(--out FILE writes it)"
                sys.stdout.write(f"  witness (lhs = {r.decision.lhs:.6g}, rhs = {r.decision.rhs:.6g}) {where}\n")
    if any(r.verdict == "refuted" for _, r in results):
        raise typer.Exit(1)
