/// @file
/// @brief VTK XML output that ParaView opens: one UnstructuredGrid `.vtu` per frame (points,
/// tetrahedra and/or triangles, point and cell fields) and a `.pvd` collection that orders the
/// frames in time. Files are written atomically, so a viewer never reads a half-written frame.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"

namespace sinew::scene {

/// A named field on the points or the cells of a VtuFrame: values.size() = components * count.
struct VtuField {
  std::string name;            ///< shown in ParaView, e.g. "velocity"; letters, digits, '_' and '-' only
  int components = 1;          ///< 1 (scalar), 3 (vector) or 9 (3x3 tensor, row-major)
  std::vector<double> values;  ///< (components * count) values, item-major
};

/// One frame of a mesh: positions, elements and fields.
struct VtuFrame {
  std::vector<double> points;                   ///< (3 n_points) interleaved x y z
  std::vector<std::array<Index, 4>> tets;       ///< tetrahedra (VTK_TETRA), written first
  std::vector<std::array<Index, 3>> triangles;  ///< triangles (VTK_TRIANGLE), after the tets
  std::vector<VtuField> point_fields;           ///< one value group per point
  std::vector<VtuField> cell_fields;            ///< one value group per cell (tets, then triangles)
};

/// Writes @p frame to @p path as a VTK XML UnstructuredGrid (ASCII, full double precision).
/// @throws sinew::Error naming the path and the problem (a field of the wrong size, a cell
///         index out of range, a non-finite value, a bad name) before anything is written, or
///         when the file cannot be written (then nothing is left behind).
void write_vtu(const VtuFrame& frame, const std::filesystem::path& path);

/// A ParaView collection (.pvd) of frames in time order, rewritten (atomically) after each
/// added frame so that an interrupted run leaves a valid series of the frames written so far.
class PvdSeries {
 public:
  /// A series written to @p path (e.g. out/run.pvd); frame files go next to it.
  explicit PvdSeries(std::filesystem::path path);
  /// Writes @p frame as `<stem>_<index>.vtu` beside the .pvd and adds it at @p time.
  /// @throws sinew::Error when time is not finite or not after the previous frame's, or as
  ///         write_vtu() does.
  void add(double time, const VtuFrame& frame);
  /// Number of frames added.
  std::size_t size() const { return entries_.size(); }

 private:
  std::filesystem::path path_;
  std::vector<std::pair<double, std::string>> entries_;  // time, frame file name relative to the .pvd
};

}  // namespace sinew::scene
