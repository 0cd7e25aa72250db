"""The reference scene scenes/drop.json from Python: a 1 kg cube dropped from 0.2 m while moving at
2 m/s along x lands on the floor (friction 0.5) and slides to rest. Steps the scene one step at a
time, reads the cube's pose and velocity as numpy arrays, compares with the closed-form motion and
plots height and speed with matplotlib when it is installed (pip install matplotlib).

    python3 python/examples/dropped_cube.py [--out dropped_cube.png]
"""
import argparse
import pathlib

import numpy as np

import sinew

SCENES = pathlib.Path(__file__).resolve().parents[2] / "scenes"
G, MU, V0, DROP = 9.81, 0.5, 2.0, 0.2  # gravity, friction, initial speed (m/s), fall height (m)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default=str(SCENES / "drop.json"))
    parser.add_argument("--out", default="dropped_cube.png", help="the plot (needs matplotlib)")
    parser.add_argument("--backend", default="", help="serial, tbb, ... (default: the scene's, or serial)")
    args = parser.parse_args()

    scene = sinew.read_scene(args.scene)
    sim = scene.make(backend=args.backend)
    print(f"{scene.name}: {scene.steps} steps of {scene.time_step} s on {sim.backend}")
    t, z, vx = [0.0], [sim.rigid_poses()[0, 2]], [sim.velocities()[0]]
    for _ in range(scene.steps):
        outcome = sim.step()
        if not outcome.ok:
            raise SystemExit(f"step {sim.steps}: {outcome.message}")
        t.append(sim.time)
        z.append(sim.rigid_poses()[0, 2])  # (bodies x 7): x y z, then quaternion w x y z
        vx.append(sim.velocities()[0])  # the cube's linear velocity comes first
    t, z, vx = map(np.array, (t, z, vx))

    landing = np.sqrt(2 * DROP / G)  # free fall of the 0.2 m gap
    # The inelastic impact stops the fall (normal impulse m g landing) and friction takes up to mu
    # times that from the speed at once; then Coulomb friction decelerates the slide at mu g.
    v_after = V0 - MU * G * landing
    rest = landing + v_after / (MU * G)
    moving = np.flatnonzero(np.abs(vx) > 1e-3)
    print(f"lands at t = {t[np.argmax(z < z[0] - DROP + 1e-3)]:.3f} s (free fall: {landing:.3f} s)")
    print(f"comes to rest at t = {t[moving[-1] + 1]:.3f} s (impact, then sliding at mu g: {rest:.3f} s)")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot (pip install matplotlib)")
        return
    fig, (ax_z, ax_v) = plt.subplots(2, 1, sharex=True, figsize=(6, 5))
    ax_z.plot(t, z, label="sinew")
    ax_z.plot(t, np.where(t < landing, z[0] - 0.5 * G * t**2, z[0] - DROP), "--", label="closed form")
    ax_z.set_ylabel("height of the centre (m)")
    ax_z.legend()
    ax_v.plot(t, vx, label="sinew")
    closed = np.where(t < landing, V0, np.clip(v_after - MU * G * (t - landing), 0.0, None))
    ax_v.plot(t, closed, "--", label="closed form")
    ax_v.set_ylabel("speed along x (m/s)")
    ax_v.set_xlabel("t (s)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
