/// @file
/// @brief Mesh files: TetGen `.node` / `.ele` / `.face`, Gmsh `.msh` 4.1 (ASCII and binary) and
/// Wavefront OBJ surfaces, read into the procedural meshes' types, and OBJ written atomically.
///
/// Every reader checks what it reads and throws sinew::Error naming the file, the line (the
/// byte offset in binary files) and what was expected: truncated or garbled files, counts that
/// the file cannot hold (checked before anything is allocated, so an enormous count is an error,
/// not an allocation), non-finite coordinates, indices out of range, and zero-volume or inverted
/// tetrahedra (det[x1 - x0, x2 - x0, x3 - x0] <= 0: TetGen and Gmsh both write positive ones).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {

/// Reads @p base.node and @p base.ele (TetGen's formats: a header line with counts, one numbered
/// line per node / element, `#` comments, 0- or 1-based numbering as the first index says,
/// node attributes and boundary markers ignored; 4-node elements only). An element's region
/// attribute (`.ele` header with 1 attribute, TetGen -A), an integer, is its region
/// (TetMesh::regions).
/// @throws sinew::Error naming the file and line on any malformed or inconsistent input.
TetMesh read_tetgen(const std::filesystem::path& base);

/// Reads @p base.node and @p base.face (the boundary triangles TetGen writes with -f or by
/// default), with the numbering of the .node file.
/// @throws sinew::Error naming the file and line on any malformed or inconsistent input.
TriangleMesh read_tetgen_faces(const std::filesystem::path& base);

/// Reads the 4-node tetrahedra (element type 4) of a Gmsh MSH 4.1 file, ASCII or binary (either
/// byte order), with the nodes they use in the order of the $Nodes section; other element types
/// of dimension < 3 (points, lines, triangles) are skipped, higher-order or other volume
/// elements are an error. Each tetrahedron's region (TetMesh::regions) is the first physical
/// group of its volume in $Entities, else the volume's entity tag; the names of volume physical
/// groups ($PhysicalNames, dimension 3) are TetMesh::region_names.
/// @throws sinew::Error naming the file and the line (ASCII) or byte offset (binary).
TetMesh read_gmsh(const std::filesystem::path& path);

/// Reads the triangles of a Wavefront OBJ file: `v x y z` and `f` lines (indices 1-based or
/// negative-relative, `v/vt/vn` forms; polygons split into fans); other statements ignored.
/// @throws sinew::Error naming the file and line on any malformed or inconsistent input.
TriangleMesh read_obj(const std::filesystem::path& path);

/// read_tetgen() of texts already in memory: @p node and @p ele are the files' contents, @p name
/// (e.g. the base path) prefixes the error messages.
TetMesh parse_tetgen(std::string_view node, std::string_view ele, const std::string& name);

/// read_gmsh() of a file's bytes in memory; @p name prefixes the error messages.
TetMesh parse_gmsh(std::string_view bytes, const std::string& name);

/// read_obj() of a file's text in memory; @p name prefixes the error messages.
TriangleMesh parse_obj(std::string_view text, const std::string& name);

/// Writes @p mesh as a Wavefront OBJ file (`v` and 1-based `f` lines, full double precision),
/// atomically: to a temporary in the same folder, then renamed.
/// @throws sinew::Error naming the file when it cannot be written (nothing is left behind).
void write_obj(const TriangleMesh& mesh, const std::filesystem::path& path);

}  // namespace sinew::scene
