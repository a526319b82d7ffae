"""Runs one fuzz target under atheris (libFuzzer for Python).

    python fuzz/run.py TARGET [libFuzzer flags...] [corpus dirs...]
    python fuzz/run.py TARGET --seeds DIR     # write the target's seed inputs into DIR
    python fuzz/run.py TARGET --replay FILE.. # run inputs once (regression files)

.ci/fuzz runs every target for a fixed time against the instrumented build
(clang -fsanitize=fuzzer-no-link,address,undefined), so libFuzzer sees the
coverage of the C kernels as well as of the Python code (atheris instruments
arrstride's Python modules as they are imported).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main() -> None:
    name = sys.argv[1]
    args = sys.argv[2:]
    if args[:1] == ["--seeds"]:
        import targets
        os.makedirs(args[1], exist_ok=True)
        for i, seed in enumerate(targets.SEEDS.get(name, lambda: [])()):
            with open(os.path.join(args[1], f"seed-{i}"), "wb") as f:
                f.write(seed)
        return
    if args[:1] == ["--replay"]:
        import targets
        for path in args[1:]:
            with open(path, "rb") as f:
                targets.TARGETS[name](f.read())
        print(f"replayed {len(args) - 1} inputs of {name}")
        return
    import atheris
    with atheris.instrument_imports(include=["arrstride", "targets"]):
        import targets
    fn = targets.TARGETS[name]
    unraisable = []
    sys.unraisablehook = lambda u: unraisable.append(f"{u.exc_type.__name__}: {u.exc_value} ({u.object!r})")
    # C code that reports with PyErr_Print (CPython's "deallocated bytearray
    # object has exported buffers") goes through sys.excepthook
    sys.excepthook = lambda t, v, tb: unraisable.append(f"{t.__name__}: {v}")

    def one(data: bytes) -> None:
        # an exception Python could not raise (in a destructor, a callback) is
        # a finding too: it means a release went wrong
        fn(data)
        if unraisable:
            raise AssertionError("unraisable exception: " + unraisable[0])

    # argv[0] as a command: libFuzzer re-runs it through the shell for -merge
    atheris.Setup([f"{sys.executable} {os.path.abspath(__file__)} {name}"] + args, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
