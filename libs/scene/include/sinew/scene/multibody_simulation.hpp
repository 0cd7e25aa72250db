/// @file
/// @brief MultibodySimulation: a Simulation (simulation.hpp) over a model::MechanicalSystem (rigid
/// bodies, FEM bodies, cloth, joints, frictional contact against static obstacles) stepped either
/// by the two-stage integrators::ContactStep or by an integrators::Integrator (implicit Euler and
/// the other schemes of make_integrator(), without contact or joints): what a "multibody" scene
/// file builds (docs/scene_files.md, "Multibody scenes").
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/shape.hpp"
#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/integrators/integrator.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/material.hpp"
#include "sinew/model/reduced_system.hpp"
#include "sinew/scene/contact_scenes.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/simulation.hpp"

namespace sinew::scene {

/// A rigid body as output draws it: its index in the system and its shapes in body coordinates.
struct RigidBodyView {
  Index body = 0;                    ///< rigid-body index in the system
  std::string name;                  ///< the body's name
  std::vector<Shape> shapes;         ///< drawn at the body's pose (half-spaces are not drawn)
  std::vector<TriangleMesh> meshes;  ///< drawn at the body's pose too (body coordinates)
};

/// An FEM body as output draws it (its particles are consecutive in the system).
struct FemBodyView {
  std::string name;                                    ///< file-name safe output name
  Index first_particle = 0;                            ///< particle of local vertex 0
  Index num_particles = 0;                             ///< vertices
  std::vector<std::array<Index, 4>> tets;              ///< (n_tets) local vertex indices
  MaterialModel model = MaterialModel::kCorotational;  ///< for the von Mises stress
  ElasticParameters parameters;                        ///< for the von Mises stress
  /// Element regions with their own material: tetrahedron e is of region_materials[k - 1] when
  /// tet_material[e] = k > 0, else of model and parameters (empty tet_material: all of them).
  std::vector<RegionMaterial> region_materials;
  std::vector<Index> tet_material;  ///< (tets, or empty) see region_materials
};

/// A cloth (membrane triangles on consecutive particles) as output draws it.
struct ClothView {
  std::string name;                             ///< file-name safe output name
  Index first_particle = 0;                     ///< particle of local vertex 0
  Index num_particles = 0;                      ///< vertices
  std::vector<std::array<Index, 3>> triangles;  ///< (n_triangles) local vertex indices
};

/// A multibody scene to simulate: the system with its constraints and state (ContactScene; a null
/// contact means no contact) and what output draws besides the system.
struct MultibodyScene {
  ContactScene scene;                       ///< system, contact, joints, state, h, name
  std::vector<RigidBodyView> rigid_bodies;  ///< every rigid body with its shapes
  std::vector<FemBodyView> fem_bodies;      ///< every FEM body
  std::vector<ClothView> cloths;            ///< every cloth
  std::vector<Obstacle> obstacles;          ///< static obstacles (also in scene.contact)
  /// The attachments and drives eliminated from the system (ArtiSynth notes 0.17-0.21), null
  /// when none: then scene.state.u holds its reduced velocities (state.q every position).
  std::unique_ptr<model::ReducedSystem> reduced;
};

/// A multibody scene stepped by a ContactStep or an Integrator.
///
/// Per-step scalars (scalar_names()), with a ContactStep: kinetic_energy, potential_energy,
/// total_energy (J; potential = gravity + elastic, 0 when a field is not conservative), contacts
/// (contact blocks), rows (constraint rows), solver_iterations, solver_error (the contact solver's
/// final error), natural_map_error (relative, of the local problem), contact_status (0 converged,
/// 1 stopped unconverged within ContactStepOptions::accept_error, 2 accepted above it: the step
/// then carries a StepOutcome::warning), joint_error (ContactStepReport::joint_error, m or rad;
/// above ContactStepOptions::joint_error_limit the step carries a warning), newton_iterations and
/// newton_residual (stage 1, free motion), fallback (1 when the fallback solver redid the step,
/// else 0), step_ms. With an Integrator: the three energies,
/// newton_iterations, newton_residual, step_ms. Then every body's state (body_state.hpp): FEM
/// bodies and cloths their centre of mass and kinetic energy, rigid bodies their pose and twist.
///
/// Output meshes: each FEM body and cloth (point fields "velocity", "contact_force"; cell field
/// "stress" on tets), then each rigid body on its own (its shapes at its pose, point field
/// "velocity"; half-spaces are not drawn).
class MultibodySimulation final : public Simulation {
 public:
  /// @p scene stepped by @p step with the contact and joints; a step that @p step fails is redone
  /// by @p fallback when given (e.g. PGS behind a non-smooth Newton that can stall on redundant
  /// contact and joint rows). @throws sinew::Error when step is null.
  MultibodySimulation(MultibodyScene scene, std::unique_ptr<integrators::ContactStep> step,
                      std::unique_ptr<integrators::ContactStep> fallback = nullptr);
  /// @p scene stepped by @p integrator. @throws sinew::Error when integrator is null or the scene
  /// has a contact or joints (an Integrator steps no constraints).
  MultibodySimulation(MultibodyScene scene, std::unique_ptr<integrators::Integrator> integrator);
  ~MultibodySimulation() override;

  std::string name() const override { return scene_.scene.name; }
  double time_step() const override { return scene_.scene.time_step; }
  long steps() const override { return steps_; }
  double time() const override { return scene_.scene.state.t; }
  SimulationSize size() const override;
  std::vector<std::string> scalar_names() const override;
  StepOutcome step() override;
  std::vector<OutputMesh> output_meshes() const override;
  std::vector<Obstacle> obstacles() const override { return scene_.obstacles; }  ///< static
  void save(std::ostream& out) const override;
  void restore(std::istream& in) override;

  /// The scene (system, constraints, current state).
  const MultibodyScene& scene() const { return scene_; }
  /// The current state (t, q, u; u the reduced velocities when the scene has a ReducedSystem).
  const integrators::State& state() const { return scene_.scene.state; }
  /// Every velocity of the system at the current state (u itself, or T u + s when reduced).
  const Eigen::VectorXd& velocities() const { return velocities_; }
  /// Replaces the state's positions @p q (num_positions) and velocities @p u (the reduced ones
  /// when the scene has a ReducedSystem) at the current time; the contact warm start is kept.
  /// @throws sinew::Error on a size mismatch, a non-finite entry or a body quaternion whose norm
  ///         is off by more than 1e-6 (naming the body); the state is then unchanged.
  void set_state(const Eigen::VectorXd& q, const Eigen::VectorXd& u);
  /// The two-stage contact step (its last global problem and impulses); null when an Integrator
  /// steps the scene.
  const integrators::ContactStep* contact_step() const { return contact_step_.get(); }
  /// The contact step that made the last step: the fallback when it redid it, else
  /// contact_step() (also before the first step and after restore()).
  const integrators::ContactStep* last_contact_step() const { return last_step_ ? last_step_ : contact_step_.get(); }

 private:
  void init_rests();
  // What steps: the ReducedSystem when there is one, else the system.
  const model::DynamicalSystem& dynamics() const;
  // velocities_ from the current state.
  void update_velocities();
  // Appends every body's state (the body columns of scalar_names()).
  void append_body_states(std::vector<double>& out) const;

  MultibodyScene scene_;
  std::unique_ptr<integrators::ContactStep> contact_step_, fallback_;
  const integrators::ContactStep* last_step_ = nullptr;  // what made the last step (null: contact_step_)
  std::unique_ptr<integrators::Integrator> integrator_;
  std::vector<const constraints::Constraint*> constraints_;
  long steps_ = 0;
  Eigen::VectorXd velocities_;  // every velocity of the system (see velocities())
  // (system velocities) contact forces J^T r / h of the last step; empty when it had no rows.
  Eigen::VectorXd contact_force_;
  // (n_fem_bodies) rest inverse edge matrices and volumes of each body's tets.
  std::vector<std::vector<TetRest>> rests_;
};

}  // namespace sinew::scene
