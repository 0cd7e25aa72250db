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

/// One frame of a .pvd series: its time and its VTU file, relative to the .pvd.
struct PvdEntry {
  double time = 0.0;  ///< simulated time (s)
  std::string file;   ///< e.g. "bar_000120.vtu"
};

/// A ParaView collection (.pvd) of frames in time order, rewritten (atomically) after each
/// added frame so that an interrupted run leaves a valid series of the frames written so far.
/// Frame files are named by step, `<stem>_<step>.vtu` (6 digits or more), as sinew's other
/// outputs are, so that a frame, a snapshot and a checkpoint of one step share its number.
class PvdSeries {
 public:
  /// A series written to @p path (e.g. out/vtu/bar.pvd); frame files go next to it. @p earlier:
  /// frames already written that the series starts with (a resumed run continuing a series).
  explicit PvdSeries(std::filesystem::path path, std::vector<PvdEntry> earlier = {});
  /// The frame file name add() writes for step @p step, relative to the .pvd.
  std::string frame_file(long step) const;
  /// Writes @p frame as frame_file(step) beside the .pvd and adds it at @p time; a frame of the
  /// same step as the last one replaces it (a resumed run rewriting its first frame).
  /// @throws sinew::Error when time is not finite or not after the previous frame's, or as
  ///         write_vtu() does.
  void add(double time, long step, const VtuFrame& frame);
  /// Number of frames in the series.
  std::size_t size() const { return entries_.size(); }
  /// The frames in the series, in time order.
  const std::vector<PvdEntry>& entries() const { return entries_; }

 private:
  std::filesystem::path path_;
  std::vector<PvdEntry> entries_;
};

/// The frames listed by the .pvd collection at @p path (as PvdSeries writes them).
/// @throws sinew::Error naming the file (and line) when it cannot be read or a frame's entry is
///         not as PvdSeries writes it.
std::vector<PvdEntry> read_pvd(const std::filesystem::path& path);

}  // namespace sinew::scene
