// A simulation's contacts as numpy arrays (Simulation.contacts()) and a multibody step's
// constraint problem in FCLIB's global form (Simulation.contact()).
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "sinew/core/error.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "sinew/scene/multibody_simulation.hpp"

namespace sinew::python {
namespace {

// The columns of contacts(), filled contact by contact, then moved into numpy.
struct ContactColumns {
  std::vector<double> points_a, points_b, normals, tangent1, tangent2, impulses;  // (n x 3) each
  std::vector<double> mu;                                                         // (n)
  py::list kind_a, kind_b;                                                        // (n) side names
  std::vector<Index> index_a, index_b;                                            // (n)

  void add_frame(const Vec3& n, const Vec3& t1, const Vec3& t2, const double* r) {
    normals.insert(normals.end(), n.v, n.v + 3);
    tangent1.insert(tangent1.end(), t1.v, t1.v + 3);
    tangent2.insert(tangent2.end(), t2.v, t2.v + 3);
    impulses.insert(impulses.end(), r, r + 3);
  }

  py::dict to_dict() {
    const auto n = static_cast<py::ssize_t>(mu.size());
    py::dict d;
    d["points_a"] = moved_array(std::move(points_a), {n, 3});
    d["points_b"] = moved_array(std::move(points_b), {n, 3});
    d["normals"] = moved_array(std::move(normals), {n, 3});
    d["tangent1"] = moved_array(std::move(tangent1), {n, 3});
    d["tangent2"] = moved_array(std::move(tangent2), {n, 3});
    d["impulses"] = moved_array(std::move(impulses), {n, 3});
    d["mu"] = moved_array(std::move(mu), {n});
    const py::object array = py::module_::import("numpy").attr("array");
    d["kind_a"] = array(kind_a, py::arg("dtype") = "str");
    d["index_a"] = moved_array(std::move(index_a), {n});
    d["kind_b"] = array(kind_b, py::arg("dtype") = "str");
    d["index_b"] = moved_array(std::move(index_b), {n});
    return d;
  }
};

const char* side_name(constraints::ContactSide::Kind kind) {
  switch (kind) {
    case constraints::ContactSide::Kind::kObstacle:
      return "obstacle";
    case constraints::ContactSide::Kind::kBody:
      return "body";
    case constraints::ContactSide::Kind::kParticle:
      return "particle";
    case constraints::ContactSide::Kind::kPoints:
      return "points";
  }
  return "?";
}

// A multibody scene's last step: ContactStep::last_contacts() with the impulses of their blocks.
py::dict multibody_contacts(const scene::MultibodySimulation& mb) {
  ContactColumns c;
  std::vector<Index> block;
  const integrators::ContactStep* step = mb.last_contact_step();
  if (step != nullptr && !step->last_contacts().empty()) {
    const constraints::GlobalProblem& p = step->last_problem();
    const Eigen::VectorXd& r = step->last_impulses();
    require(r.size() == p.rows(), "contacts(): the last step ended before its contact solve");
    const std::vector<Index> offsets = constraints::block_offsets(p.blocks);
    for (const constraints::ContactRecord& k : step->last_contacts()) {
      const auto b = static_cast<std::size_t>(k.block);
      c.points_a.insert(c.points_a.end(), k.point_a.v, k.point_a.v + 3);
      c.points_b.insert(c.points_b.end(), k.point_b.v, k.point_b.v + 3);
      c.add_frame(k.frame.normal, k.frame.tangent1, k.frame.tangent2, r.data() + offsets[b]);
      c.mu.push_back(p.blocks[b].mu);
      c.kind_a.append(side_name(k.a.kind));
      c.index_a.push_back(k.a.index);
      c.kind_b.append(side_name(k.b.kind));
      c.index_b.push_back(k.b.index);
      block.push_back(k.block);
    }
  }
  const auto n = static_cast<py::ssize_t>(block.size());
  py::dict d = c.to_dict();
  d["block"] = moved_array(std::move(block), {n});
  return d;
}

// A local-global scene's last report; side A is the vertex (or edge a), B an obstacle, a
// triangle of another body, or edge b.
py::dict local_global_contacts(const scene::LocalGlobalSimulation& lg) {
  const integrators::LocalGlobalReport& r = lg.last_report();
  const std::vector<Obstacle>& obstacles = lg.integrator().obstacles();
  const double body_friction = lg.scene().description.body_friction;
  ContactColumns c;
  const std::size_t n = r.contacts;
  for (std::size_t j = 0; j < n; ++j) {
    const Vec3 normal{{r.normals[3 * j], r.normals[3 * j + 1], r.normals[3 * j + 2]}};
    const Vec3 t1{{r.tangents[3 * j], r.tangents[3 * j + 1], r.tangents[3 * j + 2]}};
    c.points_a.insert(c.points_a.end(), &r.contact_points_a[3 * j], &r.contact_points_a[3 * j] + 3);
    c.points_b.insert(c.points_b.end(), &r.contact_points_b[3 * j], &r.contact_points_b[3 * j] + 3);
    c.add_frame(normal, t1, cross(normal, t1), &r.impulses[3 * j]);
    const Index obstacle = r.contact_obstacle[j], triangle = r.contact_triangle[j];
    const bool edge = triangle == -2, surface = triangle == -3;  // -3: an obstacle feature on a surface point
    c.mu.push_back(obstacle >= 0 ? obstacles[static_cast<std::size_t>(obstacle)].friction : body_friction);
    c.kind_a.append(edge ? "edge" : surface ? "surface" : "vertex");
    c.index_a.push_back(r.contact_vertex[j]);
    c.kind_b.append(obstacle >= 0 ? "obstacle" : edge ? "edge" : "triangle");
    c.index_b.push_back(obstacle >= 0 ? obstacle : edge ? r.contact_nodes[4 * j + 2] : triangle);
  }
  py::dict d = c.to_dict();
  const auto rows = static_cast<py::ssize_t>(n);
  d["nodes"] = moved_array(std::vector<Index>(r.contact_nodes.begin(), r.contact_nodes.begin() + 4 * rows), {rows, 4});
  d["weights"] =
      moved_array(std::vector<double>(r.contact_weights.begin(), r.contact_weights.begin() + 4 * rows), {rows, 4});
  return d;
}

}  // namespace

py::dict simulation_contacts(const scene::Simulation& sim) {
  if (const auto* mb = dynamic_cast<const scene::MultibodySimulation*>(&sim)) return multibody_contacts(*mb);
  if (const auto* lg = dynamic_cast<const scene::LocalGlobalSimulation*>(&sim)) return local_global_contacts(*lg);
  throw Error("contacts(): not available for scene '" + sim.name() + "'");
}

py::dict step_problem(const scene::Simulation& sim) {
  const auto* mb = dynamic_cast<const scene::MultibodySimulation*>(&sim);
  const integrators::ContactStep* step = mb ? mb->last_contact_step() : nullptr;
  require(step != nullptr,
          [&] { return "contact(): scene '" + sim.name() + "' is not stepped by the two-stage contact step"; });
  const constraints::GlobalProblem& p = step->last_problem();
  py::dict d;
  d["M"] = csr_to_scipy(p.M);
  d["H"] = csr_to_scipy(p.H);
  d["f"] = p.f;
  d["w"] = p.w;
  d["r"] = step->last_impulses();
  d["v"] = step->last_velocities();
  d["system_impulses"] = step->last_system_impulses();
  py::list kinds, mu;
  for (const constraints::ConstraintBlock& b : p.blocks) {
    kinds.append(constraints::to_string(b.kind));
    mu.append(b.mu);
  }
  d["kinds"] = kinds;
  d["mu"] = mu;
  return d;
}

}  // namespace sinew::python
