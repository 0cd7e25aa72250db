/// @file
/// @brief LocalGlobalSimulation: a SolidScene (or a ClothScene) stepped by
/// LocalGlobalIntegrator behind the Simulation interface, with per-step scalars, per-body VTK
/// frames (velocity, contact force, stress) and obstacles to draw.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/scene/cloth_scenes.hpp"
#include "sinew/scene/simulation.hpp"
#include "sinew/scene/solid_scenes.hpp"

namespace sinew::scene {

/// One body of a local-global description: contiguous ranges of its vertices and elements.
struct LocalGlobalBody {
  std::string name;                ///< file-name safe id used for its output files
  Index first_vertex = 0;          ///< first vertex in the description
  Index vertex_count = 0;          ///< vertices [first_vertex, first_vertex + vertex_count)
  std::size_t first_tet = 0;       ///< first tetrahedron (index into description.tets / 4)
  std::size_t tet_count = 0;       ///< tetrahedra of the body
  std::size_t first_triangle = 0;  ///< first triangle (index into description.triangles / 3)
  std::size_t triangle_count = 0;  ///< triangles of the body
};

/// @p cloth as a SolidScene: same description and options, its driven targets as the driver
/// (drive_targets()), frames = cloth.steps.
SolidScene solid_scene_from_cloth(const ClothScene& cloth);

/// A SolidScene stepped by LocalGlobalIntegrator (one step = the scene's driver, then step()).
///
/// Per-step scalars (scalar_names()): "kinetic_energy" (1/2 v^T M v, J), "incremental_potential"
/// (the last entry of LocalGlobalReport::energies, J; NaN unless options.record_energy),
/// "contacts", "iterations" (L-G), "newton_steps", "cr_iterations", "contact_error" (natural-map
/// error of the last iteration), "max_cable_impulse" (max |r| over cables, N s), then wall times
/// in milliseconds: "step_ms" (the whole call, driver included), "local_ms", "rhs_ms",
/// "global_ms", "collision_ms", "schur_ms", "assembly_ms", "constraint_ms", "correction_ms"
/// (options.time_phases is turned on); then each body's centre of mass and kinetic energy
/// (deformable_body_columns(), body_state.hpp).
///
/// Output meshes, one per body: point fields "velocity" (m/s) and "contact_force" (N, world
/// frame: sum over the vertex's contacts of (n r_n + t1 r_t1 + t2 r_t2) / h from the last
/// report); cell fields "stress" on tets (von Mises stress of the Cauchy stress
/// sigma = P F^T / det F, P the model's first Piola-Kirchhoff stress, Pa) and
/// "max_principal_stretch" on triangles (the largest singular value of the membrane's 3x2 F).
class LocalGlobalSimulation : public Simulation {
 public:
  /// Builds the integrator for @p scene on @p backend (which must outlive this). @p bodies split
  /// the description into named bodies for output_meshes() (contiguous, in order, covering every
  /// vertex); empty = one body named after the scene.
  /// @throws sinew::Error as LocalGlobalIntegrator's constructor, or when @p bodies do not cover
  ///         the description's vertices and elements in order.
  LocalGlobalSimulation(Backend& backend, SolidScene scene, std::vector<LocalGlobalBody> bodies = {});
  ~LocalGlobalSimulation() override;

  std::string name() const override;                       ///< the scene's name
  double time_step() const override;                       ///< h (s)
  long steps() const override;                             ///< steps taken
  double time() const override;                            ///< steps times h (s)
  SimulationSize size() const override;                    ///< vertices, elements, constraints
  std::vector<std::string> scalar_names() const override;  ///< see the class comment
  StepOutcome step() override;                             ///< driver, then one L-G step
  std::vector<OutputMesh> output_meshes() const override;  ///< one per body (class comment)
  std::vector<Obstacle> obstacles() const override;        ///< at their current poses, hidden ones left out
  void save(std::ostream& out) const override;             ///< the integrator's state
  /// Reads what save() wrote; the last step's report is cleared (contact forces read 0 until the
  /// next step). @throws sinew::Error as LocalGlobalIntegrator::restore().
  void restore(std::istream& in) override;

  /// Leaves obstacle @p k out of obstacles(), e.g. a stand-in that follows a body drawn
  /// already. @throws sinew::Error when k is out of range.
  void hide_obstacle(std::size_t k);
  /// Replaces positions and velocities, (3 n_vertices) interleaved each (the contact warm start
  /// is kept). @throws sinew::Error on a size mismatch or a non-finite entry; the state is then
  /// unchanged.
  void set_state(const std::vector<double>& positions, const std::vector<double>& velocities);
  /// The integrator (read-only: e.g. positions, masses, obstacles).
  const integrators::LocalGlobalIntegrator& integrator() const;
  /// The last step's report (default-constructed before the first step).
  const integrators::LocalGlobalReport& last_report() const;
  /// The scene it runs.
  const SolidScene& scene() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sinew::scene
