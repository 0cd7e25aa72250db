#include "sinew/materials/axial_stress_spring.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

void validate(const GreenStrainAxialStress& law) {
  require(std::isfinite(law.stiffness) && law.stiffness >= 0.0,
          "green-strain spring: stiffness must be finite and >= 0 (N/m), got " + number_text(law.stiffness));
  require(std::isfinite(law.rest_length) && law.rest_length > 0.0,
          "green-strain spring: rest_length must be finite and > 0 (m), got " + number_text(law.rest_length));
}

}  // namespace sinew
