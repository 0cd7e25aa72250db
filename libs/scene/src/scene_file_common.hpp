// Readers shared by the kinds of scene file (scene_file_kinds.hpp): vectors, rotations, mesh
// sources (procedural or from a file), vertex selections and obstacle shapes. Every reader takes
// the JsonObject that holds the value (so errors name the file and the JSON path) and calls
// finish() on the objects it opens itself. docs/scene_files.md documents each form.
// Private to the scene library.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "json_fields.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/shape.hpp"
#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene::detail {

/// The 3-vector at @p key (an array of 3 finite numbers); @p fallback when absent.
Vec3 read_vec3(JsonObject& obj, const std::string& key, std::optional<Vec3> fallback);

/// The rotation at @p key: {"axis": [x, y, z], "degrees": a} (right-handed about the axis, which
/// need not be unit but not zero) or {"matrix": [9 numbers, row-major]} (orthonormal, det +1 to
/// 1e-9); the identity when absent.
Mat3 read_rotation(JsonObject& obj, const std::string& key);

/// A body's mesh: tetrahedra (solids) or triangles (membranes), never both.
struct MeshSource {
  TetMesh tets;            ///< solids: vertices and positively oriented tets (empty for a membrane)
  TriangleMesh triangles;  ///< membranes: vertices and triangles (empty for a solid)
  bool membrane = false;   ///< true: the mesh is `triangles`
  std::string file;        ///< the mesh file it was read from ("" for procedural meshes)
  Index first_number = 0;  ///< the file's number of vertex 0 (1 in OBJ files), for messages
  /// The mesh's vertices, whichever kind it is.
  const std::vector<Vec3>& vertices() const { return membrane ? triangles.vertices : tets.vertices; }
};

/// The mesh source at @p key: {"box": {"min", "max", "cells": [nx, ny, nz]}},
/// {"ball": {"centre", "radius", "n"}}, {"rectangle": {"min": [x, y], "max": [x, y], "z",
/// "cells": [nx, ny]}} (a membrane), {"file": PATH, "scale", "translate"} (PATH relative to
/// @p base_dir; .msh Gmsh, .node TetGen, .obj a membrane) or {"vertices": [[x, y, z], ...],
/// "triangles": [[i, j, k], ...]} (a membrane written in the file, 0-based indices) or
/// {"vertices": [...], "tets": [[i, j, k, l], ...]} (a solid written in the file). Checks every vertex is finite and
/// every tet positively oriented (det[x1-x0, x2-x0, x3-x0] > 1e-14 |Dm|^3), naming @p key and the
/// element. @p allow_membrane / @p allow_solid: which kinds the caller accepts.
MeshSource read_mesh_source(JsonObject& obj, const std::string& key, const std::filesystem::path& base_dir,
                            bool allow_solid = true, bool allow_membrane = true);

/// What a vertex selection can refer to: a body's rest vertices and its boundary vertices.
struct SelectionContext {
  const std::vector<Vec3>* vertices = nullptr;  ///< (n) rest positions of the body
  std::vector<Index> surface;                   ///< ascending boundary vertices (all of them for a membrane)
};

/// The vertices of the selection at @p key, ascending and distinct, local to the body: one of
/// {"all": true}, {"surface": true}, {"indices": [i, ...]} (each in [0, n)),
/// {"box": {"min", "max"}} (vertices in the closed box), {"sphere": {"centre", "radius"}}
/// (closed ball); "box" and "sphere" may add "surface_only": true.
/// @throws sinew::Error naming the path when the selection is empty or an index is out of range.
std::vector<Index> read_selection(JsonObject& obj, const std::string& key, const SelectionContext& context);

/// The vertices of the ordered selection at @p key (a chain, e.g. a cable's route):
/// {"indices": [...]} in the given order, {"segment": {"from", "to", "tolerance"}} or
/// {"polyline": [x0, y0, z0, x1, y1, z1, ...], "tolerance": t}: the vertices within t (default
/// 1e-6 m) of the segment or polyline, ordered by arc length along it.
/// @throws sinew::Error naming the path when fewer than 2 vertices are selected or an index is
///         out of range.
std::vector<Index> read_chain(JsonObject& obj, const std::string& key, const SelectionContext& context);

/// The element regions at "regions" of @p obj (a solid from a mesh file): an array of objects,
/// each naming a region of @p mesh by "region" (an integer, or the name of a Gmsh physical group
/// of volumes, TetMesh::region_names), whose other keys (its material) @p read_entry reads, in
/// order, before the entry is finished. Returns (mesh.tets.size()) 0 for the tets of no listed
/// region and k + 1 for those of entry k. @throws sinew::Error naming the path when a region is
/// not in the mesh (listing those it has) or is listed twice.
std::vector<Index> read_element_regions(JsonObject& obj, const TetMesh& mesh,
                                        const std::function<void(JsonObject&)>& read_entry);

/// An analytic shape and its placement, from one object holding "shape" and the shape's sizes:
/// "half_space" ("normal", "point": local z <= 0 rotated onto the normal, as
/// half_space_obstacle()), "sphere" ("radius"), "box" ("half_extents"), "cylinder"
/// and "capsule" ("radius", "half_length" along the local z axis); the others placed by
/// "position" and "rotation" (read_rotation()).
struct PlacedShape {
  Shape shape{ShapeType::kHalfSpace, {0.0, 0.0, 0.0}};  ///< the shape in its local frame
  Pose pose = identity_pose();                          ///< its placement
};

/// Reads the shape keys of @p obj (see PlacedShape); the caller reads the other keys and finishes.
PlacedShape read_placed_shape(JsonObject& obj);

/// A triangle-mesh obstacle from @p obj: "mesh" (read_mesh_source(), a membrane: an .obj "file" or
/// inline "vertices" and "triangles") placed by "position" and "rotation"; a closed mesh touched by
/// its exact signed distance, or by a signed-distance grid sampled from it ("distance": "grid",
/// "cell_size", "padding"); with "open": true any mesh, a sheet touched from either side ("exact"
/// only). Its motion and friction are left at zero: the caller reads the other keys and finishes.
/// @throws sinew::Error naming the key: a mesh that is not closed (without "open"), a grid of an
/// open mesh, a bad cell size or padding.
Obstacle read_mesh_obstacle(JsonObject& obj, const std::filesystem::path& base_dir);

}  // namespace sinew::scene::detail
