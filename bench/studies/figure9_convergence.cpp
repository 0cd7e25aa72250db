// The convergence study of the realtime hyperelastic paper's Figure 9, regenerated: a bar twisted
// by rotational boundary conditions at both ends, then one implicit-Euler step solved by
// local-global iterations with the three global steps of LocalGlobalIntegrator:
//   sparse_inverse  the complete solution as two SpMVs (the paper's method, Algorithm 2);
//   cholmod         the complete solution by CHOLMOD's triangular solves (Algorithm 1);
//   jacobi          one relaxed Jacobi sweep per global step (the incomplete solution, Wang 2015).
// The relative error of iterate k is (eps(q^k) - eps(q*)) / (eps(q^0) - eps(q*)), eps the
// incremental potential of the step (eq. (1)) and q* its minimiser from a converged Newton solve
// (the paper's ground truth), for Young's moduli 1e5 ... 1e9 Pa (ARAP, rho = 1000, as Table 3).
// Time per iteration is measured on a separate run of the same step without energy recording;
// the error-against-time curve is k times that.
//
//   figure9_convergence [--cells=20x4x4] [--moduli=1e5,1e6,1e7,1e8,1e9] [--frames=40]
//                       [--complete_iterations=100] [--jacobi_iterations=1000] [--backend=serial]
//                       [--out=results]
// Writes OUT/figure9_convergence.csv (modulus, method, iteration, seconds, energy,
// relative_error), the plots OUT/figure9_iterations.png (error against iterations: the paper's
// Fig. 9(b)) and OUT/figure9_time.png (against milliseconds, the softest and stiffest bars: Fig.
// 9(c)), and prints, per modulus and method, the error after 5 iterations (the paper's
// real-time budget) and the iterations and time to reach 1e-3 and 1e-6. Errors below ~1e-13
// are the round-off of eps (they may come out slightly negative).
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/materials/material.hpp"
#include "sinew/materials/tetrahedron.hpp"
#include "sinew/render/image.hpp"
#include "sinew/render/line_chart.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace {

using namespace sinew;
using integrators::GlobalStepKind;
using integrators::LocalGlobalDescription;
using integrators::LocalGlobalIntegrator;
using integrators::LocalGlobalOptions;

std::unique_ptr<Backend> g_backend;  // --backend (default $SINEW_BACKEND or serial)

constexpr double kLength = 1.0, kSide = 0.2, kTwist = 0.5 * M_PI;  // each end turns by kTwist

// The bar [0, L] x [-a/2, a/2]^2 with its two end faces held by stiff positional targets.
LocalGlobalDescription twisting_bar(int nx, int ny, int nz, double youngs_modulus) {
  const scene::TetMesh mesh =
      scene::box_tet_mesh(Vec3{{0, -kSide / 2, -kSide / 2}}, Vec3{{kLength, kSide / 2, kSide / 2}}, nx, ny, nz);
  LocalGlobalDescription d;
  d.rest_positions = scene::interleaved(mesh.vertices);
  for (const auto& t : mesh.tets) d.tets.insert(d.tets.end(), t.begin(), t.end());
  d.model = MaterialModel::kArap;
  d.elastic = {youngs_modulus, 0.45};
  d.density = 1000.0;
  d.time_step = 0.01;
  // Explicit pin weights (the Newton ground truth needs them): 100 E times the cell size, stiff
  // next to the element stiffness ~E h at a vertex.
  const double weight = 100.0 * youngs_modulus * kLength / nx;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    if (mesh.vertices[i][0] == 0.0 || mesh.vertices[i][0] == kLength)
      d.targets.push_back({static_cast<Index>(i), mesh.vertices[i], weight});
  return d;
}

// Rest position of target k turned about the bar's axis by -angle at x = 0, +angle at x = L.
Vec3 twisted(const LocalGlobalDescription& d, std::size_t k, double angle) {
  const Index v = d.targets[k].vertex;
  const double* x = &d.rest_positions[3 * static_cast<std::size_t>(v)];
  const double a = x[0] == 0.0 ? -angle : angle;
  return Vec3{{x[0], std::cos(a) * x[1] - std::sin(a) * x[2], std::sin(a) * x[1] + std::cos(a) * x[2]}};
}

void set_targets(LocalGlobalIntegrator& lg, const LocalGlobalDescription& d, double angle) {
  for (std::size_t k = 0; k < d.targets.size(); ++k) lg.set_target(k, twisted(d, k, angle));
}

// The step's incremental potential eps(q) = 1/(2h^2) ||q - q~||_M^2 + sum V Psi(F) +
// sum w/2 ||x - t||^2 (what LocalGlobalReport::energies records), minimised by Newton with a
// backtracking line search: exact element Hessians, PSD-projected ones when the exact matrix is
// not positive definite. Returns eps(q*).
double newton_ground_truth(const LocalGlobalDescription& d, const std::vector<double>& masses,
                           const std::vector<double>& x0, const std::vector<double>& v0, double angle,
                           int& newton_iterations) {
  const std::size_t n = x0.size();
  const double h = d.time_step;
  const auto material = make_tet_material(d.model, d.elastic);
  std::vector<TetRest> rests;
  for (std::size_t e = 0; e < d.tets.size() / 4; ++e) {
    double X[12];
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) X[3 * a + c] = d.rest_positions[3 * static_cast<std::size_t>(d.tets[4 * e + a]) + c];
    rests.push_back(make_tet_rest(X));
  }
  std::vector<double> y(n), targets(n, 0.0), weights(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) y[i] = x0[i] + h * v0[i] + h * h * d.gravity[i % 3];
  for (std::size_t k = 0; k < d.targets.size(); ++k) {
    const Vec3 t = twisted(d, k, angle);
    for (int c = 0; c < 3; ++c) {
      targets[3 * static_cast<std::size_t>(d.targets[k].vertex) + c] = t[c];
      weights[3 * static_cast<std::size_t>(d.targets[k].vertex) + c] = d.targets[k].weight;
    }
  }
  auto energy = [&](const std::vector<double>& q) {
    double e = material->energy(q, d.tets, rests);
    for (std::size_t i = 0; i < n; ++i)
      e += 0.5 * masses[i / 3] / (h * h) * (q[i] - y[i]) * (q[i] - y[i]) +
           0.5 * weights[i] * (q[i] - targets[i]) * (q[i] - targets[i]);
    return e;
  };
  std::vector<double> q = y, g(n), H, trial(n);
  double e = energy(q);
  newton_iterations = 0;
  for (int it = 0; it < 200; ++it) {
    newton_iterations = it + 1;
    std::fill(g.begin(), g.end(), 0.0);
    material->add_gradient(q, d.tets, rests, g);
    Eigen::VectorXd grad(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i)
      grad[static_cast<Eigen::Index>(i)] =
          g[i] + masses[i / 3] / (h * h) * (q[i] - y[i]) + weights[i] * (q[i] - targets[i]);
    Eigen::VectorXd step;
    for (bool project : {false, true}) {
      material->element_hessians(q, d.tets, rests, project, H);
      std::vector<Eigen::Triplet<double>> triplets;
      for (std::size_t i = 0; i < n; ++i)
        triplets.emplace_back(static_cast<int>(i), static_cast<int>(i), masses[i / 3] / (h * h) + weights[i]);
      for (std::size_t el = 0; el < rests.size(); ++el)
        for (int a = 0; a < 12; ++a)
          for (int b = 0; b < 12; ++b)
            triplets.emplace_back(static_cast<int>(3 * d.tets[4 * el + a / 3] + a % 3),
                                  static_cast<int>(3 * d.tets[4 * el + b / 3] + b % 3), H[144 * el + 12 * a + b]);
      Eigen::SparseMatrix<double> K(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
      K.setFromTriplets(triplets.begin(), triplets.end());
      Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(K);
      if (ldlt.info() != Eigen::Success || (ldlt.vectorD().array() <= 0.0).any()) continue;
      step = -ldlt.solve(grad);
      if (step.dot(grad) < 0.0) break;
    }
    if (step.size() == 0) throw std::runtime_error("ground truth: no positive-definite Newton matrix");
    // Converged when the Newton decrement -grad . step (twice the predicted decrease) is at the
    // round-off of eps itself; otherwise backtrack (Armijo) and stop if no step decreases eps.
    if (-step.dot(grad) <= 1e-14 * std::abs(e)) break;
    double alpha = 1.0, e_new = e;
    bool decreased = false;
    for (int ls = 0; ls < 30 && !decreased; ++ls, alpha *= 0.5) {
      for (std::size_t i = 0; i < n; ++i) trial[i] = q[i] + alpha * step[static_cast<Eigen::Index>(i)];
      e_new = energy(trial);
      decreased = e_new <= e + 1e-4 * alpha * step.dot(grad);
    }
    if (!decreased) break;
    q = trial;
    e = e_new;
  }
  return e;
}

struct Curve {
  std::string method;
  std::vector<double> energies;  // eps(q^k), k = 0..K
  double seconds_per_iteration = 0.0;
};

Curve run_method(const LocalGlobalDescription& d, GlobalStepKind kind, int iterations, const std::vector<double>& x0,
                 const std::vector<double>& v0, double angle) {
  Backend& backend = *g_backend;
  LocalGlobalOptions options;
  options.global_step = kind;
  options.iterations = iterations;
  Curve c{integrators::global_step_name(kind), {}, 0.0};
  {
    LocalGlobalIntegrator lg(backend, d, options);
    lg.set_state(x0, v0);
    set_targets(lg, d, angle);
    const auto report = lg.step();
    if (!report.ok()) throw std::runtime_error(c.method + ": " + report.message);
    c.energies = report.energies;
  }
  options.record_energy = false;
  LocalGlobalIntegrator lg(backend, d, options);
  lg.set_state(x0, v0);
  set_targets(lg, d, angle);
  const auto start = std::chrono::steady_clock::now();
  lg.step();
  backend.synchronize();
  c.seconds_per_iteration =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / iterations;
  return c;
}

std::vector<double> parse_reals(const std::string& list) {
  std::vector<double> values;
  std::stringstream s(list);
  for (std::string item; std::getline(s, item, ',');) values.push_back(std::stod(item));
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string cells = bench::take_flag(argc, argv, "cells", "20x4x4");
    const std::vector<double> moduli = parse_reals(bench::take_flag(argc, argv, "moduli", "1e5,1e6,1e7,1e8,1e9"));
    const int frames = std::stoi(bench::take_flag(argc, argv, "frames", "40"));
    const int complete_iterations = std::stoi(bench::take_flag(argc, argv, "complete_iterations", "100"));
    const int jacobi_iterations = std::stoi(bench::take_flag(argc, argv, "jacobi_iterations", "1000"));
    const std::filesystem::path out = bench::take_flag(argc, argv, "out", "results");
    g_backend = make_backend(bench::take_flag(argc, argv, "backend", backend_name_from_environment("serial")));
    if (argc > 1) throw std::invalid_argument(std::string("unknown argument ") + argv[1]);
    int nx = 0, ny = 0, nz = 0;
    if (std::sscanf(cells.c_str(), "%dx%dx%d", &nx, &ny, &nz) != 3 || nx < 1 || ny < 1 || nz < 1 || frames < 1)
      throw std::invalid_argument("--cells must be NXxNYxNZ (positive) and --frames >= 1");

    std::ostringstream csv;
    csv.precision(17);
    struct Plotted {
      double modulus;
      std::string method;
      std::vector<double> iterations, milliseconds, errors;
    };
    std::vector<Plotted> plotted;
    csv << "youngs_modulus,method,iteration,seconds,energy,relative_error\n";
    for (double E : moduli) {
      const LocalGlobalDescription d = twisting_bar(nx, ny, nz, E);
      // Twist both ends to +-kTwist over `frames` steps (10 sparse-inverse iterations each),
      // then study the next step, still twisting at the same rate: the bar is largely deformed
      // and moving, and the pinned ends' inertial prediction x + h v is (to second order) their
      // next target, so eps(q^0) - eps(q*) measures the elastic problem, not the pins' springs.
      LocalGlobalOptions warmup;
      warmup.iterations = 10;
      warmup.record_energy = false;
      LocalGlobalIntegrator lg(*g_backend, d, warmup);
      for (int f = 1; f <= frames; ++f) {
        set_targets(lg, d, kTwist * f / frames);
        const auto r = lg.step();
        if (!r.ok()) throw std::runtime_error("warm-up frame " + std::to_string(f) + ": " + r.message);
      }
      const std::vector<double> x0 = lg.positions(), v0 = lg.velocities();
      const double angle = kTwist * (frames + 1) / frames;
      int newton_iterations = 0;
      const auto newton_start = std::chrono::steady_clock::now();
      const double best = newton_ground_truth(d, lg.masses(), x0, v0, angle, newton_iterations);
      std::printf("E = %.0e Pa: %zu vertices, %zu tets, eps(q*) = %.12e J (Newton: %d iterations, %.1f s)\n", E,
                  x0.size() / 3, lg.num_tets(), best, newton_iterations,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - newton_start).count());
      for (auto [kind, iterations] : {std::pair{GlobalStepKind::kSparseInverse, complete_iterations},
                                      std::pair{GlobalStepKind::kCholmod, complete_iterations},
                                      std::pair{GlobalStepKind::kJacobi, jacobi_iterations}}) {
        const Curve c = run_method(d, kind, iterations, x0, v0, angle);
        const double span = c.energies.front() - best;
        int reached[2] = {-1, -1};  // first iterate at relative error 1e-3 and 1e-6
        std::vector<double> errors;
        for (std::size_t k = 0; k < c.energies.size(); ++k) {
          const double error = (c.energies[k] - best) / span;
          errors.push_back(error);
          csv << E << ',' << c.method << ',' << k << ',' << k * c.seconds_per_iteration << ',' << c.energies[k] << ','
              << error << '\n';
          for (int t = 0; t < 2; ++t)
            if (reached[t] < 0 && error <= (t == 0 ? 1e-3 : 1e-6)) reached[t] = static_cast<int>(k);
        }
        Plotted p{E, c.method, {}, {}, errors};
        for (std::size_t k = 0; k < errors.size(); ++k) {
          p.iterations.push_back(static_cast<double>(k));
          p.milliseconds.push_back(1e3 * static_cast<double>(k) * c.seconds_per_iteration);
        }
        plotted.push_back(std::move(p));
        std::printf("  %-15s %.3f ms/iteration; error after 5 iterations %.1e, after %d %.1e; to 1e-3:",
                    c.method.c_str(), 1e3 * c.seconds_per_iteration,
                    errors[std::min<std::size_t>(5, errors.size() - 1)], iterations, errors.back());
        for (int t = 0; t < 2; ++t) {
          if (t == 1) std::printf(", to 1e-6:");
          if (reached[t] >= 0)
            std::printf(" %d iterations (%.1f ms)", reached[t], 1e3 * reached[t] * c.seconds_per_iteration);
          else
            std::printf(" not reached");
        }
        std::printf("\n");
      }
    }
    const std::filesystem::path file = out / "figure9_convergence.csv";
    write_file_atomically(file, csv.str());  // whole or not at all
    std::printf("wrote %s\n", file.string().c_str());
    if (!render::png_supported()) {
      std::printf("no plots: sinew was built without libpng\n");
      return 0;
    }
    // Errors below round-off (<= 0) are skipped by the log axis; the floor keeps the axis readable.
    auto label = [](const Plotted& p) {
      char e[32];
      std::snprintf(e, sizeof e, "%.0e", p.modulus);
      return p.method + ", E=" + e;
    };
    render::ChartSpec by_iteration;
    by_iteration.title = "Figure 9(b): twisting bar, relative energy error per L-G iteration";
    by_iteration.x_label = "L-G iterations";
    by_iteration.y_label = "relative error";
    by_iteration.log_y = true;
    by_iteration.y_min = 1e-14;
    by_iteration.width = 1200;
    by_iteration.height = 800;
    render::ChartSpec by_time = by_iteration;
    by_time.title =
        "Figure 9(c): relative energy error against time (" + cells + " bar, " + g_backend->name() + " backend)";
    by_time.x_label = "milliseconds";
    int moduli_index = 0;
    for (std::size_t i = 0; i < plotted.size(); ++i) {
      const Plotted& p = plotted[i];
      moduli_index = static_cast<int>(i / 3);
      if (p.method != "cholmod")  // its iterates are the sparse inverse's: one curve
        by_iteration.series.push_back(
            {label(p), p.iterations, p.errors, render::chart_color(moduli_index + (p.method == "jacobi" ? 5 : 0))});
      const bool extreme = p.modulus == moduli.front() || p.modulus == moduli.back();
      if (extreme) by_time.series.push_back({label(p), p.milliseconds, p.errors, std::nullopt});
    }
    for (const auto& [spec, name] :
         {std::pair{&by_iteration, "figure9_iterations.png"}, std::pair{&by_time, "figure9_time.png"}}) {
      render::write_png(render::render_chart(*spec).image, (out / name).string());
      std::printf("wrote %s\n", (out / name).string().c_str());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "figure9_convergence: %s\n", e.what());
    return 2;
  }
}
