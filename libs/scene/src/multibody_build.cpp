// Builds the system of a "multibody" scene file (multibody_spec.hpp): bodies, contact, joints,
// attachments, in file order, each error naming its JSON path.
#include <memory>
#include <string>
#include <vector>

#include "multibody_spec.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/lumped_mass.hpp"
#include "sinew/scene/contact_surface.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/embedded_surface.hpp"

namespace sinew::scene::detail {

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
    if (s.contact) s.contact->add_obstacle(o.shape, o.pose, spec.obstacle_materials[k]);
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
        if (r.motion) {
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
        // the other surfaces (a cloth's open, two-sided sheet has no inside for that test).
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
        } else {
          s.contact->add_particles(first, count, d.material);
          if (!d.membrane)
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
  // Attachments: a ball joint per node, at the node's initial place on the rigid body.
  for (const AttachmentSpec& a : spec.attachments) {
    const RigidSpec& r = spec.rigid[static_cast<std::size_t>(a.rigid)];
    const Mat3 R = rotation_matrix(r.orientation);
    for (Index i : a.nodes) {
      const Index p = first_particle[a.deformable] + i;
      const Vec3 d = s.system->particle(p).position - r.position;
      const Vec3 local = transpose_times(R, d);
      s.joints.push_back(std::make_unique<constraints::BallJoint>(
          a.name + " node " + std::to_string(i),
          constraints::body_side(rigid_index[static_cast<std::size_t>(a.rigid)], local),
          constraints::particle_side(p)));
    }
  }
  s.init();
  return out;
}

}  // namespace sinew::scene::detail
