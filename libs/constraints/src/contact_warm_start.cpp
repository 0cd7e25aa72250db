// carry_contact_impulses: a merge of two key-sorted lists (contact_warm_start.hpp).
#include "sinew/constraints/contact_warm_start.hpp"

#include <cstddef>
#include <string>

#include "sinew/core/error.hpp"

namespace sinew::constraints {

void carry_contact_impulses(const std::vector<KeyedContactFrame>& prev, const std::vector<double>& r_prev,
                            const std::vector<KeyedContactFrame>& next, double* r0) {
  require(r_prev.size() == 3 * prev.size(), [&] {
    return "carry_contact_impulses: r_prev must have 3 entries per previous contact (" +
           std::to_string(3 * prev.size()) + "), got " + std::to_string(r_prev.size());
  });
  std::size_t p = 0;
  for (std::size_t j = 0; j < next.size(); ++j) {
    const KeyedContactFrame& c = next[j];
    while (p < prev.size() && prev[p].key < c.key) ++p;
    if (p == prev.size() || c.key < prev[p].key) {
      for (int i = 0; i < 3; ++i) r0[3 * j + i] = 0.0;
      continue;
    }
    Vec3 world{{0.0, 0.0, 0.0}};
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) world[k] = world[k] + r_prev[3 * p + i] * prev[p].frame[i][k];
    for (int i = 0; i < 3; ++i) r0[3 * j + i] = dot(c.frame[i], world);
  }
}

}  // namespace sinew::constraints
