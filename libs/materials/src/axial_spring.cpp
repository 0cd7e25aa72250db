#include "sinew/materials/axial_spring.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

void validate(const LinearAxialSpring& spring) {
  require(std::isfinite(spring.stiffness) && spring.stiffness >= 0.0,
          "axial spring: stiffness must be finite and >= 0 (N/m), got " + number_text(spring.stiffness));
  require(std::isfinite(spring.damping) && spring.damping >= 0.0,
          "axial spring: damping must be finite and >= 0 (N s/m), got " + number_text(spring.damping));
  require(std::isfinite(spring.rest_length) && spring.rest_length >= 0.0,
          "axial spring: rest_length must be finite and >= 0 (m), got " + number_text(spring.rest_length));
}

}  // namespace sinew
