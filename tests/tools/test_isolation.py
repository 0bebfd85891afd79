"""The runtime never imports ``table.tools``: serving, playing and the engine run without the
benchmarks, harnesses and training code, and ``table --version`` loads none of them."""

from __future__ import annotations

import subprocess
import sys

import pytest

_CHECK = """
import sys
{imports}
loaded = sorted(m for m in sys.modules if m == "table.tools" or m.startswith("table.tools."))
print(" ".join(loaded))
"""


def _tools_loaded(imports: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _CHECK.format(imports=imports)],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    return out.split()


@pytest.mark.parametrize("imports", [
    "import table.rules",
    "import table.bot.bot",
    "import table.server.app",
    "from table.cli import build_parser; build_parser()",
])
def test_the_runtime_imports_no_tool(imports: str) -> None:
    assert _tools_loaded(imports) == []


def test_the_check_sees_a_tool_when_one_is_imported() -> None:
    # Else an empty list above could mean that the check sees nothing.
    assert "table.tools.corpus" in _tools_loaded("import table.tools.corpus")
