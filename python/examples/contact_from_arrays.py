"""A frictional contact problem solved from arrays: a box resting on a 20-degree slope at its four
corners, one time step of FCLIB's global form M v = H r + f, u = H^T v + w (the box's mass matrix M
and contact Jacobian H built here with numpy), reduced with numpy to the Delassus problem
u = W r + q (W = H^T M^-1 H), solved by sinew's non-smooth Newton solver, checked by the natural-map
error, then solved in the global form by sinew itself (its reduction, and SAP on the global form)
and written to an FCLIB file.

    python3 python/examples/contact_from_arrays.py [--mu 0.5] [--fclib box_on_slope.hdf5]
"""
import argparse

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import sinew


def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def box_on_slope(mu, angle_degrees=20.0, h=1e-3, mass=1.0, half=0.1, g=9.81):
    """M, H, f, w, mu of FCLIB's global form for a cube (half extent `half`) on a slope tilted by
    `angle` about y, one time step h from rest."""
    a = np.radians(angle_degrees)
    n = np.array([np.sin(a), 0.0, np.cos(a)])  # the slope's normal
    t1 = np.array([np.cos(a), 0.0, -np.sin(a)])  # downhill
    t2 = np.cross(n, t1)
    inertia = mass * (2 * half) ** 2 / 6 * np.eye(3)
    M = sp.csr_matrix(sp.block_diag([mass * np.eye(3), inertia]))
    # the four bottom corners, relative to the centre, in the slope's frame
    corners = [half * (s1 * t1 + s2 * t2 - n) for s1 in (-1, 1) for s2 in (-1, 1)]
    H = np.zeros((6, 12))  # FCLIB's H = J^T: column 3c+k maps the twist to corner c's velocity along n, t1, t2
    for c, p in enumerate(corners):
        for k, d in enumerate((n, t1, t2)):
            H[:3, 3 * c + k] = d
            H[3:, 3 * c + k] = np.cross(p, d)  # angular part: (w x p) . d = w . (p x d)
    f = M @ (h * np.array([0.0, 0.0, -g, 0.0, 0.0, 0.0]))  # momentum after one step of gravity from rest
    return M, sp.csr_matrix(H), f, np.zeros(12), np.full(4, mu)


def totals(r):
    """Total normal and downhill impulse (N s) and their ratio."""
    normal, tangent = r[0::3].sum(), r[1::3].sum()
    return normal, tangent, abs(tangent) / normal


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mu", type=float, default=0.5)
    parser.add_argument("--solver", default="newton-fb", choices=sinew.contact_solver_names())
    parser.add_argument("--fclib", default="", help="write the problem and its solution to this FCLIB file")
    args = parser.parse_args()

    M, H, f, w, mu = box_on_slope(args.mu)
    Minv_H = spla.spsolve(M.tocsc(), H.tocsc())  # the local (Delassus) form, reduced here with numpy
    W = sp.csr_matrix(H.T @ Minv_H)
    q = w + H.T @ spla.spsolve(M.tocsc(), f)
    problem = sinew.ContactProblem(W, q, mu)
    r, report = sinew.solve_contact(problem, solver=args.solver, tol=1e-12)
    print(f"{args.solver}: {report.status} in {report.iterations} iterations, natural-map error {report.error:.2e}")
    print("contacts:", ", ".join(report.states))
    normal, tangent, ratio = totals(r)
    print(f"total impulse: normal {normal:.6f} N s, downhill {tangent:.6f} N s "
          f"(ratio {ratio:.4f}; sticks when tan 20 deg = {np.tan(np.radians(20)):.4f} <= mu)")
    assert sinew.natural_map_error(problem, r) < 1e-10

    # The global form solved by sinew: its own reduction to W, q (the same problem: four corners
    # carry the box, so r itself is not unique, but the total impulse and the motion are), then SAP
    # on the global form, whose convex model differs from Coulomb's law by its regularization.
    global_problem = sinew.GlobalContactProblem(M, H, f, w, mu)
    v, r_global, _ = sinew.solve_contact_global(global_problem, solver=args.solver, tol=1e-12)
    v_local = spla.spsolve(M.tocsc(), H @ r + f)
    print(f"global form, {args.solver}: total impulse differs by {np.abs(H @ (r_global - r)).max():.1e} N s, "
          f"velocity by {np.abs(v - v_local).max():.1e} m/s; box speed after the step {np.linalg.norm(v[:3]):.9e} m/s")
    v_sap, r_sap, sap = sinew.solve_contact_global(global_problem, solver="sap", tol=1e-10)
    normal, tangent, ratio = totals(r_sap)
    print(f"global form, sap: {sap.status} in {sap.iterations} iterations, normal {normal:.6f} N s, "
          f"downhill {tangent:.6f} N s (ratio {ratio:.4f})")
    if args.fclib and not sinew.fclib_supported():
        print("this build has no FCLIB support: no file written")
    elif args.fclib:
        problem.title = "box on a 20-degree slope"
        sinew.write_fclib_local(args.fclib, problem, r)
        print(f"wrote {args.fclib}")


if __name__ == "__main__":
    main()
