// Attachments and drives of multibody scene files by joint rows ("method": "rows") and by
// null-space reduction ("method": "reduce", ArtiSynth notes 0.17-0.21, model::ReducedSystem):
// the two agree where the mathematics says they must, reduction holds attached components
// exactly, it works under every integrator, and bad attachments are errors naming their key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <nlohmann/json.hpp>
#include <string>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::scene_attachment_methods_test {
namespace {

SceneFile parse(const nlohmann::json& j) { return parse_scene(j.dump(), "attach.json", "."); }

const MultibodySimulation& multibody(const Simulation& s) { return dynamic_cast<const MultibodySimulation&>(s); }

nlohmann::json box_mesh(const std::vector<double>& min, const std::vector<double>& max, int cells) {
  return {{"box", {{"min", min}, {"max", max}, {"cells", {cells, cells, cells}}}}};
}

nlohmann::json solid(const std::string& name, const nlohmann::json& mesh, double youngs) {
  return {{"type", "deformable"},
          {"name", name},
          {"mesh", mesh},
          {"material", {{"model", "stable_neo_hookean"}, {"youngs_modulus", youngs}, {"poisson_ratio", 0.3}}},
          {"density", 1000.0}};
}

nlohmann::json contact_step() {
  return {{"type", "contact_step"}, {"solver", {{"type", "newton"}, {"stop", {{"tolerance", 1e-12}}}}}};
}

// A soft block dropped on the floor carrying a stiffer marker block whose nodes all lie inside
// it (attached in its tets), and a rigid lid welded onto a rigid base with a cloth-free FEM pad
// on the lid (attached to an attached body), the base also falling onto the floor.
nlohmann::json world(const std::string& method) {
  nlohmann::json j = {{"sinew_scene", 1}, {"kind", "multibody"}, {"steps", 10}, {"time_step", 2e-3}};
  j["bodies"] = {solid("organ", box_mesh({0, 0, 0.01}, {0.2, 0.2, 0.21}, 2), 2e4),
                 solid("marker", box_mesh({0.05, 0.06, 0.07}, {0.12, 0.13, 0.14}, 1), 1e6),
                 {{"type", "rigid"},
                  {"name", "base"},
                  {"shape", {{"type", "box"}, {"half_extents", {0.1, 0.1, 0.05}}}},
                  {"mass", 2.0},
                  {"position", {0.5, 0, 0.06}}},
                 {{"type", "rigid"},
                  {"name", "lid"},
                  {"shape", {{"type", "box"}, {"half_extents", {0.1, 0.1, 0.01}}}},
                  {"mass", 0.5},
                  {"position", {0.5, 0, 0.12}},
                  {"velocity", {0, 0, 0}}},
                 solid("pad", box_mesh({0.45, -0.05, 0.13}, {0.55, 0.05, 0.16}, 1), 5e4)};
  j["bodies"][1]["contact"] = false;
  j["bodies"][3]["collides"] = false;
  j["bodies"][4]["contact"] = false;
  j["attachments"] = {{{"body", "marker"}, {"to", "organ"}, {"nodes", {{"all", true}}}, {"method", method}},
                      {{"body", "lid"}, {"to", "base"}, {"method", method}},
                      {{"body", "pad"},
                       {"to", "lid"},
                       {"nodes", {{"box", {{"min", {0, -1, 0.1299}}, {"max", {1, 1, 0.1301}}}}}},
                       {"method", method}}};
  j["obstacles"] = {{{"shape", "half_space"}, {"normal", {0, 0, 1}}}};
  j["contact"] = {{"mu", 0.5}};
  j["integrator"] = contact_step();
  return j;
}

// Same scene, rows against reduction: the marker is linear in the organ's nodes (so the two solve
// one problem, up to where the stiffness is evaluated); the lid and pad ride on the base.
TEST(AttachmentMethods, RowsAndReductionAgreeOnAMixedWorld) {
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> rows = parse(world("rows")).make(*backend);
  std::unique_ptr<Simulation> reduced = parse(world("reduce")).make(*backend);
  const MultibodySimulation& a = multibody(*rows);
  const MultibodySimulation& b = multibody(*reduced);
  ASSERT_EQ(a.scene().reduced, nullptr);
  ASSERT_NE(b.scene().reduced, nullptr);
  const model::MechanicalSystem& sys = *b.scene().scene.system;
  // Reduced: the organ's 27 nodes, the base and the pad's 4 free (upper) nodes.
  EXPECT_EQ(b.state().u.size(), 27 * 3 + 6 + 4 * 3);
  EXPECT_EQ(a.state().u.size(), sys.num_velocities());
  EXPECT_EQ(rows->size().joints, 8u + 1u + 4u);  // the marker's nodes, the weld, the pad's lower nodes
  EXPECT_EQ(reduced->size().joints, 0u);
  double gap = 0.0;
  for (int k = 0; k < 100; ++k) {
    const StepOutcome ra = rows->step(), rb = reduced->step();
    ASSERT_TRUE(ra.ok() && rb.ok()) << k << ": " << ra.message << rb.message;
    gap = std::max(gap, (a.state().q - b.state().q).cwiseAbs().maxCoeff());
  }
  Vec3 lid, base;
  Quaternion r_lid, r_base;
  sys.body_pose(b.state().q, 1, lid, r_lid);
  sys.body_pose(b.state().q, 0, base, r_base);
  const double fall = 0.06 - base[2];
  std::printf("[ attach ] mixed world, 100 steps: rows vs reduce max |q difference| %.3e m; base fell %.4f m\n", gap,
              fall);
  EXPECT_GT(fall, 1e-3) << "the base falls onto the floor";
  EXPECT_LT(gap, 2e-4) << "the two methods give one motion";
  // Reduction holds the weld exactly: the lid is 0.06 m above the base, unturned relative to it.
  EXPECT_NEAR(lid[2] - base[2], 0.06, 1e-12);
  EXPECT_NEAR(lid[0] - base[0], 0.0, 1e-12);
  // Velocities of attached components come with the state.
  EXPECT_EQ(b.velocities().size(), sys.num_velocities());
  // The lid moves with the base: same angular velocity, its origin's velocity v_base + w x r.
  const Eigen::VectorXd& u = b.velocities();
  const Index v_lid = sys.body_velocity_offset(1), v_base = sys.body_velocity_offset(0);
  const Vec3 w{{u[v_base + 3], u[v_base + 4], u[v_base + 5]}};
  const Vec3 expected = Vec3{{u[v_base], u[v_base + 1], u[v_base + 2]}} + cross(w, lid - base);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(u[v_lid + c], expected[c], 1e-12);
    EXPECT_EQ(u[v_lid + 3 + c], w[c]);
  }
}

// A beam whose end nodes are attached to a body that a zero-velocity drive holds is a clamped
// beam: under every integrator it moves exactly as the same beam with fixed end nodes.
nlohmann::json beam(bool attached, const std::string& integrator) {
  // h = 1 ms keeps Bridson-Marino's explicit elastic stage stable (sound speed 32 m/s, cells 0.1 m).
  nlohmann::json j = {{"sinew_scene", 1}, {"kind", "multibody"}, {"steps", 10}, {"time_step", 1e-3}};
  nlohmann::json b =
      solid("beam", {{"box", {{"min", {0, -0.05, -0.05}}, {"max", {0.6, 0.05, 0.05}}, {"cells", {6, 1, 1}}}}}, 1e6);
  const nlohmann::json end = {{"box", {{"min", {-1e-9, -1, -1}}, {"max", {1e-9, 1, 1}}}}};
  j["bodies"] = nlohmann::json::array({b});
  if (attached) {
    j["bodies"].push_back({{"type", "rigid"},
                           {"name", "clamp"},
                           {"shape", {{"type", "box"}, {"half_extents", {0.02, 0.1, 0.1}}}},
                           {"mass", 1.0},
                           {"position", {-0.02, 0, 0}},
                           {"motion", {{"method", "reduce"}}}});
    j["attachments"] = {{{"body", "beam"}, {"to", "clamp"}, {"nodes", end}, {"method", "reduce"}}};
  } else {
    j["bodies"][0]["fixed"] = end;
  }
  j["integrator"] = {{"type", integrator}};
  return j;
}

TEST(AttachmentMethods, AttachedToAHeldDriveIsClampedUnderEveryIntegrator) {
  auto backend = make_backend("serial");
  for (const std::string integrator :
       {"implicit_euler", "trapezoidal", "bridson_marino", "theta_midpoint", "compliant_alpha_beta"}) {
    SCOPED_TRACE(integrator);
    std::unique_ptr<Simulation> fixed = parse(beam(false, integrator)).make(*backend);
    std::unique_ptr<Simulation> held = parse(beam(true, integrator)).make(*backend);
    for (int k = 0; k < 30; ++k) {
      const StepOutcome a = fixed->step(), b = held->step();
      ASSERT_TRUE(a.ok() && b.ok()) << k << ": " << a.message << b.message;
    }
    const Eigen::VectorXd& qa = multibody(*fixed).state().q;
    const Eigen::VectorXd qb = multibody(*held).state().q.head(qa.size());  // the beam's particles first
    EXPECT_GT((qa - multibody(*fixed).scene().scene.system->initial_positions()).norm(), 1e-4) << "the beam sags";
    EXPECT_LT((qa - qb).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// A driven clamp turning about x at 1 rad/s carries the beam's end exactly, under an integrator
// without contact (the drive and attachment leave the system's velocities).
TEST(AttachmentMethods, ADrivenClampCarriesTheAttachedNodesExactly) {
  nlohmann::json j = beam(true, "trapezoidal");
  j["bodies"][1]["motion"]["angular_velocity"] = {1.0, 0, 0};
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  const MultibodySimulation& m = multibody(*sim);
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(sim->step().ok()) << k;
  const model::MechanicalSystem& sys = *m.scene().scene.system;
  const double a = 0.1;  // 100 steps of 1 ms at 1 rad/s
  for (Index i = 0; i < sys.num_particles(); ++i) {
    const Vec3 x0 = sys.particle(i).position;
    if (x0[0] != 0.0) continue;
    const Vec3 x = sys.particle_position(m.state().q, i);
    const Vec3 expected{{x0[0], std::cos(a) * x0[1] - std::sin(a) * x0[2], std::sin(a) * x0[1] + std::cos(a) * x0[2]}};
    EXPECT_LT(norm(x - expected), 1e-12) << "node " << i;
  }
}

// A paddle pushing a box, driven by rows (PrescribedMotion) and by reduction (the paddle has no
// velocities of its own): one contact problem, the same motion.
TEST(AttachmentMethods, ADriveByRowsAndByReductionPushTheSame) {
  const auto scene = [](const std::string& method) {
    nlohmann::json j = {{"sinew_scene", 1}, {"kind", "multibody"}, {"steps", 10}, {"time_step", 1e-3}};
    j["bodies"] = {{{"type", "rigid"},
                    {"name", "box"},
                    {"shape", {{"type", "box"}, {"half_extents", {0.05, 0.05, 0.05}}}},
                    {"mass", 1.0},
                    {"position", {0, 0, 0.05}}},
                   {{"type", "rigid"},
                    {"name", "paddle"},
                    {"shape", {{"type", "sphere"}, {"radius", 0.02}}},
                    {"mass", 0.5},
                    {"position", {-0.075, 0, 0.05}},
                    {"surface_material", "pusher"},
                    {"motion", {{"velocity", {0.2, 0, 0}}, {"method", method}}}}};
    j["obstacles"] = {{{"shape", "half_space"}, {"normal", {0, 0, 1}}}};
    j["contact"] = {{"mu", 0.3}, {"friction", {{{"between", {"pusher", "default"}}, {"mu", 0.0}}}}};
    j["integrator"] = contact_step();
    return j;
  };
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> rows = parse(scene("rows")).make(*backend);
  std::unique_ptr<Simulation> reduced = parse(scene("reduce")).make(*backend);
  for (int k = 0; k < 300; ++k) {
    const StepOutcome a = rows->step(), b = reduced->step();
    ASSERT_TRUE(a.ok() && b.ok()) << k << ": " << a.message << b.message;
  }
  const Eigen::VectorXd &qa = multibody(*rows).state().q, &qb = multibody(*reduced).state().q;
  EXPECT_NEAR(qb[0], qa[0], 1e-8) << "the box";
  EXPECT_NEAR(qb[0], -0.075 + 0.2 * 0.3 + 0.07, 1e-4) << "pushed at the paddle's speed";
  EXPECT_NEAR(qb[7], -0.075 + 0.2 * 0.3, 1e-12) << "the paddle on its trajectory";
  EXPECT_NEAR(multibody(*reduced).velocities()[0], 0.2, 1e-6);
}

// A checkpoint of a reduced scene holds its reduced velocities; a resumed run gives the same bits.
TEST(AttachmentMethods, AReducedSceneResumesBitwise) {
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> a = parse(world("reduce")).make(*backend);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(a->step().ok());
  std::stringstream saved;
  a->save(saved);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(a->step().ok());
  std::unique_ptr<Simulation> b = parse(world("reduce")).make(*backend);
  b->restore(saved);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(b->step().ok());
  const Eigen::VectorXd &qa = multibody(*a).state().q, &qb = multibody(*b).state().q;
  EXPECT_EQ(std::memcmp(qa.data(), qb.data(), sizeof(double) * static_cast<std::size_t>(qa.size())), 0);
  EXPECT_EQ(multibody(*a).velocities(), multibody(*b).velocities());
  // A checkpoint of the rows scene has every velocity: not this scene's.
  std::unique_ptr<Simulation> rows = parse(world("rows")).make(*backend);
  std::stringstream full;
  rows->save(full);
  EXPECT_SINEW_ERROR(b->restore(full), "u has", "entries, this scene");
}

TEST(AttachmentMethods, BadAttachmentsAreNamed) {
  const nlohmann::json j = world("reduce");
  nlohmann::json bad = j;
  bad["attachments"][0]["method"] = "glue";
  EXPECT_SINEW_ERROR(parse(bad), "attach.json", "/attachments/0/method", "\"rows\"", "\"reduce\"");
  bad = j;
  bad["attachments"][1]["to"] = "organ";
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/1/to", "welded", "\"organ\" is deformable");
  bad = j;
  bad["attachments"][1]["to"] = "lid";
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/1/to", "itself");
  bad = j;
  bad["attachments"][1]["nodes"] = {{"all", true}};
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/1/nodes", "no nodes");
  bad = j;
  bad["attachments"][0]["to"] = "nowhere";
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/0/to", "no body named \"nowhere\"");
  bad = j;
  bad["attachments"][2]["to"] = "organ";  // the pad is not inside the organ
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/2", "not inside \"organ\"");
  bad = j;
  bad["bodies"][1]["fixed"] = {{"all", true}};
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/0/nodes", "is fixed");
  bad = j;  // the organ's nodes inside the marker, and the marker's inside the organ: a cycle
  bad["attachments"].push_back({{"body", "organ"},
                                {"to", "marker"},
                                {"nodes", {{"box", {{"min", {0.09, 0.09, 0.1}}, {"max", {0.11, 0.11, 0.12}}}}}},
                                {"method", "reduce"}});
  EXPECT_SINEW_ERROR(parse(bad), "/attachments", "cycle");
  bad = j;
  bad["bodies"][3]["motion"] = {{"velocity", {0, 0, 0}}};
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/1/body", "driven");
  // Rows need a contact step; reduction does not.
  bad = beam(true, "implicit_euler");
  bad["attachments"][0]["method"] = "rows";
  EXPECT_SINEW_ERROR(parse(bad), "/integrator", "\"method\": \"reduce\"");
}

}  // namespace
}  // namespace sinew::scene::scene_attachment_methods_test
