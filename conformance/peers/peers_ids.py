"""Which backend a test id is parametrized with (shared by run.py and peers_common)."""
from __future__ import annotations

import re

# in this order: "arrstride to torch cpu" is arrstride's, "array_api_strict to
# torch cpu" strict's (scikit-learn's mixed-namespace ids)
BACKENDS = ("arrstride", "array_api_strict", "torch")
# "array_api_strictest" (array-api-extra) is strict with extra flags: not the control
_BACKEND_RE = {
    "arrstride": re.compile(r"arrstride"),
    "array_api_strict": re.compile(r"array_api_strict(?!est)"),
    "torch": re.compile(r"\btorch\b"),
}


def backend_of(nodeid: str) -> str | None:
    """The backend a test id is parametrized with, or None."""
    if "[" not in nodeid:
        return None
    params = nodeid.split("[", 1)[1]
    for name in BACKENDS:
        if _BACKEND_RE[name].search(params):
            return name
    return None
