"""sinew.KinematicTree: a pendulum's closed-form acceleration and energy, a chain's mass matrix and
point Jacobian against finite differences, RK4 and symplectic Euler at their orders, and bad input
raised as sinew.Error naming the body and field."""
import math

import numpy as np
import pytest

import sinew

G = 9.81


def chain(links, **joint):
    """The benchmark's chain: rods of 0.1 m and 0.2 kg hinged about y, released horizontal."""
    tree = sinew.KinematicTree(gravity=(0.0, 0.0, -G))
    for k in range(links):
        tree.add_body(parent=k - 1, joint="hinge", axis=(0, 1, 0), joint_in_parent=(0.05 if k else 0.0, 0, 0),
                      joint_in_body=(-0.05, 0, 0), mass=0.2, inertia=np.diag([1e-5, 1.7e-4, 1.7e-4]),
                      name=f"rod {k}", **joint)
    return tree


def test_a_pendulum_accelerates_and_keeps_its_energy_as_its_closed_form():
    m, l, J = 0.7, 0.35, 0.012
    tree = sinew.KinematicTree()
    assert tree.add_body(parent=-1, axis=(0, 1, 0), joint_in_body=(0, 0, l), mass=m, inertia=J * np.eye(3)) == 0
    assert tree.num_bodies == 1
    q, u = np.array([0.8]), np.array([0.0])
    np.testing.assert_allclose(tree.accelerations(q, u), [-m * G * l * math.sin(0.8) / (J + m * l * l)], rtol=1e-13)
    np.testing.assert_allclose(tree.mass_matrix(q), [[J + m * l * l]], rtol=1e-14)
    kinetic, potential = tree.energy(q, np.array([2.0]))
    assert kinetic == pytest.approx(0.5 * (J + m * l * l) * 4.0, rel=1e-14)
    assert potential == pytest.approx(-m * G * l * math.cos(0.8), rel=1e-12)
    q1, u1 = tree.simulate(q, np.array([2.0]), h=1e-3, steps=500)
    e0 = kinetic + potential
    assert sum(tree.energy(q1, u1)) == pytest.approx(e0, rel=1e-9)


def test_point_jacobian_gives_a_points_velocity():
    tree = chain(4)
    rng = np.random.default_rng(3)
    q, u = rng.uniform(-1, 1, 4), rng.uniform(-2, 2, 4)
    eps = 1e-6
    for body in range(4):
        J = tree.point_jacobian(q, body, local=(0.05, 0, 0))
        assert J.shape == (6, 4)
        v = (tree.body_point(q + eps * u, body, (0.05, 0, 0)) - tree.body_point(q - eps * u, body, (0.05, 0, 0))) / (2 * eps)
        np.testing.assert_allclose(J[:3] @ u, v, atol=1e-8)
        assert np.all(J[:, body + 1:] == 0)  # joints below the body do not move it


def test_rk4_and_symplectic_euler_converge_at_their_orders():
    tree = chain(5, damping=1e-3, armature=1e-4)
    q0, u0 = np.zeros(5), np.zeros(5)
    reference, _ = tree.simulate(q0, u0, h=0.25e-3, steps=2000)
    rk4 = [np.abs(tree.simulate(q0, u0, h=h, steps=round(0.5 / h))[0] - reference).max() for h in (4e-3, 2e-3)]
    euler = [np.abs(tree.simulate(q0, u0, h=h, steps=round(0.5 / h), integrator="symplectic_euler")[0] - reference).max()
             for h in (1e-3, 0.5e-3)]
    assert rk4[0] / rk4[1] == pytest.approx(16.0, rel=0.25)
    assert euler[0] / euler[1] == pytest.approx(2.0, rel=0.15)


def test_bad_input_is_named():
    tree = sinew.KinematicTree()
    with pytest.raises(sinew.Error, match="body 0 'arm'.*parent"):
        tree.add_body(parent=3, name="arm")
    with pytest.raises(sinew.Error, match="joint must be 'hinge' or 'slider'"):
        tree.add_body(parent=-1, joint="ball")
    with pytest.raises(sinew.Error, match="mass must be finite and > 0"):
        tree.add_body(parent=-1, mass=0.0)
    tree.add_body(parent=-1, joint="slider", axis=(1, 0, 0))
    with pytest.raises(sinew.Error, match="q has 2 entries"):
        tree.accelerations(np.zeros(2), np.zeros(1))
    with pytest.raises(sinew.Error, match="unknown integrator 'rk5'"):
        tree.simulate(np.zeros(1), np.zeros(1), h=1e-3, steps=1, integrator="rk5")
    with pytest.raises(sinew.Error, match="must be finite"):
        tree.simulate(np.array([math.nan]), np.zeros(1), h=1e-3, steps=1)
    # RK4 beyond its stability at 20 ms on the 20-rod chain: the failed step is named, with why.
    with pytest.raises(sinew.Error, match=r"step \d+ failed: runge_kutta4: .*not finite"):
        chain(20).simulate(np.zeros(20), np.zeros(20), h=0.02, steps=50)
