"""The text board, kept here for older imports: it lives in ``table.rules.diagram``.

>>> from table.rules.diagram import render as rules_render
>>> render is rules_render
True
"""

from table.rules.diagram import grid, render

__all__ = ["grid", "render"]
