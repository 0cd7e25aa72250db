#!/usr/bin/env python3
"""Checks VTK XML files as ParaView reads them: well-formed XML, an UnstructuredGrid whose
DataArrays hold exactly the counts the Piece declares, connectivity inside the points, offsets
increasing, known cell types; a .pvd's DataSets in increasing time, each a valid .vtu. If the
`vtk` Python module is installed, each .vtu is also read by vtkXMLUnstructuredGridReader.

usage: validate_vtk.py FILE.vtu|FILE.pvd ...    exit 0 when all are valid, 1 otherwise."""
import os
import sys
import xml.etree.ElementTree as ET

CELL_POINTS = {5: 3, 10: 4}  # VTK_TRIANGLE, VTK_TETRA


def fail(path, message):
    raise ValueError(f"{path}: {message}")


def values(array):
    return (array.text or "").split()


def check_vtu(path):
    root = ET.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "UnstructuredGrid":
        fail(path, "not a VTKFile of type UnstructuredGrid")
    pieces = root.findall("./UnstructuredGrid/Piece")
    if len(pieces) != 1:
        fail(path, f"expected one Piece, found {len(pieces)}")
    piece = pieces[0]
    n, cells = int(piece.get("NumberOfPoints")), int(piece.get("NumberOfCells"))
    pts = piece.find("./Points/DataArray")
    if pts is None or len(values(pts)) != 3 * n:
        fail(path, f"Points must hold 3 x {n} values")
    for kind, count in (("PointData", n), ("CellData", cells)):
        for a in piece.findall(f"./{kind}/DataArray"):
            k = int(a.get("NumberOfComponents", "1"))
            if len(values(a)) != k * count:
                fail(path, f"{kind} '{a.get('Name')}' holds {len(values(a))} values, expected {k * count}")
            [float(v) for v in values(a)]
    arrays = {a.get("Name"): values(a) for a in piece.findall("./Cells/DataArray")}
    conn = [int(v) for v in arrays.get("connectivity", [])]
    offsets = [int(v) for v in arrays.get("offsets", [])]
    types = [int(v) for v in arrays.get("types", [])]
    if len(offsets) != cells or len(types) != cells:
        fail(path, f"offsets/types must have {cells} entries")
    previous = 0
    for c, (o, t) in enumerate(zip(offsets, types)):
        if t not in CELL_POINTS or o - previous != CELL_POINTS[t]:
            fail(path, f"cell {c}: type {t} with {o - previous} points")
        previous = o
    if previous != len(conn) or any(v < 0 or v >= n for v in conn):
        fail(path, "connectivity does not match the offsets or leaves the points")
    try:
        import vtk  # optional: the reader ParaView itself uses
    except ImportError:
        return
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid.GetNumberOfPoints() != n or grid.GetNumberOfCells() != cells:
        fail(path, "vtkXMLUnstructuredGridReader disagrees on the counts")


def check_pvd(path):
    root = ET.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        fail(path, "not a VTKFile of type Collection")
    times = []
    for d in root.findall("./Collection/DataSet"):
        times.append(float(d.get("timestep")))
        check_vtu(os.path.join(os.path.dirname(path), d.get("file")))
    if not times or times != sorted(times) or len(set(times)) != len(times):
        fail(path, f"DataSet times must be increasing, found {times}")


def main(paths):
    ok = True
    for p in paths:
        try:
            (check_pvd if p.endswith(".pvd") else check_vtu)(p)
            print(f"valid: {p}")
        except (ValueError, ET.ParseError, OSError, TypeError) as e:
            print(f"INVALID: {e}", file=sys.stderr)
            ok = False
    return 0 if ok and paths else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
