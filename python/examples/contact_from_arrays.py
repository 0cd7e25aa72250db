"""A frictional contact problem solved from arrays: a box resting on a 20-degree slope at its four
corners, as the Delassus problem u = W r + q of FCLIB (W = H^T M^-1 H from the box's mass and the
contact Jacobian H built here with numpy), solved by sinew's non-smooth Newton solver, checked by the
natural-map error, and written to an FCLIB file.

    python3 python/examples/contact_from_arrays.py [--mu 0.5] [--fclib box_on_slope.hdf5]
"""
import argparse

import numpy as np
import scipy.sparse as sp

import sinew


def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def box_on_slope(mu, angle_degrees=20.0, h=1e-3, mass=1.0, half=0.1, g=9.81):
    """W, q, mu of a cube (half extent `half`) on a slope tilted by `angle` about y, one time step h."""
    a = np.radians(angle_degrees)
    n = np.array([np.sin(a), 0.0, np.cos(a)])  # the slope's normal
    t1 = np.array([np.cos(a), 0.0, -np.sin(a)])  # downhill
    t2 = np.cross(n, t1)
    inertia = mass * (2 * half) ** 2 / 6 * np.eye(3)
    Minv = sp.block_diag([np.eye(3) / mass, np.linalg.inv(inertia)])
    # the four bottom corners, relative to the centre, in the slope's frame
    corners = [half * (s1 * t1 + s2 * t2 - n) for s1 in (-1, 1) for s2 in (-1, 1)]
    H = np.zeros((6, 12))  # FCLIB's H = J^T: column 3c+k maps the twist to corner c's velocity along n, t1, t2
    for c, p in enumerate(corners):
        for k, d in enumerate((n, t1, t2)):
            H[:3, 3 * c + k] = d
            H[3:, 3 * c + k] = np.cross(p, d)  # angular part: (w x p) . d = w . (p x d)
    v_free = h * np.array([0.0, 0.0, -g, 0.0, 0.0, 0.0])  # one step of gravity from rest
    W = sp.csr_matrix(H.T @ Minv @ H)
    q = H.T @ v_free
    return W, q, np.full(4, mu), H


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mu", type=float, default=0.5)
    parser.add_argument("--solver", default="newton-fb", choices=sinew.contact_solver_names())
    parser.add_argument("--fclib", default="", help="write the problem and its solution to this FCLIB file")
    args = parser.parse_args()

    W, q, mu, H = box_on_slope(args.mu)
    problem = sinew.ContactProblem(W, q, mu)
    r, report = sinew.solve_contact(problem, solver=args.solver, tol=1e-12)
    print(f"{args.solver}: {report.status} in {report.iterations} iterations, natural-map error {report.error:.2e}")
    print("contacts:", ", ".join(report.states))
    normal, tangent = r[0::3].sum(), r[1::3].sum()
    print(f"total impulse: normal {normal:.6f} N s, downhill {tangent:.6f} N s "
          f"(ratio {abs(tangent) / normal:.4f}; sticks when tan 20 deg = {np.tan(np.radians(20)):.4f} <= mu)")
    assert sinew.natural_map_error(problem, r) < 1e-10
    if args.fclib and not sinew.fclib_supported():
        print("this build has no FCLIB support: no file written")
    elif args.fclib:
        problem.title = "box on a 20-degree slope"
        sinew.write_fclib_local(args.fclib, problem, r)
        print(f"wrote {args.fclib}")


if __name__ == "__main__":
    main()
