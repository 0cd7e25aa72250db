#include "sinew/collision/sheet_sides.hpp"

#include <algorithm>

namespace sinew {

void SheetSides::begin_pass() {
  // std::sort, not stable_sort, which may allocate a buffer; keys are unique within a pass (and
  // the sort is deterministic anyway).
  std::sort(current_.begin(), current_.end(),
            [](const std::pair<Key, Vec3>& a, const std::pair<Key, Vec3>& b) { return a.first < b.first; });
  last_.swap(current_);
  current_.clear();
}

SignedDistance SheetSides::orient(const Key& key, const SignedDistance& raw) const {
  const auto it = std::lower_bound(last_.begin(), last_.end(), key,
                                   [](const std::pair<Key, Vec3>& a, const Key& k) { return a.first < k; });
  const bool remembered = it != last_.end() && it->first == key;
  const double side =
      remembered ? (dot(it->second, raw.normal) >= 0.0 ? 1.0 : -1.0) : (raw.distance >= 0.0 ? 1.0 : -1.0);
  return SignedDistance{side * raw.distance, v3::scale(side, raw.normal), raw.closest};
}

}  // namespace sinew
