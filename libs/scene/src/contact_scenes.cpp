#include "sinew/scene/contact_scenes.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/constants.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {

SpatialInertia box_inertia(double mass, const Vec3& e) {
  Mat3 J{};
  J(0, 0) = mass * (e[1] * e[1] + e[2] * e[2]) / 3.0;  // m (b^2 + c^2) / 12 with full sides b = 2 e
  J(1, 1) = mass * (e[0] * e[0] + e[2] * e[2]) / 3.0;
  J(2, 2) = mass * (e[0] * e[0] + e[1] * e[1]) / 3.0;
  return make_spatial_inertia(mass, Vec3{{0, 0, 0}}, J);
}

Shape box_shape(const Vec3& e) { return Shape{ShapeType::kBox, {e[0], e[1], e[2]}}; }

Obstacle box_obstacle(const Vec3& centre, const Vec3& e) {
  Obstacle o;
  o.shape = box_shape(e);
  o.pose.rotation = identity3();
  o.pose.translation = centre;
  return o;
}

void ContactScene::init() {
  state.t = 0.0;
  state.q = system->initial_positions();
  state.u = system->initial_velocities();
}

std::vector<const constraints::Constraint*> ContactScene::constraints() const {
  std::vector<const constraints::Constraint*> out{contact.get()};
  for (const auto& j : joints) out.push_back(j.get());
  return out;
}

Vec3 ContactScene::body_position(Index b) const {
  Vec3 x;
  Quaternion r;
  system->body_pose(state.q, b, x, r);
  return x;
}

Quaternion ContactScene::body_orientation(Index b) const {
  Vec3 x;
  Quaternion r;
  system->body_pose(state.q, b, x, r);
  return r;
}

Vec3 ContactScene::body_velocity(Index b) const {
  const Index o = system->body_velocity_offset(b);
  return Vec3{{state.u[o], state.u[o + 1], state.u[o + 2]}};
}

namespace {

// A scene with gravity and an empty contact constraint of friction mu.
ContactScene start(const std::string& name, double mu, const std::string& contact_name, double margin = -1.0) {
  ContactScene s;
  s.name = name;
  s.system->set_gravity(Vec3{{0, 0, -kGravity}});
  constraints::ContactOptions p;
  p.mu = mu;
  if (margin >= 0.0) p.margin = margin;
  s.contact = std::make_unique<constraints::ContactConstraint>(p, contact_name);
  return s;
}

void add_obstacle(ContactScene& s, const Obstacle& o) { s.contact->add_obstacle(o.shape, o.pose); }

}  // namespace

ContactScene incline_scene(double angle, double mu, const Vec3& e, double mass) {
  ContactScene s = start("incline_block", mu, "incline contact");
  const Vec3 n{{std::sin(angle), 0, std::cos(angle)}};
  const Quaternion r{std::cos(0.5 * angle), Vec3{{0, std::sin(0.5 * angle), 0}}};
  const Index b = s.system->add_body(box_inertia(mass, e), Vec3{{e[2] * n[0], 0, e[2] * n[2]}}, r, "block");
  add_obstacle(s, half_space_obstacle(Vec3{{0, 0, 0}}, n));
  s.contact->add_body_collider(b, box_shape(e));
  s.rich_contact_steps = 10;
  s.init();
  return s;
}

double stack_half_width(int k) { return 0.1 - 0.002 * k; }

ContactScene box_stack_scene(int boxes, double mu) {
  // 1 mm: the boxes hardly move, and a smaller margin keeps out the open contacts between the
  // top corners and edges of a box and the narrower box above, 2 mm away (114 contacts with the
  // default 5 mm margin instead of 40 for 10 boxes).
  ContactScene s = start("box_stack_" + std::to_string(boxes), mu, "stack contact", 1e-3);
  constexpr double kHalfHeight = 0.05;
  add_obstacle(s, half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}));
  for (int k = 0; k < boxes; ++k) {
    const Vec3 e{{stack_half_width(k), stack_half_width(k), kHalfHeight}};
    const Index b = s.system->add_body(box_inertia(1.0, e), Vec3{{0, 0, kHalfHeight * (2 * k + 1)}}, quat_identity(),
                                       "box " + std::to_string(k));
    s.contact->add_body_collider(b, box_shape(e));
  }
  s.rich_contact_steps = 5;
  s.init();
  return s;
}

ContactScene drop_scene(double half, double drop, double speed, double mu) {
  ContactScene s = start("dropped_cube", mu, "floor contact");
  const Vec3 e{{half, half, half}};
  const Index b =
      s.system->add_body(box_inertia(1.0, e), Vec3{{0, 0, drop + half}}, quat_identity(), "cube", Vec3{{speed, 0, 0}});
  add_obstacle(s, half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}));
  s.contact->add_body_collider(b, box_shape(e));
  s.rich_contact_steps = 300;
  s.init();
  return s;
}

ContactScene fem_incline_scene(double angle, double mu) {
  ContactScene s = start("fem_incline_block", mu, "fem incline contact");
  TetMesh mesh = box_tet_mesh(Vec3{{-0.05, -0.05, 0}}, Vec3{{0.05, 0.05, 0.1}}, 1, 1, 1);
  const double c = std::cos(angle), sn = std::sin(angle);
  for (Vec3& x : mesh.vertices) x = Vec3{{c * x[0] + sn * x[2], x[1], -sn * x[0] + c * x[2]}};  // R_y(a)
  s.deformables.push_back(add_deformable_body(*s.system, mesh, 1000.0, MaterialModel::kCorotational, {1e8, 0.3}));
  add_obstacle(s, half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{sn, 0, c}}));
  s.contact->add_particles(s.deformables[0].first_particle, s.deformables[0].num_particles);
  s.rich_contact_steps = 10;
  s.init();
  return s;
}

ContactScene chain_over_box_scene(int links, double mu) {
  require(links >= 2, "chain_over_box_scene: links must be >= 2, got " + std::to_string(links));
  ContactScene s = start("chain_over_box_" + std::to_string(links), mu, "chain contact");
  constexpr double kLength = 0.1, kRadius = 0.01, kMass = 0.2, kTop = 1.0;
  add_obstacle(s, box_obstacle(Vec3{{0, 0, 0.5 * kTop}}, Vec3{{0.2, 0.2, 0.5 * kTop}}));
  const SpatialInertia inertia = box_inertia(kMass, Vec3{{0.5 * kLength, kRadius, kRadius}});
  // Shorter colliders than links: consecutive colliders stay 2 cm apart at the joint (beyond the
  // margin), so the contact rows come from the box only and never fight the joints.
  const Shape collider = box_shape(Vec3{{0.4 * kLength, kRadius, kRadius}});
  const double z = kTop + kRadius + 5e-4;  // half a millimetre above the top: inside the margin
  for (int i = 0; i < links; ++i) {
    const Index b = s.system->add_body(inertia, Vec3{{(i - 0.5 * (links - 1)) * kLength, 0, z}}, quat_identity(),
                                       "link " + std::to_string(i));
    s.contact->add_body_collider(b, collider);
    if (i == 0) continue;
    s.joints.push_back(std::make_unique<constraints::BallJoint>(
        "joint " + std::to_string(i), constraints::body_side(b - 1, Vec3{{0.5 * kLength, 0, 0}}),
        constraints::body_side(b, Vec3{{-0.5 * kLength, 0, 0}})));
  }
  s.rich_contact_steps = 250;
  s.init();
  return s;
}

ContactScene cloth_on_corner_scene(int n, double mu) {
  require(n >= 2, "cloth_on_corner_scene: n must be >= 2, got " + std::to_string(n));
  ContactScene s = start("cloth_on_corner_" + std::to_string(n) + "x" + std::to_string(n), mu, "cloth contact");
  constexpr double kSide = 0.6, kAreaDensity = 0.1;
  add_obstacle(s, box_obstacle(Vec3{{-0.5, -0.5, -0.5}}, Vec3{{0.5, 0.5, 0.5}}));  // top corner at the origin
  const TriangleMesh mesh =
      rectangle_triangle_mesh(-0.5 * kSide, -0.5 * kSide, 0.5 * kSide, 0.5 * kSide, 0.01, n - 1, n - 1);
  // Equal particle masses (the boundary rows are heavier than lumping would make them): a
  // benchmark scene, where only the contact structure matters.
  const double m = kAreaDensity * kSide * kSide / (static_cast<double>(n) * n);
  const Index first = s.system->num_particles();
  for (const Vec3& x : mesh.vertices) s.system->add_particle(m, x);
  auto membranes = std::make_shared<model::MembraneField>(MaterialModel::kCorotational, ElasticParameters{1e3, 0.3});
  for (const auto& t : mesh.triangles) membranes->add(*s.system, {first + t[0], first + t[1], first + t[2]});
  s.system->add_force_field(membranes);
  s.contact->add_particles(first, static_cast<Index>(mesh.vertices.size()));
  s.rich_contact_steps = 150;
  s.init();
  return s;
}

std::vector<ContactScene> benchmark_scenes() {
  std::vector<ContactScene> out;
  out.push_back(box_stack_scene(10, 0.5));
  out.push_back(incline_scene(10.0 * kPi / 180.0, 0.3));
  out.push_back(drop_scene());
  out.push_back(fem_incline_scene(10.0 * kPi / 180.0, 0.3));
  out.push_back(chain_over_box_scene(20, 0.3));
  out.push_back(cloth_on_corner_scene(20, 0.3));
  return out;
}

// r_j is free and u_j = W_jj r_j + W_jc r_c + q_j = 0, so r_j = -W_jj^-1 (W_jc r_c + q_j) and the
// contacts see W_cc - W_cj W_jj^-1 W_jc and q_c - W_cj W_jj^-1 q_j (dense: W_jj^-1 couples a whole
// chain).
constraints::DelassusProblem condense_bilateral_blocks(const constraints::DelassusProblem& p) {
  const std::vector<Index> offsets = constraints::block_offsets(p.blocks);
  std::vector<Index> c_rows, j_rows;
  constraints::DelassusProblem out;
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const constraints::BlockKind kind = p.blocks[b].kind;
    require(kind == constraints::BlockKind::kContact || kind == constraints::BlockKind::kBilateral,
            "condense_bilateral_blocks: cannot condense a block of kind " + constraints::to_string(kind));
    auto& rows = kind == constraints::BlockKind::kBilateral ? j_rows : c_rows;
    for (Index r = offsets[b]; r < offsets[b + 1]; ++r) rows.push_back(r);
    if (kind == constraints::BlockKind::kContact) out.blocks.push_back(p.blocks[b]);
  }
  if (j_rows.empty()) return p;
  const Eigen::MatrixXd W = Eigen::MatrixXd(to_eigen(p.W));
  const auto nc = static_cast<Eigen::Index>(c_rows.size()), nj = static_cast<Eigen::Index>(j_rows.size());
  Eigen::MatrixXd Wcc(nc, nc), Wcj(nc, nj), Wjj(nj, nj);
  Eigen::VectorXd qc(nc), qj(nj);
  for (Eigen::Index a = 0; a < nc; ++a) {
    qc[a] = p.q[c_rows[a]];
    for (Eigen::Index b = 0; b < nc; ++b) Wcc(a, b) = W(c_rows[a], c_rows[b]);
    for (Eigen::Index b = 0; b < nj; ++b) Wcj(a, b) = W(c_rows[a], j_rows[b]);
  }
  for (Eigen::Index a = 0; a < nj; ++a) {
    qj[a] = p.q[j_rows[a]];
    for (Eigen::Index b = 0; b < nj; ++b) Wjj(a, b) = W(j_rows[a], j_rows[b]);
  }
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(Wjj);
  require(ldlt.info() == Eigen::Success, "condense_bilateral_blocks: the joint block W_jj is singular");
  Eigen::MatrixXd S = Wcc - Wcj * ldlt.solve(Wcj.transpose());
  S = 0.5 * (S + S.transpose());  // symmetric to round-off, as FCLIB readers may assume
  out.W = from_eigen(EigenCsr(S.sparseView()));
  out.q = qc - Wcj * ldlt.solve(qj);
  return out;
}

constraints::DelassusProblem export_contact_problem(ContactScene& scene, Backend& backend,
                                                    constraints::DelassusProblem* full) {
  constraints::NewtonOptions o;
  o.stop.tolerance = 1e-10;
  o.function = constraints::NcpFunction::kMinMap;
  integrators::ContactStep newton(std::make_unique<constraints::NewtonSolver>(backend, o));
  // PGS takes over a step whose Newton solve fails: a chain sliding over a box edge has
  // redundant, nearly dependent contact and joint rows on which Newton can stall, while PGS
  // still converges (slowly).
  constraints::PgsOptions po;
  po.stop.tolerance = 1e-8;
  po.stop.max_iterations = 100000;
  integrators::ContactStep pgs(std::make_unique<constraints::PgsSolver>(po));
  const integrators::ContactStep* last = &newton;
  integrators::ContactStepReport report;
  for (int k = 0; k < scene.rich_contact_steps; ++k) {
    report = newton.step(*scene.system, scene.constraints(), scene.state, scene.time_step);
    last = &newton;
    if (!report.ok()) {
      report = pgs.step(*scene.system, scene.constraints(), scene.state, scene.time_step);
      last = &pgs;
    }
    require(report.ok(),
            "export_contact_problem: " + scene.name + " step " + std::to_string(k + 1) + " failed: " + report.message);
  }
  require(report.contacts > 0, "export_contact_problem: " + scene.name + " has no contacts after " +
                                   std::to_string(scene.rich_contact_steps) + " steps");
  EigenLdltSolver mass_solver;
  constraints::DelassusProblem local = constraints::to_delassus(last->last_problem(), mass_solver);
  if (full) *full = local;
  local = condense_bilateral_blocks(local);
  // Condensing fills W densely, with exact zeros between contacts on unrelated bodies: dropping
  // them keeps W's true sparsity without changing the problem.
  local.W = from_eigen(EigenCsr(to_eigen(local.W).pruned(0.0, 0.0)));
  return local;
}

}  // namespace sinew::scene
