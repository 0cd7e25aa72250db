/// @file
/// @brief The run loop of a Simulation (what `sinew run` does, for library users too): steps it,
/// reports progress, writes the per-step scalars (run.csv), VTK frames and .pvd series, OBJ
/// surfaces, PNG snapshots and checkpoints to an output folder, and resumes from a checkpoint
/// bit for bit. Every output file is written atomically, so an interrupted run leaves whole files.
///
/// Layout of the output folder; every file is numbered by the step it shows (6 digits or more),
/// so that a frame, a snapshot and a checkpoint of one step share its number:
/// - `sinew_run.txt`: the manifest, every file the run wrote with its step. A folder holding an
///   earlier run is refused unless RunOptions::overwrite, which first removes exactly the files
///   its manifest lists (nothing else in the folder); a run resumed there from step K
///   (RunOptions::resume) keeps the earlier run's files up to step K and removes those after it.
/// - `run.csv`: one row per step (step 0 = the initial state): `step,t,<scalar_names()...>`;
///   rewritten at output frames (at most about once per RunOptions::csv_interval_seconds), at
///   checkpoints and at the end, so an interrupted run leaves a complete CSV of the rows so far.
///   Non-finite scalars are written as `nan`, `inf` or `-inf`, never hidden. A failed step's row
///   is written too. A run resumed in the same folder keeps the earlier run.csv's rows up to its
///   checkpoint's step, so the table reads as one run.
/// - `vtu/<body>.pvd` and `vtu/<body>_SSSSSS.vtu`: one VTK frame per output frame and body at
///   step SSSSSS (a run resumed in the same folder continues the series).
/// - `obj/<body>_SSSSSS.obj`: the body's surface at step SSSSSS (when OutputSettings::obj).
/// - `png/step_SSSSSS.png`: a snapshot at step SSSSSS (every OutputSettings::png_every steps),
///   drawn by RunOptions::snapshots (render::png_snapshots(): one camera fixed for the whole run,
///   so the images form a steady movie: `ffmpeg -framerate 30 -pattern_type glob -i 'png/*.png' movie.mp4`).
/// - `checkpoints/step_SSSSSS.sinewckpt`: the state after step SSSSSS (see save_checkpoint()),
///   every OutputSettings::checkpoint_every steps, at OutputSettings::checkpoint_at, and, when
///   either is set, at the end or a stop, so that a run can always be continued.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sinew/collision/obstacle.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/scene_file.hpp"
#include "sinew/scene/simulation.hpp"

namespace sinew::scene {

/// Draws one snapshot of a run into the file @p png: the bodies' surfaces (in output_meshes()
/// order) and the obstacles at their poses. The runner knows nothing of pictures: sinew's renderer
/// gives one (render::png_snapshots()), a user may pass their own. Called in step order; throws
/// sinew::Error naming @p png when it cannot write it.
using SnapshotWriter = std::function<void(const std::vector<TriangleMesh>& bodies,
                                          const std::vector<Obstacle>& obstacles, const std::filesystem::path& png)>;

/// What run_simulation() does and writes.
struct RunOptions {
  std::filesystem::path out_dir = "results";  ///< output folder (created once the run starts)
  /// Replace an earlier run in out_dir: remove the files its manifest lists before starting.
  /// false: such a folder is refused (a resumed run may always continue in its own folder).
  bool overwrite = false;
  /// Run until Simulation::steps() reaches this (a step count from t = 0, so a resumed run ends
  /// where the uninterrupted one would); must be > the starting step.
  long steps = 0;
  OutputSettings outputs;  ///< what to write and when
  /// Checkpoint to restore before the first step (load_checkpoint()); none: start from the
  /// simulation's current state.
  std::optional<std::filesystem::path> resume;
  /// Fingerprint of the scene's source (e.g. fnv1a64() of the scene-file text) stored in
  /// checkpoints; a checkpoint written with a different non-zero one is refused. 0: not checked.
  std::uint64_t scene_hash = 0;
  /// run.csv is rewritten at an output frame only when this long (wall clock, s) has passed since
  /// it was last written (0: at every output frame); it is always written at checkpoints, at a
  /// failure, a stop and the end. Bounds the cost of rewriting a long CSV at frequent frames.
  double csv_interval_seconds = 1.0;
  /// Draws the PNG snapshots; required when outputs.png_every > 0 (render::png_snapshots(outputs)).
  SnapshotWriter snapshots;
};

/// What the progress callback sees after each step.
struct RunProgress {
  long step = 0;                                    ///< steps done since t = 0 (Simulation::steps())
  long first_step = 0;                              ///< the step the run started from (0 or the checkpoint's)
  long steps = 0;                                   ///< the step the run ends at (RunOptions::steps)
  double time = 0.0;                                ///< simulated time (s)
  double wall_seconds = 0.0;                        ///< wall time since the first step began (s)
  double eta_seconds = 0.0;                         ///< estimated wall time to the last step (s)
  const StepOutcome* outcome = nullptr;             ///< the step just taken
  const std::vector<std::string>* names = nullptr;  ///< names of outcome->scalars
};

/// Called after every successful step; returning false stops the run cleanly (outputs and, when
/// checkpoints are on, a checkpoint of the current step are written).
using ProgressCallback = std::function<bool(const RunProgress&)>;

/// How a run ended and what it wrote.
struct RunResult {
  /// How the run ended.
  enum class Status {
    kCompleted,  ///< reached RunOptions::steps
    kStopped,    ///< the progress callback returned false
    kFailed      ///< a step was not ok (or produced non-finite positions): see message
  };
  Status status = Status::kCompleted;              ///< how it ended
  std::string message;                             ///< failed: the step and what went wrong
  long first_step = 0;                             ///< Simulation::steps() when the run began (after a resume)
  long last_step = 0;                              ///< Simulation::steps() when it ended
  double wall_seconds = 0.0;                       ///< wall time of the stepping loop (s)
  long frames = 0;                                 ///< output frames written (VTU/OBJ), the initial one included
  long snapshots = 0;                              ///< PNG snapshots written
  std::vector<std::filesystem::path> checkpoints;  ///< checkpoint files written, in order
  std::filesystem::path csv;                       ///< run.csv ("" when OutputSettings::csv is off)
  std::vector<std::filesystem::path> series;       ///< the .pvd series, one per body
  /// Steps whose scalars held a NaN or an infinity (they are in run.csv as written).
  long non_finite_steps = 0;
  std::string first_non_finite;  ///< "step K, column C" of the first such scalar; "" when none
  /// Steps taken with a warning (StepOutcome::warning): accepted, but suspect.
  long warned_steps = 0;
  std::string first_warning;  ///< "step K: <warning>" of the first such step; "" when none
  /// True when the run reached its last step.
  bool ok() const { return status == Status::kCompleted; }
};

/// Steps @p sim from its current state (or from RunOptions::resume) to RunOptions::steps, writing
/// the outputs of RunOptions::outputs under RunOptions::out_dir (see the file comment), calling
/// @p progress after every step. A step that is not ok ends the run with Status::kFailed after
/// writing run.csv (its row included); numerical trouble is reported, not thrown.
/// @throws sinew::Error before anything is written when the options are invalid (steps not after
///         the start, every < 1, PNG asked for without a snapshot writer or larger than
///         16384 pixels a side), the resume checkpoint cannot be loaded, or out_dir holds an earlier run and
///         overwrite is off; during the run only when an output cannot be written (naming the
///         file).
RunResult run_simulation(Simulation& sim, const RunOptions& options, const ProgressCallback& progress = {});

/// The 64-bit FNV-1a hash of @p bytes (a stable fingerprint of scene-file text).
std::uint64_t fnv1a64(std::string_view bytes);

/// What a checkpoint file says about itself.
struct CheckpointHeader {
  std::uint32_t version = 0;      ///< format version
  std::string scene_name;         ///< Simulation::name() of the writer
  std::uint64_t fingerprint = 0;  ///< simulation_fingerprint() of the writer
  std::uint64_t scene_hash = 0;   ///< RunOptions::scene_hash of the writer (0: none)
  long steps = 0;                 ///< Simulation::steps() when written
  double time = 0.0;              ///< Simulation::time() when written
};

/// A fingerprint of what a checkpoint must match: name, sizes, time step and scalar names.
std::uint64_t simulation_fingerprint(const Simulation& sim);

/// Writes @p sim's state to @p path atomically: magic "SINEWCKP", format version, scene name,
/// simulation_fingerprint(), @p scene_hash, steps, time, the length and FNV-1a hash of
/// Simulation::save()'s payload, then the payload (little-endian, doubles as raw bits).
/// @throws sinew::Error naming @p path when it cannot be written.
void save_checkpoint(const std::filesystem::path& path, const Simulation& sim, std::uint64_t scene_hash = 0);

/// Reads the header of the checkpoint @p path (not its payload).
/// @throws sinew::Error naming @p path when it cannot be read or is not a sinew checkpoint.
CheckpointHeader read_checkpoint_header(const std::filesystem::path& path);

/// Restores @p sim from the checkpoint @p path and returns its header. Refused (sinew::Error
/// naming @p path, @p sim left unchanged) when the file is missing, truncated, garbled (payload
/// hash), of another format version, written for another scene (name or fingerprint differ, or
/// both @p scene_hash and the file's are non-zero and differ), or Simulation::restore() rejects it.
CheckpointHeader load_checkpoint(const std::filesystem::path& path, Simulation& sim, std::uint64_t scene_hash = 0);

}  // namespace sinew::scene
