// Shared helpers of the integrator tests: running a fixed number of steps, fitting an order of
// accuracy, RK4 references.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "sinew/integrators/integrator.hpp"

namespace sinew::integrators::testing {

// Runs `steps` steps of size h; every step must converge (the test fails with the report's
// message otherwise). `each` is called after every step.
inline void run_steps(Integrator& integrator, const model::DynamicalSystem& system, State& state, double h, int steps,
                      const std::function<void(const State&)>& each = {}) {
  for (int i = 0; i < steps; ++i) {
    const StepReport report = integrator.step(system, state, h);
    ASSERT_TRUE(report.ok()) << "step " << i << ": " << report.message;
    if (each) each(state);
  }
}

// Least-squares slope of log(error) against log(h): the measured order of accuracy.
inline double fitted_order(const std::vector<double>& h, const std::vector<double>& error) {
  const double n = static_cast<double>(h.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(error[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// Classical RK4 on y' = rate(y) from 0 to T in `steps` steps.
template <class Vec, class Rate>
Vec rk4(Vec y, double T, int steps, const Rate& rate) {
  const double h = T / steps;
  for (int i = 0; i < steps; ++i) {
    const Vec k1 = rate(y);
    const Vec k2 = rate(Vec(y + 0.5 * h * k1));
    const Vec k3 = rate(Vec(y + 0.5 * h * k2));
    const Vec k4 = rate(Vec(y + h * k3));
    y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return y;
}

}  // namespace sinew::integrators::testing
