// Builds the system of a "multibody" scene file (multibody_spec.hpp): bodies, contact, joints,
// attachments, in file order, each error naming its JSON path.
#include <memory>
#include <string>
#include <vector>

#include "multibody_spec.hpp"
#include "sinew/constraints/mapped_constraint.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/lumped_mass.hpp"
#include "sinew/scene/contact_surface.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/embedded_surface.hpp"

namespace sinew::scene::detail {

namespace {

// The scene's ReducedSystem, made on first use.
model::ReducedSystem& reduced(MultibodyScene& scene) {
  if (!scene.reduced) scene.reduced = std::make_unique<model::ReducedSystem>(*scene.scene.system);
  return *scene.reduced;
}

// One attachment entry: joint rows (a ball joint per node; a weld for a body) or eliminated.
void add_attachment(const MultibodySpec& spec, const AttachmentSpec& a, const std::vector<Index>& first_particle,
                    const std::vector<Index>& rigid_index, MultibodyScene& out) {
  ContactScene& s = out.scene;
  model::MechanicalSystem& sys = *s.system;
  if (a.body.rigid) {
    // A weld at the bodies' initial relative pose: child frame = identity in the child, its axes
    // in the parent's coordinates.
    const RigidSpec& child = spec.rigid[a.body.index];
    const RigidSpec& parent = spec.rigid[a.to.index];
    const Index c = rigid_index[a.body.index], p = rigid_index[a.to.index];
    if (a.reduce) return reduced(out).attach_body(c, p);
    const Mat3 Rp = rotation_matrix(parent.orientation), Rc = rotation_matrix(child.orientation);
    const Mat3 R = transpose(Rp) * Rc;
    const Vec3 origin = transpose_times(Rp, child.position - parent.position);
    s.joints.push_back(std::make_unique<constraints::FixedJoint>(
        a.name, constraints::body_side(p, origin, R * Vec3{{0, 0, 1}}, R * Vec3{{1, 0, 0}}),
        constraints::body_side(c, Vec3{{0, 0, 0}})));
    s.joints.back()->check(sys);
    return;
  }
  const Index first = first_particle[a.body.index];
  if (a.to.rigid) {
    const RigidSpec& r = spec.rigid[a.to.index];
    const Index b = rigid_index[a.to.index];
    const Mat3 R = rotation_matrix(r.orientation);
    for (Index i : a.nodes) {
      const Index p = first + i;
      if (a.reduce) {
        reduced(out).attach_particle_to_body(p, b);
        continue;
      }
      const Vec3 local = transpose_times(R, sys.particle(p).position - r.position);
      s.joints.push_back(std::make_unique<constraints::BallJoint>(
          a.name + " node " + std::to_string(i), constraints::body_side(b, local), constraints::particle_side(p)));
    }
    return;
  }
  // Nodes inside the tets of a solid: each at its barycentric point there.
  const DeformableSpec& holder = spec.deformable[a.to.index];
  std::vector<Vec3> x;
  for (Index i : a.nodes) x.push_back(sys.particle(first + i).position);
  std::vector<model::MappedPoint> inside;
  try {
    inside = embed_points(holder.tets, first_particle[a.to.index], x);
  } catch (const Error& e) {
    throw Error("nodes: not inside \"" + holder.name + "\": " + e.what());
  }
  if (a.reduce) {
    for (std::size_t k = 0; k < a.nodes.size(); ++k) reduced(out).attach_particle(first + a.nodes[k], inside[k]);
    return;
  }
  // Rows: a ball joint between each node and its point, on the proxies of the mapped pairs.
  std::vector<model::MappedPoint> pairs;
  for (std::size_t k = 0; k < a.nodes.size(); ++k) {
    pairs.push_back(model::barycentric_point({first + a.nodes[k]}, {1.0}));
    pairs.push_back(inside[k]);
  }
  auto points = std::make_shared<const model::MappedPoints>(sys, std::move(pairs), a.name);
  for (std::size_t k = 0; k < a.nodes.size(); ++k) {
    const Index n = static_cast<Index>(2 * k);
    s.joints.push_back(std::make_unique<constraints::MappedConstraint>(
        points, std::make_shared<const constraints::BallJoint>(a.name + " node " + std::to_string(a.nodes[k]),
                                                               constraints::particle_side(n + 1),
                                                               constraints::particle_side(n))));
    s.joints.back()->check(sys);
  }
}

}  // namespace

MultibodyScene build(const MultibodySpec& spec, const std::string& file) {
  MultibodyScene out;
  ContactScene& s = out.scene;
  s.name = spec.name;
  s.time_step = spec.time_step;
  s.system->set_gravity(spec.gravity);
  if (spec.has_contact) {
    s.contact = std::make_unique<constraints::ContactConstraint>(spec.contact, spec.contact_name);
    for (const FrictionSpec& f : spec.friction) s.contact->set_friction(f.a, f.b, f.mu);
  }
  for (std::size_t k = 0; k < spec.obstacles.size(); ++k) {
    const Obstacle& o = spec.obstacles[k];
    out.obstacles.push_back(o);
    if (s.contact) s.contact->add_obstacle(o, spec.obstacle_materials[k]);
  }
  std::vector<Index> first_particle(spec.deformable.size());
  std::vector<Index> rigid_index(spec.rigid.size());
  for (std::size_t k = 0; k < spec.bodies.size(); ++k) {
    const std::string where = file + ": /bodies/" + std::to_string(k) + ": ";
    try {
      if (spec.bodies[k].rigid) {
        const RigidSpec& r = spec.rigid[spec.bodies[k].index];
        const Index b =
            s.system->add_body(r.inertia, r.position, r.orientation, r.name, r.velocity, r.angular_velocity);
        rigid_index[spec.bodies[k].index] = b;
        if (r.fixed) s.system->fix_body(b);
        if (s.contact && r.collides) {
          if (r.collider_mesh) {
            // Its vertices touch obstacles and analytic colliders, its surface other surfaces.
            const ContactSurface surface = rigid_surface(*s.system, b, *r.collider_mesh, r.name);
            s.contact->add_points(surface.vertices, r.material);
            add_surface(*s.contact, surface, r.material);
          } else {
            s.contact->add_body_collider(b, r.collider, r.material);
          }
        }
        if (r.motion && r.motion_reduced) {
          reduced(out).drive_body(b, constraints::twist_drive(*r.motion, r.position, r.orientation));
        } else if (r.motion) {
          s.joints.push_back(std::make_unique<constraints::PrescribedMotion>(r.name + " motion", b, *r.motion));
          s.joints.back()->check(*s.system);
        }
        RigidBodyView view{b, r.name, {}, {}};
        if (r.shape_mesh)
          view.meshes.push_back(*r.shape_mesh);
        else
          view.shapes.push_back(r.shape);
        out.rigid_bodies.push_back(std::move(view));
        continue;
      }
      const DeformableSpec& d = spec.deformable[spec.bodies[k].index];
      Index first = s.system->num_particles(), count = 0;
      first_particle[spec.bodies[k].index] = first;
      if (!d.membrane) {
        if (d.region_materials.empty()) {
          s.deformables.push_back(add_deformable_body(*s.system, d.tets, d.density, d.model, d.parameters));
        } else {
          std::vector<RegionMaterial> materials{RegionMaterial{d.density, d.model, d.parameters}};
          materials.insert(materials.end(), d.region_materials.begin(), d.region_materials.end());
          s.deformables.push_back(add_deformable_body(*s.system, d.tets, materials, d.tet_material));
        }
        count = s.deformables.back().num_particles;
        out.fem_bodies.push_back(
            FemBodyView{d.name, first, count, d.tets.tets, d.model, d.parameters, d.region_materials, d.tet_material});
      } else {
        const std::vector<Vec3>& x = d.triangles.vertices;
        std::vector<double> mass(x.size(), d.particle_mass);
        if (d.particle_mass == 0.0) {
          std::vector<double> areas;
          for (const auto& t : d.triangles.triangles)
            areas.push_back(0.5 * norm(cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]])));
          model::add_lumped_masses(d.density, areas, d.triangles.triangles, mass);
        }
        for (std::size_t i = 0; i < x.size(); ++i) s.system->add_particle(mass[i], x[i], d.name);
        auto field = std::make_shared<model::MembraneField>(d.model, d.parameters);
        for (const auto& t : d.triangles.triangles) field->add(*s.system, {first + t[0], first + t[1], first + t[2]});
        s.system->add_force_field(field);
        count = static_cast<Index>(x.size());
        out.cloths.push_back(ClothView{d.name, first, count, d.triangles.triangles});
      }
      for (Index i : d.fixed) s.system->fix_particle(first + i);
      if (s.contact && d.contact) {
        // Its vertices touch obstacles and analytic colliders; a solid's boundary also touches
        // the other surfaces, a cloth's vertices their triangles (its open, two-sided sheet has
        // no inside for a surface's test).
        if (d.collision_surface) {
          // The embedded surface's points (contact points through the mapping, G = G_x J) and
          // triangles stand for the body in every contact.
          std::vector<model::MappedPoint> embedded;
          try {
            embedded = embed_points(d.tets, first, d.collision_surface->vertices);
          } catch (const Error& e) {
            throw Error(std::string("collision_surface: ") + e.what());
          }
          auto points =
              std::make_shared<model::MappedPoints>(*s.system, std::move(embedded), d.name + " collision surface");
          s.contact->add_points(points, d.material);
          s.contact->add_surface(points, d.collision_surface->triangles, d.material, d.self_contact);
        } else if (d.membrane) {
          // A cloth's particles touch the other bodies' surfaces too (a cloth on a soft or a mesh body).
          s.contact->add_points(particle_surface(*s.system, first, d.triangles, d.name).vertices, d.material, true);
        } else {
          s.contact->add_particles(first, count, d.material);
          add_surface(*s.contact, particle_surface(*s.system, first, boundary_triangles(d.tets), d.name), d.material,
                      d.self_contact);
        }
      }
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
  }
  for (const JointSpec& j : spec.joints) {
    auto side = [&](int body, const Vec3& origin, const Vec3& axis, const Vec3& reference) {
      return body < 0 ? constraints::world_side(origin, axis, reference)
                      : constraints::body_side(rigid_index[static_cast<std::size_t>(body)], origin, axis, reference);
    };
    const constraints::JointSide a = side(j.body_a, j.origin_a, j.axis_a, j.reference_a);
    const constraints::JointSide b = side(j.body_b, j.origin_b, j.axis_b, j.reference_b);
    try {
      if (j.type == "ball")
        s.joints.push_back(std::make_unique<constraints::BallJoint>(j.name, a, b, j.options.compliance));
      else if (j.type == "fixed")
        s.joints.push_back(std::make_unique<constraints::FixedJoint>(j.name, a, b, j.options.compliance));
      else if (j.type == "hinge")
        s.joints.push_back(std::make_unique<constraints::HingeJoint>(j.name, a, b, j.options));
      else
        s.joints.push_back(std::make_unique<constraints::SliderJoint>(j.name, a, b, j.options));
      s.joints.back()->check(*s.system);
    } catch (const Error& e) {
      throw Error(file + ": " + j.path + ": " + e.what());
    }
  }
  for (const AttachmentSpec& a : spec.attachments) {
    try {
      add_attachment(spec, a, first_particle, rigid_index, out);
    } catch (const Error& e) {
      throw Error(file + ": " + a.path + ": " + e.what());
    }
  }
  s.init();
  if (out.reduced) {
    // The free components' velocities; driven and attached ones follow their drives and masters.
    model::ReducedSystem& red = *out.reduced;
    try {
      red.finalize();
    } catch (const Error& e) {
      throw Error(file + ": /attachments: " + e.what());
    }
    s.state.u = red.free_velocities(s.state.u);
    red.sync_positions(0.0, s.state.q);
  }
  return out;
}

}  // namespace sinew::scene::detail
