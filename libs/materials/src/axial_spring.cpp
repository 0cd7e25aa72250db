#include "sinew/materials/axial_spring.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"

namespace sinew {

void validate(const LinearAxialSpring& spring) {
  require(std::isfinite(spring.stiffness) && spring.stiffness >= 0.0,
          "axial spring: stiffness must be finite and >= 0 (N/m), got " + std::to_string(spring.stiffness));
  require(std::isfinite(spring.damping) && spring.damping >= 0.0,
          "axial spring: damping must be finite and >= 0 (N s/m), got " + std::to_string(spring.damping));
  require(std::isfinite(spring.rest_length) && spring.rest_length >= 0.0,
          "axial spring: rest_length must be finite and >= 0 (m), got " + std::to_string(spring.rest_length));
}

}  // namespace sinew
