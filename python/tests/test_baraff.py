"""Baraff's O(n) factor of a tree given as arrays, checked against a dense KKT solve."""
import numpy as np
import pytest

import sinew


def spd(rng, d):
    a = rng.standard_normal((d, d))
    return a @ a.T + d * np.eye(d)


def tree(rng):
    """Five bodies of dimensions 6, 3, 3, 6, 3 in a tree, body 0 tied to the world."""
    dims = [6, 3, 3, 6, 3]
    masses = [spd(rng, d) for d in dims]
    edges = [(-1, 0), (0, 1), (0, 2), (2, 3), (3, 4)]
    constraints = []
    for a, b in edges:
        m = 2
        constraints.append((a, b, rng.standard_normal((m, dims[a])) if a >= 0 else np.zeros((0, 0)),
                            rng.standard_normal((m, dims[b]))))
    return dims, masses, constraints


def dense(dims, masses, constraints, aux=()):
    off = np.concatenate([[0], np.cumsum(dims)])
    n = off[-1]
    M = np.zeros((n, n))
    for i, Mi in enumerate(masses):
        M[off[i]:off[i + 1], off[i]:off[i + 1]] = Mi
    rows = []
    for a, b, ja, jb in constraints:
        J = np.zeros((jb.shape[0], n))
        if a >= 0:
            J[:, off[a]:off[a + 1]] = ja
        J[:, off[b]:off[b + 1]] = jb
        rows.append(J)
    for row in aux:
        J = np.zeros((1, n))
        for body, j in row:
            J[0, off[body]:off[body + 1]] = j
        rows.append(J)
    return M, np.vstack(rows)


def test_tree_matches_dense_kkt():
    rng = np.random.default_rng(4)
    dims, masses, constraints = tree(rng)
    solver = sinew.BaraffSolver(masses, constraints)
    assert solver.num_dofs == sum(dims) and solver.num_multipliers == 10 and solver.num_components == 1
    force, bias = rng.standard_normal(sum(dims)), rng.standard_normal(10)
    a, lam, mu = solver.solve(force, bias)
    M, J = dense(dims, masses, constraints)
    K = np.block([[M, -J.T], [J, np.zeros((10, 10))]])
    expected = np.linalg.solve(K, np.concatenate([force, -bias]))
    np.testing.assert_allclose(a, expected[:sum(dims)], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(lam, expected[sum(dims):], rtol=1e-9, atol=1e-12)
    assert mu.size == 0


def test_loop_closure_as_auxiliary_row():
    rng = np.random.default_rng(5)
    dims, masses, constraints = tree(rng)
    aux = [[(1, rng.standard_normal(3)), (4, rng.standard_normal(3))]]  # closes a loop 1 - 4
    solver = sinew.BaraffSolver(masses, constraints, aux)
    force, bias, aux_bias = rng.standard_normal(sum(dims)), rng.standard_normal(10), np.array([0.3])
    a, lam, mu = solver.solve(force, bias, aux_bias)
    M, J = dense(dims, masses, constraints, aux)
    np.testing.assert_allclose(M @ a, J.T @ np.concatenate([lam, mu]) + force, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(J @ a, -np.concatenate([bias, aux_bias]), atol=1e-10)


def test_cycle_among_primary_constraints_is_refused():
    rng = np.random.default_rng(6)
    dims, masses, constraints = tree(rng)
    constraints.append((1, 4, rng.standard_normal((1, 3)), rng.standard_normal((1, 3))))
    with pytest.raises(sinew.Error, match="cycle"):
        sinew.BaraffSolver(masses, constraints)
