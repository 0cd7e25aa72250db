// LocalGlobalSimulation (local_global_simulation.hpp): a SolidScene behind the Simulation interface.
#include "sinew/scene/local_global_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "cell_measures.hpp"
#include "sinew/core/error.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "sinew/materials/tetrahedron.hpp"
#include "sinew/scene/body_state.hpp"

namespace sinew::scene {

using integrators::LocalGlobalIntegrator;
using integrators::LocalGlobalReport;

namespace {

Vec3 vertex(const std::vector<double>& x, Index v) {
  return Vec3{{x[3 * static_cast<std::size_t>(v)], x[3 * static_cast<std::size_t>(v) + 1],
               x[3 * static_cast<std::size_t>(v) + 2]}};
}

Mat3 first_piola(MaterialModel model, const Mat3& F, const LameParameters& lame) {
  switch (model) {
    case MaterialModel::kArap:
      return Arap::stress(F, lame);
    case MaterialModel::kCorotational:
      return Corotational::stress(F, lame);
    default:
      return StableNeoHookean::stress(F, lame);
  }
}

}  // namespace

SolidScene solid_scene_from_cloth(const ClothScene& cloth) {
  SolidScene s;
  s.name = cloth.name;
  s.description = cloth.description;
  s.options = cloth.options;
  const std::vector<TargetMotion> motions = cloth.motions;
  if (!motions.empty()) {
    ClothScene driven;  // only what drive_targets() reads
    driven.motions = motions;
    driven.description.time_step = cloth.description.time_step;
    s.drive = [driven](LocalGlobalIntegrator& lg, long) { drive_targets(driven, lg); };
  }
  s.frames = cloth.steps;
  s.first_body_vertices = static_cast<Index>(cloth.description.rest_positions.size() / 3);
  return s;
}

struct LocalGlobalSimulation::Impl {
  SolidScene scene;
  std::vector<LocalGlobalBody> bodies;
  std::unique_ptr<LocalGlobalIntegrator> lg;
  LocalGlobalReport report;
  LameParameters lame;
  std::vector<bool> hidden;  // (obstacles) left out of obstacles()
};

LocalGlobalSimulation::LocalGlobalSimulation(Backend& backend, SolidScene scene, std::vector<LocalGlobalBody> bodies)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  d.scene = std::move(scene);
  const auto& desc = d.scene.description;
  const Index n = static_cast<Index>(desc.rest_positions.size() / 3);
  const std::size_t nt = desc.tets.size() / 4, ntri = desc.triangles.size() / 3;
  if (bodies.empty()) {
    LocalGlobalBody b;
    b.name = d.scene.name.empty() ? "body" : d.scene.name;
    b.vertex_count = n;
    b.tet_count = nt;
    b.triangle_count = ntri;
    bodies.push_back(b);
  }
  Index v = 0;
  std::size_t t = 0, tr = 0;
  for (const LocalGlobalBody& b : bodies) {
    require(b.first_vertex == v && b.first_tet == t && b.first_triangle == tr,
            "LocalGlobalSimulation: body \"" + b.name + "\" does not start where the previous body ends");
    v += b.vertex_count;
    t += b.tet_count;
    tr += b.triangle_count;
  }
  require(v == n && t == nt && tr == ntri,
          "LocalGlobalSimulation: the bodies do not cover the description's vertices and elements");
  d.bodies = std::move(bodies);
  d.scene.options.time_phases = true;
  d.lg = std::make_unique<LocalGlobalIntegrator>(backend, desc, d.scene.options);
  d.lame = lame_parameters(desc.elastic);
  d.hidden.assign(desc.obstacles.size(), false);
}

LocalGlobalSimulation::~LocalGlobalSimulation() = default;

std::string LocalGlobalSimulation::name() const { return impl_->scene.name; }
double LocalGlobalSimulation::time_step() const { return impl_->scene.description.time_step; }
long LocalGlobalSimulation::steps() const { return impl_->lg->steps(); }
double LocalGlobalSimulation::time() const { return impl_->lg->time(); }
const LocalGlobalIntegrator& LocalGlobalSimulation::integrator() const { return *impl_->lg; }
const LocalGlobalReport& LocalGlobalSimulation::last_report() const { return impl_->report; }
const SolidScene& LocalGlobalSimulation::scene() const { return impl_->scene; }

void LocalGlobalSimulation::hide_obstacle(std::size_t k) {
  require(k < impl_->hidden.size(), "LocalGlobalSimulation::hide_obstacle: obstacle " + std::to_string(k) +
                                        " out of range (" + std::to_string(impl_->hidden.size()) + " obstacles)");
  impl_->hidden[k] = true;
}

SimulationSize LocalGlobalSimulation::size() const {
  const auto& desc = impl_->scene.description;
  SimulationSize s;
  s.vertices = impl_->lg->num_vertices();
  s.tets = impl_->lg->num_tets();
  s.triangles = impl_->lg->num_triangles();
  s.obstacles = desc.obstacles.size();
  s.targets = desc.targets.size();
  s.cables = desc.cables.size();
  s.degrees_of_freedom = 3 * s.vertices;
  return s;
}

std::vector<std::string> LocalGlobalSimulation::scalar_names() const {
  std::vector<std::string> names = {"kinetic_energy", "incremental_potential",
                                    "contacts",       "iterations",
                                    "newton_steps",   "cr_iterations",
                                    "contact_error",  "max_cable_impulse",
                                    "step_ms",        "local_ms",
                                    "rhs_ms",         "global_ms",
                                    "collision_ms",   "schur_ms",
                                    "assembly_ms",    "constraint_ms",
                                    "correction_ms"};
  for (const LocalGlobalBody& b : impl_->bodies) {
    const std::vector<std::string> columns = deformable_body_columns(b.name);
    names.insert(names.end(), columns.begin(), columns.end());
  }
  return names;
}

StepOutcome LocalGlobalSimulation::step() {
  Impl& d = *impl_;
  StepOutcome out;
  const auto start = std::chrono::steady_clock::now();
  try {
    d.report = step_scene(d.scene, *d.lg);
  } catch (const Error& e) {  // a driver rejecting a non-finite target or pose: numerical trouble
    out.advanced = false;
    out.message = "step " + std::to_string(d.lg->steps()) + ": " + e.what();
    out.scalars.assign(scalar_names().size(), std::numeric_limits<double>::quiet_NaN());
    return out;
  }
  const double step_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const LocalGlobalReport& r = d.report;
  out.advanced = r.ok();
  out.message = r.message;
  out.warning = r.warning;  // an unconverged contact solve (LocalGlobalReport::contact_converged)
  const std::vector<double> vel = d.lg->velocities();
  const std::vector<double>& m = d.lg->masses();
  double ke = 0.0;
  for (std::size_t i = 0; i < m.size(); ++i)
    ke += 0.5 * m[i] * (vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2]);
  double cable = 0.0;
  for (double c : r.cable_impulses) cable = std::max(cable, std::abs(c));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.scalars = {ke,
                 r.energies.empty() ? nan : r.energies.back(),
                 static_cast<double>(r.contacts),
                 static_cast<double>(r.iterations),
                 static_cast<double>(r.newton_steps),
                 static_cast<double>(r.cr_iterations),
                 r.contact_error,
                 cable,
                 step_ms,
                 1e3 * r.local_seconds,
                 1e3 * r.rhs_seconds,
                 1e3 * r.global_seconds,
                 1e3 * r.collision_seconds,
                 1e3 * r.schur_seconds,
                 1e3 * r.assembly_seconds,
                 1e3 * r.constraint_seconds,
                 1e3 * r.correction_seconds};
  const std::vector<double> x = d.lg->positions();
  for (const LocalGlobalBody& b : d.bodies) {
    const std::size_t v0 = static_cast<std::size_t>(b.first_vertex);
    append_deformable_body_state(x.data() + 3 * v0, vel.data() + 3 * v0, m.data() + v0,
                                 static_cast<std::size_t>(b.vertex_count), out.scalars);
  }
  return out;
}

std::vector<OutputMesh> LocalGlobalSimulation::output_meshes() const {
  const Impl& d = *impl_;
  const auto& desc = d.scene.description;
  const std::vector<double> x = d.lg->positions(), vel = d.lg->velocities();
  // Contact force per vertex (world frame): sum over its contacts of w (n r_n + t1 r_t1 + t2 r_t2) / h.
  std::vector<double> force(x.size(), 0.0);
  const LocalGlobalReport& r = d.report;
  const bool frames = r.tangents.size() == r.normals.size();
  const double h = desc.time_step;
  for (std::size_t c = 0; c < r.contact_vertex.size() && 3 * c + 2 < r.impulses.size(); ++c) {
    const Vec3 nrm = vertex(r.normals, static_cast<Index>(c));
    Vec3 f{{nrm[0] * r.impulses[3 * c], nrm[1] * r.impulses[3 * c], nrm[2] * r.impulses[3 * c]}};
    if (frames) {
      const Vec3 t1 = vertex(r.tangents, static_cast<Index>(c)), t2 = cross(nrm, t1);
      for (int k = 0; k < 3; ++k) f[k] += t1[k] * r.impulses[3 * c + 1] + t2[k] * r.impulses[3 * c + 2];
    }
    // On each of the contact's nodes with its weight (+1 on a vertex against an obstacle; both
    // sides of a contact between bodies).
    for (int e = 0; e < 4 && 4 * c + 3 < r.contact_nodes.size(); ++e) {
      const Index node = r.contact_nodes[4 * c + e];
      if (node < 0) break;
      for (int k = 0; k < 3; ++k)
        force[3 * static_cast<std::size_t>(node) + k] += r.contact_weights[4 * c + e] * f[k] / h;
    }
  }
  std::vector<OutputMesh> out;
  for (const LocalGlobalBody& b : d.bodies) {
    OutputMesh o;
    o.name = b.name;
    VtuFrame& f = o.frame;
    const std::size_t v0 = static_cast<std::size_t>(b.first_vertex), nv = static_cast<std::size_t>(b.vertex_count);
    f.points.assign(x.begin() + 3 * v0, x.begin() + 3 * (v0 + nv));
    f.point_fields.push_back({"velocity", 3, std::vector<double>(vel.begin() + 3 * v0, vel.begin() + 3 * (v0 + nv))});
    f.point_fields.push_back(
        {"contact_force", 3, std::vector<double>(force.begin() + 3 * v0, force.begin() + 3 * (v0 + nv))});
    std::vector<double> stress, stretch;
    for (std::size_t t = b.first_tet; t < b.first_tet + b.tet_count; ++t) {
      std::array<Index, 4> tet{};
      double X[12], xc[12];
      for (int a = 0; a < 4; ++a) {
        tet[a] = desc.tets[4 * t + a];
        for (int k = 0; k < 3; ++k) {
          X[3 * a + k] = desc.rest_positions[3 * static_cast<std::size_t>(tet[a]) + k];
          xc[3 * a + k] = x[3 * static_cast<std::size_t>(tet[a]) + k];
        }
        tet[a] -= b.first_vertex;
      }
      f.tets.push_back(tet);
      const Mat3 F = tet_deformation_gradient(tet_rest(X), xc);
      stress.push_back(von_mises_stress(first_piola(desc.model, F, d.lame), F));
    }
    for (std::size_t t = b.first_triangle; t < b.first_triangle + b.triangle_count; ++t) {
      std::array<Index, 3> tri{};
      Vec3 rest[3], cur[3];
      for (int a = 0; a < 3; ++a) {
        tri[a] = desc.triangles[3 * t + a];
        rest[a] = vertex(desc.rest_positions, tri[a]);
        cur[a] = vertex(x, tri[a]);
        tri[a] -= b.first_vertex;
      }
      f.triangles.push_back(tri);
      stretch.push_back(max_principal_stretch(rest, cur));
    }
    // One value per cell, tets then triangles: a field of the other kind of cell reads 0 there.
    if (b.tet_count > 0) {
      stress.resize(b.tet_count + b.triangle_count, 0.0);
      f.cell_fields.push_back({"stress", 1, stress});
    }
    if (b.triangle_count > 0) {
      stretch.insert(stretch.begin(), b.tet_count, 0.0);
      f.cell_fields.push_back({"max_principal_stretch", 1, stretch});
    }
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<Obstacle> LocalGlobalSimulation::obstacles() const {
  const Impl& d = *impl_;
  std::vector<Obstacle> out;
  for (std::size_t k = 0; k < d.lg->obstacles().size(); ++k)
    if (!d.hidden[k]) out.push_back(d.lg->obstacles()[k]);
  return out;
}

void LocalGlobalSimulation::save(std::ostream& out) const { impl_->lg->save(out); }

void LocalGlobalSimulation::set_state(const std::vector<double>& positions, const std::vector<double>& velocities) {
  impl_->lg->set_state(positions, velocities);
  impl_->report = LocalGlobalReport{};
}

void LocalGlobalSimulation::restore(std::istream& in) {
  impl_->lg->restore(in);
  impl_->report = LocalGlobalReport{};
}

}  // namespace sinew::scene
