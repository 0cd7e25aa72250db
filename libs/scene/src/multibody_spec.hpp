// The "multibody" kind of scene file, as read: plain data (MultibodySpec), built into a system
// by build(). multibody_scene_file.cpp reads the file, multibody_bodies.cpp its bodies,
// multibody_build.cpp builds the system. Private to the scene library.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "multibody_stepper.hpp"
#include "scene_file_common.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/prescribed_motion.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene::detail {

struct RigidSpec {
  std::string name;
  SpatialInertia inertia;
  Shape shape, collider;                                  // analytic (unless the meshes below)
  std::optional<TriangleMesh> shape_mesh, collider_mesh;  // body coordinates (centroid at the origin)
  bool collides = true, fixed = false;
  Index material = 0;                               // surface material (friction pairs)
  std::optional<constraints::TwistProfile> motion;  // kinematically driven
  bool motion_reduced = false;                      // as a parametric component, not rows
  Vec3 position, velocity, angular_velocity;
  Quaternion orientation = quat_identity();
};

struct DeformableSpec {
  std::string name;
  bool membrane = false;
  TetMesh tets;
  TriangleMesh triangles;
  MaterialModel model = MaterialModel::kCorotational;
  ElasticParameters parameters;
  double density = 0.0;        // solids: kg/m^3; cloth: kg/m^2 (0 when particle_mass is given)
  double particle_mass = 0.0;  // cloth: equal particle masses (0 when density is given)
  std::vector<Index> fixed;    // local vertex indices
  bool contact = true;
  bool self_contact = false;  // solids: the contact surface touches itself
  // Solids: element regions with their own material, tet e of region_materials[tet_material[e] - 1]
  // when tet_material[e] > 0 (empty: every tet of model, parameters, density).
  std::vector<RegionMaterial> region_materials;
  std::vector<Index> tet_material;
  // Solids: a collision surface other than the boundary, embedded in the tets (placed with the
  // body): the body's contact points and contact surface.
  std::optional<TriangleMesh> collision_surface;
  Index material = 0;  // surface material (friction pairs)
};

struct BodySpec {
  bool rigid = true;
  std::size_t index = 0;  // into rigid or deformable
};

struct JointSpec {
  std::string type, name, path;
  int body_a = -1, body_b = -1;  // rigid index, -1 = world
  Vec3 origin_a, axis_a, reference_a, origin_b, axis_b, reference_b;
  constraints::AxisJointOptions options;  // compliance (all types), limit and drive (hinge, slider)
};

// Nodes of a deformable body held at points of a rigid body or inside the tets of a solid, or a
// rigid body welded to a rigid body: joint rows, or eliminated (model::ReducedSystem).
struct AttachmentSpec {
  std::string name, path;
  bool reduce = false;
  BodySpec body, to;         // what is attached, what holds it
  std::vector<Index> nodes;  // deformable body: local vertex indices
};

// A friction coefficient between two surface materials.
struct FrictionSpec {
  Index a = 0, b = 0;
  double mu = 0.0;
};

struct MultibodySpec {
  std::string name;
  double time_step = 0.0;
  Vec3 gravity;
  std::vector<RigidSpec> rigid;
  std::vector<DeformableSpec> deformable;
  std::vector<BodySpec> bodies;  // in file order
  std::vector<JointSpec> joints;
  std::vector<AttachmentSpec> attachments;
  std::vector<Obstacle> obstacles;
  std::vector<Index> obstacle_materials;  // (obstacles)
  std::vector<FrictionSpec> friction;
  bool has_contact = false;
  constraints::ContactOptions contact;
  std::string contact_name;
  StepperSpec stepper;
};

/// Reads a "rigid" body's shape, mass, placement, velocities and motion (not its name or material).
RigidSpec read_rigid(JsonObject& o, const std::filesystem::path& base_dir);

/// Reads a "deformable" (tets) or "cloth" (@p cloth, triangles) body (not its name or material).
DeformableSpec read_deformable(JsonObject& o, bool cloth, const std::filesystem::path& base_dir);

/// What a vertex selection of a body chooses from: its placed vertices @p x and its surface (every
/// vertex of a membrane, the boundary vertices of a solid's @p tets).
SelectionContext selection_context(const std::vector<Vec3>& x, bool membrane, const TetMesh& tets);

/// Builds the system, constraints and views of @p spec; errors name the body's JSON path in @p file.
MultibodyScene build(const MultibodySpec& spec, const std::string& file);

}  // namespace sinew::scene::detail
