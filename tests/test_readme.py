"""Every ```python block of README.md and of the guide (docs/**/*.md) runs.

The blocks of one file run in order in one fresh Python process (a later
block may use what an earlier one defined, as a reader would), from the
root of the clone; a block that raises fails its file's test and names the
block by its first line number."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = ([ROOT / "README.md"] if (ROOT / "README.md").is_file() else []) + sorted((ROOT / "docs").rglob("*.md"))
FILES = [f for f in FILES if "_build" not in f.parts]
if not FILES:
    pytest.skip("README.md and docs/ are not here (an installed package's tests)", allow_module_level=True)

FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


def python_blocks(path: Path):
    """[(line number of the block's first line, code)] of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in FENCE.finditer(text)]


RUNNER = r"""
import json, sys
blocks = json.loads(sys.argv[1])
ns = {"__name__": "__main__"}
for line, code in blocks:
    exec(compile(code, f"{sys.argv[2]}:{line}", "exec"), ns)
"""

WITH_BLOCKS = [f for f in FILES if python_blocks(f)]
TORCH = re.compile(r"^\s*(import torch|from torch)\b", re.M)


def _has_torch() -> bool:
    import importlib.util
    return importlib.util.find_spec("torch") is not None


def _run(path: Path, blocks) -> None:
    env = dict(os.environ, MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(blocks), str(path.relative_to(ROOT))],
                       cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, f"{path.relative_to(ROOT)}: a ```python block failed:\n{r.stderr[-3000:]}"


def test_readme_has_examples():
    assert python_blocks(ROOT / "README.md"), "README.md has no ```python block"


@pytest.mark.parametrize("path", WITH_BLOCKS, ids=[str(f.relative_to(ROOT)) for f in WITH_BLOCKS])
def test_python_blocks_run(path):
    """The blocks that do not import PyTorch (those run in test_torch_blocks_run)."""
    _run(path, [b for b in python_blocks(path) if not TORCH.search(b[1])])


WITH_TORCH = [f for f in WITH_BLOCKS if any(TORCH.search(code) for _, code in python_blocks(f))]


@pytest.mark.parametrize("path", WITH_TORCH, ids=[str(f.relative_to(ROOT)) for f in WITH_TORCH])
def test_torch_blocks_run(path):
    """Every block of a file that has PyTorch examples, in order (the [torch] extra)."""
    if not _has_torch():
        pytest.skip("PyTorch not installed (optional interop partner: the [torch] extra)")
    _run(path, python_blocks(path))


def test_collector_finds_blocks(tmp_path):
    md = tmp_path / "x.md"
    md.write_text("text\n\n```python\nx = 1\n```\n\n```sh\necho no\n```\n\n```python\nassert x == 1\n```\n")
    assert python_blocks(md) == [(4, "x = 1\n"), (12, "assert x == 1\n")]
