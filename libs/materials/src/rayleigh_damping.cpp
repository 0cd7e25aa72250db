#include "sinew/materials/rayleigh_damping.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

void validate(const RayleighDamping& damping) {
  require(std::isfinite(damping.mass_coefficient) && damping.mass_coefficient >= 0.0,
          "rayleigh damping: mass_coefficient (alpha, 1/s) must be finite and >= 0, got " +
              number_text(damping.mass_coefficient));
  require(std::isfinite(damping.stiffness_coefficient) && damping.stiffness_coefficient >= 0.0,
          "rayleigh damping: stiffness_coefficient (beta, s) must be finite and >= 0, got " +
              number_text(damping.stiffness_coefficient));
}

}  // namespace sinew
