"""The example scripts of docs/python.md run and reproduce the closed-form numbers they print."""
import os
import re
import subprocess
import sys

import pytest


def run_example(source_dir, name, *args):
    env = dict(os.environ, MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, str(source_dir / "python" / "examples" / name), *args],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_dropped_cube(source_dir, tmp_path):
    out = run_example(source_dir, "dropped_cube.py", "--out", str(tmp_path / "plot.png"))
    lands = re.search(r"lands at t = ([\d.]+) s \(free fall: ([\d.]+) s\)", out)
    rests = re.search(r"comes to rest at t = ([\d.]+) s \(impact, then sliding at mu g: ([\d.]+) s\)", out)
    assert lands and rests, out
    assert abs(float(lands[1]) - float(lands[2])) <= 0.002  # one step of 1 ms, rounded
    assert abs(float(rests[1]) - float(rests[2])) <= 0.002
    assert ("wrote" in out) == (tmp_path / "plot.png").exists()


@pytest.mark.parametrize("mu,expect", [("0.5", "stick, stick, stick, stick"), ("0.2", "slip, slip, slip, slip")])
def test_contact_from_arrays(source_dir, tmp_path, mu, expect):
    fclib = str(tmp_path / "box.hdf5")
    out = run_example(source_dir, "contact_from_arrays.py", "--mu", mu, "--fclib", fclib)
    assert "converged" in out and f"contacts: {expect}" in out, out
    ratio = float(re.search(r"ratio ([\d.]+)", out)[1])  # friction over normal impulse
    expected = 0.364 if mu == "0.5" else float(mu)  # tan 20 deg when it sticks, mu when it slips
    assert ratio == pytest.approx(expected, abs=1e-3)
