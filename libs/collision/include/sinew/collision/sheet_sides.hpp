/// @file
/// @brief SheetSides: which side of a two-sided sheet obstacle (MeshSides::kTwoSided) each contact
/// point keeps from one detection pass to the next.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "sinew/collision/point_shape.hpp"

namespace sinew {

/// The side of a sheet each point touched it from in the last detection pass. A sheet's signed
/// distance tells the side of its faces, not inside or outside, so a point a little behind it
/// after an inexact step would read as having crossed; a point that touched it in the last pass
/// keeps that side (is pushed back, not through), any other point the side it is on. The same
/// rule as the local-global contact's (LocalGlobalContactSolver::sheet_side()). Kept between
/// passes: after the first passes, a pass allocates nothing while the number of contacts does not
/// grow.
class SheetSides {
 public:
  /// A contact point's key, unique within a pass: (obstacle, then what the caller uses to name
  /// the point, e.g. a kind and two indices).
  using Key = std::array<Index, 4>;

  /// Starts a pass: the contacts recorded since the last begin_pass() become the ones looked up.
  void begin_pass();
  /// @p raw, the sheet's signed distance at the point (signed by its faces' side), turned to the
  /// point's side: that of its contact in the last pass when it had one (the side of that
  /// contact's normal), else the side it is on (distance >= 0: the faces' front).
  SignedDistance orient(const Key& key, const SignedDistance& raw) const;
  /// Records that the point @p key touched the sheet with the unit normal @p normal in this pass.
  void record(const Key& key, const Vec3& normal) { current_.emplace_back(key, normal); }

 private:
  std::vector<std::pair<Key, Vec3>> last_;     // the last pass's contacts, sorted by key
  std::vector<std::pair<Key, Vec3>> current_;  // this pass's, in the order recorded
};

}  // namespace sinew
