"""The main job (python -m arrstride) and show() produce the storage diagrams."""
import subprocess
import sys

import arrstride as xp


def test_show_marks_walk_order(capsys):
    x = xp.as_strided(xp.arange(20.0), (3, 2), (4, 1), 5)
    xp.show(x)
    out = capsys.readouterr().out
    assert "offset 5, shape (3, 2), strides (4, 1)" in out
    walk = [line for line in out.splitlines() if line.startswith("walk")][0]
    cells = [c.strip() for c in walk.split("|")[1:-1]]
    assert cells[5:11] == ["0", "1", "", "", "2", "3"]
    assert cells[:5] == [""] * 5


def test_show_lists_repeated_visits():
    from arrstride._show import layout_diagram
    x = xp.as_strided(xp.linspace(1, 4, 4), (2, 4), (1, 0), 1)
    text = layout_diagram(x)
    assert "0,1,2,3" in text and "4,5,6,7" in text


def test_main_job_runs():
    r = subprocess.run([sys.executable, "-m", "arrstride"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "strides (4, 1)" in r.stdout
    assert "no view exists" in r.stdout


def test_thread_count_is_configurable():
    old = xp.get_num_threads()
    try:
        xp.set_num_threads(1)
        assert xp.get_num_threads() == 1
    finally:
        xp.set_num_threads(0)
    assert xp.get_num_threads() >= 1
    assert old >= 1
