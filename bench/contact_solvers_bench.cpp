// Frictional-contact solvers side by side on the same FCLIB problems: sinew's projected
// Gauss-Seidel, non-smooth Newton (Fischer-Burmeister, min-map) with exact Jacobians, and the
// realtime paper's own Newton step (diagonal indicators + conjugate residual, sinew_nsn_cr_*) in
// this process, and Siconos'
// fc3d solvers (NSN_AC, NSN_FB, NSGS), each run of a peer solver in its own process
// (bench/peers/siconos_fc3d). Every solver starts from r = 0 and stops at the natural-map error
// 1e-8 relative to ||q|| (the measure of Siconos' fc3d_compute_error, natural_map.hpp), so the
// times are times to 1e-8; the error reached and the iterations are counters.
//
//   contact_solvers_bench [--problems=DIR | --scenes=DIR] [--contacts=10,100,1000] [--peer=PATH]
//                         [--backend=serial] [Google Benchmark flags]
//
// --problems: every FCLIB (*.hdf5) and Siconos (*.dat) problem in DIR, local or global (global
// ones through their sparse local form W = H^T M^-1 H), each written as an FCLIB local file for
// the peer; a file that cannot be read is reported as a failed run with the reason;
// --scenes: sinew's own contact scenes (scene::benchmark_scenes(): box stack, incline block,
// dropped cube, FEM block, chain over a box, cloth on a corner), each stepped into rich contact
// and its last step's contact problem exported to DIR/<scene>.hdf5 (scene::export_contact_problem:
// the chain's joints condensed out), then every *.hdf5 in DIR is benchmarked;
// without it, generated problems of the given sizes are written to a temporary folder first:
// a heap of contacts with W = H M^-1 H^T from random contact frames on random bodies, mu = 0.5,
// once as it is and once with its off-diagonal entries perturbed by a relative 1e-3 (`_asym`: the
// asymmetry of real problem files).
// A solver that refuses a problem (the conjugate-residual Newton on a non-symmetric W) or a peer
// run that fails (no JSON: out of memory, crash) is a failed run with its reason (error_occurred
// and error_message in the JSON output), and the benchmark carries on.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/contact_problem_file.hpp"
#include "sinew/constraints/fclib_file.hpp"
#include "sinew/constraints/indicator_newton_solver.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "sinew/scene/contact_scenes.hpp"

namespace {

using namespace sinew;
using namespace sinew::constraints;

constexpr double kTolerance = 1e-8;

struct Problem {
  std::string name, path;
  DelassusProblem local;
};
std::vector<std::unique_ptr<Problem>> g_problems;
std::unique_ptr<Backend> g_backend;
std::string g_peer;
std::vector<std::pair<std::string, std::string>> g_unreadable;  // (file, why) of problems that could not be read
int g_peer_memory_mb = 4096;  // address-space limit of a peer run (Siconos NSN_FB has needed > 19 GB)

// A generated contact problem: n_c contacts between random pairs of 6-DOF bodies (or a body and
// the ground), each with a random frame; W = H M^-1 H^T is symmetric positive semi-definite
// like a real scene's Delassus operator, q mixes approaching and separating contacts.
FclibLocalProblem generated(int contacts, unsigned seed, double asymmetry) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int bodies = std::max(2, contacts / 3);
  const int n = 6 * bodies, m = 3 * contacts;
  Eigen::VectorXd inv_mass(n);
  for (int b = 0; b < bodies; ++b)
    for (int k = 0; k < 6; ++k) inv_mass[6 * b + k] = k < 3 ? 1.0 : 4.0 + u(rng);
  std::vector<Eigen::Triplet<double>> Jt;
  std::uniform_int_distribution<int> pick(-1, bodies - 1);
  for (int c = 0; c < contacts; ++c) {
    const int a = std::max(0, pick(rng)), b = pick(rng);  // b = -1: the ground
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 6; ++k) {
        const double value = (k < 3 ? (k == r ? 1.0 : 0.0) : 0.3 * u(rng)) + 0.05 * u(rng);
        Jt.emplace_back(3 * c + r, 6 * a + k, value);
        if (b >= 0 && b != a) Jt.emplace_back(3 * c + r, 6 * b + k, -value);
      }
  }
  Eigen::SparseMatrix<double> J(m, n);
  J.setFromTriplets(Jt.begin(), Jt.end());
  const Eigen::SparseMatrix<double> W = J * inv_mass.asDiagonal() * Eigen::SparseMatrix<double>(J.transpose());
  FclibLocalProblem p;
  p.W = from_eigen(EigenCsr(W));
  p.q.resize(m);
  for (int c = 0; c < contacts; ++c) {
    p.q[3 * c] = u(rng) - 0.3;  // mostly approaching
    p.q[3 * c + 1] = u(rng);
    p.q[3 * c + 2] = u(rng);
  }
  p.mu = Eigen::VectorXd::Constant(contacts, 0.5);
  for (Index i = 0; i < p.W.rows; ++i)
    for (Index k = p.W.row_ptr[i]; k < p.W.row_ptr[i + 1]; ++k)
      if (p.W.col_idx[k] != i) p.W.values[k] *= 1.0 + asymmetry * u(rng);
  p.info.title = "generated heap, " + std::to_string(contacts) + " contacts";
  if (asymmetry > 0.0) p.info.title += ", off-diagonal perturbed by " + std::to_string(asymmetry);
  return p;
}

FclibLocalProblem to_fclib(const DelassusProblem& p, const std::string& title) {
  FclibLocalProblem f;
  f.W = p.W;
  f.q = p.q;
  f.mu.resize(static_cast<Eigen::Index>(p.blocks.size()));
  for (std::size_t c = 0; c < p.blocks.size(); ++c) f.mu[static_cast<Eigen::Index>(c)] = p.blocks[c].mu;
  f.info.title = title;
  return f;
}

// Steps every benchmark scene into rich contact and writes its contact problem to DIR/<name>.hdf5.
void export_scenes(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  for (scene::ContactScene& s : scene::benchmark_scenes()) {
    FclibLocalProblem f = to_fclib(scene::export_contact_problem(s, *g_backend), s.name);
    f.info.description = "sinew scene " + s.name + ", local problem of step " + std::to_string(s.rich_contact_steps) +
                         ", h = " + std::to_string(s.time_step) + " s" +
                         (s.joints.empty() ? "" : ", joints condensed out");
    write_fclib_local((dir / (s.name + ".hdf5")).string(), f);
    std::printf("exported %s: %d contacts, %ld nonzeros in W\n", s.name.c_str(), f.contacts(),
                static_cast<long>(f.W.values.size()));
  }
}

// The local problem of any problem file: global ones through the sparse W = H^T M^-1 H (FCLIB's
// equalities as bilateral rows, which neither Siconos' fc3d solvers nor the FCLIB local file
// take: such a problem is refused here).
DelassusProblem read_local(const std::string& path) {
  const ContactProblemFile file = read_contact_problem_file(path);
  if (file.local) return to_delassus_problem(*file.local);
  if (file.global->has_equalities())
    throw Error(path + ": a global problem with equalities G has no pure-contact local form for the peer");
  EigenLdltSolver mass;
  return to_delassus(to_global_problem(*file.global), mass);
}

std::unique_ptr<ConstraintSolver> make_solver(const std::string& name) {
  if (name == "sinew_pgs") {
    PgsOptions o;
    o.stop = {kTolerance, 100000};
    return std::make_unique<PgsSolver>(o);
  }
  if (name == "sinew_nsn_cr_fb" || name == "sinew_nsn_cr_minmap") {
    IndicatorNewtonOptions o;
    o.stop = {kTolerance, 2000};  // linear convergence (frozen friction compliance): more steps
    o.function = name == "sinew_nsn_cr_fb" ? NcpFunction::kFischerBurmeister : NcpFunction::kMinMap;
    return std::make_unique<IndicatorNewtonSolver>(*g_backend, o);
  }
  NewtonOptions o;
  o.stop = {kTolerance, 200};
  o.function = name == "sinew_nsn_fb" ? NcpFunction::kFischerBurmeister : NcpFunction::kMinMap;
  return std::make_unique<NewtonSolver>(*g_backend, o);
}

// Runs the peer once; returns false (with the reason in the state) when it could not run.
bool run_peer(benchmark::State& s, const std::string& solver, const Problem& p, std::map<std::string, double>& out) {
  // popen runs /bin/sh, whose ulimit caps the peer's memory: a peer that would exhaust the
  // machine fails (reported as an error of that run) instead.
  const std::string cmd = "ulimit -v " + std::to_string(1024L * g_peer_memory_mb) + "; " + g_peer +
                          " --solver=" + solver + " --tolerance=1e-8 --max-iterations=100000 '" + p.path + "'";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return s.SkipWithError("cannot start the Siconos peer"), false;
  std::array<char, 4096> line{};
  std::string json;
  while (std::fgets(line.data(), static_cast<int>(line.size()), pipe)) json += line.data();
  const int status = pclose(pipe);
  auto number = [&](const char* key) {
    const std::string k = std::string("\"") + key + "\":";
    const auto at = json.find(k);
    return at == std::string::npos ? -1.0 : std::strtod(json.c_str() + at + k.size(), nullptr);
  };
  // A run without a status (no JSON: killed at its memory limit, a crash, a message from
  // Siconos instead of a result) is a failure with what the peer said, not a row of -1s.
  if (json.find("\"status\":") == std::string::npos || json.find("\"seconds\":") == std::string::npos) {
    std::string said = json.substr(0, json.find('\n'));
    if (said.size() > 200) said.resize(200);
    const std::string why = "Siconos peer failed (exit status " + std::to_string(status) + ", " +
                            (said.empty() ? std::string("no output") : "output '" + said + "'") + ")";
    return s.SkipWithError(why.c_str()), false;
  }
  out["seconds"] = number("seconds");
  out["error"] = number("error");
  out["iterations"] = number("iterations");
  out["converged"] = json.find("\"status\":\"converged\"") != std::string::npos ? 1.0 : 0.0;
  return true;
}

void register_benchmarks() {
  const bool have_peer = !g_peer.empty() && std::filesystem::exists(g_peer);
  if (!have_peer) std::printf("contact solvers: no Siconos peer at '%s': sinew's solvers only\n", g_peer.c_str());
  for (const auto& [name, why] : g_unreadable)
    benchmark::RegisterBenchmark(("read/" + name).c_str(), [why = why](benchmark::State& s) {
      s.SkipWithError(why.c_str());
    })->Iterations(1);
  for (const auto& problem : g_problems) {
    const Problem* p = problem.get();
    const std::string suffix = "/" + p->name + "/contacts:" + std::to_string(p->local.blocks.size());
    for (const char* solver :
         {"sinew_pgs", "sinew_nsn_fb", "sinew_nsn_minmap", "sinew_nsn_cr_fb", "sinew_nsn_cr_minmap"})
      benchmark::RegisterBenchmark((std::string(solver) + suffix).c_str(),
                                   [p, name = std::string(solver)](benchmark::State& s) {
                                     auto solver = make_solver(name);
                                     SolverReport report;
                                     Eigen::VectorXd r;
                                     for (auto _ : s) {
                                       r.resize(0);  // cold start, like the peer
                                       try {
                                         report = solver->solve(p->local, r);
                                       } catch (const Error& e) {  // e.g. CR Newton on a non-symmetric W
                                         s.SkipWithError(e.what());
                                         break;
                                       }
                                     }
                                     s.counters["error"] = report.error;
                                     s.counters["iterations"] = report.iterations;
                                     s.counters["converged"] = report.converged() ? 1.0 : 0.0;
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    if (!have_peer) continue;
    for (const char* solver : {"NSN_AC", "NSN_FB", "NSGS"})
      benchmark::RegisterBenchmark((std::string("siconos_") + solver + suffix).c_str(),
                                   [p, name = std::string(solver)](benchmark::State& s) {
                                     std::map<std::string, double> out;
                                     for (auto _ : s) {
                                       if (!run_peer(s, name, *p, out)) break;
                                       s.SetIterationTime(out["seconds"]);
                                     }
                                     for (const char* k : {"error", "iterations", "converged"}) s.counters[k] = out[k];
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(3);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = bench::take_flag(argc, argv, "problems", "");
  const std::string scenes = bench::take_flag(argc, argv, "scenes", "");
  const std::vector<int> sizes = bench::take_int_list(argc, argv, "contacts", "10,100,1000");
  g_peer = bench::take_flag(argc, argv, "peer", SINEW_SICONOS_PEER);
  g_peer_memory_mb = std::stoi(bench::take_flag(argc, argv, "peer_memory_mb", "4096"));
  const std::string backend = bench::take_flag(argc, argv, "backend", "serial");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  g_backend = make_backend(backend);
  if (!scenes.empty()) {
    export_scenes(scenes);
    dir = scenes;
  }
  // Every problem is benchmarked from an FCLIB local file (the peer's input): files of other
  // forms are converted into a temporary folder first.
  const auto tmp = std::filesystem::temp_directory_path() / "sinew_contact_solvers_bench";
  std::filesystem::create_directories(tmp);
  std::vector<std::filesystem::path> files;
  if (!dir.empty()) {
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".hdf5" || e.path().extension() == ".dat") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      std::fprintf(stderr, "contact_solvers_bench: no *.hdf5 or *.dat problems in %s\n", dir.c_str());
      return 2;
    }
  } else {
    for (int c : sizes)
      for (const double asymmetry : {0.0, 1e-3}) {
        files.push_back(tmp / ("heap_" + std::to_string(c) + (asymmetry > 0.0 ? "_asym" : "") + ".hdf5"));
        write_fclib_local(files.back().string(), generated(c, 100 + static_cast<unsigned>(c), asymmetry));
      }
  }
  for (const auto& f : files) {
    auto p = std::make_unique<Problem>();
    p->name = f.stem().string();
    try {
      p->local = read_local(f.string());
      p->path = (tmp / (p->name + ".local.hdf5")).string();
      write_fclib_local(p->path, to_fclib(p->local, p->name));
    } catch (const Error& e) {
      g_unreadable.emplace_back(p->name, e.what());
      continue;
    }
    g_problems.push_back(std::move(p));
  }
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  g_problems.clear();
  g_backend.reset();
  benchmark::Shutdown();
  return 0;
}
