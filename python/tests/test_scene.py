"""Scenes from Python: a run gives the same run.csv as `sinew run`, stepping one at a time gives the
same state as a run, the progress callback sees every step and can stop the run, states read as arrays."""
import csv
import io
import json
import pathlib
import subprocess

import numpy as np
import pytest
import scipy.sparse.linalg as spla

import sinew

STEPS = 30


def csv_without_wall_times(path):
    """run.csv's rows as text, the wall-time columns (names ending in _ms) left out."""
    rows = list(csv.reader(io.StringIO(path.read_text())))
    keep = [i for i, name in enumerate(rows[0]) if not name.endswith("_ms")]
    assert len(keep) > 3
    return [[row[i] for i in keep] for row in rows]


@pytest.mark.parametrize("name,steps", [("drop", STEPS), ("slope", 5)])
def test_run_csv_is_bitwise_the_one_of_sinew_run(tmp_path, source_dir, sinew_exe, name, steps):
    scene_path = source_dir / "scenes" / f"{name}.json"
    cli = tmp_path / "cli"
    subprocess.run([sinew_exe, "run", str(scene_path), "--steps", str(steps), "--every", "1000000000",
                    "--png-every", "0", "--quiet", "--out", str(cli)], check=True)
    sim = sinew.read_scene(scene_path).make()
    result = sim.run(tmp_path / "py", steps=steps, every=10**9, png_every=0)
    assert result.ok and result.status == "completed" and result.last_step == steps
    expected = csv_without_wall_times(cli / "run.csv")
    assert len(expected) >= steps + 1  # header (step 0's row in multibody scenes), then one row per step
    assert csv_without_wall_times(tmp_path / "py" / "run.csv") == expected


def test_stepping_one_at_a_time_is_a_run(tmp_path, source_dir):
    scene = sinew.read_scene(source_dir / "scenes" / "drop.json")
    stepped = scene.make()
    names = stepped.scalar_names
    for k in range(STEPS):
        outcome = stepped.step()
        assert outcome.ok, outcome.message
        assert len(outcome.scalars) == len(names)
    assert stepped.steps == STEPS
    ran = scene.make()
    ran.run(tmp_path / "run", steps=STEPS, every=10**9, png_every=0)
    assert stepped.save() == ran.save()  # the whole state, bit for bit
    assert np.array_equal(stepped.positions(), ran.positions())


def test_progress_callback_sees_every_step_and_can_stop(tmp_path, source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    seen = []

    def progress(info):
        seen.append((info["step"], info["time"], dict(info["scalars"])))
        return info["step"] < 7  # stop after step 7

    result = sim.run(tmp_path / "out", steps=STEPS, progress=progress)
    assert result.status == "stopped" and result.last_step == 7
    assert [s for s, _, _ in seen] == list(range(1, 8))
    assert seen[-1][1] == pytest.approx(7 * sim.time_step)
    assert set(seen[0][2]) == set(sim.scalar_names)


def test_progress_callback_exception_is_reraised(tmp_path, source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()

    def progress(info):
        if info["step"] == 3:
            raise ValueError("stop here")

    with pytest.raises(ValueError, match="stop here"):
        sim.run(tmp_path / "out", steps=STEPS, progress=progress)
    assert sim.steps == 3


def test_multibody_states_are_snapshots_moved_not_copied_twice(source_dir):
    """positions() is a snapshot (the step replaces the state's buffers: a view would dangle), moved
    from the C++ copy into numpy (no second copy)."""
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    q = sim.positions()
    before = q.copy()
    assert not q.flags.owndata and q.base is not None  # numpy holds the C++ vector itself
    for _ in range(3):
        sim.step()
    np.testing.assert_array_equal(q, before)  # the snapshot did not change
    assert not np.array_equal(sim.positions(), before)
    q = sim.positions()
    poses = sim.rigid_poses()
    assert poses.shape[1] == 7 and poses.shape[0] >= 1
    np.testing.assert_allclose(np.linalg.norm(poses[:, 3:], axis=1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(poses[0, :3], q[:3])  # body 0 comes first in q: x, then quaternion
    assert sim.velocities().shape[0] >= 6 * poses.shape[0]


def test_local_global_state_and_meshes(source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "slope.json").make()
    x0 = sim.positions()
    assert x0.ndim == 2 and x0.shape[1] == 3
    sim.step()
    v = sim.velocities()
    assert v.shape == x0.shape and np.abs(v).max() > 0
    np.testing.assert_allclose(v, (sim.positions() - x0) / sim.time_step, rtol=1e-9, atol=1e-12)
    meshes = sim.meshes()
    assert sum(m["points"].shape[0] for m in meshes) == x0.shape[0]
    assert meshes[0]["point_fields"]["velocity"].shape == meshes[0]["points"].shape


def test_save_restore_continues_bit_for_bit(source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    for _ in range(5):
        sim.step()
    state = sim.save()
    for _ in range(5):
        sim.step()
    after = sim.positions().copy()
    sim.restore(state)
    assert sim.steps == 5
    for _ in range(5):
        sim.step()
    np.testing.assert_array_equal(sim.positions(), after)
    with pytest.raises(sinew.Error):
        sim.restore(state[:10])


def test_backend_by_name(source_dir):
    assert "serial" in sinew.backend_names()
    assert sinew.make_backend("serial").name == "serial"
    scene = sinew.read_scene(source_dir / "scenes" / "slope.json")
    sim = scene.make(backend="serial")
    assert sim.backend == "serial"
    if "tbb" in sinew.backend_names():
        other = scene.make(backend="tbb")
        assert other.backend == "tbb"
        for s in (sim, other):
            s.step()
        # local-global positions are bitwise the same on every host backend (local_global.hpp)
        np.testing.assert_array_equal(sim.positions(), other.positions())
    with pytest.raises(sinew.Error, match="nope"):
        scene.make(backend="nope")


def test_set_state_multibody(source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    q = np.array(sim.positions())
    q[0] = 1.5  # moved along x
    u = np.zeros_like(sim.velocities())
    sim.set_state(q, u)
    np.testing.assert_array_equal(sim.positions(), q)
    np.testing.assert_array_equal(sim.reduced_velocities(), u)
    sim.step()
    assert sim.velocities()[2] == pytest.approx(-9.81 * sim.time_step, abs=1e-12)  # free fall from rest
    bad = q.copy()
    bad[3] = 2.0  # not a unit quaternion
    with pytest.raises(sinew.Error, match="body 0"):
        sim.set_state(bad, u)
    with pytest.raises(sinew.Error, match="expected 7"):
        sim.set_state(q[:3], u)


def test_set_state_local_global(source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "slope.json").make()
    x = sim.positions() + np.array([0.25, 0.0, 0.0])
    v = np.zeros_like(x)
    v[:, 1] = 0.5
    sim.set_state(x, v)
    np.testing.assert_array_equal(sim.positions(), x)
    np.testing.assert_array_equal(sim.velocities(), v)
    with pytest.raises(sinew.Error, match="3 n_vertices"):
        sim.set_state(x[:2], v)


def test_contact_impulses_of_the_resting_cube(source_dir):
    """The cube at rest on the floor: the normal impulses carry its weight, m g h, and the last
    step's global problem holds: v = M^-1 (H r + f), u = H^T v + w with u_n >= 0 and r in the cone."""
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    for _ in range(500):  # at rest from t ~ 0.41 s
        assert sim.step().ok
    c = sim.contact()
    r, H, M = c["r"], c["H"], c["M"]
    assert set(c["kinds"]) == {"contact"} and all(m == 0.5 for m in c["mu"])
    assert H.shape == (6, r.size) and r.size == 3 * len(c["kinds"])
    normal = r[0::3]
    assert normal.sum() == pytest.approx(1.0 * 9.81 * sim.time_step, rel=1e-6)
    v = spla.spsolve(M.tocsc(), H @ r + c["f"])
    np.testing.assert_allclose(v, c["v"], atol=1e-12)
    u = H.T @ v + c["w"]
    assert (u[0::3] >= -1e-9).all()
    tangent = np.hypot(r[1::3], r[2::3])
    assert (tangent <= 0.5 * normal + 1e-12).all()
    np.testing.assert_allclose(c["system_impulses"], H @ r, atol=1e-15)
    with pytest.raises(sinew.Error, match="not stepped by the two-stage contact step"):
        sinew.read_scene(source_dir / "scenes" / "slope.json").make().contact()


def test_a_simulation_is_not_stepped_from_its_own_run_callback(tmp_path, source_dir):
    sim = sinew.read_scene(source_dir / "scenes" / "drop.json").make()
    with pytest.raises(sinew.Error, match="in use by another call"):
        sim.run(tmp_path / "out", steps=5, progress=lambda info: sim.step())
    sim.step()  # free again once the run has ended


def test_scene_properties(source_dir):
    scene = sinew.read_scene(source_dir / "scenes" / "drop.json")
    assert scene.kind == "multibody" and scene.name == "dropped_cube"
    assert scene.description.startswith("A 1 kg cube")
    assert sinew.read_scene(source_dir / "scenes" / "slope.json").kind == "local_global"


def test_run_result_names_its_files_and_a_resume_continues(tmp_path, source_dir):
    """A run with checkpoints every 4 steps lists them and its .pvd series; a run resumed from the first
    checkpoint starts at its step and ends in the same state as the whole run."""
    text = json.loads((source_dir / "scenes" / "drop.json").read_text())
    text.setdefault("outputs", {}).update({"checkpoint_every": 4, "every": 4})
    scene = sinew.parse_scene(json.dumps(text), name="drop.json", base_dir=str(source_dir / "scenes"))
    whole = scene.make()
    result = whole.run(tmp_path / "whole", steps=8, png_every=0)
    assert result.ok and result.first_step == 0 and result.last_step == 8 and result.warned_steps == 0
    assert result.wall_seconds > 0.0
    assert [p.name for p in map(pathlib.Path, result.checkpoints)] == ["step_000004.sinewckpt", "step_000008.sinewckpt"]
    assert result.series and all(pathlib.Path(p).suffix == ".pvd" and pathlib.Path(p).exists() for p in result.series)
    resumed = scene.make()
    again = resumed.run(tmp_path / "resumed", steps=8, png_every=0, resume=result.checkpoints[0])
    assert again.ok and again.first_step == 4 and again.last_step == 8
    np.testing.assert_array_equal(resumed.positions(), whole.positions())


def test_a_step_accepted_above_the_limit_warns(source_dir):
    """SAP answers within its own regularization; with an accept limit of 1e-14 on the natural map its
    step advances with a warning naming the error, and the run counts it."""
    text = json.loads((source_dir / "scenes" / "drop.json").read_text())
    text["integrator"] = {"type": "contact_step", "accept_error": 1e-14, "solver": {"type": "sap"}}
    sim = sinew.parse_scene(json.dumps(text)).make()
    outcomes = [sim.step() for _ in range(300)]  # in contact from t = 0.2 s
    assert all(o.ok for o in outcomes)
    assert outcomes[0].warning == ""  # no contact yet
    warned = [o.warning for o in outcomes if o.warning]
    assert warned and "accepted with natural-map error" in warned[-1] and "1e-14" in warned[-1]
