/// @file
/// @brief Simulation: one running scene behind one interface, whatever integrator steps it (the
/// local-global pipeline, the two-stage contact step of multibody scenes, an implicit integrator):
/// what `sinew run`, the run loop (runner.hpp), the outputs and checkpoints need from a scene.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "sinew/collision/obstacle.hpp"
#include "sinew/core/config.hpp"
#include "sinew/scene/vtk_writer.hpp"

namespace sinew::scene {

/// How big a scene is: what `sinew info` prints.
struct SimulationSize {
  Index vertices = 0;            ///< deformable vertices (all bodies)
  std::size_t tets = 0;          ///< tetrahedra
  std::size_t triangles = 0;     ///< membrane triangles (cloth)
  std::size_t rigid_bodies = 0;  ///< rigid bodies
  std::size_t obstacles = 0;     ///< static or moving obstacles
  std::size_t targets = 0;       ///< positional targets (pinned or driven vertices)
  std::size_t cables = 0;        ///< cables
  std::size_t joints = 0;        ///< bilateral joints
  Index degrees_of_freedom = 0;  ///< velocity unknowns
};

/// What one step did: its status and one value per Simulation::scalar_names() column.
struct StepOutcome {
  bool advanced = true;  ///< false: numerical trouble (NaN, divergence, ...); the state was not advanced
  /// True when the step was taken (no numerical trouble).
  bool ok() const { return advanced; }
  std::string message;          ///< what went wrong, where and when; empty when ok
  std::vector<double> scalars;  ///< (scalar_names().size()) this step's per-step scalars
  /// The step was taken but is suspect (e.g. a contact solve accepted above its solver's accept
  /// limit): what and by how much; empty otherwise. The run counts such steps (RunResult).
  std::string warning;
};

/// One named body of the current state as a VTK frame (points, cells and fields).
struct OutputMesh {
  std::string name;  ///< file-name safe id (letters, digits, '_', '-'), e.g. "bar", "cloth", "rigid"
  VtuFrame frame;    ///< positions, cells; point fields "velocity", "contact_force"; cell field "stress"
};

/// A scene being simulated. Implementations: LocalGlobalSimulation (local_global_simulation.hpp),
/// MultibodySimulation (multibody_simulation.hpp).
class Simulation {
 public:
  virtual ~Simulation() = default;
  /// Short id of the scene, e.g. "twisting_bar".
  virtual std::string name() const = 0;
  /// Step size h (s).
  virtual double time_step() const = 0;
  /// Steps taken since t = 0 (restored by restore()).
  virtual long steps() const = 0;
  /// Simulated time (s).
  virtual double time() const = 0;
  /// Counts of vertices, elements, bodies, constraints.
  virtual SimulationSize size() const = 0;
  /// Column names of StepOutcome::scalars, e.g. "kinetic_energy", "contacts", "iterations",
  /// "residual", "frame_ms"; time-dependent columns (wall times) end in "_ms".
  virtual std::vector<std::string> scalar_names() const = 0;
  /// Drives targets, obstacles and cables for the next step, then advances one step of h.
  /// Numerical trouble is reported in the outcome, never thrown.
  virtual StepOutcome step() = 0;
  /// The current state of every body, for VTK output and snapshots.
  virtual std::vector<OutputMesh> output_meshes() const = 0;
  /// The obstacles at their current poses, those that stand in for a body already in
  /// output_meshes() left out: what a picture of the scene shows besides its bodies.
  virtual std::vector<Obstacle> obstacles() const = 0;
  /// Writes everything the next steps depend on (positions, velocities, time, driven targets,
  /// obstacle poses, warm starts), doubles as raw bits: restore() then continues bit for bit.
  virtual void save(std::ostream& out) const = 0;
  /// Reads what save() wrote for the same scene. @throws sinew::Error when the data is truncated
  /// or does not fit this scene (sizes differ); the state is then unchanged.
  virtual void restore(std::istream& in) = 0;
};

}  // namespace sinew::scene
