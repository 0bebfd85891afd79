"""Tools beside the product: benchmarks, duel and cube harnesses, pubeval, the rules corpus
and the training passes (``train/``).

The runtime (rules, notation, match, bot, server, web, ``table serve``/``play``/``moves``)
never imports this package: only the commands that use a tool (``table bench ...``,
``table train``, ``table refine``) import it, inside the command's function, and so do
the scripts in ``training/`` and ``research/``.  ``tests/tools/test_isolation.py`` holds
the runtime to that.
"""
