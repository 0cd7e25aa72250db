#include "sinew/materials/elastic_parameters.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

LameParameters lame_parameters(const ElasticParameters& p) {
  const double E = p.youngs_modulus, nu = p.poisson_ratio;
  require(std::isfinite(E) && E > 0.0,
          "elastic parameters: youngs_modulus must be finite and > 0 (Pa), got " + number_text(E));
  require(std::isfinite(nu) && nu > -1.0 && nu < 0.5,
          "elastic parameters: poisson_ratio must lie in (-1, 0.5), got " + number_text(nu));
  LameParameters lame;
  lame.mu = E / (2.0 * (1.0 + nu));
  lame.lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  return lame;
}

double youngs_modulus(const LameParameters& p) { return p.mu * (3.0 * p.lambda + 2.0 * p.mu) / (p.lambda + p.mu); }

double poisson_ratio(const LameParameters& p) { return p.lambda / (2.0 * (p.lambda + p.mu)); }

}  // namespace sinew
