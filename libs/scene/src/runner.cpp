// The run loop of runner.hpp: steps a Simulation and writes its outputs.
#include "sinew/scene/runner.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <system_error>

#include "run_folder.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/scene/file_names.hpp"
#include "sinew/scene/mesh_io.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {
namespace {

using Clock = std::chrono::steady_clock;

std::string step_tag(long step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%06ld", step);
  return buf;
}

// "0.35 s": a time for messages.
std::string seconds_text(double t) { return number_text(t, 6) + " s"; }

// A CSV cell: shortest text that reads back to the same double; non-finite values spelled out.
void append_number(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "nan";
  } else if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
  } else {
    char buf[40];
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
}

// "" when every value of the frame is finite, else what is not.
std::string non_finite_in(const OutputMesh& m) {
  for (double v : m.frame.points)
    if (!std::isfinite(v)) return "body '" + m.name + "': positions";
  for (const auto* fields : {&m.frame.point_fields, &m.frame.cell_fields})
    for (const VtuField& f : *fields)
      for (double v : f.values)
        if (!std::isfinite(v)) return "body '" + m.name + "': field '" + f.name + "'";
  return "";
}

// Rows of run.csv kept by a previous run in the same folder up to and including @p last_step,
// when its header is @p header (a resumed run continues the same table); "" otherwise.
std::string previous_rows(const std::filesystem::path& csv, const std::string& header, long last_step) {
  std::ifstream in(csv);
  if (!in) return "";
  std::string line, kept;
  if (!std::getline(in, line) || line + '\n' != header) return "";
  while (std::getline(in, line)) {
    char* end = nullptr;
    const long step = std::strtol(line.c_str(), &end, 10);
    if (end == line.c_str() || *end != ',' || step > last_step) break;
    kept += line + '\n';
  }
  return kept;
}

// The outputs of one run: state shared by the loop's writers.
class RunWriter {
 public:
  RunWriter(Simulation& sim, const RunOptions& o, RunResult& result, detail::RunFolder& folder)
      : sim_(sim), o_(o), out_(o.outputs), result_(result), folder_(folder), names_(sim.scalar_names()) {
    header_ = "step,t";
    for (const std::string& n : names_) header_ += ',' + n;
    header_ += '\n';
  }

  const std::vector<std::string>& names() const { return names_; }

  // Creates the folder (removing the earlier run's files this run replaces) and keeps a resumed
  // run's earlier CSV rows.
  void start() {
    first_step_ = sim_.steps();
    folder_.prepare();
    if (out_.csv) {
      result_.csv = o_.out_dir / "run.csv";
      if (o_.resume) rows_ = previous_rows(result_.csv, header_, sim_.steps());
      folder_.note({{-1, "run.csv"}});
    }
  }

  // Adds the CSV row of the step just attempted (@p t: the time it reached or would have).
  void add_row(long step, double t, const StepOutcome& outcome) {
    if (outcome.ok() && outcome.scalars.size() != names_.size())
      throw Error("run: simulation '" + sim_.name() + "' returned " + std::to_string(outcome.scalars.size()) +
                  " scalars at step " + std::to_string(step) + ", expected " + std::to_string(names_.size()) +
                  " (its scalar_names())");
    rows_ += std::to_string(step);
    rows_ += ',';
    append_number(rows_, t);
    bool finite = true;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      const double v = i < outcome.scalars.size() ? outcome.scalars[i] : std::numeric_limits<double>::quiet_NaN();
      rows_ += ',';
      append_number(rows_, v);
      if (!std::isfinite(v) && finite && outcome.ok()) {
        finite = false;
        if (result_.first_non_finite.empty())
          result_.first_non_finite = "step " + std::to_string(step) + ", column " + names_[i];
      }
    }
    rows_ += '\n';
    if (!finite) ++result_.non_finite_steps;
  }

  // Writes run.csv now when @p force, or when csv_interval_seconds passed since the last write.
  void write_csv(bool force) {
    if (!out_.csv) return;
    const auto now = Clock::now();
    if (!force && wrote_csv_ && std::chrono::duration<double>(now - last_csv_).count() < o_.csv_interval_seconds)
      return;
    write_file_atomically(result_.csv, header_ + rows_);
    last_csv_ = now;
    wrote_csv_ = true;
  }

  // Writes the VTU/OBJ frame and (@p snapshot) the PNG of the current state. Returns "" or, when
  // the state holds non-finite values, what they are (nothing is written then).
  std::string write_frame(bool frame, bool snapshot) {
    const long step = sim_.steps();
    if (step == last_frame_) frame = false;
    if (step == last_snapshot_) snapshot = false;
    frame = frame && (out_.vtu || out_.obj);
    if (!frame && !snapshot) return "";
    const std::vector<OutputMesh> meshes = sim_.output_meshes();
    check_bodies(meshes);
    for (const OutputMesh& m : meshes) {
      const std::string bad = non_finite_in(m);
      if (!bad.empty()) return bad;
    }
    // Every file is listed in the manifest before it is written.
    std::vector<detail::RunFile> files;
    if (frame)
      for (std::size_t b = 0; b < meshes.size(); ++b) {
        if (out_.vtu) files.push_back({step, "vtu/" + series_[b].frame_file(step)});
        if (out_.vtu) files.push_back({-1, "vtu/" + meshes[b].name + ".pvd"});
        if (out_.obj) files.push_back({step, "obj/" + obj_file(meshes[b].name, step)});
      }
    if (snapshot) files.push_back({step, "png/" + png_file(step)});
    folder_.note(files);
    // The bodies' surfaces, for the OBJ files and the snapshot.
    std::vector<TriangleMesh> surfaces;
    if ((frame && out_.obj) || snapshot)
      for (std::size_t b = 0; b < meshes.size(); ++b) surfaces.push_back(surface(b, meshes[b]));
    if (frame) {
      for (std::size_t b = 0; b < meshes.size(); ++b) {
        if (out_.vtu) series_[b].add(sim_.time(), step, meshes[b].frame);
        if (out_.obj) write_obj(surfaces[b], o_.out_dir / "obj" / obj_file(meshes[b].name, step));
      }
      last_frame_ = step;
      ++result_.frames;
    }
    if (snapshot) {
      o_.snapshots(surfaces, sim_.obstacles(), o_.out_dir / "png" / png_file(step));
      last_snapshot_ = step;
      ++result_.snapshots;
    }
    return "";
  }

  // Writes a checkpoint of the current state (once per step).
  void write_checkpoint() {
    const long step = sim_.steps();
    if (step == last_checkpoint_) return;
    const std::string name = "step_" + step_tag(step) + ".sinewckpt";
    folder_.note({{step, "checkpoints/" + name}});
    const std::filesystem::path p = o_.out_dir / "checkpoints" / name;
    save_checkpoint(p, sim_, o_.scene_hash);
    result_.checkpoints.push_back(p);
    last_checkpoint_ = step;
  }

 private:
  // Body names and count fixed at the first frame; series made then.
  void check_bodies(const std::vector<OutputMesh>& meshes) {
    if (bodies_.empty() && !meshes.empty()) {
      for (const OutputMesh& m : meshes) {
        if (!is_safe_file_name(m.name))
          throw Error("run: simulation '" + sim_.name() + "' names a body '" + m.name + "'; expected " +
                      kSafeFileNameRule);
        if (std::find(bodies_.begin(), bodies_.end(), m.name) != bodies_.end())
          throw Error("run: simulation '" + sim_.name() + "' has two bodies named '" + m.name + "'");
        bodies_.push_back(m.name);
        if (out_.vtu) {
          // A run resumed in its earlier folder continues the earlier series with its frames up
          // to the resume step (the folder removed the later ones).
          const std::filesystem::path pvd = o_.out_dir / "vtu" / (m.name + ".pvd");
          series_.emplace_back(pvd, kept_frames(pvd, "vtu/" + m.name + ".pvd"));
          result_.series.push_back(pvd);
        }
      }
      surfaces_.resize(meshes.size());
      have_surface_.assign(meshes.size(), false);
    }
    bool same = meshes.size() == bodies_.size();
    for (std::size_t b = 0; same && b < meshes.size(); ++b) same = meshes[b].name == bodies_[b];
    if (!same)
      throw Error("run: simulation '" + sim_.name() + "' changed its bodies at step " + std::to_string(sim_.steps()) +
                  " (output_meshes() must list the same bodies in the same order)");
  }

  // The frames of the earlier series @p pvd (@p listed in the manifest) that the folder kept.
  std::vector<PvdEntry> kept_frames(const std::filesystem::path& pvd, const std::string& listed) const {
    if (!folder_.lists(listed)) return {};
    std::vector<PvdEntry> frames;
    for (PvdEntry& e : read_pvd(pvd))
      if (folder_.lists("vtu/" + e.file)) frames.push_back(std::move(e));
    return frames;
  }

  static std::string obj_file(const std::string& body, long step) { return body + "_" + step_tag(step) + ".obj"; }
  static std::string png_file(long step) { return "step_" + step_tag(step) + ".png"; }

  // The body's surface: boundary faces of its tets (topology computed once) and its triangles.
  TriangleMesh surface(std::size_t b, const OutputMesh& m) {
    TriangleMesh s;
    const std::size_t n = m.frame.points.size() / 3;
    s.vertices.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      s.vertices[i] = Vec3{{m.frame.points[3 * i], m.frame.points[3 * i + 1], m.frame.points[3 * i + 2]}};
    if (!have_surface_[b]) {
      if (!m.frame.tets.empty()) surfaces_[b] = boundary_triangles(TetMesh{s.vertices, m.frame.tets, {}, {}}).triangles;
      surfaces_[b].insert(surfaces_[b].end(), m.frame.triangles.begin(), m.frame.triangles.end());
      have_surface_[b] = true;
    }
    s.triangles = surfaces_[b];
    return s;
  }

  Simulation& sim_;
  const RunOptions& o_;
  const OutputSettings& out_;
  RunResult& result_;
  detail::RunFolder& folder_;
  std::vector<std::string> names_;
  std::string header_, rows_;  // run.csv: header line, rows so far
  bool wrote_csv_ = false;
  Clock::time_point last_csv_{};
  std::vector<std::string> bodies_;                          // (n_bodies) names fixed at the first frame
  std::vector<PvdSeries> series_;                            // (n_bodies) when vtu
  std::vector<std::vector<std::array<Index, 3>>> surfaces_;  // (n_bodies) surface triangles
  std::vector<bool> have_surface_;                           // (n_bodies)
  long first_step_ = 0;                                      // Simulation::steps() when the run started
  long last_frame_ = -1, last_snapshot_ = -1, last_checkpoint_ = -1;
};

void check_options(const RunOptions& o) {
  const OutputSettings& s = o.outputs;
  require(s.every >= 1, "run: outputs every must be >= 1, got " + std::to_string(s.every));
  require(s.png_every >= 0, "run: png_every must be >= 0, got " + std::to_string(s.png_every));
  require(s.checkpoint_every >= 0, "run: checkpoint_every must be >= 0, got " + std::to_string(s.checkpoint_every));
  for (long k : s.checkpoint_at)
    require(k >= 1, "run: checkpoint_at holds step " + std::to_string(k) + "; expected >= 1");
  require(std::isfinite(o.csv_interval_seconds) && o.csv_interval_seconds >= 0.0,
          "run: csv_interval_seconds must be finite and >= 0");
  if (s.png_every > 0) {
    require(s.png_width >= 1 && s.png_width <= 16384 && s.png_height >= 1 && s.png_height <= 16384,
            "run: PNG size " + std::to_string(s.png_width) + " x " + std::to_string(s.png_height) +
                " out of range (1..16384 per side)");
    require(static_cast<bool>(o.snapshots), "run: PNG snapshots asked for (png_every = " + std::to_string(s.png_every) +
                                                ") but RunOptions::snapshots is empty; pass a writer such as "
                                                "render::png_snapshots(outputs)");
  }
  require(!o.out_dir.empty(), "run: the output folder name is empty");
}

}  // namespace

RunResult run_simulation(Simulation& sim, const RunOptions& o, const ProgressCallback& progress) {
  // Everything that can be refused is refused before the output folder exists.
  check_options(o);
  // The folder is checked before the state is touched: a refused folder leaves sim as it was.
  detail::RunFolder folder(o.out_dir, o.overwrite, o.resume ? read_checkpoint_header(*o.resume).steps : -1);
  if (o.resume) load_checkpoint(*o.resume, sim, o.scene_hash);
  RunResult result;
  result.first_step = result.last_step = sim.steps();
  require(o.steps > result.first_step, "run: the run ends at step " + std::to_string(o.steps) +
                                           ", which is not after its start at step " +
                                           std::to_string(result.first_step));
  const OutputSettings& s = o.outputs;
  const bool checkpoints_on = s.checkpoint_every > 0 || !s.checkpoint_at.empty();
  RunWriter w(sim, o, result, folder);
  w.start();

  const auto start = Clock::now();
  // Ends the run: the last state's frame, snapshot and checkpoint (unless @p state_finite is
  // false: nothing can be written of it), then run.csv.
  auto finish = [&](RunResult::Status status, std::string message, bool state_finite = true) {
    result.status = status;
    result.message = std::move(message);
    result.last_step = sim.steps();
    result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (state_finite) {
      const std::string bad = w.write_frame(true, s.png_every > 0);  // the last state, if not yet written
      if (!bad.empty() && status != RunResult::Status::kFailed) {
        result.status = RunResult::Status::kFailed;
        result.message = "step " + std::to_string(sim.steps()) + ": the state holds non-finite values (" + bad + ")";
      }
    }
    if (checkpoints_on && result.status != RunResult::Status::kFailed) w.write_checkpoint();
    w.write_csv(true);
    return result;
  };

  try {
    const std::string bad = w.write_frame(true, s.png_every > 0);
    if (!bad.empty())
      return finish(RunResult::Status::kFailed,
                    "step " + std::to_string(sim.steps()) + ": the initial state holds non-finite values (" + bad + ")",
                    false);
    while (sim.steps() < o.steps) {
      const long k = sim.steps() + 1;
      const double t_before = sim.time();
      const StepOutcome outcome = sim.step();
      if (!outcome.ok()) {
        w.add_row(k, t_before + sim.time_step(), outcome);
        return finish(RunResult::Status::kFailed,
                      "step " + std::to_string(k) + " (from t = " + seconds_text(t_before) +
                          ") failed: " + (outcome.message.empty() ? std::string("no reason given") : outcome.message));
      }
      if (sim.steps() != k)
        throw Error("run: simulation '" + sim.name() + "' reported ok at step " + std::to_string(k) +
                    " but its step count is " + std::to_string(sim.steps()));
      w.add_row(k, sim.time(), outcome);
      if (!outcome.warning.empty() && result.warned_steps++ == 0)
        result.first_warning = "step " + std::to_string(k) + ": " + outcome.warning;
      const bool last = k == o.steps;
      const bool frame = last || k % s.every == 0;
      const bool snapshot = s.png_every > 0 && (last || k % s.png_every == 0);
      const std::string non_finite = w.write_frame(frame, snapshot);
      if (!non_finite.empty())
        return finish(
            RunResult::Status::kFailed,
            "step " + std::to_string(k) + " reported ok, but the state holds non-finite values (" + non_finite + ")",
            false);
      const bool checkpoint = (s.checkpoint_every > 0 && k % s.checkpoint_every == 0) ||
                              std::find(s.checkpoint_at.begin(), s.checkpoint_at.end(), k) != s.checkpoint_at.end();
      if (checkpoint) w.write_checkpoint();
      if (frame || checkpoint) w.write_csv(checkpoint);
      if (progress) {
        RunProgress p;
        p.step = k;
        p.first_step = result.first_step;
        p.steps = o.steps;
        p.time = sim.time();
        p.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
        p.eta_seconds = p.wall_seconds / static_cast<double>(k - result.first_step) * static_cast<double>(o.steps - k);
        p.outcome = &outcome;
        p.names = &w.names();
        if (!progress(p) && !last) return finish(RunResult::Status::kStopped, "stopped at step " + std::to_string(k));
      }
    }
  } catch (...) {
    // An output could not be written: keep the CSV of the steps so far, then report.
    try {
      w.write_csv(true);
    } catch (...) {
    }
    throw;
  }
  return finish(RunResult::Status::kCompleted, "");
}

}  // namespace sinew::scene
