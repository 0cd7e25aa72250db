// Scenes for the contact scenario tests (issue 6): rigid boxes on a (tilted) half-space, a
// dropped sliding cube, a stack of boxes, a FEM block; and the contact solvers by name.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "sinew/backends/registry.hpp"
#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::contact_test {

constexpr double kGravity = 9.81;
constexpr double kPi = 3.14159265358979323846;

// Spatial inertia of a solid box of @p mass with half extents @p e, centre of mass at the origin.
inline SpatialInertia box_inertia(double mass, const Vec3& e) {
  Mat3 J{};
  J(0, 0) = mass * (e[1] * e[1] + e[2] * e[2]) / 3.0;  // m (b^2 + c^2) / 12 with full sides b = 2 e
  J(1, 1) = mass * (e[0] * e[0] + e[2] * e[2]) / 3.0;
  J(2, 2) = mass * (e[0] * e[0] + e[1] * e[1]) / 3.0;
  return make_spatial_inertia(mass, Vec3{{0, 0, 0}}, J);
}

// A box shape of half extents @p e.
inline Shape box_shape(const Vec3& e) { return Shape{ShapeType::kBox, {e[0], e[1], e[2]}}; }

// A system with its contact constraint and state: the unit a test steps.
struct ContactScene {
  std::unique_ptr<model::MechanicalSystem> system = std::make_unique<model::MechanicalSystem>();
  std::unique_ptr<constraints::ContactConstraint> contact;
  integrators::State state;

  // Sets the state from the system's initial positions and velocities (after adding components).
  void init() {
    state.t = 0.0;
    state.q = system->initial_positions();
    state.u = system->initial_velocities();
  }
  // Origin of body @p b at the current state.
  Vec3 body_position(Index b) const {
    Vec3 x;
    Quaternion r;
    system->body_pose(state.q, b, x, r);
    return x;
  }
  // Orientation of body @p b at the current state.
  Quaternion body_orientation(Index b) const {
    Vec3 x;
    Quaternion r;
    system->body_pose(state.q, b, x, r);
    return r;
  }
  // Velocity of the origin of body @p b.
  Vec3 body_velocity(Index b) const {
    const Index o = system->body_velocity_offset(b);
    return Vec3{{state.u[o], state.u[o + 1], state.u[o + 2]}};
  }
};

// A box of half extents @p e and @p mass resting with its bottom face on the plane through the
// origin tilted by @p angle about y (downhill: +x direction of the plane, (cos a, 0, -sin a)),
// gravity -z.
inline ContactScene incline_scene(double angle, double mu, const Vec3& e = Vec3{{0.1, 0.1, 0.05}}, double mass = 1.0) {
  ContactScene s;
  s.system->set_gravity(Vec3{{0, 0, -kGravity}});
  const Vec3 n{{std::sin(angle), 0, std::cos(angle)}};
  const Quaternion r{std::cos(0.5 * angle), Vec3{{0, std::sin(0.5 * angle), 0}}};
  const Index b = s.system->add_body(box_inertia(mass, e), Vec3{{e[2] * n[0], 0, e[2] * n[2]}}, r, "block");
  constraints::ContactParams p;
  p.mu = mu;
  s.contact = std::make_unique<constraints::ContactConstraint>(p, "incline contact");
  const constraints::Obstacle plane = constraints::half_space_obstacle(Vec3{{0, 0, 0}}, n);
  s.contact->add_obstacle(plane.shape, plane.pose);
  s.contact->add_body_collider(b, box_shape(e));
  s.init();
  return s;
}

// A stack of kBoxes boxes 0.1 m high, each 4 mm narrower than the one below (half widths
// 0.100 ... 0.082 m), resting on the floor z = 0; mu on every contact, 1 mm margin.
constexpr int kBoxes = 10;
constexpr double kHalfHeight = 0.05;

inline double half_width(int k) { return 0.1 - 0.002 * k; }

inline ContactScene stack_scene(double mu = 0.5) {
  ContactScene s;
  s.system->set_gravity(Vec3{{0, 0, -kGravity}});
  constraints::ContactParams p;
  p.mu = mu;
  // 1 mm: the boxes hardly move, and a smaller margin keeps out the open contacts between the
  // top corners and edges of a box and the narrower box above, 2 mm away (114 contacts with the
  // default 5 mm margin instead of 40).
  p.margin = 1e-3;
  s.contact = std::make_unique<constraints::ContactConstraint>(p, "stack contact");
  const constraints::Obstacle floor = constraints::half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  s.contact->add_obstacle(floor.shape, floor.pose);
  for (int k = 0; k < kBoxes; ++k) {
    const Vec3 e{{half_width(k), half_width(k), kHalfHeight}};
    const Index b = s.system->add_body(box_inertia(1.0, e), Vec3{{0, 0, kHalfHeight * (2 * k + 1)}},
                                       Quaternion{1, Vec3{{0, 0, 0}}}, "box " + std::to_string(k));
    s.contact->add_body_collider(b, box_shape(e));
  }
  s.init();
  return s;
}

// A local contact solver by name ("pgs", "newton_fb", "newton_minmap") or null for "sap".
inline std::unique_ptr<constraints::ConstraintSolver> make_contact_solver(const std::string& name, Backend& backend,
                                                                          double tolerance = 1e-9,
                                                                          int pgs_sweeps = 2000) {
  if (name == "pgs") {
    constraints::PgsOptions o;
    o.stop.tolerance = tolerance;
    o.stop.max_iterations = pgs_sweeps;
    return std::make_unique<constraints::PgsSolver>(o);
  }
  if (name == "newton_fb" || name == "newton_minmap") {
    constraints::NewtonOptions o;
    o.stop.tolerance = tolerance;
    o.function = name == "newton_fb" ? constraints::NcpFunction::kFischerBurmeister : constraints::NcpFunction::kMinMap;
    return std::make_unique<constraints::NewtonSolver>(backend, o);
  }
  return nullptr;  // "sap": the global-form solver inside ContactStep
}

// Solver statistics over a run.
struct SolveStats {
  int steps = 0, max_iterations = 0, unconverged = 0;
  long total_iterations = 0;
  double max_error = 0.0;
  void add(const integrators::ContactStepReport& r) {
    if (r.rows == 0) return;
    ++steps;
    max_iterations = std::max(max_iterations, r.contact.iterations);
    total_iterations += r.contact.iterations;
    max_error = std::max(max_error, r.natural_map_error);
    if (!r.contact.converged()) ++unconverged;
  }
};

}  // namespace sinew::contact_test
