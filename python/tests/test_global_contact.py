"""Contact problems in FCLIB's global form from arrays: sinew's reduction is the W = H^T M^-1 H,
q = w + H^T M^-1 f computed here with scipy, the global solve satisfies the local problem's natural
map with v = M^-1 (H r + f) and matches the local-form solve, SAP agrees with Coulomb's law on a box
sliding on a slope, and bad input raises with the message."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import sinew
from test_contact import natural_map_norm


def random_global(contacts, seed):
    """Bodies coupled by springs (M SPD, not diagonal), a random H, f and w pushing about half closed."""
    rng = np.random.default_rng(seed)
    n = 3 * contacts + 6
    coupling = sp.diags([rng.uniform(0.01, 0.1, n - 1)], [1], shape=(n, n))
    M = (sp.diags(rng.uniform(1.0, 3.0, n)) - coupling - coupling.T).tocsr()
    H = (sp.random(n, 3 * contacts, density=0.3, random_state=seed) + sp.eye(n, 3 * contacts)).tocsr()
    return M, H, rng.standard_normal(n), rng.standard_normal(3 * contacts), rng.uniform(0.1, 0.9, contacts)


def local_form(M, H, f, w):
    """W = H^T M^-1 H, q = w + H^T M^-1 f with scipy."""
    Mc = M.tocsc()
    W = sp.csr_matrix(H.T @ spla.spsolve(Mc, H.tocsc()))
    return W, w + H.T @ spla.spsolve(Mc, f)


def test_reduction_is_the_local_form():
    M, H, f, w, mu = random_global(6, seed=4)
    problem = sinew.GlobalContactProblem(M, H, f, w, mu)
    assert (problem.velocities, problem.rows, problem.contacts) == (24, 18, 6)
    W, q = local_form(M, H, f, w)
    local = problem.to_local()
    np.testing.assert_allclose(local.W.toarray(), W.toarray(), rtol=1e-12, atol=1e-13 * abs(W).max())
    np.testing.assert_allclose(local.q, q, rtol=1e-12, atol=1e-13 * np.abs(q).max())
    np.testing.assert_array_equal(local.mu, mu)
    assert (problem.M != M).nnz == 0 and (problem.H != H).nnz == 0
    for name, given in (("f", f), ("w", w)):  # read-only views into the problem
        view = getattr(problem, name)
        np.testing.assert_array_equal(view, given)
        assert not view.flags.writeable and not view.flags.owndata


@pytest.mark.parametrize("solver", ["newton-fb", "newton-minmap", "pgs"])
def test_global_solve_solves_the_local_problem(solver):
    M, H, f, w, mu = random_global(8, seed=7)
    problem = sinew.GlobalContactProblem(M, H, f, w, mu)
    v, r, report = sinew.solve_contact_global(problem, solver=solver, tol=1e-11)
    assert report.converged, report.message
    W, q = local_form(M, H, f, w)
    assert natural_map_norm(W, q, mu, r) <= 1e-9 * np.linalg.norm(q)
    assert natural_map_norm(W, q, mu, r * 1.01) > 1e-4 * np.linalg.norm(q)  # the check can fail
    np.testing.assert_allclose(v, spla.spsolve(M.tocsc(), H @ r + f), rtol=1e-10, atol=1e-12)
    assert {"stick", "slip"} & set(report.states)
    # The local form's solve from scipy's W, q: the same velocities (r itself need not be unique).
    r_local, _ = sinew.solve_contact(sinew.ContactProblem(W, q, mu), solver=solver, tol=1e-11)
    np.testing.assert_allclose(spla.spsolve(M.tocsc(), H @ r_local + f), v, rtol=1e-7, atol=1e-9)
    assert not v.flags.owndata and not r.flags.owndata  # moved from C++
    _, _, again = sinew.solve_contact_global(problem, solver=solver, tol=1e-10, r0=r)
    assert again.converged and again.iterations <= 1


def box_on_slope(mu, angle=np.radians(20), h=1e-3, g=9.81):
    """A 1 kg cube of side 0.2 m on its four corners on a slope, one step from rest (FCLIB's global form)."""
    n = np.array([np.sin(angle), 0.0, np.cos(angle)])
    t1 = np.array([np.cos(angle), 0.0, -np.sin(angle)])  # downhill
    t2 = np.cross(n, t1)
    M = sp.csr_matrix(sp.block_diag([np.eye(3), 0.2**2 / 6 * np.eye(3)]))
    H = np.zeros((6, 12))
    for c, p in enumerate(0.1 * (s1 * t1 + s2 * t2 - n) for s1 in (-1, 1) for s2 in (-1, 1)):
        for k, d in enumerate((n, t1, t2)):
            H[:3, 3 * c + k], H[3:, 3 * c + k] = d, np.cross(p, d)
    f = M @ np.array([0, 0, -g * h, 0, 0, 0])
    return sinew.GlobalContactProblem(M, sp.csr_matrix(H), f, np.zeros(12), np.full(4, mu))


@pytest.mark.parametrize("solver", ["newton-fb", "sap"])
def test_box_on_a_slope_sticks_or_slides_by_coulombs_law(solver):
    a, g, h = np.radians(20), 9.81, 1e-3
    for mu in (0.5, 0.2):  # tan 20 deg = 0.364: sticks, then slides
        v, r, report = sinew.solve_contact_global(box_on_slope(mu), solver=solver, tol=1e-12)
        assert report.converged, report.message
        normal, downhill = r[0::3].sum(), r[1::3].sum()
        # Newton solves Signorini-Coulomb; SAP its convex approximation, regularized by ~2.5e-2 of
        # the normal compliance (SapOptions::rigid_fraction): its normal impulse is within that.
        rel = 1e-9 if solver == "newton-fb" else 0.03
        assert normal == pytest.approx(g * h * np.cos(a), rel=rel)
        if mu == 0.5:
            assert -downhill / normal == pytest.approx(np.tan(a), rel=rel)
            assert np.abs(v[:3]).max() < (1e-12 if solver == "newton-fb" else 1e-3)
        else:
            assert -downhill / normal == pytest.approx(mu, rel=1e-9)  # on the cone when sliding
            speed = g * h * (np.sin(a) - mu * np.cos(a))
            assert np.dot(v[:3], [np.cos(a), 0, -np.sin(a)]) == pytest.approx(speed, rel=rel)


def test_bad_input_raises_with_the_message():
    M, H, f, w, mu = random_global(3, seed=1)
    with pytest.raises(sinew.Error, match="w has 8 rows, expected 3 per contact"):
        sinew.GlobalContactProblem(M, H, f, w[:8], mu)
    with pytest.raises(sinew.Error, match="GlobalContactProblem: M: expected a scipy.sparse matrix"):
        sinew.GlobalContactProblem(M.toarray(), H, f, w, mu)
    with pytest.raises(sinew.Error):
        sinew.GlobalContactProblem(M, H[:-1], f, w, mu)  # H's rows are not M's
    not_definite = sinew.GlobalContactProblem(-M, H, f, w, mu)
    with pytest.raises(sinew.Error, match="positive definite"):
        not_definite.to_local()
    with pytest.raises(sinew.Error, match="nope"):
        sinew.solve_contact_global(sinew.GlobalContactProblem(M, H, f, w, mu), solver="nope")
