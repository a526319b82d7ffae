"""Checks a built documentation's inventory (objects.inv) has a page for every
public name of arrstride (docs/api_names.py), as a Python object of the
py domain whose page exists in the build. Run by .ci/run after sphinx-build:

    python docs/check_inventory.py docs/_build/html/objects.inv

Exit status 1 and the missing names when any is missing.
"""
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import api_names  # noqa: E402


def read_inventory(path: str) -> dict:
    """{name: uri} of the py-domain entries of a Sphinx objects.inv (version 2)."""
    with open(path, "rb") as f:
        header = [f.readline() for _ in range(4)]
        if not header[0].startswith(b"# Sphinx inventory version 2"):
            raise SystemExit(f"{path}: not a Sphinx inventory of version 2")
        text = zlib.decompress(f.read()).decode("utf-8")
    out = {}
    for line in text.splitlines():
        # name domain:role priority uri dispname (the name may hold spaces)
        parts = line.rsplit(" ", 3)
        if len(parts) != 4:
            continue
        left, _prio, uri, _disp = parts
        name, _, role = left.rpartition(" ")
        if not role.startswith("py:"):
            continue
        if uri.endswith("$"):
            uri = uri[:-1] + name
        out[name] = uri
    return out


def main(argv) -> int:
    path = argv[1] if len(argv) > 1 else "docs/_build/html/objects.inv"
    inv = read_inventory(path)
    root = os.path.dirname(path)
    missing, no_page = [], []
    for n in api_names.public_names():
        full = "arrstride." + n
        if full not in inv:
            missing.append(full)
            continue
        page = inv[full].split("#", 1)[0]
        if not os.path.isfile(os.path.join(root, page)):
            no_page.append(f"{full} -> {page}")
    total = len(api_names.public_names())
    if missing or no_page:
        print(f"check_inventory: {len(missing)} of {total} public names not in {path}: "
              + ", ".join(missing), file=sys.stderr)
        if no_page:
            print("check_inventory: pages missing from the build: " + ", ".join(no_page), file=sys.stderr)
        return 1
    print(f"check_inventory: all {total} public names have a page ({path})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
