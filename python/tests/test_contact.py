"""Contact problems from arrays: solutions checked by a natural map computed here in numpy, FCLIB
files written and read back, a real FCLIB problem solved, no copies where documented."""
import numpy as np
import pytest
import scipy.sparse as sp

import sinew


def project_on_cone(x, mu):
    """Projection of (n, t1, t2) on the cone {||t|| <= mu n}."""
    n, t = x[0], x[1:]
    nt = np.linalg.norm(t)
    if nt <= mu * n:
        return x.copy()
    if mu * nt <= -n:
        return np.zeros(3)
    a = (n + mu * nt) / (1.0 + mu * mu)
    return np.concatenate([[a], mu * a * t / nt if nt > 0 else np.zeros(2)])


def natural_map_norm(W, q, mu, r):
    """||r - P_K(r - (u + mu ||u_T|| e_n))|| over all contacts (De Saxce's form), u = W r + q."""
    u = W @ r + q
    total = 0.0
    for c, m in enumerate(mu):
        uc, rc = u[3 * c:3 * c + 3], r[3 * c:3 * c + 3]
        shifted = uc + np.array([m * np.linalg.norm(uc[1:]), 0.0, 0.0])
        total += np.sum((rc - project_on_cone(rc - shifted, m)) ** 2)
    return np.sqrt(total)


def random_problem(contacts, seed):
    """W = H^T M^-1 H of random bodies; free velocities pushing about half the contacts closed."""
    rng = np.random.default_rng(seed)
    n = 3 * contacts + 6
    H = sp.random(n, 3 * contacts, density=0.3, random_state=seed) + sp.eye(n, 3 * contacts)
    Minv = sp.diags(1.0 / rng.uniform(0.5, 2.0, n))
    W = (H.T @ Minv @ H).tocsr()
    q = rng.standard_normal(3 * contacts)
    mu = rng.uniform(0.1, 0.9, contacts)
    return W, q, mu


@pytest.mark.parametrize("solver", ["newton-fb", "newton-minmap", "pgs"])
def test_solution_satisfies_the_natural_map(solver):
    W, q, mu = random_problem(8, seed=3)
    problem = sinew.ContactProblem(W, q, mu)
    r, report = sinew.solve_contact(problem, solver=solver, tol=1e-10)
    assert report.converged, report.message
    assert natural_map_norm(W, q, mu, r) <= 1e-8 * np.linalg.norm(q)
    assert sinew.natural_map_error(problem, r) == pytest.approx(report.error, rel=1e-6, abs=1e-14)
    assert set(report.states) <= {"open", "stick", "slip"} and len(report.states) == 8
    assert {"stick", "slip"} & set(report.states)  # some contacts carry friction
    assert report.error_history and report.error_history[-1] == pytest.approx(report.error, rel=1e-6, abs=1e-14)
    assert report.error_history[0] > report.error  # the iterations made progress
    # a wrong answer is caught by the same check
    assert natural_map_norm(W, q, mu, r * 1.01) > 1e-4 * np.linalg.norm(q)


def test_problem_arrays_and_views():
    W, q, mu = random_problem(4, seed=5)
    problem = sinew.ContactProblem(W, q, mu)
    assert problem.rows == 12 and problem.contacts == 4
    np.testing.assert_array_equal(problem.mu, mu)
    assert (problem.W != W).nnz == 0
    view = problem.q
    np.testing.assert_array_equal(view, q)
    assert not view.flags.writeable and not view.flags.owndata
    assert view.__array_interface__["data"][0] == problem.q.__array_interface__["data"][0]  # the same memory
    r, _ = sinew.solve_contact(problem)
    assert not r.flags.owndata and r.base is not None  # moved from C++, not copied


def test_warm_start_converges_at_once():
    W, q, mu = random_problem(6, seed=11)
    problem = sinew.ContactProblem(W, q, mu)
    r, _ = sinew.solve_contact(problem, tol=1e-12)
    _, again = sinew.solve_contact(problem, r0=r, tol=1e-10)
    assert again.converged and again.iterations <= 1


@pytest.mark.skipif(not sinew.fclib_supported(), reason="built without FCLIB")
def test_fclib_round_trip(tmp_path):
    W, q, mu = random_problem(5, seed=2)
    problem = sinew.ContactProblem(W, q, mu)
    problem.title = "random five"
    problem.description = "five random contacts, W = A A^T + I"
    r, _ = sinew.solve_contact(problem, tol=1e-10)
    path = str(tmp_path / "p.hdf5")
    sinew.write_fclib_local(path, problem, r)
    back = sinew.read_fclib_local(path)
    assert back.title == "random five" and back.description == problem.description
    assert (back.W != problem.W).nnz == 0
    np.testing.assert_array_equal(back.q, q)
    np.testing.assert_array_equal(back.mu, mu)
    solution = sinew.read_fclib_solution(path)
    np.testing.assert_array_equal(solution["r"], r)
    np.testing.assert_allclose(solution["u"], W @ r + q, rtol=1e-12, atol=1e-14)
    with pytest.raises(sinew.Error, match="missing.hdf5"):
        sinew.read_fclib_local(str(tmp_path / "missing.hdf5"))


@pytest.mark.skipif(not sinew.fclib_supported(), reason="built without FCLIB")
def test_real_fclib_problem(source_dir):
    path = source_dir / "tests" / "constraints" / "data" / "fclib-siconos" / "Capsules-i125-1213.hdf5"
    problem = sinew.read_fclib_local(str(path))
    assert problem.contacts > 10
    r, report = sinew.solve_contact(problem, solver="newton-minmap", tol=1e-8)
    assert report.converged, report.message
    W, q, mu = problem.W, np.array(problem.q), problem.mu
    assert natural_map_norm(W, q, mu, r) <= 1e-7 * np.linalg.norm(q)


@pytest.mark.skipif(not sinew.fclib_supported(), reason="built without FCLIB")
def test_a_steps_contact_problem_to_fclib_global_and_back(tmp_path, source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    for _ in range(300):
        sim.step()
    c = sim.contact()
    path = str(tmp_path / "step.hdf5")
    sinew.write_fclib_global(path, c["M"], c["H"], c["f"], c["w"], np.array(c["mu"]), r=c["r"], v=c["v"],
                             title="dropped cube, step 300")
    back = sinew.read_fclib_global(path)
    assert back["title"] == "dropped cube, step 300"
    assert (back["M"] != c["M"]).nnz == 0 and (back["H"] != c["H"]).nnz == 0
    assert back["G"].shape[1] == 0 and back["b"].size == 0
    np.testing.assert_array_equal(back["f"], c["f"])
    np.testing.assert_array_equal(back["w"], c["w"])
    np.testing.assert_array_equal(back["mu"], c["mu"])
    solution = sinew.read_fclib_solution(path)
    np.testing.assert_array_equal(solution["r"], c["r"])
    np.testing.assert_array_equal(solution["v"], c["v"])
    with pytest.raises(sinew.Error, match="both r and v"):
        sinew.write_fclib_global(path, c["M"], c["H"], c["f"], c["w"], np.array(c["mu"]), r=c["r"])
