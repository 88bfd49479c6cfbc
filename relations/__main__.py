"""``python -m relations ...`` and the ``relations`` console script: run the command line.

:func:`main` answers ``relations --version`` itself, without importing the
command-line framework (about a fifth of a second); everything else goes to
:func:`relations.cli.main`.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    """Run the ``relations`` command line on ``argv`` (default: ``sys.argv[1:]``).

    It ends by ``SystemExit``; with the process's own arguments (``argv`` None: the console script,
    ``python -m relations``) a command that leaves nothing behind (a common ``relations measure``) ends the
    process at once instead (:func:`relations._processes.leaves_nothing_behind`).

    Examples
    --------
    >>> try:
    ...     main(["--version"])
    ... except SystemExit as exc:
    ...     print(exc.code)  # doctest: +ELLIPSIS
    relations ...
    0
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"] and sys.stdout is not None:  # a closed stdout: relations.cli.main says how it ends
        from relations import __version__

        try:
            sys.stdout.write(f"relations {__version__}\n")
            sys.stdout.flush()
        except OSError:  # a broken pipe, a full disk: the command line says how it ends
            from relations.cli import main as command_line

            command_line(args)
        sys.exit(0)
    from relations._processes import run_command_line

    def run(argv: list[str]) -> None:  # after a Ctrl-C, one line: 'relations: interrupted'
        from relations.cli import main as command_line

        command_line(argv)

    run_command_line(run, args, own=argv is None)  # the process's own arguments: it may end at once


if __name__ == "__main__":
    main()
