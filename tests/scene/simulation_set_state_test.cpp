// Simulation states written from outside (what the Python bindings' set_state() calls): read back
// exactly, stepped on from there with the physics of the new state, refused whole when invalid.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "sinew/core/serial_backend.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::scene_simulation_set_state_test {
namespace {

const std::string kScenes = SINEW_TEST_SOURCE "/../scenes";

TEST(SimulationSetState, MultibodyStateIsReplacedAndSteppedFrom) {
  const std::unique_ptr<Backend> backend = make_serial_backend();
  const SceneFile file = read_scene_file(kScenes + "/drop.json");  // one free cube, gravity -9.81 z
  std::unique_ptr<Simulation> sim = file.make(*backend);
  auto& mb = dynamic_cast<MultibodySimulation&>(*sim);
  ASSERT_NE(mb.contact_step(), nullptr);
  Eigen::VectorXd q = mb.state().q, u = Eigen::VectorXd::Zero(mb.state().u.size());
  q[0] = 1.5;  // moved along x, at rest
  mb.set_state(q, u);
  EXPECT_EQ(mb.state().q, q);
  EXPECT_EQ(mb.velocities(), u);
  ASSERT_TRUE(sim->step().ok());
  const double h = sim->time_step();
  EXPECT_NEAR(mb.velocities()[2], -9.81 * h, 1e-12);  // free fall from rest
  EXPECT_NEAR(mb.velocities()[0], 0.0, 1e-15);
  EXPECT_NEAR(mb.state().q[0], 1.5, 1e-15);
}

TEST(SimulationSetState, MultibodyRefusesBadStatesWhole) {
  const std::unique_ptr<Backend> backend = make_serial_backend();
  std::unique_ptr<Simulation> sim = read_scene_file(kScenes + "/drop.json").make(*backend);
  auto& mb = dynamic_cast<MultibodySimulation&>(*sim);
  const Eigen::VectorXd q0 = mb.state().q, u0 = mb.state().u;
  EXPECT_SINEW_ERROR(mb.set_state(q0.head(3), u0), "q has 3 entries, expected 7");
  EXPECT_SINEW_ERROR(mb.set_state(q0, Eigen::VectorXd::Zero(2)), "u has 2 entries, expected 6");
  Eigen::VectorXd q = q0;
  q[3] = 2.0;  // quaternion (2, 0, 0, 0): not unit
  EXPECT_SINEW_ERROR(mb.set_state(q, u0), "body 0");
  q = q0;
  q[1] = std::nan("");
  EXPECT_SINEW_ERROR(mb.set_state(q, u0), "not finite");
  EXPECT_EQ(mb.state().q, q0);
  EXPECT_EQ(mb.state().u, u0);
}

TEST(SimulationSetState, LocalGlobalStateIsReplaced) {
  const std::unique_ptr<Backend> backend = make_serial_backend();
  std::unique_ptr<Simulation> sim = read_scene_file(kScenes + "/slope.json").make(*backend);
  auto& lg = dynamic_cast<LocalGlobalSimulation&>(*sim);
  std::vector<double> x = lg.integrator().positions(), v(x.size(), 0.0);
  for (std::size_t i = 0; i < x.size(); i += 3) {
    x[i] += 0.25;  // shifted along x
    v[i + 1] = 0.5;
  }
  lg.set_state(x, v);
  EXPECT_EQ(lg.integrator().positions(), x);
  EXPECT_EQ(lg.integrator().velocities(), v);
  EXPECT_SINEW_ERROR(lg.set_state(std::vector<double>(3), v), "3 n_vertices");
  EXPECT_EQ(lg.integrator().positions(), x);
}

}  // namespace
}  // namespace sinew::scene::scene_simulation_set_state_test
