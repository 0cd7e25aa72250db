"""Long calls release the GIL: while one runs in a thread, the main thread keeps running Python.
The measure is the longest pause of a loop in the main thread during the call; a C call that holds
the GIL (sorting a list) pauses it for the whole call, which shows that the measure sees it."""
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp

import sinew


def longest_pause(call):
    """(longest pause of the main thread's loop, duration) while `call` runs in another thread."""
    done = threading.Event()
    span = {}

    def work():
        span["start"] = time.perf_counter()
        call()
        span["end"] = time.perf_counter()
        done.set()

    worker = threading.Thread(target=work)
    pause, last = 0.0, time.perf_counter()
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        pause, last = max(pause, now - last), now
    worker.join()
    return pause, span["end"] - span["start"]


def laplacian_3d(n):
    """The 7-point Laplacian of an n^3 grid (SPD)."""
    L = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.eye(n)
    return (sp.kron(sp.kron(L, eye), eye) + sp.kron(sp.kron(eye, L), eye) + sp.kron(sp.kron(eye, eye), L)).tocsr()


def calls(source_dir, tmp_path):
    A = laplacian_3d(50)
    b = np.ones(A.shape[0])
    sim = sinew.read_scene(source_dir / "scenes" / "slope.json").make()
    capsules = source_dir / "tests" / "constraints" / "data" / "fclib-siconos" / "Capsules-i125-1213.hdf5"
    problem = sinew.read_fclib_local(str(capsules)) if sinew.fclib_supported() else None
    tree = sinew.KinematicTree()
    for k in range(20):
        tree.add_body(parent=k - 1, axis=(0, 1, 0), joint_in_parent=(0.05 if k else 0.0, 0, 0), joint_in_body=(-0.05, 0, 0),
                      mass=0.2, inertia=np.diag([1e-5, 1.7e-4, 1.7e-4]))
    out = {
        "cg": lambda: sinew.cg(A, b, tol=1e-14, max_iterations=200),
        "SparseInverse": lambda: sinew.SparseInverse(laplacian_3d(14) + sp.eye(14**3)),
        "Simulation.run": lambda: sim.run(tmp_path / "run", steps=30, every=10**9, png_every=0),
        "read_scene + make": lambda: sinew.read_scene(source_dir / "scenes" / "pulled_wooper.json").make(),
        "KinematicTree.simulate": lambda: tree.simulate(np.zeros(20), np.zeros(20), h=1e-4, steps=20000),
    }
    if problem is not None:
        out["solve_contact"] = lambda: [sinew.solve_contact(problem, solver="pgs", tol=1e-14) for _ in range(5)]
    return out


def test_a_call_holding_the_gil_pauses_the_main_thread():
    values = np.random.default_rng(0).permutation(1_000_000).tolist()
    pause, duration = longest_pause(lambda: sorted(values))
    assert duration > 0.1
    assert pause > 0.8 * duration, (pause, duration)


@pytest.mark.parametrize(
    "name", ["cg", "SparseInverse", "Simulation.run", "read_scene + make", "solve_contact", "KinematicTree.simulate"])
def test_long_calls_release_the_gil(source_dir, tmp_path, name):
    call = calls(source_dir, tmp_path).get(name)
    if call is None:
        pytest.skip("built without FCLIB")
    pause, duration = longest_pause(call)
    assert duration > 0.1, f"{name} took {duration:.3f} s: too short to tell"
    assert pause < 0.5 * duration, f"{name}: the main thread paused {pause:.3f} s of {duration:.3f} s"
