"""sinew from Python: scene files and simulations, Krylov and contact solvers on numpy / scipy arrays.

Everything but the two scene helpers below is defined in the compiled module ``sinew._sinew``;
see docs/python.md.
"""
import json as _json

import numpy as _np

from ._sinew import *  # noqa: F401,F403
from ._sinew import Error, parse_scene

__version__ = "0.1.0"


def mesh(vertices, tets=None, triangles=None):
    """A scene file's mesh source from numpy arrays: vertices (n x 3) with tets (n_tets x 4) for a
    solid or triangles (n_tri x 3) for a membrane (0-based indices), e.g. a deformable body's "mesh"."""
    if (tets is None) == (triangles is None):
        raise Error("mesh: give tets (a solid) or triangles (a membrane), not both or neither")
    out = {"vertices": _np.asarray(vertices, dtype=float)}
    if out["vertices"].ndim != 2 or out["vertices"].shape[1] != 3:
        raise Error(f"mesh: vertices has shape {out['vertices'].shape}, expected (n, 3)")
    key, width = ("tets", 4) if tets is not None else ("triangles", 3)
    cells = _np.asarray(tets if tets is not None else triangles)
    if cells.ndim != 2 or cells.shape[1] != width or not _np.issubdtype(cells.dtype, _np.integer):
        raise Error(f"mesh: {key} has shape {cells.shape} and type {cells.dtype}, expected integers (n, {width})")
    out[key] = cells
    return out


def _json_default(value):
    if isinstance(value, _np.ndarray):
        return value.tolist()
    if isinstance(value, _np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def scene_from_dict(scene, name="scene.json", base_dir="."):
    """A Scene from a dict in the scene-file format (docs/scene_files.md) that may hold numpy arrays
    (e.g. a body's mesh from sinew.mesh()); checked as a scene file is, naming `name` in messages.
    Coordinates pass through JSON as shortest round-trip text, so they arrive bit for bit."""
    return parse_scene(_json.dumps(scene, default=_json_default), name, str(base_dir))


__all__ = [n for n in dir() if not n.startswith("_") and n != "Error"] + ["Error"]
