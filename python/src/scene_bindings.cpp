// Scene files and simulations from Python: read a scene file, make its simulation on a backend
// chosen by name, step it, run it (what `sinew run` does, with a Python progress callback), and
// read its state as numpy arrays.
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cstdint>
#include <optional>
#include <sstream>

#include "bindings.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/render/png_snapshots.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/runner.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::python {
namespace {

/// A scene file read and checked, with the fingerprint of its text (checkpoints check it).
struct Scene {
  scene::SceneFile file;        ///< what read_scene_file() made
  std::uint64_t text_hash = 0;  ///< fnv1a64 of the file's text, as `sinew run` computes it
};

/// A simulation with the backend it runs on (kept alive as long as the simulation).
struct PySimulation {
  SharedBackend backend;                   ///< the backend, made by name
  std::unique_ptr<scene::Simulation> sim;  ///< the running scene
  scene::OutputSettings outputs;           ///< the scene file's outputs (run()'s defaults)
  std::uint64_t scene_hash = 0;            ///< Scene::text_hash
  long scene_steps = 0;                    ///< the scene file's step count (run()'s default)
  std::atomic<bool> busy{false};           ///< a step or a run is going on (BusyGuard)
};

const scene::MultibodySimulation* multibody(const PySimulation& s) {
  return dynamic_cast<const scene::MultibodySimulation*>(s.sim.get());
}
const scene::LocalGlobalSimulation* local_global(const PySimulation& s) {
  return dynamic_cast<const scene::LocalGlobalSimulation*>(s.sim.get());
}

// (n x 3) array moved from @p xyz (3 n interleaved values): no copy.
py::array points_array(std::vector<double> xyz) {
  const auto n = static_cast<py::ssize_t>(xyz.size() / 3);
  return moved_array(std::move(xyz), {n, 3});
}

py::dict scalars_dict(const std::vector<std::string>& names, const std::vector<double>& values) {
  py::dict d;
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) d[py::str(names[i])] = values[i];
  return d;
}

// One output mesh as a dict: name, points (n x 3), tets (n_tets x 4), triangles (n_tri x 3),
// point_fields and cell_fields (name -> (count x components)).
py::dict mesh_dict(scene::OutputMesh mesh) {
  py::dict d;
  d["name"] = mesh.name;
  d["points"] = points_array(std::move(mesh.frame.points));
  d["tets"] = py::array(py::cast(mesh.frame.tets));
  d["triangles"] = py::array(py::cast(mesh.frame.triangles));
  auto fields = [](std::vector<scene::VtuField>& list) {
    py::dict out;
    for (scene::VtuField& f : list) {
      py::array a = py::array(py::cast(std::move(f.values)));
      out[py::str(f.name)] = a.attr("reshape")(-1, f.components);
    }
    return out;
  };
  d["point_fields"] = fields(mesh.frame.point_fields);
  d["cell_fields"] = fields(mesh.frame.cell_fields);
  return d;
}

// run(): the options as `sinew run` builds them from a scene file and its flags, then the run
// with the GIL released; the callback takes it back for each call.
scene::RunResult run(PySimulation& s, const std::filesystem::path& out, std::optional<long> steps,
                     std::optional<int> every, std::optional<int> png_every, bool overwrite,
                     std::optional<std::filesystem::path> resume, const py::object& progress) {
  scene::RunOptions run;
  run.outputs = s.outputs;
  run.steps = steps ? *steps : s.scene_steps;
  if (every) run.outputs.every = *every;
  if (png_every) run.outputs.png_every = *png_every;
  if (run.outputs.png_every > 0) run.snapshots = render::png_snapshots(run.outputs);
  run.resume = std::move(resume);
  run.out_dir = out;
  run.overwrite = overwrite;
  run.scene_hash = s.scene_hash;
  std::optional<py::error_already_set> raised;  // an exception of the callback, re-raised after the run
  const std::vector<std::string> names = s.sim->scalar_names();
  scene::ProgressCallback callback = [&](const scene::RunProgress& p) {
    py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl-C stops the run cleanly
      if (progress.is_none()) return true;
      py::dict info;
      info["step"] = p.step;
      info["first_step"] = p.first_step;
      info["steps"] = p.steps;
      info["time"] = p.time;
      info["wall_seconds"] = p.wall_seconds;
      info["eta_seconds"] = p.eta_seconds;
      info["scalars"] = scalars_dict(names, p.outcome->scalars);
      const py::object r = progress(info);
      return r.is_none() || r.cast<bool>();  // only a false answer stops
    } catch (py::error_already_set& e) {
      raised.emplace(std::move(e));
      return false;
    }
  };
  scene::RunResult result;
  {
    BusyGuard guard(s.busy, "Simulation.run");
    py::gil_scoped_release release;
    result = scene::run_simulation(*s.sim, run, callback);
  }
  if (raised) throw std::move(*raised);
  return result;
}

// A (rows x 3) array as (3 rows) interleaved values, from a 1-D or (n x 3) array.
std::vector<double> interleaved(const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
  return std::vector<double>(a.data(), a.data() + a.size());
}

void set_state(PySimulation& s, const py::array_t<double, py::array::c_style | py::array::forcecast>& positions,
               const py::array_t<double, py::array::c_style | py::array::forcecast>& velocities) {
  if (auto* lg = dynamic_cast<scene::LocalGlobalSimulation*>(s.sim.get()))
    return lg->set_state(interleaved(positions), interleaved(velocities));
  auto* mb = dynamic_cast<scene::MultibodySimulation*>(s.sim.get());
  require(mb != nullptr, [&] { return "set_state(): not available for scene '" + s.sim->name() + "'"; });
  const auto vec = [](const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
    return Eigen::Map<const Eigen::VectorXd>(a.data(), a.size());
  };
  mb->set_state(vec(positions), vec(velocities));
}

const char* status_name(scene::RunResult::Status s) {
  switch (s) {
    case scene::RunResult::Status::kCompleted:
      return "completed";
    case scene::RunResult::Status::kStopped:
      return "stopped";
    case scene::RunResult::Status::kFailed:
      return "failed";
  }
  return "?";
}

}  // namespace

void bind_scene(py::module_& m) {
  // Declared first: Scene.make() returns one, and its signature names the type.
  py::class_<PySimulation> simulation(m, "Simulation", "A running scene: step it, run it, read its state.");
  py::class_<Scene>(m, "Scene", "A scene file read and checked (docs/scene_files.md); make() builds its simulation.")
      .def_property_readonly(
          "name", [](const Scene& s) { return s.file.name; }, "The scene's name.")
      .def_property_readonly(
          "description", [](const Scene& s) { return s.file.description; }, "Free text.")
      .def_property_readonly(
          "kind", [](const Scene& s) { return s.file.kind; }, "'local_global' or 'multibody'.")
      .def_property_readonly(
          "backend", [](const Scene& s) { return s.file.backend; }, "The scene's backend ('' : the caller's default).")
      .def_property_readonly(
          "steps", [](const Scene& s) { return s.file.steps; }, "Steps the scene runs for.")
      .def_property_readonly(
          "time_step", [](const Scene& s) { return s.file.time_step; }, "h (s).")
      .def_property_readonly(
          "path", [](const Scene& s) { return s.file.path; }, "The file it was read from.")
      .def(
          "make",
          [](const Scene& s, const std::string& backend) {
            py::gil_scoped_release release;  // building may factor large matrices
            auto out = std::make_unique<PySimulation>();
            out->backend = backend_by_name(backend.empty() ? s.file.backend : backend);
            out->sim = s.file.make(*out->backend);
            out->outputs = s.file.outputs;
            out->scene_hash = s.text_hash;
            out->scene_steps = s.file.steps;
            return out;
          },
          py::arg("backend") = "",
          "The scene's simulation on the backend named `backend` ('' : the scene's, else $SINEW_BACKEND, else "
          "serial). Raises sinew.Error for an unknown or unusable backend or what only the integrator checks.");
  m.def(
      "read_scene",
      [](const std::filesystem::path& path) {
        py::gil_scoped_release release;  // reading may load large meshes
        Scene s{scene::read_scene_file(path), 0};
        s.text_hash = scene::fnv1a64(read_file(path, "a scene file"));
        return s;
      },
      py::arg("path"),
      "Reads and checks the scene file `path`; raises sinew.Error naming the file, the JSON path and what was "
      "expected.");

  m.def(
      "parse_scene",
      [](const std::string& text, const std::string& name, const std::filesystem::path& base_dir) {
        py::gil_scoped_release release;
        return Scene{scene::parse_scene(text, name, base_dir), scene::fnv1a64(text)};
      },
      py::arg("text"), py::arg("name") = "scene.json", py::arg("base_dir") = ".",
      "Reads and checks scene-file text (JSON); `name` names it in messages, `base_dir` resolves mesh files. "
      "sinew.scene_from_dict() builds the text from a dict holding numpy arrays.");

  py::class_<scene::StepOutcome>(m, "StepOutcome", "What one step did.")
      .def_property_readonly("ok", &scene::StepOutcome::ok, "False: numerical trouble; the state was not advanced.")
      .def_readonly("message", &scene::StepOutcome::message, "What went wrong; '' when ok.")
      .def_readonly("warning", &scene::StepOutcome::warning, "Why the step is suspect; '' otherwise.")
      .def_readonly("scalars", &scene::StepOutcome::scalars, "One value per Simulation.scalar_names column.");

  py::class_<scene::RunResult>(m, "RunResult", "How a run ended and what it wrote.")
      .def_property_readonly(
          "status", [](const scene::RunResult& r) { return status_name(r.status); },
          "'completed', 'stopped' or 'failed'.")
      .def_property_readonly("ok", &scene::RunResult::ok, "True when the run reached its last step.")
      .def_readonly("message", &scene::RunResult::message, "Failed: the step and what went wrong.")
      .def_readonly("first_step", &scene::RunResult::first_step, "Steps done when the run began.")
      .def_readonly("last_step", &scene::RunResult::last_step, "Steps done when it ended.")
      .def_readonly("wall_seconds", &scene::RunResult::wall_seconds, "Wall time of the stepping loop (s).")
      .def_readonly("csv", &scene::RunResult::csv, "run.csv ('' when off).")
      .def_readonly("series", &scene::RunResult::series, "The .pvd series, one per body.")
      .def_readonly("checkpoints", &scene::RunResult::checkpoints, "Checkpoint files written, in order.")
      .def_readonly("warned_steps", &scene::RunResult::warned_steps, "Steps accepted with a warning.");

  simulation
      .def_property_readonly(
          "name", [](const PySimulation& s) { return s.sim->name(); }, "The scene's name.")
      .def_property_readonly(
          "backend", [](const PySimulation& s) { return s.backend->name(); }, "Backend name.")
      .def_property_readonly(
          "time_step", [](const PySimulation& s) { return s.sim->time_step(); }, "h (s).")
      .def_property_readonly(
          "steps", [](const PySimulation& s) { return s.sim->steps(); }, "Steps since t = 0.")
      .def_property_readonly(
          "time", [](const PySimulation& s) { return s.sim->time(); }, "Simulated time (s).")
      .def_property_readonly(
          "scalar_names", [](const PySimulation& s) { return s.sim->scalar_names(); },
          "Column names of StepOutcome.scalars (run.csv's columns after step, t).")
      .def(
          "step",
          [](PySimulation& s) {
            BusyGuard guard(s.busy, "Simulation.step");
            py::gil_scoped_release release;
            return s.sim->step();
          },
          "Advances one step; numerical trouble is reported in the outcome (ok False), never raised.")
      .def("run", &run, py::arg("out"), py::arg("steps") = py::none(), py::arg("every") = py::none(),
           py::arg("png_every") = py::none(), py::arg("overwrite") = false, py::arg("resume") = py::none(),
           py::arg("progress") = py::none(),
           "Runs to `steps` (default: the scene's) as `sinew run` does, writing run.csv, VTU frames every `every` "
           "steps, PNG snapshots every `png_every` (0: none; default: the scene's) and checkpoints under `out`. "
           "progress(info) is called after each step with a dict (step, steps, "
           "time, wall_seconds, eta_seconds, scalars); returning False stops the run cleanly; an exception it "
           "raises stops the run and is re-raised. Raises sinew.Error for bad options before writing anything.")
      .def(
          "meshes",
          [](const PySimulation& s) {
            py::list out;
            for (scene::OutputMesh& mesh : s.sim->output_meshes()) out.append(mesh_dict(std::move(mesh)));
            return out;
          },
          "Every body's current state as the VTU output holds it: dicts with name, points (n x 3), tets, triangles, "
          "point_fields (e.g. 'velocity', 'contact_force': n x 3) and cell_fields (copies).")
      .def(
          "positions",
          [](const PySimulation& s) -> py::object {
            if (const auto* lg = local_global(s)) return points_array(lg->integrator().positions());
            if (const auto* mb = multibody(s)) return py::cast(Eigen::VectorXd(mb->state().q));
            throw Error("positions(): not available for scene '" + s.sim->name() + "'");
          },
          "The current positions, a snapshot (the step replaces the state's buffers, so a view would dangle). "
          "Local-global scenes: vertex positions (n x 3). Multibody scenes: the generalized positions q (rigid "
          "bodies x then quaternion w x y z).")
      .def(
          "velocities",
          [](const PySimulation& s) -> py::object {
            if (const auto* lg = local_global(s)) return points_array(lg->integrator().velocities());
            if (const auto* mb = multibody(s)) return py::cast(Eigen::VectorXd(mb->velocities()));
            throw Error("velocities(): not available for scene '" + s.sim->name() + "'");
          },
          "The current velocities, a snapshot. Local-global scenes: vertex velocities (n x 3). Multibody scenes: "
          "every generalized velocity (rigid bodies v then w).")
      .def("set_state", &set_state, py::arg("positions"), py::arg("velocities"),
           "Replaces the state at the current time. Local-global scenes: vertex positions and velocities, (n x 3) "
           "or 3 n interleaved. Multibody scenes: q and the state's velocities u (velocities() unless the scene "
           "has attachments or drives, then reduced_velocities()). Raises sinew.Error on a size mismatch, a "
           "non-finite entry or a quaternion that is not unit (the state is then unchanged).")
      .def(
          "reduced_velocities",
          [](const PySimulation& s) -> py::object {
            const scene::MultibodySimulation* mb = multibody(s);
            require(mb != nullptr, "reduced_velocities(): multibody scenes only");
            return py::cast(Eigen::VectorXd(mb->state().u));
          },
          "Multibody scenes: the state's own velocities u (the free ones when the scene has attachments or "
          "drives, else every velocity), a snapshot.")
      .def(
          "contact", [](const PySimulation& s) { return step_problem(*s.sim); },
          "Multibody scenes with contact or joints: the constraint problem of the last step that had rows, in "
          "FCLIB's global form, and its solution, a dict: M, H (scipy.sparse; M v = H r + f, u = H^T v + w), f, "
          "w, r (impulses, (normal, t1, t2) per contact block), v (velocities after contact), system_impulses "
          "(H r on the system's velocities), kinds and mu per block (copies).")
      .def(
          "contacts", [](const PySimulation& s) { return simulation_contacts(*s.sim); },
          "The contacts of the last step (none before the first, after restore() or without contact), a dict "
          "of arrays, one row per contact, moved from C++ (no second copy): points_a, points_b (n x 3) the "
          "world witness points on sides A and B at the start of the step, where its rows were taken; "
          "normals (n x 3, from B to A), tangent1, tangent2 (n x 3): the contact frame; impulses (n x 3): "
          "(r_n, r_t1, r_t2) in that frame over the step (N s, FCLIB's order; A receives "
          "n r_n + t1 r_t1 + t2 r_t2, B the opposite); mu (n); kind_a, kind_b (n, str) and index_a, index_b "
          "(n): what each side is. Multibody scenes: 'obstacle' (index in the scene's obstacles), 'body' "
          "(rigid body), 'particle', or 'points' (a combination, e.g. a triangle's point; index -1), and block "
          "(n): the contact's block in contact()'s problem. Local-global scenes: A 'vertex' or 'edge' (its "
          "first vertex), B 'obstacle', 'triangle' (of the contact surfaces) or 'edge' (its first vertex), "
          "and nodes, weights (n x 4): the vertices the impulse acts on with their weights (-1 past the last).")
      .def(
          "rigid_poses",
          [](const PySimulation& s) {
            const scene::MultibodySimulation* mb = multibody(s);
            require(mb != nullptr, [&] { return "rigid_poses(): scene '" + s.sim->name() + "' is not multibody"; });
            const model::MechanicalSystem& system = *mb->scene().scene.system;
            const Index n = system.num_bodies();
            py::array_t<double> out({static_cast<py::ssize_t>(n), py::ssize_t{7}});
            auto a = out.mutable_unchecked<2>();
            for (Index b = 0; b < n; ++b) {
              Vec3 x;
              Quaternion r;
              system.body_pose(mb->state().q, b, x, r);
              const double row[7] = {x[0], x[1], x[2], r.s, r.v[0], r.v[1], r.v[2]};
              for (int k = 0; k < 7; ++k) a(b, k) = row[k];
            }
            return out;
          },
          "Multibody scenes: every rigid body's pose, (n_bodies x 7): origin x y z, then quaternion w x y z.")
      .def(
          "save",
          [](const PySimulation& s) {
            std::ostringstream out;
            s.sim->save(out);
            return py::bytes(out.str());
          },
          "The whole state (positions, velocities, time, warm starts) as bytes; restore() continues bit for bit.")
      .def(
          "restore",
          [](PySimulation& s, const py::bytes& state) {
            std::istringstream in(static_cast<std::string>(state));
            s.sim->restore(in);
          },
          py::arg("state"),
          "Restores what save() returned for the same scene; raises sinew.Error when it does not fit.");
}

}  // namespace sinew::python
