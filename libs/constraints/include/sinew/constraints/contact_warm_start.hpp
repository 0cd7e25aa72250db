/// @file
/// @brief The warm start of frictional contact across steps: a contact found again starts from
/// its previous impulse, re-expressed in its new frame through world coordinates (the frames
/// turn as the bodies move, so copying the three components would rotate the impulse).
#pragma once

#include <array>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::constraints {

/// A contact's identity across steps and its frame in one step.
struct KeyedContactFrame {
  /// Identity, compared lexicographically: the same for the same pair of features in two steps
  /// (the local-global contacts use (vertex, obstacle or triangle or edge, edge's second vertex)).
  std::array<Index, 3> key;
  Vec3 frame[3];  ///< n, t1, t2 in world coordinates
};

/// Fills @p r0 (3 next.size()): for each contact of @p next also in @p prev (same key), the
/// world impulse sum_i r_prev[3 p + i] prev[p].frame[i] projected on its new frame; 0 for a new
/// contact. Both lists are sorted by key, ascending and without repeats; @p r_prev has 3
/// prev.size() entries. Linear in the two sizes.
void carry_contact_impulses(const std::vector<KeyedContactFrame>& prev, const std::vector<double>& r_prev,
                            const std::vector<KeyedContactFrame>& next, double* r0);

}  // namespace sinew::constraints
