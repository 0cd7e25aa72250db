#include "sinew/materials/frame_spring.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

void require_nonnegative(double value, const char* name, const char* unit) {
  require(std::isfinite(value) && value >= 0.0,
          std::string("frame spring: ") + name + " must be finite and >= 0 (" + unit + "), got " + number_text(value));
}

}  // namespace

void validate(const FrameSpring& spring) {
  require_nonnegative(spring.translational_stiffness, "translational_stiffness", "N/m");
  require_nonnegative(spring.rotational_stiffness, "rotational_stiffness", "N m/rad");
  require_nonnegative(spring.translational_damping, "translational_damping", "N s/m");
  require_nonnegative(spring.rotational_damping, "rotational_damping", "N m s/rad");
}

}  // namespace sinew
