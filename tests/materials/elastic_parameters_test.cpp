#include "sinew/materials/elastic_parameters.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "expect_error.hpp"

namespace sinew::materials_elastic_parameters_test {
namespace {

TEST(ElasticParameters, LameParametersOfSteelLikeMaterial) {
  // E = 200 GPa, nu = 0.25: mu = E / 2.5 = 80 GPa, lambda = E * 0.25 / (1.25 * 0.5) = 80 GPa.
  const LameParameters p = lame_parameters({200e9, 0.25});
  EXPECT_NEAR(p.mu, 80e9, 1e-3);
  EXPECT_NEAR(p.lambda, 80e9, 1e-3);
}

TEST(ElasticParameters, RoundTripThroughLameParameters) {
  for (double nu : {-0.9, -0.3, 0.0, 0.3, 0.45, 0.499}) {
    const LameParameters p = lame_parameters({3.5e5, nu});
    EXPECT_NEAR(youngs_modulus(p), 3.5e5, 1e-9 * 3.5e5) << "nu = " << nu;
    EXPECT_NEAR(poisson_ratio(p), nu, 1e-12) << "nu = " << nu;
  }
}

TEST(ElasticParameters, RejectsOutOfRangeValues) {
  EXPECT_SINEW_ERROR(lame_parameters({0.0, 0.3}), "youngs_modulus", "> 0");
  EXPECT_SINEW_ERROR(lame_parameters({-1.0, 0.3}), "youngs_modulus");
  EXPECT_SINEW_ERROR(lame_parameters({std::numeric_limits<double>::infinity(), 0.3}), "youngs_modulus");
  EXPECT_SINEW_ERROR(lame_parameters({1e6, 0.5}), "poisson_ratio", "(-1, 0.5)");
  EXPECT_SINEW_ERROR(lame_parameters({1e6, -1.0}), "poisson_ratio");
  EXPECT_SINEW_ERROR(lame_parameters({1e6, std::numeric_limits<double>::quiet_NaN()}), "poisson_ratio");
}

}  // namespace
}  // namespace sinew::materials_elastic_parameters_test
