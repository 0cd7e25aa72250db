// The seed paper's Table 3 ("Simulation statistics") on this machine: each solid reference scene
// of solid_scenes.hpp at its sizes, per backend, for N frames (5 L-G iterations, 10 CR
// iterations, h = 0.01 s, as in the paper; the slope uses Sec. 7.5's 10 and 24), printed at the
// end in the paper's layout with the paper's own row beside ours:
//   scene, vertices, elements, S memory (MB), max contacts, and milliseconds for Schur (once per
//   frame), Local, Global, Assem., Cst. Solve, Corr., Cst. Global (per L-G iteration, as the
//   paper's columns are: its Frame ~ 5 (Local + Global + Cst. Global) + Schur) and Frame
//   (per frame, collision excluded), every column averaged over the frames with at least 90% of
//   the maximum contact count (the paper's "Frame max"; all frames without contact). Frame also
//   holds the right-hand side b = M q~ + h^2 G^T p (rhs_ms in the counters), which Table 3 has
//   no column for.
// Cst. Global = Assem. + Cst. Solve + Corr. (the paper's sums, e.g. 0.99 + 1.39 + 0.51 = 2.89).
// Phases are synchronized and timed inside LocalGlobalIntegrator::step() (time_phases).
//
// In the same run: the STREAM triad (bench/stream_triad.hpp) on 1 thread and on all hardware
// threads, and the global step's achieved bandwidth, the bytes one apply streams in the storage
// it uses (LocalGlobalIntegrator::global_bytes_per_apply(): on host backends the run-compressed
// L^-1 and L^-T of SparseInverseOperator, ~8 bytes per entry each, plus the vector passes; on
// CUDA S' and S'^T in CSR) over the Global time, as a fraction of the triad with the backend's
// thread count (Backend::concurrency(): 1 for serial and for Kokkos built on its Serial
// execution space). The "moved" column prints those bytes beside S' in CSR ("S").
//
//   table3_bench [--bar=10] [--ball=18] [--wooper=12] [--gingerbread=16] [--finger=21]
//                [--slope=4] [--cloth=101] [--knives=71] [--corner=71] [--frames=20]
//                [--cloth_contact_frames=30] [--backends=serial,tbb,kokkos] [--triad_mib=256]
//                [--delassus=auto|explicit|operator] [--reuse=on|off|both] [Google Benchmark flags]
// A size list may be empty (--ball=) to leave a scene out; sizes are each scene's resolution
// parameter (solid_scenes.hpp and cloth_scenes.hpp say how it maps to vertices; the cloth sizes
// are vertices per side, and --cloth runs Cloth Extension's three rows: ARAP, co-rotational and
// Neo-Hookean). The cloth on knives and on the sharp corner fall for ~0.1 s before they touch,
// so they run --cloth_contact_frames frames instead of --frames: 30 by default (the corner at 71
// has ~1.4k contacts by then, ~4k at 60 frames). W is dense in the contacts (9 nc^2 entries), so
// kAuto applies it through its sparse factors (local_global_contact.hpp, "Where the work runs"):
// a frame at 71 takes ~0.2 s serial (60 frames: ~16 s for both scenes); --delassus=explicit
// stores W as before (knives 71: ~7.7 s a frame at 2769 contacts, the corner's 60 frames far longer).
// --reuse: W kept from the last frame while the contact set is unchanged (on, the default), recomputed
// every frame (off), or both rows side by side (the "W new" rows recompute; W_kept counts the frames
// that kept it).
// --corner_obstacles=analytic,mesh,grid: the sharp corner's box obstacle as the analytic box, as its
// 12-triangle mesh (exact signed distance, MeshSignedDistance) and as a signed-distance grid of that
// mesh (SdfGrid, 1/32 of the box per cell), side by side; after the table, their collision time
// per frame (Frame excludes it) beside Frame.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/linalg/sparse_inverse.hpp"
#include "sinew/scene/cloth_scenes.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/solid_scenes.hpp"
#include "stream_triad.hpp"

namespace {

using namespace sinew;
using integrators::LocalGlobalIntegrator;
using integrators::LocalGlobalReport;

constexpr double kNa = std::numeric_limits<double>::quiet_NaN();

// One row of the seed's Table 3 (N/A = NaN); timings in ms, S in MB.
struct PaperRow {
  const char* example;
  // contact_rows: Table 3's "contact constraints", constraint rows (3 per contact)
  double vertices, elements, s_mb, contact_rows, schur, local, global, assem, solve, corr, cst_global, frame;
};

// The seed's rows for the scenes and sizes that match them (solid_scenes.hpp gives the vertex
// counts): twisting bar n = 10, 13, 16; squeezing ball n = 18, 24; wooper n = 12 (its 5.3k row);
// gingerbread n = 16 (its 11.1k row); raptor (the finger's ball) n = 21 (its 10.3k row); cloth
// sides 71 (5.1k), 101 (10.2k), 124 (15.4k, the knives' 15.3k) and 142 (20.2k).
const PaperRow* paper_row(const std::string& scene, int size) {
  static const std::map<std::pair<std::string, int>, PaperRow> rows = {
      {{"twisting_bar", 10}, {"Twisting Bar", 5.3e3, 26.4e3, 125.02, kNa, kNa, 0.87, 0.27, kNa, kNa, kNa, kNa, 6.23}},
      {{"twisting_bar", 13}, {"Twisting Bar", 11.3e3, 59.0e3, 463.03, kNa, kNa, 1.67, 0.86, kNa, kNa, kNa, kNa, 13.55}},
      {{"twisting_bar", 16},
       {"Twisting Bar", 20.8e3, 111.1e3, 1310.19, kNa, kNa, 2.99, 2.41, kNa, kNa, kNa, kNa, 28.55}},
      {{"squeezing_ball", 18},
       {"Squeezing Ball", 7.1e3, 37.5e3, 266.87, 3.18e3, 11.60, 2.75, 0.50, 0.99, 1.39, 0.51, 2.89, 46.15}},
      {{"squeezing_ball", 24},
       {"Squeezing Ball", 14.7e3, 81.7e3, 946.97, 4.62e3, 27.91, 6.09, 1.61, 2.46, 2.80, 1.67, 6.92, 102.01}},
      {{"pulled_wooper", 12},
       {"Pulling Wooper", 5.3e3, 20.4e3, 67.14, 0.42e3, 4.76, 1.25, 0.14, 0.26, 0.54, 0.19, 0.98, 19.95}},
      {{"pulled_wooper", 16},
       {"Pulling Wooper", 11.8e3, 52.5e3, 295.09, 0.73e3, 16.30, 3.06, 0.54, 0.77, 0.51, 0.59, 1.87, 46.20}},
      {{"pulled_gingerbread", 16},
       {"Gingerbread Man", 11.1e3, 48.2e3, 227.30, 0.74e3, 8.37, 2.77, 0.41, 0.59, 0.48, 0.45, 1.52, 34.75}},
      {{"pulled_gingerbread", 20},
       {"Gingerbread Man", 19.5e3, 93.6e3, 619.41, 0.80e3, 14.16, 5.03, 1.05, 1.30, 0.50, 1.15, 2.95, 59.76}},
      {{"cable_finger", 21},
       {"Grabbing Raptor", 10.3e3, 34.7e3, 120.00, 0.14e3, 2.42, 1.72, 0.23, 0.37, 0.62, 0.28, 1.27, 21.49}},
      {{"cloth_extension_arap", 101},
       {"Cloth Extension", 10.2e3, 20.2e3, 102.51, kNa, kNa, 0.39, 0.33, kNa, kNa, kNa, kNa, 4.44}},
      {{"cloth_extension_corotational", 101},
       {"Cloth Extension", 10.2e3, 20.2e3, 102.51, kNa, kNa, 0.87, 0.23, kNa, kNa, kNa, kNa, 6.43}},
      {{"cloth_extension_stable_neo_hookean", 101},
       {"Cloth Extension", 10.2e3, 20.2e3, 102.51, kNa, kNa, 0.93, 0.23, kNa, kNa, kNa, kNa, 6.65}},
      {{"cloth_extension_arap", 142},
       {"Cloth Extension", 20.2e3, 40.0e3, 280.41, kNa, kNa, 0.59, 0.58, kNa, kNa, kNa, kNa, 7.53}},
      {{"cloth_extension_corotational", 142},
       {"Cloth Extension", 20.2e3, 40.0e3, 280.41, kNa, kNa, 1.59, 0.51, kNa, kNa, kNa, kNa, 12.11}},
      {{"cloth_extension_stable_neo_hookean", 142},
       {"Cloth Extension", 20.2e3, 40.0e3, 280.41, kNa, kNa, 1.73, 0.52, kNa, kNa, kNa, kNa, 12.88}},
      {{"cloth_on_knives", 71},
       {"Cloth on Knives", 5.1e3, 10.0e3, 62.37, 0.76e3, 3.45, 0.47, 0.13, 0.25, 0.54, 0.18, 0.98, 14.73}},
      {{"cloth_on_knives", 101},
       {"Cloth on Knives", 10.2e3, 20.2e3, 183.82, 1.19e3, 5.37, 0.79, 0.33, 0.46, 0.52, 0.36, 1.35, 21.42}},
      {{"cloth_on_knives", 124},
       {"Cloth on Knives", 15.3e3, 30.3e3, 342.68, 1.78e3, 11.07, 1.09, 0.59, 0.80, 0.60, 0.62, 2.02, 33.02}},
      {{"cloth_sharp_corner", 71},
       {"Sharp Corner", 5.1e3, 10.0e3, 62.37, 4.57e3, 41.45, 0.34, 0.14, 0.87, 2.79, 0.15, 3.82, 70.77}},
      {{"cloth_sharp_corner", 101},
       {"Sharp Corner", 10.2e3, 20.2e3, 183.82, 8.62e3, 200.08, 0.49, 0.37, 2.66, 9.13, 0.37, 12.15, 277.36}},
  };
  const auto it = rows.find({scene, size});
  return it == rows.end() ? nullptr : &it->second;
}

// What one (scene, size, backend) run measured; ms per L-G iteration unless said.
struct Result {
  std::string scene, backend;
  int size = 0, threads = 1;
  double vertices = 0, elements = 0, s_mb = 0, contacts = 0;
  double schur = 0, local = 0, global = 0, assem = 0, solve = 0, corr = 0, cst_global = 0;  // schur: per frame
  double frame = 0;                                                                         // per frame
  double rhs = 0;                                                                           // per frame
  double collision = 0;                                                                     // per frame
  double global_gbs = 0, setup_s = 0;
  double moved_mb = 0;  // bytes one global step streams (global_bytes_per_apply), MB
  bool ok = true;
};
std::vector<Result> g_results;

// A cloth scene as a SolidScene: its driver moves the targets (cloth extension) before each step.
scene::SolidScene as_solid(const scene::ClothScene& cloth) {
  scene::SolidScene s;
  s.name = cloth.name.substr(0, cloth.name.rfind('_'));  // without the "_<side>" suffix
  s.description = cloth.description;
  s.options = cloth.options;
  s.frames = cloth.steps;
  if (!cloth.motions.empty()) s.drive = [cloth](LocalGlobalIntegrator& lg, long) { scene::drive_targets(cloth, lg); };
  return s;
}

// The analytic box obstacle @p box as its closed 12-triangle mesh, or as a signed-distance grid of it.
Obstacle box_as_mesh(const Obstacle& box, bool grid) {
  const Vec3 half{{box.shape.size[0], box.shape.size[1], box.shape.size[2]}};
  const scene::TriangleMesh m = scene::boundary_triangles(scene::box_tet_mesh(v3::neg(half), half, 1, 1, 1));
  Obstacle o = grid ? grid_obstacle(m.vertices, m.triangles, SdfGridOptions{}, box.pose, box.friction)
                    : mesh_obstacle(m.vertices, m.triangles, box.pose, box.friction);
  o.motion = box.motion;
  return o;
}

scene::SolidScene make_scene(const std::string& kind, int size) {
  const std::string extension = "cloth_extension_";
  if (kind == "cloth_sharp_corner_mesh" || kind == "cloth_sharp_corner_grid") {
    scene::SolidScene s = as_solid(scene::cloth_sharp_corner_scene(size));
    s.description.obstacles[1] = box_as_mesh(s.description.obstacles[1], kind == "cloth_sharp_corner_grid");
    s.name = kind;
    return s;
  }
  if (kind.rfind(extension, 0) == 0) {
    scene::SolidScene s =
        as_solid(scene::cloth_extension_scene(parse_material_model(kind.substr(extension.size())), size));
    s.name = kind;
    return s;
  }
  if (kind == "cloth_on_knives") return as_solid(scene::cloth_on_knives_scene(size));
  if (kind == "cloth_sharp_corner") return as_solid(scene::cloth_sharp_corner_scene(size));
  if (kind == "twisting_bar") return scene::twisting_bar_scene(size);
  if (kind == "slope") return scene::slope_scene(size, 0.1);
  if (kind == "squeezing_ball") return scene::squeezing_ball_scene(size);
  if (kind == "pulled_wooper") return scene::pulled_through_gap_scene(size, 1e7);
  if (kind == "pulled_gingerbread") return scene::pulled_through_gap_scene(size, 1e6);
  if (kind == "two_finger_grab") return scene::two_finger_grab_scene(size);
  return scene::cable_finger_scene(size);
}

// Google Benchmark runs this once with `frames` iterations (Iterations(frames)): one iteration
// is one frame, the scene's driver included, so the timed loop is the scene's own trajectory.
// Setup (meshing, A's factorization and the sparse inverse S') happens before the loop, untimed.
void run_scene(benchmark::State& state, const std::string& kind, int size, const std::string& backend_name,
               integrators::DelassusForm delassus, bool reuse) {
  const scene::SolidScene s = make_scene(kind, size);
  auto backend = make_backend(backend_name);
  integrators::LocalGlobalOptions options = s.options;
  options.contact.delassus = delassus;
  options.contact.reuse_delassus = reuse;
  options.record_energy = false;  // the step's own cost only
  options.time_phases = true;
  const auto t0 = std::chrono::steady_clock::now();
  LocalGlobalIntegrator lg(*backend, s.description, options);
  Result r;
  r.setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.scene = s.name;
  r.backend = reuse ? backend_name : backend_name + ", W new";
  r.size = size;
  r.threads = backend->concurrency();  // Kokkos built on its Serial space runs 1 thread
  std::vector<LocalGlobalReport> reports;
  for (auto _ : state) {
    reports.push_back(scene::step_scene(s, lg));
    r.ok = r.ok && reports.back().ok();
  }
  if (!r.ok) state.SkipWithError("a step reported non-finite values");
  const double iterations = options.iterations;
  std::size_t max_contacts = 0;
  int kept = 0;
  for (const LocalGlobalReport& p : reports) {
    max_contacts = std::max(max_contacts, p.contacts);
    kept += p.delassus_reused;
  }
  state.counters["W_kept"] = kept;
  // Every column over the same frames, those with at least 90% of the most contacts (all frames
  // without contact): the paper measures its "Frame max" when the most contacts are present.
  double frame_sum = 0.0, frames = 0.0;
  for (const LocalGlobalReport& p : reports) {
    if (10 * p.contacts < 9 * max_contacts) continue;
    r.schur += p.schur_seconds;
    r.local += p.local_seconds;
    r.global += p.global_seconds;
    r.assem += p.assembly_seconds;
    r.solve += p.constraint_seconds;
    r.corr += p.correction_seconds;
    r.rhs += p.rhs_seconds;
    r.collision += p.collision_seconds;
    frame_sum += p.frame_seconds;
    frames += 1.0;
  }
  r.moved_mb = lg.global_bytes_per_apply() * 1e-6;
  if (r.global > 0) r.global_gbs = lg.global_bytes_per_apply() * iterations * frames / r.global * 1e-9;
  const double per_iteration = 1e3 / (iterations * frames);
  r.schur *= 1e3 / frames;
  r.rhs *= 1e3 / frames;
  r.collision *= 1e3 / frames;
  for (double* v : {&r.local, &r.global, &r.assem, &r.solve, &r.corr}) *v *= per_iteration;
  r.cst_global = r.assem + r.solve + r.corr;
  r.frame = 1e3 * frame_sum / frames;
  r.vertices = lg.num_vertices();
  r.elements = static_cast<double>(lg.num_tets() + lg.num_triangles());
  r.contacts = static_cast<double>(max_contacts);
  if (const SparseInverse* S = lg.sparse_inverse()) r.s_mb = static_cast<double>(S->bytes_with_indices()) * 1e-6;
  state.counters["vertices"] = r.vertices;
  state.counters["S_MB"] = r.s_mb;
  state.counters["moved_MB"] = r.moved_mb;
  state.counters["max_contacts"] = r.contacts;
  state.counters["max_contact_rows"] = 3.0 * r.contacts;  // the paper's "contact constraints"
  state.counters["frame_ms"] = r.frame;
  state.counters["global_GB/s"] = r.global_gbs;
  state.counters["setup_s"] = r.setup_s;
  state.counters["rhs_ms"] = r.rhs;              // b = M q~ + h^2 G^T p per frame: in Frame, not a Table 3 column
  state.counters["collision_ms"] = r.collision;  // per frame: not in Frame
  g_results.push_back(r);
}

std::string cell(double v, const char* format = "%8.2f") {
  if (std::isnan(v)) return "     N/A";
  char b[32];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

void print_table(double triad1, double triad_all, int hw) {
  std::printf(
      "\nTable 3 (seed, 'Simulation statistics') on this machine: 5 L-G iterations, 10 CR iterations, h = 0.01 s.\n");
  std::printf(
      "Schur and Frame in ms per frame; Local .. Cst. Global in ms per L-G iteration; S in MB (values and indices).\n");
  // The paper's "maximum number of contact constraints" counts constraint directions (its Sec. 3:
  // the unilateral and frictional constraints are the rows n, f1, f2 of H), so its figure goes in
  // the rows column: three per contact.
  std::printf(
      "Contacts: most contacts in a frame; rows: their constraint rows (3 per contact), what the paper's\n"
      "'contact constraints' column counts.\n");
  std::printf("%-34s %7s %8s %9s %7s %7s %8s %8s %8s %8s %8s %8s %8s %8s\n", "scene / backend", "vert", "elem",
              "S (MB)", "max.c", "rows", "Schur", "Local", "Global", "Assem.", "CstSolve", "Corr.", "CstGlob", "Frame");
  std::string last;
  for (const Result& r : g_results) {
    const std::string key = r.scene + "/" + std::to_string(r.size);
    if (key != last) {
      last = key;
      std::printf("%s (size %d)\n", r.scene.c_str(), r.size);
      if (const PaperRow* p = paper_row(r.scene, r.size))
        std::printf("  %-32s %7.0f %8.0f %9.2f %7s %7s %s %s %s %s %s %s %s %s\n", "paper (RTX 4090 + CPU local step)",
                    p->vertices, p->elements, p->s_mb, "-", cell(p->contact_rows, "%7.0f").c_str(),
                    cell(p->schur).c_str(), cell(p->local).c_str(), cell(p->global).c_str(), cell(p->assem).c_str(),
                    cell(p->solve).c_str(), cell(p->corr).c_str(), cell(p->cst_global).c_str(), cell(p->frame).c_str());
      else
        std::printf("  %-32s (no matching row in Table 3)\n", "paper");
    }
    const bool contact = r.contacts > 0;
    std::printf("  %-32s %7.0f %8.0f %9.2f %7.0f %7.0f %s %s %s %s %s %s %s %s%s\n", r.backend.c_str(), r.vertices,
                r.elements, r.s_mb, r.contacts, 3.0 * r.contacts, cell(contact ? r.schur : kNa).c_str(),
                cell(r.local).c_str(), cell(r.global).c_str(), cell(contact ? r.assem : kNa).c_str(),
                cell(contact ? r.solve : kNa).c_str(), cell(contact ? r.corr : kNa).c_str(),
                cell(contact ? r.cst_global : kNa).c_str(), cell(r.frame).c_str(), r.ok ? "" : "  (non-finite step)");
  }
  std::printf("\nGlobal step bandwidth (bytes streamed per apply / Global time) against the STREAM triad:\n");
  std::printf("  triad: %.2f GB/s on 1 thread, %.2f GB/s on %d threads\n", triad1, triad_all, hw);
  std::printf("  %-30s %-8s %7s %9s %11s %10s %12s\n", "scene (size)", "backend", "threads", "S (MB)", "moved (MB)",
              "GB/s", "of triad");
  for (const Result& r : g_results) {
    const double triad = r.threads <= 1 ? triad1 : triad_all;
    std::printf("  %-30s %-8s %7d %9.2f %11.2f %10.2f %11.0f%%\n",
                (r.scene + " (" + std::to_string(r.size) + ")").c_str(), r.backend.c_str(), r.threads, r.s_mb,
                r.moved_mb, r.global_gbs, triad > 0 ? 100.0 * r.global_gbs / triad : 0.0);
  }
  bool header = false;
  for (const Result& r : g_results) {
    if (r.scene.rfind("cloth_sharp_corner", 0) != 0) continue;
    if (!header)
      std::printf(
          "\nThe sharp corner's box obstacle analytic, as a mesh and as a grid (collision ms per frame):\n  %-34s "
          "%-8s %7s %10s %8s\n",
          "scene (size)", "backend", "max.c", "collision", "Frame");
    header = true;
    std::printf("  %-34s %-8s %7.0f %10.3f %8.2f\n", (r.scene + " (" + std::to_string(r.size) + ")").c_str(),
                r.backend.c_str(), r.contacts, r.collision, r.frame);
  }
}

std::vector<int> sizes(int& argc, char** argv, const char* name, const char* fallback) {
  const std::string text = bench::take_flag(argc, argv, name, fallback);
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const int v = std::atoi(item.c_str());
    if (v < 1) {
      std::fprintf(stderr, "table3_bench: --%s expects positive integers, got '%s'\n", name, item.c_str());
      std::exit(2);
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // Defaults: the first Table 3 size of each scene whose setup (the sparse inverse) and a few
  // frames take seconds on a 2-core machine; larger rows: --bar=10,13,16 --ball=18,24 ...
  std::vector<std::pair<std::string, std::vector<int>>> scenes = {
      {"twisting_bar", sizes(argc, argv, "bar", "10")},
      {"slope", sizes(argc, argv, "slope", "4")},
      {"squeezing_ball", sizes(argc, argv, "ball", "18")},
      {"pulled_wooper", sizes(argc, argv, "wooper", "12")},
      {"pulled_gingerbread", sizes(argc, argv, "gingerbread", "16")},
      {"cable_finger", sizes(argc, argv, "finger", "21")},
      {"two_finger_grab", sizes(argc, argv, "grab", "21")},
  };
  const std::vector<int> cloth = sizes(argc, argv, "cloth", "101");
  for (const char* model : {"arap", "corotational", "stable_neo_hookean"})
    scenes.push_back({std::string("cloth_extension_") + model, cloth});
  scenes.push_back({"cloth_on_knives", sizes(argc, argv, "knives", "71")});
  const std::vector<int> corner = sizes(argc, argv, "corner", "71");
  {
    std::stringstream ss(bench::take_flag(argc, argv, "corner_obstacles", "analytic,mesh,grid"));
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item != "analytic" && item != "mesh" && item != "grid") {
        std::fprintf(stderr, "table3_bench: --corner_obstacles expects analytic, mesh or grid, got '%s'\n",
                     item.c_str());
        return 2;
      }
      scenes.push_back({item == "analytic" ? std::string("cloth_sharp_corner") : "cloth_sharp_corner_" + item, corner});
    }
  }
  const int frames = std::atoi(bench::take_flag(argc, argv, "frames", "20").c_str());
  const int contact_frames = std::atoi(bench::take_flag(argc, argv, "cloth_contact_frames", "30").c_str());
  const std::string backends_flag = bench::take_flag(argc, argv, "backends", "serial,tbb,kokkos,cuda");
  const std::size_t triad_mib = std::stoul(bench::take_flag(argc, argv, "triad_mib", "256"));
  const std::string delassus_flag = bench::take_flag(argc, argv, "delassus", "auto");
  if (delassus_flag != "auto" && delassus_flag != "explicit" && delassus_flag != "operator") {
    std::fprintf(stderr, "table3_bench: --delassus expects auto, explicit or operator, got '%s'\n",
                 delassus_flag.c_str());
    return 2;
  }
  const std::string reuse_flag = bench::take_flag(argc, argv, "reuse", "on");
  if (reuse_flag != "on" && reuse_flag != "off" && reuse_flag != "both") {
    std::fprintf(stderr, "table3_bench: --reuse expects on, off or both, got '%s'\n", reuse_flag.c_str());
    return 2;
  }
  std::vector<bool> reuses;
  if (reuse_flag != "off") reuses.push_back(true);
  if (reuse_flag != "on") reuses.push_back(false);
  const integrators::DelassusForm delassus = delassus_flag == "explicit"   ? integrators::DelassusForm::kExplicit
                                             : delassus_flag == "operator" ? integrators::DelassusForm::kOperator
                                                                           : integrators::DelassusForm::kAuto;
  if (frames < 1 || contact_frames < 1) {
    std::fprintf(stderr, "table3_bench: --frames and --cloth_contact_frames must be >= 1\n");
    return 2;
  }
  std::vector<std::string> wanted;
  {
    std::stringstream ss(backends_flag);
    std::string item;
    while (std::getline(ss, item, ',')) wanted.push_back(item);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const int hw = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const double triad1 = bench::best_triad_gbs(triad_mib, 1), triad_all = bench::best_triad_gbs(triad_mib, hw);
  for (const auto& [kind, list] : scenes)
    for (int size : list)
      for (const std::string& name : wanted) {
        bool usable = false;
        for (const BackendInfo& info : builtin_backends().list()) usable = usable || (info.name == name && info.usable);
        // CUDA: the contact path's collision and W expansion are host code that the CUDA backend
        // cannot run on its arrays (local_global_contact.hpp); only the contact-free bar and
        // cloth extension run there.
        if (!usable || (name == "cuda" && kind != "twisting_bar" && kind.rfind("cloth_extension_", 0) != 0)) continue;
        const bool falls = kind == "cloth_on_knives" || kind.rfind("cloth_sharp_corner", 0) == 0;
        for (bool reuse : reuses) {
          const std::string id =
              "table3/" + kind + "/" + std::to_string(size) + "/" + name + (reuse ? "" : "/W_recomputed");
          benchmark::RegisterBenchmark(id.c_str(),
                                       [kind = kind, size, name, delassus, reuse](benchmark::State& s) {
                                         run_scene(s, kind, size, name, delassus, reuse);
                                       })
              ->Iterations(falls ? contact_frames : frames)
              ->Unit(benchmark::kMillisecond);
        }
      }
  benchmark::RunSpecifiedBenchmarks();
  print_table(triad1, triad_all, hw);
  benchmark::Shutdown();
  return 0;
}
