"""The example scripts of docs/python.md run and reproduce the closed-form numbers they print."""
import importlib.util
import math
import os
import re
import struct
import subprocess
import sys

import pytest

import sinew


def run_example(source_dir, name, *args):
    env = dict(os.environ, MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, str(source_dir / "python" / "examples" / name), *args],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_dropped_cube(source_dir, tmp_path):
    png = tmp_path / "plot.png"
    out = run_example(source_dir, "dropped_cube.py", "--out", str(png))
    lands = re.search(r"lands at t = ([\d.]+) s \(free fall: ([\d.]+) s\)", out)
    rests = re.search(r"comes to rest at t = ([\d.]+) s \(impact, then sliding at mu g: ([\d.]+) s\)", out)
    assert lands and rests, out
    assert abs(float(lands[1]) - float(lands[2])) <= 0.002  # one step of 1 ms, rounded
    assert abs(float(rests[1]) - float(rests[2])) <= 0.002
    if importlib.util.find_spec("matplotlib") is None:
        # The test command requires matplotlib (SINEW_PYTHON_TESTS=ON sets SINEW_REQUIRE_PLOTS).
        assert os.environ.get("SINEW_REQUIRE_PLOTS") != "1", "apt-get install python3-matplotlib"
        assert "matplotlib not installed" in out and not png.exists(), out
        return
    # The plot: a 600 x 500 PNG with two panels of curves, not a blank page.
    assert f"wrote {png}" in out, out
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (600, 500)
    import matplotlib.image
    pixels = matplotlib.image.imread(str(png))[:, :, :3]
    inked = (pixels.min(axis=2) < 0.5).mean()  # dark pixels: axes, ticks, text and curves
    colour = (pixels.max(axis=2) - pixels.min(axis=2) > 0.3).mean()  # the coloured curves
    assert inked > 0.01 and colour > 0.002, (inked, colour)


@pytest.mark.parametrize("mu,expect", [("0.5", "stick, stick, stick, stick"), ("0.2", "slip, slip, slip, slip")])
def test_contact_from_arrays(source_dir, tmp_path, mu, expect):
    fclib = tmp_path / "box.hdf5"
    out = run_example(source_dir, "contact_from_arrays.py", "--mu", mu, "--fclib", str(fclib))
    assert "converged" in out and f"contacts: {expect}" in out, out
    ratio = float(re.search(r"ratio ([\d.]+); sticks", out)[1])  # friction over normal impulse
    expected = 0.364 if mu == "0.5" else float(mu)  # tan 20 deg when it sticks, mu when it slips
    assert ratio == pytest.approx(expected, abs=1e-3)
    # The global form solved by sinew gives the same total impulse and motion: at rest when it
    # sticks, else accelerating downhill at g (sin 20 - mu cos 20).
    same = re.search(r"total impulse differs by (\S+) N s, velocity by (\S+) m/s; box speed after the step (\S+) m/s",
                     out)
    assert same, out
    assert float(same[1]) < 1e-15 and float(same[2]) < 1e-14
    a = math.radians(20)
    speed = 0.0 if mu == "0.5" else 9.81 * 1e-3 * (math.sin(a) - float(mu) * math.cos(a))
    assert float(same[3]) == pytest.approx(speed, rel=1e-8, abs=1e-15)
    # SAP on the global form: Coulomb's ratio, the normal impulse m g h cos 20 to its regularization.
    sap = re.search(r"global form, sap: converged .* normal ([\d.]+) N s, downhill (\S+) N s \(ratio ([\d.]+)\)", out)
    assert sap, out
    assert float(sap[1]) == pytest.approx(9.81e-3 * math.cos(a), rel=0.03)
    assert float(sap[3]) == pytest.approx(expected, abs=1e-3)
    assert ("wrote" in out) == sinew.fclib_supported() == fclib.exists()
