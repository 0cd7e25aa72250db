#include "sinew/materials/axial_stress_spring.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"

namespace sinew {

void validate(const GreenStrainAxialStress& law) {
  require(std::isfinite(law.stiffness) && law.stiffness >= 0.0,
          "green-strain spring: stiffness must be finite and >= 0 (N/m), got " + std::to_string(law.stiffness));
  require(std::isfinite(law.rest_length) && law.rest_length > 0.0,
          "green-strain spring: rest_length must be finite and > 0 (m), got " + std::to_string(law.rest_length));
}

}  // namespace sinew
