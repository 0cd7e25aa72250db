/// @file
/// @brief The integrator factory: every integrator of the library by name, in one list.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/integrators/integrator.hpp"

namespace sinew::integrators {

/// Names make_integrator() accepts, in the order of the factory's table.
std::vector<std::string> integrator_names();

/// A new integrator with default options: "symplectic_euler", "implicit_euler", "trapezoidal",
/// "bridson_marino", "theta_explicit_euler", "theta_symplectic_euler", "theta_implicit_euler",
/// "theta_midpoint", "compliant_alpha_beta". Throws sinew::Error listing these for any other name.
std::unique_ptr<Integrator> make_integrator(const std::string& name);

}  // namespace sinew::integrators
