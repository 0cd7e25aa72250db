// siconos_fc3d: the Siconos peer of sinew's FCLIB benchmark. One process per run, so that every
// peer solver is timed alone:
//
//   siconos_fc3d --solver=NSN_AC|NSN_FB|NSGS [--tolerance=1e-8] [--max-iterations=N] problem.hdf5
//
// reads an FCLIB local problem (u = W r + q, 3-D Coulomb cones), solves it with the named
// Siconos fc3d solver from r = 0, and prints one JSON line
//   {"solver":..., "problem":..., "contacts":..., "iterations":..., "error":...,
//    "solver_residual":..., "seconds":..., "status":...}
// error: Siconos' fc3d_compute_error at the returned r, i.e.
//   || r - P_K(r - (W r + q) - mu ||u_T|| e_n) ||_2 / ||q||_2   (natural-map residual of De Saxce's
//   formulation, stacked over contacts, relative to ||q||; not relative when ||q|| <= DBL_EPSILON),
// recomputed here with the same norm for every solver; solver_residual is the solver's own final
// dparam[SICONOS_DPARAM_RESIDU] (its internal measure, not always the same formula).
// seconds: wall time of fc3d_driver only (not reading or conversion).
// status: "converged" when fc3d_driver returns 0, else "not_converged". Exit code 0 / 1 for these,
// 2 for bad usage or an unreadable problem (message on stderr, no JSON).
//
// Siconos' own FCLIB reader (frictionContact_fclib_read) exists only in Siconos builds with
// WITH_FCLIB; Debian's libsiconos-numerics is built without it. This program therefore does
// what that reader does: libfclib's fclib_read_local, then W copied into Siconos' 3x3
// sparse-block storage (NM_SPARSE_BLOCK, the storage the fc3d solvers are written for).
extern "C" {  // fclib.h declares C functions without extern "C" guards
#include <fclib.h>
}

#include <sys/stat.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "FrictionContactProblem.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "NumericsVerbose.h"
#include "SolverOptions.h"
#include "SparseBlockMatrix.h"
#include "fc3d_compute_error.h"

namespace {

struct Args {
  std::string solver;
  double tolerance = 1e-8;    // the benchmark's default accuracy target
  int max_iterations = 1000;  // generous for Newton solvers; NSGS on hard problems may need more
  std::string problem;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr,
               "siconos_fc3d: %s\nusage: siconos_fc3d --solver=NSN_AC|NSN_FB|NSGS [--tolerance=1e-8] "
               "[--max-iterations=N] problem.hdf5\n",
               message.c_str());
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    const auto value = [&](const char* key) -> const char* {
      const std::size_t n = std::strlen(key);
      return arg.compare(0, n, key) == 0 ? arg.c_str() + n : nullptr;
    };
    char* end = nullptr;
    if (const char* v = value("--solver=")) {
      a.solver = v;
    } else if (const char* v = value("--tolerance=")) {
      a.tolerance = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(a.tolerance > 0.0)) usage_error("--tolerance needs a positive number");
    } else if (const char* v = value("--max-iterations=")) {
      const long n = std::strtol(v, &end, 10);
      if (end == v || *end != '\0' || n <= 0 || n > 1000000000L)
        usage_error("--max-iterations needs a positive integer");
      a.max_iterations = static_cast<int>(n);
    } else if (arg.compare(0, 2, "--") == 0) {
      usage_error("unknown option '" + arg + "'");
    } else if (a.problem.empty()) {
      a.problem = arg;
    } else {
      usage_error("more than one problem file");
    }
  }
  if (a.problem.empty()) usage_error("no problem file given");
  if (a.solver.empty()) usage_error("no --solver given");
  return a;
}

int solver_id(const std::string& name) {
  if (name == "NSN_AC") return SICONOS_FRICTION_3D_NSN_AC;  // Alart-Curnier non-smooth Newton
  if (name == "NSN_FB") return SICONOS_FRICTION_3D_NSN_FB;  // Fischer-Burmeister non-smooth Newton
  if (name == "NSGS") return SICONOS_FRICTION_3D_NSGS;      // non-smooth (block) Gauss-Seidel
  usage_error("unknown solver '" + name + "' (expected NSN_AC, NSN_FB or NSGS)");
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// W of the FCLIB file as Siconos' 3x3 sparse-block matrix. Entries go through a CSparse triplet
// (FCLIB's matrix is CSparse's: compressed columns nz = -1, triplets with i = rows, p = columns;
// FCLIB adds compressed rows nz = -2), then compressed columns, then blocks.
NumericsMatrix* to_siconos(const fclib_matrix& W) {
  NumericsMatrix* T = NM_create(NM_SPARSE, W.m, W.n);
  NM_triplet_alloc(T, W.nz >= 0 ? W.nz : W.nzmax);
  if (W.nz == -1 || W.nz == -2) {
    const int outer = W.nz == -1 ? W.n : W.m;
    for (int k = 0; k < outer; ++k)
      for (int e = W.p[k]; e < W.p[k + 1]; ++e)
        W.nz == -1 ? NM_entry(T, W.i[e], k, W.x[e]) : NM_entry(T, k, W.i[e], W.x[e]);
  } else {
    for (int e = 0; e < W.nz; ++e) NM_entry(T, W.i[e], W.p[e], W.x[e]);
  }
  SparseBlockStructuredMatrix* blocks = SBM_new();
  if (SBM_from_csparse(3, NM_csc(T), blocks) != 0) {
    std::fprintf(stderr, "siconos_fc3d: Siconos cannot convert W to 3x3 blocks\n");
    std::exit(2);
  }
  NM_free(T);
  return NM_new_SBM(W.m, W.n, blocks);
}

double* copy(const double* src, int n) {
  auto* dst = static_cast<double*>(std::malloc(sizeof(double) * static_cast<std::size_t>(n > 0 ? n : 1)));
  std::memcpy(dst, src, sizeof(double) * static_cast<std::size_t>(n));
  return dst;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  const int id = solver_id(args.solver);
  struct stat st {};
  if (stat(args.problem.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    usage_error("cannot read problem file '" + args.problem + "'");

  // libfclib prints its own message and exits(1) on a file it cannot parse.
  fclib_local* local = fclib_read_local(args.problem.c_str());
  if (!local || !local->W) usage_error("'" + args.problem + "' holds no FCLIB local problem");
  if (local->spacedim != 3) usage_error("'" + args.problem + "' is not a 3-D problem (spacedim != 3)");
  if (local->V || local->R) usage_error("'" + args.problem + "' is a mixed local problem (V, R), not supported");
  if (local->W->m != local->W->n || local->W->m % 3 != 0 || local->W->m == 0)
    usage_error("'" + args.problem + "' has a W that is not square with 3 rows per contact");
  const int m = local->W->m;
  const int nc = m / 3;

  numerics_set_verbose(0);
  // The problem owns (and frees) W, q and mu: give it copies, not libfclib's arrays.
  FrictionContactProblem* problem =
      frictionContactProblem_new_with_data(3, nc, to_siconos(*local->W), copy(local->q, m), copy(local->mu, nc));
  fclib_delete_local(local);
  std::free(local);

  SolverOptions* options = solver_options_create(id);
  options->dparam[SICONOS_DPARAM_TOL] = args.tolerance;
  options->iparam[SICONOS_IPARAM_MAX_ITER] = args.max_iterations;
  auto* r = static_cast<double*>(std::calloc(static_cast<std::size_t>(m), sizeof(double)));
  auto* u = static_cast<double*>(std::calloc(static_cast<std::size_t>(m), sizeof(double)));

  const auto start = std::chrono::steady_clock::now();
  const int info = fc3d_driver(problem, r, u, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const int iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  const double solver_residual = options->dparam[SICONOS_DPARAM_RESIDU];
  double error = 0.0;
  double norm_q = 0.0;
  for (int k = 0; k < m; ++k) norm_q += problem->q[k] * problem->q[k];
  norm_q = std::sqrt(norm_q);
  fc3d_compute_error(problem, r, u, args.tolerance, options, norm_q, &error);

  const std::string name = args.problem.substr(args.problem.find_last_of('/') + 1);
  std::printf(
      "{\"solver\":%s,\"problem\":%s,\"contacts\":%d,\"iterations\":%d,\"error\":%.6e,\"solver_residual\":%.6e,"
      "\"seconds\":%.6e,\"status\":\"%s\"}\n",
      json_string(args.solver).c_str(), json_string(name).c_str(), nc, iterations, error, solver_residual, seconds,
      info == 0 ? "converged" : "not_converged");

  std::free(r);
  std::free(u);
  solver_options_delete(options);
  frictionContactProblem_free(problem);
  return info == 0 ? 0 : 1;
}
