"""Scenes built from a dict with numpy arrays: a deformable body from vertices and tets runs as
the procedural box it copies, and bad arrays are refused."""
import json

import numpy as np
import pytest

import sinew


def box_tets(nx, lo, hi):
    """The vertices and tets of a box of nx^3 cubes, 6 positively oriented tets each (Kuhn split)."""
    g = np.linspace(0.0, 1.0, nx + 1)
    X, Y, Z = np.meshgrid(g, g, g, indexing="ij")
    vertices = lo + (hi - lo) * np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)
    idx = lambda i, j, k: (i * (nx + 1) + j) * (nx + 1) + k  # noqa: E731
    tets = []
    paths = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    for i in range(nx):
        for j in range(nx):
            for k in range(nx):
                for p in paths:
                    c = [i, j, k]
                    t = [idx(*c)]
                    for axis in p:
                        c[axis] += 1
                        t.append(idx(*c))
                    tets.append(t)
    tets = np.array(tets)
    e1, e2, e3 = (vertices[tets[:, a]] - vertices[tets[:, 0]] for a in (1, 2, 3))
    flip = np.einsum("ij,ij->i", np.cross(e1, e2), e3) < 0
    tets[flip, 1], tets[flip, 2] = tets[flip, 2].copy(), tets[flip, 1].copy()
    return vertices, tets


def cube_scene(mesh):
    return {
        "sinew_scene": 1, "name": "numpy_cube", "kind": "multibody", "steps": 20, "time_step": 0.001,
        "bodies": [{"type": "deformable", "name": "cube", "mesh": mesh, "density": 1000,
                    "material": {"model": "corotational", "youngs_modulus": 1e5, "poisson_ratio": 0.3}}],
        "obstacles": [{"shape": "half_space", "normal": [0, 0, 1]}],
        "contact": {"mu": 0.5},
        "integrator": {"type": "contact_step", "solver": {"type": "pgs", "stop": {"tolerance": 1e-8}}},
    }


def test_deformable_body_from_numpy_tets_falls_on_the_floor():
    vertices, tets = box_tets(2, np.array([0.0, 0.0, 0.01]), np.array([0.1, 0.1, 0.11]))
    sim = sinew.scene_from_dict(cube_scene(sinew.mesh(vertices, tets=tets))).make()
    x0 = sim.meshes()[0]["points"]
    np.testing.assert_array_equal(x0, vertices)  # the coordinates arrive bit for bit
    assert sim.meshes()[0]["tets"].shape == tets.shape
    for _ in range(150):
        assert sim.step().ok
    z = sim.meshes()[0]["points"][:, 2]
    assert z.min() < 0.005 and z.min() > -1e-3  # fell 1 cm and rests on the floor


def test_numpy_tets_run_as_the_scene_files_box():
    """The same cube as the scene file's procedural box: the same run, bit for bit, when the arrays
    hold the box's own vertices and tets (read back from its simulation)."""
    box = {"box": {"min": [0.0, 0.0, 0.01], "max": [0.1, 0.1, 0.11], "cells": [2, 2, 2]}}
    reference = sinew.scene_from_dict(cube_scene(box)).make()
    m = reference.meshes()[0]
    copy = sinew.scene_from_dict(cube_scene(sinew.mesh(m["points"], tets=m["tets"]))).make()
    for _ in range(20):
        reference.step()
        copy.step()
    assert copy.save() == reference.save()


def test_bad_arrays_are_refused():
    vertices, tets = box_tets(1, np.zeros(3), np.ones(3))
    with pytest.raises(sinew.Error, match="not both"):
        sinew.mesh(vertices, tets=tets, triangles=tets[:, :3])
    with pytest.raises(sinew.Error, match=r"expected integers \(n, 4\)"):
        sinew.mesh(vertices, tets=tets.astype(float))
    bad = tets.copy()
    bad[0, 0] = len(vertices)
    with pytest.raises(sinew.Error, match="entry 0: expected 4 vertex indices"):
        sinew.scene_from_dict(cube_scene(sinew.mesh(vertices, tets=bad)), name="mine.json")
    with pytest.raises(sinew.Error, match="mine.json"):
        sinew.scene_from_dict(cube_scene(sinew.mesh(vertices, tets=bad)), name="mine.json")


def test_parse_scene_text(source_dir):
    text = (source_dir / "scenes" / "drop.json").read_text()
    a = sinew.parse_scene(text, "drop.json")
    b = sinew.read_scene(source_dir / "scenes" / "drop.json")
    assert a.name == b.name and a.steps == b.steps
    assert json.loads(text)["name"] == a.name
