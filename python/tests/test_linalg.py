"""CG / CR / MINRES on scipy.sparse matrices, checked against scipy's direct solve."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import sinew


def laplacian_2d(k, shift):
    """The 5-point Laplacian of a k x k grid plus shift * I (SPD for shift > -eigmin)."""
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    return (sp.kronsum(t, t) + shift * sp.identity(k * k)).tocsr()


@pytest.fixture
def rhs():
    return np.random.default_rng(7).standard_normal(400)


def test_cg_matches_spsolve(rhs):
    A = laplacian_2d(20, 0.1)
    x, result = sinew.cg(A, rhs, tol=1e-12)
    assert result.converged and result.status == "converged" and result.iterations > 5
    expected = spla.spsolve(A.tocsc(), rhs)
    assert np.linalg.norm(x - expected) <= 1e-9 * np.linalg.norm(expected)
    assert result.relative_residual == pytest.approx(np.linalg.norm(rhs - A @ x) / np.linalg.norm(rhs), rel=1e-6)
    assert result.residual_norm == pytest.approx(np.linalg.norm(rhs - A @ x), rel=1e-6)


def test_jacobi_preconditioned_cg(rhs):
    A = laplacian_2d(20, 0.1)
    A = (sp.diags(np.linspace(1.0, 100.0, 400)) @ A @ sp.diags(np.linspace(1.0, 100.0, 400))).tocsr()
    _, plain = sinew.cg(A, rhs, tol=1e-10, max_iterations=5000)
    x, pre = sinew.cg(A, rhs, tol=1e-10, max_iterations=5000, inverse_diagonal=1.0 / A.diagonal())
    assert pre.converged and pre.iterations < plain.iterations
    np.testing.assert_allclose(A @ x, rhs, atol=1e-7 * np.linalg.norm(rhs))


@pytest.mark.parametrize("solver", [sinew.cr, sinew.minres])
def test_symmetric_indefinite_solvers(solver, rhs):
    A = laplacian_2d(20, -0.5)  # eigenvalues on both sides of 0
    assert spla.eigsh(A, k=1, which="SA", return_eigenvectors=False)[0] < 0
    x, result = solver(A, rhs, tol=1e-11, max_iterations=5000)
    assert result.converged, result.message
    expected = spla.spsolve(A.tocsc(), rhs)
    assert np.linalg.norm(x - expected) <= 1e-7 * np.linalg.norm(expected)


def test_iteration_limit_is_reported(rhs):
    x, result = sinew.cg(laplacian_2d(20, 0.1), rhs, max_iterations=3, history=True)
    assert not result.converged and result.status == "max_iterations" and result.iterations == 3
    assert len(result.history) == 3 and x.shape == (400,)


def test_any_scipy_format_and_caller_matrix_untouched(rhs):
    A = laplacian_2d(20, 0.1)
    coo = A.tocoo()
    # every row's entries twice (halves), in reverse order: sinew sums a copy, the caller's stays as it was
    idx, val = [], []
    for r in range(A.shape[0]):
        cols = A.indices[A.indptr[r]:A.indptr[r + 1]][::-1]
        half = A.data[A.indptr[r]:A.indptr[r + 1]][::-1] / 2
        idx += [cols, cols]
        val += [half, half]
    dup = sp.csr_matrix((np.concatenate(val), np.concatenate(idx), 2 * A.indptr), shape=A.shape)
    before = dup.indices.copy()
    x1, _ = sinew.cg(A, rhs, tol=1e-12)
    x2, _ = sinew.cg(dup, rhs, tol=1e-12)
    x3, _ = sinew.cg(coo, rhs, tol=1e-12)
    np.testing.assert_array_equal(x1, x3)
    np.testing.assert_allclose(x1, x2, rtol=1e-9)
    np.testing.assert_array_equal(dup.indices, before)


def test_solution_is_moved_not_copied(rhs):
    x, _ = sinew.cg(laplacian_2d(20, 0.1), rhs)
    assert not x.flags.owndata and x.base is not None  # numpy views the vector sinew computed


@pytest.mark.parametrize("k3", [False, True])
def test_sparse_inverse_global_step(rhs, k3):
    A = laplacian_2d(20, 0.1)
    if k3:  # per-vertex structure A_s (x) I_3, as the local-global matrices
        A = sp.kron(A, sp.identity(3)).tocsr()
    b = np.random.default_rng(1).standard_normal(A.shape[0])
    S = sinew.SparseInverse(A)
    assert S.block == (3 if k3 else 1) and S.dofs == A.shape[0]
    x = S.solve(b)
    np.testing.assert_allclose(x, spla.spsolve(A.tocsc(), b), rtol=1e-9, atol=1e-12)
    F = S.factor
    assert F.nnz == S.nnz and S.nnz >= S.factor_nnz
    # A^-1 = S'^T S' (per coordinate when block is 3)
    As = laplacian_2d(20, 0.1)
    e = np.zeros(As.shape[0])
    e[5] = 1.0
    np.testing.assert_allclose(F.T @ (F @ e), spla.spsolve(As.tocsc(), e), rtol=1e-9, atol=1e-13)
    assert sorted(S.elimination_order) == list(range(As.shape[0]))


def test_sparse_inverse_refuses_indefinite():
    with pytest.raises(sinew.Error):
        sinew.SparseInverse(laplacian_2d(10, -1.0))
    with pytest.raises(sinew.Error, match="expected 100"):
        sinew.SparseInverse(laplacian_2d(10, 0.1)).solve(np.ones(7))
