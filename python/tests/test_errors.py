"""sinew::Error reaches Python as sinew.Error (a RuntimeError) with the C++ message unchanged."""
import json
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

import sinew


def test_error_is_a_runtime_error():
    assert issubclass(sinew.Error, RuntimeError)


def test_unknown_backend_names_the_known_ones():
    with pytest.raises(sinew.Error) as e:
        sinew.make_backend("no-such-backend")
    assert "no-such-backend" in str(e.value)
    assert "serial" in str(e.value)


def test_scene_error_has_the_message_of_sinew_run(tmp_path, source_dir, sinew_exe):
    """A bad scene file: Python's message is the one `sinew run` prints for it."""
    scene = json.loads((source_dir / "scenes" / "drop.json").read_text())
    scene["contact"]["no_such_key"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(scene))
    with pytest.raises(sinew.Error) as e:
        sinew.read_scene(bad)
    message = str(e.value)
    assert "no_such_key" in message and str(bad) in message
    r = subprocess.run([sinew_exe, "run", str(bad), "--quiet"], capture_output=True, text=True)
    assert r.returncode == 2
    assert message in r.stderr


def test_missing_scene_file_names_it(tmp_path):
    with pytest.raises(sinew.Error, match="missing.json"):
        sinew.read_scene(tmp_path / "missing.json")


def test_solver_size_mismatch_raises():
    A = sp.identity(4, format="csr")
    with pytest.raises(sinew.Error):
        sinew.cg(A, np.ones(3))


def test_not_a_sparse_matrix_raises():
    with pytest.raises(sinew.Error, match="scipy.sparse"):
        sinew.cg(np.eye(3), np.ones(3))


def test_contact_problem_checks_sizes():
    W = sp.identity(6, format="csr")
    with pytest.raises(sinew.Error, match="3 per contact"):
        sinew.ContactProblem(W, np.zeros(6), np.array([0.5]))
    with pytest.raises(sinew.Error):
        sinew.ContactProblem(W, np.zeros(6), np.array([0.5, -1.0]))  # negative mu
