// Time per step of the constraint solve of a pendulum chain of n rigid links (ball joints, or
// hinges with --joint=hinge), the first to the world, at the released horizontal state: the
// rows (joint add_rows + assemble_step_problem), then the velocity-level solve
// M (v - v*) = J^T r, J v + w = 0 three ways:
//
//  * kkt:    KktSolver::solve_global with CHOLMOD for M. It forms the dense Delassus operator
//            W = J M^-1 J^T (m x m, m = 3n or 5n) and factors it: O(m^2) memory, O(m^3) time, so
//            it runs only up to --kkt_max links (default 300).
//  * schur:  the sparse Schur complement W = J M^-1 J^T (block tridiagonal for a chain) factored
//            by CHOLMOD (LinearSolver, simplicial LDL^T / supernodal as CHOLMOD chooses).
//  * baraff: linalg's BaraffSolver on the tree (BaraffProblem built from the rows, analysed,
//            factored and solved: everything a step with new positions must redo), O(n).
//
// Counters: per_link (time per step and link: flat = linear in n), rows.
//
//   chain_bench [--sizes=10,30,100,300,1000] [--kkt_max=300] [--joint=ball|hinge]
//               [Google Benchmark flags, e.g. --benchmark_min_time=0.2]
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/SparseCholesky>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/constraints/constraint.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/core/spatial_inertia.hpp"
#include "sinew/linalg/baraff_problem.hpp"
#include "sinew/linalg/baraff_solver.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace {

using namespace sinew;
using namespace sinew::constraints;

bool g_hinge = false;

// One chain at its initial (horizontal) state with the free-motion velocity of one step.
struct ChainStep {
  std::unique_ptr<model::MechanicalSystem> system = std::make_unique<model::MechanicalSystem>();
  std::vector<std::unique_ptr<Joint>> joints;
  model::SystemState state;
  CsrMatrix M;
  Eigen::VectorXd v_free;
  double h = 1e-3;
};

std::unique_ptr<ChainStep> make_chain(int n) {
  auto c = std::make_unique<ChainStep>();
  const double m = 0.2, L = 0.1, r = 0.01;
  const SpatialInertia I = make_spatial_inertia(
      m, Vec3{{0, 0, 0}},
      Mat3{{0.5 * m * r * r, 0, 0, 0, m * (3 * r * r + L * L) / 12, 0, 0, 0, m * (3 * r * r + L * L) / 12}});
  c->system->set_gravity(Vec3{{0, 0, -9.81}});
  const Vec3 y{{0, 1, 0}};
  for (int i = 0; i < n; ++i) {
    c->system->add_body(I, Vec3{{(i + 0.5) * L, 0, 0}}, quat_identity());
    const JointSide parent = i == 0 ? world_side(Vec3{{0, 0, 0}}, y) : body_side(i - 1, Vec3{{0.5 * L, 0, 0}}, y);
    const JointSide child = body_side(i, Vec3{{-0.5 * L, 0, 0}}, y);
    if (g_hinge)
      c->joints.push_back(std::make_unique<HingeJoint>("j" + std::to_string(i), parent, child));
    else
      c->joints.push_back(std::make_unique<BallJoint>("j" + std::to_string(i), parent, child));
    c->joints.back()->check(*c->system);
  }
  const Eigen::VectorXd q = c->system->initial_positions(), u = Eigen::VectorXd::Zero(6 * n);
  c->system->evaluate_state(0, q, u, c->state);
  c->system->mass_matrix_at(c->state, c->M);
  Eigen::VectorXd f;
  c->system->forces_at(c->state, model::ForcePart::kAll, f);
  EigenCsr Me = to_eigen(c->M);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> mass(Me);
  c->v_free = u + c->h * mass.solve(f);
  return c;
}

GlobalProblem assemble(const ChainStep& c, ConstraintRows& rows) {
  rows.clear();
  for (const auto& j : c.joints) j->add_rows(*c.system, c.state, rows);
  return assemble_step_problem(rows, c.M, c.v_free, c.h);
}

void finish(benchmark::State& state, int n, Index rows) {
  state.counters["per_link"] =
      benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["rows"] = static_cast<double>(rows);
}

void BM_Rows(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto c = make_chain(n);
  ConstraintRows rows;
  for (auto _ : state) benchmark::DoNotOptimize(assemble(*c, rows));
  finish(state, n, rows.rows());
}

void BM_Kkt(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto c = make_chain(n);
  ConstraintRows rows;
  const GlobalProblem g = assemble(*c, rows);
  KktSolver kkt(std::make_unique<CholmodSolver>());
  for (auto _ : state) benchmark::DoNotOptimize(kkt.solve_global(g));
  finish(state, n, rows.rows());
}

void BM_Schur(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto c = make_chain(n);
  ConstraintRows rows;
  const GlobalProblem g = assemble(*c, rows);
  CholmodSolver chol;
  for (auto _ : state) {
    // M is block diagonal: its inverse is, and W = H^T M^-1 H keeps the chain's band.
    std::vector<Eigen::Triplet<double>> minv;
    for (Index b = 0; b < n; ++b) {
      const Eigen::Matrix<double, 6, 6> inv = c->system->body_mass_block(c->state, b).inverse();
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) minv.emplace_back(6 * b + i, 6 * b + j, inv(i, j));
    }
    Eigen::SparseMatrix<double> Minv(6 * n, 6 * n);
    Minv.setFromTriplets(minv.begin(), minv.end());
    const Eigen::SparseMatrix<double> H = to_eigen(g.H);
    const Eigen::SparseMatrix<double, Eigen::RowMajor> W = H.transpose() * Minv * H;
    chol.compute(from_eigen(W));
    const Eigen::VectorXd Minv_f = Minv * g.f;
    const Eigen::VectorXd r = -chol.solve(Eigen::VectorXd(g.w + H.transpose() * Minv_f));
    const Eigen::VectorXd v = Minv * (H * r) + Minv_f;
    benchmark::DoNotOptimize(v.data());
  }
  finish(state, n, rows.rows());
}

void BM_Baraff(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto c = make_chain(n);
  ConstraintRows rows;
  const GlobalProblem g = assemble(*c, rows);
  // Per joint: its rows (contiguous, in joint order) and its one or two bodies.
  const Index per = rows.rows() / n;
  std::vector<std::map<int, Eigen::MatrixXd>> blocks(static_cast<std::size_t>(n));
  for (const auto& t : rows.jacobian) {
    auto& m = blocks[static_cast<std::size_t>(t.row() / per)];
    auto it = m.find(t.col() / 6);
    if (it == m.end()) it = m.emplace(t.col() / 6, Eigen::MatrixXd::Zero(per, 6)).first;
    it->second(t.row() % per, t.col() % 6) += t.value();
  }
  const Eigen::VectorXd force = to_eigen(c->M) * c->v_free;
  BaraffWorkspace ws;
  BaraffSolution out;
  for (auto _ : state) {
    std::vector<BaraffBody> bodies;
    bodies.reserve(static_cast<std::size_t>(n));
    for (Index b = 0; b < n; ++b) bodies.push_back(BaraffBody{c->system->body_mass_block(c->state, b)});
    std::vector<BaraffConstraint> primary;
    primary.reserve(static_cast<std::size_t>(n));
    for (const auto& m : blocks) {
      BaraffConstraint pc;
      auto it = m.begin();
      pc.body_a = it->first;
      pc.jacobian_a = it->second;
      if (++it != m.end()) {
        pc.body_b = it->first;
        pc.jacobian_b = it->second;
      }
      primary.push_back(std::move(pc));
    }
    const BaraffProblem problem(std::move(bodies), std::move(primary));
    const BaraffSolver solver(problem);
    solver.solve(force, g.w, ws, out);
    benchmark::DoNotOptimize(out.acceleration.data());
  }
  finish(state, n, rows.rows());
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> sizes = sinew::bench::take_int_list(argc, argv, "sizes", "10,30,100,300,1000");
  const int kkt_max = std::stoi(sinew::bench::take_flag(argc, argv, "kkt_max", "300"));
  g_hinge = sinew::bench::take_flag(argc, argv, "joint", "ball") == "hinge";
  for (int n : sizes) {
    benchmark::RegisterBenchmark("chain/rows", BM_Rows)->Arg(n)->Unit(benchmark::kMicrosecond);
    if (n <= kkt_max) benchmark::RegisterBenchmark("chain/kkt", BM_Kkt)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("chain/schur", BM_Schur)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("chain/baraff", BM_Baraff)->Arg(n)->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
