"""Files the wheel carries: the example mechanisms and the user guide pages.

In a source checkout these are links to the top-level ``examples/`` and ``docs/``.

Examples
--------
>>> from importlib.resources import files
>>> files("relations.data").joinpath("examples", "paper_example.json").is_file()
True
"""

__all__ = []  # type: list[str]
