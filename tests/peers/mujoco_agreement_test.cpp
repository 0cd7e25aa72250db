// sinew's KinematicTree against MuJoCo (Debian's libmujoco 2.2.2), the same 20-link hinge chain
// in the same joint coordinates with the same two schemes, semi-implicit Euler and RK4 (sinew's
// symplectic_euler and runge_kutta4): two implementations of the same algorithms on the same
// model, so after 1 s of a chain falling from horizontal every joint angle agrees to round-off;
// with joint armature and damping too, under RK4 (MuJoCo's Euler takes damping implicitly, sinew's
// symplectic Euler explicitly, so the Euler runs carry armature alone).
// Built only where MuJoCo is installed.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include "hinge_chain.hpp"
#include "sinew/integrators/make_integrator.hpp"

namespace sinew::peers_mujoco_agreement_test {
namespace {

constexpr int kLinks = 20;
constexpr double kLength = 0.1, kStep = 1e-3;
const SpatialInertia kRod = physics_test::hinge_chain_link();  // about the rod's centre, its axis along x

std::string number(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

// The chain in MJCF: each body's frame at its hinge, the rod's centre half a link further on.
std::string chain_xml(const char* integrator, double armature, double damping) {
  std::string xml = "<mujoco><option timestep='" + number(kStep) + "' gravity='0 0 -9.81' integrator='" + integrator +
                    "'/><worldbody>";
  std::string close;
  for (int k = 0; k < kLinks; ++k) {
    xml += "<body pos='" + number(k == 0 ? 0.0 : kLength) + " 0 0'><joint type='hinge' axis='0 1 0' armature='" +
           number(armature) + "' damping='" + number(damping) + "'/><inertial pos='" + number(0.5 * kLength) +
           " 0 0' mass='" + number(kRod.mass) + "' diaginertia='" + number(kRod.J(0, 0)) + " " + number(kRod.J(1, 1)) +
           " " + number(kRod.J(2, 2)) + "'/>";
    close += "</body>";
  }
  return xml + close + "</worldbody></mujoco>";
}

// MuJoCo's joint angles after @p steps steps with @p integrator.
Eigen::VectorXd mujoco_angles(const char* integrator, int steps, double armature, double damping) {
  const auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const std::string xml = chain_xml(integrator, armature, damping);
  mj_makeEmptyFileVFS(vfs.get(), "chain.xml", static_cast<int>(xml.size()));
  std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[vfs->nfile - 1]));
  char error[1000] = "";
  mjModel* m = mj_loadXML("chain.xml", vfs.get(), error, sizeof(error));
  mj_deleteVFS(vfs.get());
  EXPECT_NE(m, nullptr) << error;
  if (!m) return {};
  mjData* d = mj_makeData(m);
  for (int k = 0; k < steps; ++k) mj_step(m, d);
  Eigen::VectorXd q(kLinks);
  for (int k = 0; k < kLinks; ++k) q[k] = d->qpos[k];
  mj_deleteData(d);
  mj_deleteModel(m);
  return q;
}

// sinew's joint angles: each body's frame at its rod's centre, the hinges at the rods' ends.
Eigen::VectorXd sinew_angles(const char* integrator, int steps, double armature, double damping) {
  const model::KinematicTree tree = physics_test::make_tree_chain(kLinks, armature, damping);
  const std::unique_ptr<integrators::Integrator> stepper = integrators::make_integrator(integrator);
  integrators::State s{0.0, Eigen::VectorXd::Zero(kLinks), Eigen::VectorXd::Zero(kLinks)};
  for (int k = 0; k < steps; ++k) {
    const integrators::StepReport r = stepper->step(tree, s, kStep);
    if (!r.ok()) ADD_FAILURE() << r.message;
  }
  return s.q;
}

TEST(MujocoAgreement, AChainInJointCoordinatesMovesAsMuJoCosWithTheSameScheme) {
  mju_user_warning = [](const char*) {};
  struct Case {
    const char* mujoco;
    const char* sinew;
    double armature, damping;
  };
  for (const Case& c : {Case{"Euler", "symplectic_euler", 0.0, 0.0}, Case{"RK4", "runge_kutta4", 0.0, 0.0},
                        Case{"Euler", "symplectic_euler", 2e-4, 0.0}, Case{"RK4", "runge_kutta4", 2e-4, 3e-3}}) {
    const Eigen::VectorXd a = mujoco_angles(c.mujoco, 1000, c.armature, c.damping),
                          b = sinew_angles(c.sinew, 1000, c.armature, c.damping);
    ASSERT_EQ(a.size(), b.size());
    const double difference = (a - b).cwiseAbs().maxCoeff();
    std::printf(
        "%s, armature %g, damping %g: largest joint-angle difference after 1 s %.3g rad (angles up to %.3g "
        "rad)\n",
        c.mujoco, c.armature, c.damping, difference, a.cwiseAbs().maxCoeff());
    EXPECT_LT(difference, 1e-9) << c.mujoco;
    EXPECT_GT(a.cwiseAbs().maxCoeff(), 1.0) << c.mujoco;  // the chain has swung well away from horizontal
  }
}

}  // namespace
}  // namespace sinew::peers_mujoco_agreement_test
