// Baraff's linear-time KKT solver (sinew::BaraffSolver) on articulated rigid bodies (6-DOF,
// 3-D ball joints and every fourth joint a 5-D hinge, the root grounded by a ball joint), chains,
// random trees and the same trees numbered depth-first ("dfs_tree", as URDF and MJCF number their
// bodies) of n = 10^2 .. 10^5 bodies: time per factor and per solve, with the time per
// body as a counter (flat = linear). In the same run, CHOLMOD (simplicial LDL^T) and Eigen's
// SimplicialLDLT factor and solve the same KKT matrix H = [M -J^T; -J 0] two ways:
//
//  * "amd": their default fill-reducing ordering on the quasi-definite matrix with (2,2) block
//    -delta I (delta = --delta, default 1e-10). A general ordering may eliminate a constraint row
//    before its bodies, where H's pivot is exactly 0; with -delta I every symmetric ordering is
//    factorizable (quasi-definite matrices are strongly factorizable), at the price of solving
//    a perturbed system. The relative difference of its lambda to Baraff's is reported: it grows
//    with delta (the perturbation) and with 1/delta (element growth at pivots of size delta);
//    1e-10 gave the smallest, 1e-9 .. 1e-7 here, against 1e-6 .. 1e-4 at 1e-12 .. 1e-14.
//  * "tree": Baraff's own elimination order handed over as a fixed permutation (no ordering
//    computed), delta = 0: the exact system, to compare the factorization kernels alone.
//
// Every solve takes z and returns x in natural numbering (bodies, then constraints), as Baraff's
// does: CHOLMOD and Eigen permute internally for "amd", the bench permutes for "tree".
// Factor times exclude symbolic analysis (ordering) for every method; Baraff's constructor
// (graph, cycle check, depth-first order, then factor) is timed separately as baraff/build.
//
//   baraff_bench [--sizes=100,1000,10000,100000] [--delta=1e-10] [Google Benchmark flags]
//   e.g. --benchmark_out=baraff.json --benchmark_out_format=json --benchmark_min_time=0.05
#include <benchmark/benchmark.h>

#include <Eigen/CholmodSupport>
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/linalg/baraff_solver.hpp"
#include "stream_triad.hpp"

namespace {

using namespace sinew;
using SpMat = Eigen::SparseMatrix<double>;

double g_delta = 1e-10;

Eigen::Matrix3d cross_matrix(const Eigen::Vector3d& r) {
  Eigen::Matrix3d x;
  x << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return x;
}

// A rigid body's 6x6 mass block about its centre of mass, twist (v, w) in world axes:
// diag(m I, R I_body R^T).
Eigen::MatrixXd rigid_mass(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> mass(1.0, 2.0), inertia(0.05, 0.5);
  std::normal_distribution<double> g;
  const Eigen::Matrix3d R = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
  M.topLeftCorner<3, 3>() = mass(rng) * Eigen::Matrix3d::Identity();
  const Eigen::Vector3d I(inertia(rng), inertia(rng), inertia(rng));
  M.bottomRightCorner<3, 3>() = R * I.asDiagonal() * R.transpose();
  M.bottomRightCorner<3, 3>() = 0.5 * (M.bottomRightCorner<3, 3>() + M.bottomRightCorner<3, 3>().transpose()).eval();
  return M;
}

// Velocity of the joint point at lever arm r from a body's centre, as rows [I, -[r]x] (3 x 6);
// a hinge adds two angular rows [0, t^T] for the directions t normal to its axis (5 x 6).
Eigen::MatrixXd joint_block(const Eigen::Vector3d& r, bool hinge, const Eigen::Vector3d& axis) {
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(hinge ? 5 : 3, 6);
  j.leftCols<3>() = Eigen::Matrix3d::Identity();
  j.block<3, 3>(0, 3) = -cross_matrix(r);
  if (hinge) {
    const Eigen::Vector3d t1 = axis.unitOrthogonal(), t2 = axis.cross(t1);
    j.block<1, 3>(3, 3) = t1.transpose();
    j.block<1, 3>(4, 3) = t2.transpose();
  }
  return j;
}

// The topologies: a chain, a random tree (each body hangs from one uniform among those before
// it), and the same random tree numbered depth-first (pre-order), as robot description files
// (URDF, MJCF) number their bodies.
enum class Topology { kChain, kTree, kDepthFirstTree };

Topology topology_of(const std::string& name) {
  return name == "chain" ? Topology::kChain : name == "tree" ? Topology::kTree : Topology::kDepthFirstTree;
}

// parent[i] of each body (-1: the root, body 0): i - 1 for a chain, uniform in [0, i) for a
// random tree, and that tree relabelled in depth-first pre-order (still parent < child).
std::vector<int> parents(int n, Topology topology, std::mt19937_64& rng) {
  std::vector<int> parent(static_cast<std::size_t>(n), -1);
  for (int i = 1; i < n; ++i)
    parent[i] = topology == Topology::kChain ? i - 1 : std::uniform_int_distribution<int>(0, i - 1)(rng);
  if (topology != Topology::kDepthFirstTree || n == 0) return parent;
  std::vector<std::vector<int>> children(static_cast<std::size_t>(n));
  for (int i = 1; i < n; ++i) children[parent[i]].push_back(i);
  std::vector<int> label(static_cast<std::size_t>(n)), stack{0};
  int next = 0;
  while (!stack.empty()) {
    const int b = stack.back();
    stack.pop_back();
    label[b] = next++;
    for (auto it = children[b].rbegin(); it != children[b].rend(); ++it) stack.push_back(*it);
  }
  std::vector<int> relabelled(static_cast<std::size_t>(n), -1);
  for (int i = 1; i < n; ++i) relabelled[label[i]] = label[parent[i]];
  return relabelled;
}

// n bodies; body i > 0 hangs from parent(i) (parents()); body 0 is grounded by a ball joint.
// Constraint c holds body c (c = 0: to the world).
BaraffProblem make_mechanism(int n, Topology topology, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<BaraffBody> bodies;
  bodies.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) bodies.push_back({rigid_mass(rng)});
  const std::vector<int> parent_of = parents(n, topology, rng);
  std::vector<BaraffConstraint> joints;
  joints.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int parent = i == 0 ? kBaraffWorld : parent_of[i];
    const bool hinge = i % 4 == 3;
    const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const Eigen::Vector3d ra(u(rng), u(rng), u(rng)), rb(u(rng), u(rng), u(rng));
    BaraffConstraint c;
    c.body_a = i;
    c.body_b = parent;
    c.jacobian_a = joint_block(ra, hinge, axis);  // point and angular velocity of body i ...
    if (parent != kBaraffWorld) c.jacobian_b = -joint_block(rb, hinge, axis);  // ... equal those of the parent
    joints.push_back(std::move(c));
  }
  return BaraffProblem(std::move(bodies), std::move(joints));
}

// H with the (2,2) block -delta I, natural numbering (bodies, then constraints), full symmetric.
SpMat kkt_matrix(const BaraffProblem& p, double delta) {
  const int nv = p.num_dofs(), nl = p.num_multipliers();
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(static_cast<std::size_t>(36 * p.num_bodies() + 2 * 12 * nl + nl));
  for (int i = 0; i < p.num_bodies(); ++i)
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r < 6; ++r) t.emplace_back(p.body_offset(i) + r, p.body_offset(i) + c, p.bodies()[i].mass(r, c));
  for (int k = 0; k < p.num_constraints(); ++k) {
    const BaraffConstraint& con = p.constraints()[k];
    const int row0 = nv + p.constraint_offset(k);
    for (auto [body, j] : {std::make_pair(con.body_a, &con.jacobian_a), std::make_pair(con.body_b, &con.jacobian_b)}) {
      if (body == kBaraffWorld) continue;
      for (int r = 0; r < j->rows(); ++r)
        for (int c = 0; c < j->cols(); ++c) {
          t.emplace_back(row0 + r, p.body_offset(body) + c, -(*j)(r, c));
          t.emplace_back(p.body_offset(body) + c, row0 + r, -(*j)(r, c));
        }
    }
    if (delta != 0.0)
      for (int r = 0; r < p.constraint_dim(k); ++r) t.emplace_back(row0 + r, row0 + r, -delta);
  }
  SpMat H(nv + nl, nv + nl);
  H.setFromTriplets(t.begin(), t.end());
  return H;
}

// Scalar permutation: natural index -> position in Baraff's elimination order.
Eigen::VectorXi tree_permutation(const BaraffProblem& p, const BaraffSolver& s) {
  Eigen::VectorXi perm(p.num_dofs() + p.num_multipliers());
  int next = 0;
  for (int node : s.elimination_order()) {
    const bool body = node < p.num_bodies();
    const int off = body ? p.body_offset(node) : p.num_dofs() + p.constraint_offset(node - p.num_bodies());
    const int d = body ? p.body_dim(node) : p.constraint_dim(node - p.num_bodies());
    for (int i = 0; i < d; ++i) perm[off + i] = next++;
  }
  return perm;
}

using CholmodLdlt = Eigen::CholmodSimplicialLDLT<SpMat, Eigen::Lower>;
using EigenAmdLdlt = Eigen::SimplicialLDLT<SpMat, Eigen::Lower, Eigen::AMDOrdering<int>>;
using EigenNaturalLdlt = Eigen::SimplicialLDLT<SpMat, Eigen::Lower, Eigen::NaturalOrdering<int>>;

// Everything for one (topology, n), built once outside the timings.
struct Case {
  int n = 0;
  std::unique_ptr<BaraffProblem> problem;
  std::unique_ptr<BaraffSolver> solver;
  Eigen::VectorXd force, bias, z;  // z = (force; bias)
  BaraffSolution baraff;           // reference answer
  double baraff_residual = 0;      // ||H x - z|| / ||z||
  SpMat quasi, tree;               // H with -delta I (natural order); H permuted to the tree order
  Eigen::VectorXi perm;            // natural -> tree order
  CholmodLdlt cholmod_amd, cholmod_tree;
  EigenAmdLdlt eigen_amd;
  EigenNaturalLdlt eigen_tree;
  std::map<std::string, double> lambda_diff;  // method -> ||lambda - lambda_Baraff|| / ||lambda_Baraff||
};

std::map<std::string, std::unique_ptr<Case>> g_cases;

double lambda_diff(const Case& c, const Eigen::VectorXd& x_natural) {
  return (x_natural.tail(c.problem->num_multipliers()) - c.baraff.lambda).norm() / c.baraff.lambda.norm();
}

Case& get_case(const std::string& topology, int n) {
  auto& slot = g_cases[topology + std::to_string(n)];
  if (slot) return *slot;
  slot = std::make_unique<Case>();
  Case& c = *slot;
  c.n = n;
  c.problem = std::make_unique<BaraffProblem>(make_mechanism(n, topology_of(topology), 1234 + n));
  c.solver = std::make_unique<BaraffSolver>(*c.problem);
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  c.force = Eigen::VectorXd::NullaryExpr(c.problem->num_dofs(), [&] { return u(rng); });
  c.bias = Eigen::VectorXd::NullaryExpr(c.problem->num_multipliers(), [&] { return u(rng); });
  c.z.resize(c.force.size() + c.bias.size());
  c.z << c.force, c.bias;
  BaraffWorkspace ws;
  c.solver->solve(c.force, c.bias, ws, c.baraff);
  const SpMat exact = kkt_matrix(*c.problem, 0.0);
  Eigen::VectorXd x(c.z.size());
  x << c.baraff.acceleration, c.baraff.lambda;
  c.baraff_residual = (exact * x - c.z).norm() / c.z.norm();

  c.quasi = kkt_matrix(*c.problem, g_delta);
  c.perm = tree_permutation(*c.problem, *c.solver);
  const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P(c.perm);
  c.tree = exact.twistedBy(P);
  const Eigen::VectorXd zt = P * c.z;

  c.cholmod_amd.analyzePattern(c.quasi);
  c.cholmod_amd.factorize(c.quasi);
  c.lambda_diff["cholmod_amd"] = lambda_diff(c, c.cholmod_amd.solve(c.z));
  c.cholmod_tree.cholmod().nmethods = 1;
  c.cholmod_tree.cholmod().method[0].ordering = CHOLMOD_NATURAL;
  c.cholmod_tree.cholmod().postorder = 0;
  c.cholmod_tree.analyzePattern(c.tree);
  c.cholmod_tree.factorize(c.tree);
  c.lambda_diff["cholmod_tree"] = lambda_diff(c, P.transpose() * c.cholmod_tree.solve(zt));
  c.eigen_amd.analyzePattern(c.quasi);
  c.eigen_amd.factorize(c.quasi);
  c.lambda_diff["eigen_amd"] = lambda_diff(c, c.eigen_amd.solve(c.z));
  c.eigen_tree.analyzePattern(c.tree);
  c.eigen_tree.factorize(c.tree);
  c.lambda_diff["eigen_tree"] = lambda_diff(c, P.transpose() * c.eigen_tree.solve(zt));
  return c;
}

void set_counters(benchmark::State& s, const Case& c, const std::string& method) {
  s.counters["s_per_body"] =
      benchmark::Counter(c.n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  s.counters["kkt_rows"] = static_cast<double>(c.z.size());
  auto it = c.lambda_diff.find(method);
  if (it != c.lambda_diff.end()) s.counters["lambda_rel_diff"] = it->second;  // vs Baraff's lambda
  if (method == "baraff") s.counters["rel_residual"] = c.baraff_residual;
}

template <class F>
void reg(const std::string& topology, int n, const std::string& method, const std::string& phase, F body) {
  const std::string name = topology + "/" + method + "/" + phase + "/n:" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& s) {
                                 Case& c = get_case(topology, n);
                                 body(s, c);
                                 set_counters(s, c, method);
                               })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
}

void register_case(const std::string& topology, int n) {
  reg(topology, n, "baraff", "build", [](benchmark::State& s, Case& c) {
    for (auto _ : s) benchmark::DoNotOptimize(BaraffSolver(*c.problem).num_components());
  });
  reg(topology, n, "baraff", "factor", [](benchmark::State& s, Case& c) {
    for (auto _ : s) c.solver->factor(*c.problem);
  });
  reg(topology, n, "baraff", "solve", [](benchmark::State& s, Case& c) {
    BaraffWorkspace ws;
    BaraffSolution out;
    for (auto _ : s) {
      c.solver->solve(c.force, c.bias, ws, out);
      benchmark::DoNotOptimize(out.lambda.data());
    }
    // The factor read by the two sweeps, per body and per second (the vectors come on top).
    const double bytes = 2.0 * static_cast<double>(c.solver->factor_bytes());
    s.counters["factor_bytes_per_body"] = static_cast<double>(c.solver->factor_bytes()) / c.n;
    s.counters["factor_GBps"] = benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  });
  auto external = [&](const std::string& method, auto member, bool tree) {
    reg(topology, n, method, "factor", [member, tree](benchmark::State& s, Case& c) {
      auto& f = c.*member;
      for (auto _ : s) f.factorize(tree ? c.tree : c.quasi);
    });
    // Natural numbering in and out for every method, as for Baraff's solve: the tree variants
    // permute z into Baraff's order and x back (what a caller of a fixed ordering does).
    reg(topology, n, method, "solve", [member, tree](benchmark::State& s, Case& c) {
      auto& f = c.*member;
      const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P(c.perm);
      Eigen::VectorXd x(c.z.size()), zt(c.z.size());
      for (auto _ : s) {
        if (tree) {
          zt = P * c.z;
          x = P.transpose() * f.solve(zt);
        } else {
          x = f.solve(c.z);
        }
        benchmark::DoNotOptimize(x.data());
      }
    });
  };
  external("cholmod_amd", &Case::cholmod_amd, false);
  external("cholmod_tree", &Case::cholmod_tree, true);
  external("eigen_amd", &Case::eigen_amd, false);
  external("eigen_tree", &Case::eigen_tree, true);
}

// Collects mean real times (us) and counters for the closing table.
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration && !r.error_occurred) {
        const std::string name = r.benchmark_name().substr(0, r.benchmark_name().find("/real_time"));
        time_us_[name] = r.GetAdjustedRealTime();
        for (const auto& [k, v] : r.counters) counter_[name + "#" + k] = v.value;
      }
    ConsoleReporter::ReportRuns(runs);
  }

  /// The one-thread STREAM triad of this run (GB/s), for the bandwidth column's footnote.
  void set_triad(double gbs) { triad_ = gbs; }

  void print(const std::vector<int>& sizes) const {
    for (const char* topology : {"chain", "tree", "dfs_tree"}) {
      std::printf("\n%s of rigid bodies (ball joints, every 4th a 5-D hinge): real time per call in ms\n", topology);
      std::printf("%8s | %9s %9s %9s %11s %11s %9s | %19s %19s %19s %19s | %9s %9s\n", "n", "B.build", "B.factor",
                  "B.solve", "factor/body", "solve/body", "B.GB/s", "CHOLMOD amd fac/sol", "CHOLMOD tree fac/sol",
                  "Eigen amd fac/sol", "Eigen tree fac/sol", "dlam amd", "dlam tree");
      for (int n : sizes) {
        const std::string tail = "/n:" + std::to_string(n);
        const bool ran = std::any_of(time_us_.begin(), time_us_.end(), [&](const auto& kv) {
          return kv.first.rfind(topology, 0) == 0 && kv.first.size() >= tail.size() &&
                 kv.first.compare(kv.first.size() - tail.size(), tail.size(), tail) == 0;
        });
        if (!ran) continue;  // filtered out
        auto t = [&](const std::string& method, const char* phase) {
          auto it = time_us_.find(std::string(topology) + "/" + method + "/" + phase + "/n:" + std::to_string(n));
          return it == time_us_.end() ? std::nan("") : it->second * 1e-3;
        };
        auto counter = [&](const std::string& name) {
          auto it = counter_.find(std::string(topology) + "/baraff/solve/n:" + std::to_string(n) + "#" + name);
          return it == counter_.end() ? std::nan("") : it->second;
        };
        auto diff = [&](const std::string& method) {
          auto it = counter_.find(std::string(topology) + "/" + method + "/factor/n:" + std::to_string(n) +
                                  "#lambda_rel_diff");
          return it == counter_.end() ? std::nan("") : it->second;
        };
        auto pair = [&](const std::string& method) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%9.3f/%-9.3f", t(method, "factor"), t(method, "solve"));
          return std::string(buf);
        };
        std::printf("%8d | %9.3f %9.3f %9.3f %9.1fns %9.1fns %9.2f | %19s %19s %19s %19s | %9.1e %9.1e\n", n,
                    t("baraff", "build"), t("baraff", "factor"), t("baraff", "solve"), 1e6 * t("baraff", "factor") / n,
                    1e6 * t("baraff", "solve") / n, counter("factor_GBps"), pair("cholmod_amd").c_str(),
                    pair("cholmod_tree").c_str(), pair("eigen_amd").c_str(), pair("eigen_tree").c_str(),
                    std::max(diff("cholmod_amd"), diff("eigen_amd")),
                    std::max(diff("cholmod_tree"), diff("eigen_tree")));
      }
    }
    std::printf(
        "\nB.build: BaraffSolver constructor (graph, cycle check, order, factor); B.factor: refactor only.\n"
        "amd: default ordering on H with (2,2) = -%.0e I (quasi-definite); tree: Baraff's order, exact H.\n"
        "Factor times exclude every method's symbolic analysis.\n"
        "dlam: max over CHOLMOD and Eigen of ||lambda - lambda_Baraff|| / ||lambda_Baraff||.\n"
        "B.GB/s: the factor's bytes read by a solve's two sweeps per second, against the one-thread STREAM triad\n"
        "of this run, %.2f GB/s: near it, a solve is bound by memory bandwidth, not by its arithmetic.\n",
        g_delta, triad_);
  }

 private:
  std::map<std::string, double> time_us_;
  std::map<std::string, double> counter_;
  double triad_ = std::nan("");
};

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> sizes = sinew::bench::take_int_list(argc, argv, "sizes", "100,1000,10000,100000");
  g_delta = std::stod(sinew::bench::take_flag(argc, argv, "delta", "1e-10"));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const char* topology : {"chain", "tree", "dfs_tree"})
    for (int n : sizes) register_case(topology, n);
  TableReporter reporter;
  // The triad on one thread (the solves run on one), on arrays of 64 MiB (twice the L3 of the
  // machines we measure on): the bandwidth a solve whose factor is out of cache can reach.
  reporter.set_triad(sinew::bench::best_triad_gbs(64, 1));
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print(sizes);
  g_cases.clear();
  benchmark::Shutdown();
  return 0;
}
