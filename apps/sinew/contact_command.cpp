// `sinew contact solve FILE`: solves a frictional contact problem file (FCLIB HDF5 or Siconos
// .dat, local or global form) with one of sinew's solvers, prints what it did, and writes the
// problem with its solution as an FCLIB file. Exit code 0 when the solver reached the tolerance,
// 1 when it did not (the report says why), 2 on bad input.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/contact_problem_file.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/solver_by_name.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::app {
namespace {

using namespace sinew::constraints;

int solve(const std::vector<std::string>& args) {
  if (args.empty() || args.front().rfind("--", 0) == 0)
    throw Error("contact solve: expects a problem file: sinew contact solve FILE [--solver NAME] ...");
  const Options o("contact solve", std::vector<std::string>(args.begin() + 1, args.end()),
                  {"solver", "tolerance", "max-iterations", "out", "backend"});
  const std::string path = args.front();
  const std::string solver_name = o.str("solver", "newton-fb");
  const double tolerance = o.real("tolerance", 1e-8, 0.0, 1.0);
  const int max_iterations = o.integer("max-iterations", 0, 1, 1000000000);  // 0: the solver's own limit
  const std::string out = o.str("out", "");
  std::unique_ptr<Backend> backend = make_backend(o.str("backend", "serial"));
  std::unique_ptr<ConstraintSolver> solver;
  try {
    solver = make_constraint_solver(solver_name, *backend, tolerance, max_iterations);
  } catch (const Error& e) {
    throw Error(std::string("contact solve: ") + e.what());
  }

  const ContactProblemFile file = read_contact_problem_file(path);
  const bool global = file.global.has_value();
  GlobalProblem global_problem;
  EigenLdltSolver mass_solver;
  DelassusProblem local;
  double reduce_ms = 0.0;
  if (global) {
    global_problem = to_global_problem(*file.global);
    const auto start = std::chrono::steady_clock::now();
    local = to_delassus(global_problem, mass_solver);  // sparse W = H^T M^-1 H
    reduce_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  } else {
    local = to_delassus_problem(*file.local);
  }
  const Asymmetry asym = asymmetry(local.W);
  const int contacts = static_cast<int>(global ? file.global->mu.size() : file.local->mu.size());
  std::printf("problem:    %s (%s, %s form)\n", path.c_str(), file.format.c_str(), global ? "global" : "local");
  std::printf("size:       %d contacts, %ld rows, %ld non-zeros in W", contacts, static_cast<long>(local.rows()),
              static_cast<long>(local.W.nnz()));
  if (global)
    std::printf(" (from M %ld x %ld, H^T M^-1 H in %.3f ms)", static_cast<long>(global_problem.M.rows),
                static_cast<long>(global_problem.M.cols), reduce_ms);
  std::printf("\nasymmetry:  %.3g of max |W| (at (%ld, %ld))\n", asym.relative, static_cast<long>(asym.row),
              static_cast<long>(asym.col));

  Eigen::VectorXd r;
  const auto start = std::chrono::steady_clock::now();
  const SolverReport report = solver->solve(local, r);
  const double solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const Eigen::VectorXd u = to_eigen(local.W) * r + local.q;
  const NaturalMapError error = natural_map_error(local, r, u);
  std::printf("solver:     %s on %s (tolerance %g)\n", solver->name().c_str(), backend->name().c_str(), tolerance);
  std::printf("status:     %s%s%s\n", to_string(report.status).c_str(), report.message.empty() ? "" : ": ",
              report.message.c_str());
  std::printf("iterations: %d\n", report.iterations);
  std::printf("error:      %.6e (natural map, relative to ||q|| = %.6e, as Siconos' fc3d_compute_error)\n",
              error.relative, error.norm_q);
  std::printf("time:       %.3f ms (the solve alone)\n", solve_ms);

  if (!out.empty()) {
    const std::filesystem::path folder = std::filesystem::path(out).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::create_directories(folder, ec) && ec)
      throw Error("contact solve: cannot create the folder '" + folder.string() + "' of --out: " + ec.message());
    FclibSolution solution;
    if (global) {
      const Index p = file.global->has_equalities() ? file.global->G.cols : 0;
      solution.v = global_velocity(global_problem, mass_solver, r);
      solution.l = r.head(p);
      solution.r = r.tail(r.size() - p);
      solution.u = u.tail(u.size() - p);
      write_fclib_global(out, *file.global, &solution);
    } else {
      solution.r = r;
      solution.u = u;
      write_fclib_local(out, *file.local, &solution);
    }
    std::printf("written:    %s (the problem and its /solution)\n", out.c_str());
  }
  return report.converged() ? 0 : 1;
}

}  // namespace

int contact_command(const std::vector<std::string>& args) {
  if (args.empty()) throw Error("contact: expects a subcommand: sinew contact solve FILE");
  if (args.front() == "solve") return solve(std::vector<std::string>(args.begin() + 1, args.end()));
  throw Error("contact: unknown subcommand '" + args.front() + "', expected: solve");
}

}  // namespace sinew::app
