"""A simulation's contacts as arrays: the resting cube's four bottom corners carry its weight with
no net moment, and their impulses are the contact problem's; a sliding local-global block's contacts
sit at its vertices, act as its contact forces and slide on the friction cone."""
import numpy as np
import pytest

import sinew

H_DROP, M_CUBE, G = 1e-3, 1.0, 9.81


def world_impulses(c):
    """(n x 3) each contact's impulse on side A in the world frame."""
    r = c["impulses"]
    return r[:, :1] * c["normals"] + r[:, 1:2] * c["tangent1"] + r[:, 2:] * c["tangent2"]


def quaternion_matrix(w, x, y, z):
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def test_resting_cube_contacts_are_its_corners_carrying_its_weight(source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    for _ in range(500):  # at rest from t ~ 0.41 s
        assert sim.step().ok
    pose = sim.rigid_poses()[0]  # the pose the step ended at: the cube is at rest, so also its start
    c = sim.contacts()
    assert c["points_a"].shape == (4, 3)
    assert list(c["kind_a"]) == ["body"] * 4 and list(c["index_a"]) == [0] * 4
    assert list(c["kind_b"]) == ["obstacle"] * 4 and list(c["index_b"]) == [0] * 4
    np.testing.assert_array_equal(c["normals"], np.tile([0.0, 0.0, 1.0], (4, 1)))
    np.testing.assert_array_equal(c["mu"], [0.5] * 4)
    # The witness points on the cube are its bottom corners, those on the floor below them.
    local = (c["points_a"] - pose[:3]) @ quaternion_matrix(*pose[3:])
    np.testing.assert_allclose(np.abs(local), 0.1, atol=1e-9)
    assert (local[:, 2] < 0).all()
    np.testing.assert_allclose(c["points_b"][:, :2], c["points_a"][:, :2], atol=1e-15)
    np.testing.assert_allclose(c["points_b"][:, 2], 0.0, atol=1e-15)
    # The impulses carry the weight over the step with no net moment about the centre.
    R = world_impulses(c)
    np.testing.assert_allclose(R.sum(axis=0), [0.0, 0.0, M_CUBE * G * H_DROP], rtol=1e-6, atol=1e-12)
    moment = np.cross(c["points_a"] - pose[:3], R).sum(axis=0)
    np.testing.assert_allclose(moment, 0.0, atol=1e-9 * M_CUBE * G * H_DROP)
    # They are the contact problem's impulses, block by block.
    problem = sim.contact()
    np.testing.assert_array_equal(problem["r"].reshape(-1, 3)[c["block"]], c["impulses"])
    # Moved from C++: numpy holds the C++ vector, no second copy.
    assert not c["points_a"].flags.owndata and c["points_a"].base is not None


def test_no_contacts_before_the_first_step_and_in_free_fall(source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    c = sim.contacts()
    assert c["points_a"].shape == (0, 3) and c["impulses"].shape == (0, 3) and c["kind_a"].shape == (0,)
    for _ in range(20):  # falling: the floor is 0.2 m below
        sim.step()
    assert sim.contacts()["mu"].size == 0
    for _ in range(300):
        sim.step()
    assert sim.contacts()["mu"].size == 4
    state = sim.save()
    sim.restore(state)
    assert sim.contacts()["mu"].size == 0  # no last step after a restore


def test_sliding_block_contacts_are_its_vertices_on_the_cone(source_dir):
    """scenes/slope.json: a block sliding downhill (+x) on z = 0 at mu = 0.1."""
    sim = sinew.read_scene(source_dir / "scenes" / "slope.json").make()
    for _ in range(30):
        sim.step()
    start = sim.positions()
    assert sim.step().ok
    c = sim.contacts()
    n = c["mu"].size
    assert n == 25  # the 5 x 5 bottom vertices
    assert set(c["kind_a"]) == {"vertex"} and set(c["kind_b"]) == {"obstacle"} and set(c["index_b"]) == {0}
    np.testing.assert_array_equal(c["mu"], 0.1)
    np.testing.assert_array_equal(c["points_a"], start[c["index_a"]])  # where the step's rows were taken
    np.testing.assert_array_equal(c["points_b"][:, :2], start[c["index_a"], :2])
    np.testing.assert_array_equal(c["points_b"][:, 2], 0.0)
    np.testing.assert_array_equal(c["nodes"][:, 0], c["index_a"])
    np.testing.assert_array_equal(c["nodes"][:, 1:], -1)
    np.testing.assert_array_equal(c["weights"][:, 0], 1.0)
    # Sliding: every pressed contact's friction is on the cone and opposes the motion (+x).
    r = c["impulses"]
    pressed = r[:, 0] > 1e-9 * r[:, 0].max()
    assert pressed.sum() >= 4
    np.testing.assert_allclose(np.hypot(r[pressed, 1], r[pressed, 2]), 0.1 * r[pressed, 0], rtol=1e-6)
    R = world_impulses(c)
    assert (R[pressed, 0] < 0).all()
    np.testing.assert_allclose(R.sum(axis=0)[0], -0.1 * R.sum(axis=0)[2], rtol=1e-6)
    # The same impulses per vertex are the output mesh's contact force (times h).
    force = sim.meshes()[0]["point_fields"]["contact_force"]
    per_vertex = np.zeros_like(force)
    np.add.at(per_vertex, c["index_a"], R)
    np.testing.assert_allclose(force * sim.time_step, per_vertex, rtol=1e-12, atol=1e-18)
