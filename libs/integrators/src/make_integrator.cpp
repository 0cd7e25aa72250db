#include "sinew/integrators/make_integrator.hpp"

#include <functional>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/integrators/bridson_marino.hpp"
#include "sinew/integrators/compliant_alpha_beta.hpp"
#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/integrators/runge_kutta4.hpp"
#include "sinew/integrators/symplectic_euler.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "sinew/integrators/trapezoidal.hpp"

namespace sinew::integrators {

namespace {

using Maker = std::function<std::unique_ptr<Integrator>()>;

// The one list of integrator names.
const std::vector<std::pair<std::string, Maker>>& table() {
  static const std::vector<std::pair<std::string, Maker>> entries = {
      {"symplectic_euler", [] { return std::make_unique<SymplecticEuler>(); }},
      {"implicit_euler", [] { return std::make_unique<ImplicitEuler>(); }},
      {"trapezoidal", [] { return std::make_unique<Trapezoidal>(); }},
      {"bridson_marino", [] { return std::make_unique<BridsonMarino>(); }},
      {"theta_explicit_euler",
       [] { return std::make_unique<ThetaMethod>(ThetaOptions::preset(ThetaPreset::kExplicitEuler)); }},
      {"theta_symplectic_euler",
       [] { return std::make_unique<ThetaMethod>(ThetaOptions::preset(ThetaPreset::kSymplecticEuler)); }},
      {"theta_implicit_euler",
       [] { return std::make_unique<ThetaMethod>(ThetaOptions::preset(ThetaPreset::kImplicitEuler)); }},
      {"theta_midpoint",
       [] { return std::make_unique<ThetaMethod>(ThetaOptions::preset(ThetaPreset::kSymplecticMidpoint)); }},
      {"compliant_alpha_beta", [] { return std::make_unique<CompliantAlphaBeta>(); }},
      {"runge_kutta4", [] { return std::make_unique<RungeKutta4>(); }},
  };
  return entries;
}

}  // namespace

std::vector<std::string> integrator_names() {
  std::vector<std::string> names;
  for (const auto& entry : table()) names.push_back(entry.first);
  return names;
}

std::unique_ptr<Integrator> make_integrator(const std::string& name) {
  for (const auto& entry : table())
    if (entry.first == name) return entry.second();
  std::string known;
  for (const auto& entry : table()) known += (known.empty() ? "" : ", ") + entry.first;
  throw Error("make_integrator: unknown integrator '" + name + "'; known integrators: " + known);
}

}  // namespace sinew::integrators
