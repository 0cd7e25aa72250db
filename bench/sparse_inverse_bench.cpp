// The sparse inverse S = L^-1 of the real-time hyperelastic paper (Section 4):
//  1. the paper's Table 1 (square cloth, stretching edges only): bytes of the dense A^-1
//     (symmetric half), of S as the paper builds it (3n x 3n) and of the Kronecker-aware S
//     (n x n, applied per coordinate), printed beside the paper's figures;
//  2. the global step x = S^T (S b) on every usable backend against CHOLMOD's triangular solve
//     pair on the same matrix (both as 3n x 3n and per coordinate), with GB/s.
//
//   sparse_inverse_bench [--cloth=71x72,101x101,123x124,142x142] [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/fem_matrix.hpp"
#include "sinew/linalg/kronecker.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace {

using namespace sinew;

constexpr double kMiB = 1024.0 * 1024.0;

// The paper's Table 1, square cloth without bending: vertices, A^-1 MB, S MB.
struct PaperRow {
  const char* label;
  double vertices, a_inv, s;
};
const PaperRow kPaper[] = {{"5.1k", 5.1e3, 893.33, 34.80},
                           {"10.2k", 10.2e3, 3589.46, 102.51},
                           {"15.3k", 15.3e3, 8050.51, 183.79},
                           {"20.2k", 20.2e3, 14010.30, 280.41}};

// The paper's row for a mesh of about the same size (within 2%), if any.
const PaperRow* paper_row(Index vertices) {
  for (const PaperRow& p : kPaper)
    if (std::abs(vertices - p.vertices) <= 0.02 * p.vertices) return &p;
  return nullptr;
}

struct Cloth {
  ClothGrid grid;
  CsrMatrix scalar, full;  // A_s and A = A_s (x) I_3
  std::unique_ptr<SparseInverse> kron, paper;
};
std::vector<std::unique_ptr<Cloth>> g_cloths;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_table() {
  std::printf("Table 1 of the paper (square cloth, no bending), memory in MiB (2^20 bytes)\n");
  std::printf("%-7s %-7s %-9s | %10s %10s | %10s %10s %10s | %10s %10s\n", "paper", "verts", "grid", "A^-1", "paper",
              "S 3n", "S 3n+idx", "paper S", "S kron", "kron+idx");
  for (std::size_t i = 0; i < g_cloths.size(); ++i) {
    const Cloth& c = *g_cloths[i];
    const double dofs = 3.0 * c.grid.vertices();
    const double a_inv = dofs * (dofs + 1.0) / 2.0 * sizeof(double) / kMiB;
    const PaperRow* p = paper_row(c.grid.vertices());
    std::printf("%-7s %-7d %4dx%-4d | %10.2f %10.2f | %10.2f %10.2f %10.2f | %10.2f %10.2f", p ? p->label : "-",
                c.grid.vertices(), c.grid.nx, c.grid.ny, a_inv, p ? p->a_inv : 0.0, c.paper->bytes_values() / kMiB,
                c.paper->bytes_with_indices() / kMiB, p ? p->s : 0.0, c.kron->bytes_values() / kMiB,
                c.kron->bytes_with_indices() / kMiB);
    std::printf("\n");
  }
  std::printf(
      "S 3n: S = L^-1 of the 3n x 3n matrix (values only, as the paper counts; +idx: CSR indices too).\n"
      "S kron: the Kronecker-aware S of A_s (n x n), applied to the n x 3 right-hand side.\n\n");
}

void build_cloths(const std::string& spec) {
  std::stringstream ss(spec);
  for (std::string item; std::getline(ss, item, ',');) {
    auto c = std::make_unique<Cloth>();
    const auto x = item.find('x');
    c->grid.nx = std::stoi(item.substr(0, x));
    c->grid.ny = std::stoi(item.substr(x + 1));
    c->scalar = cloth_stretch_matrix(c->grid);
    c->full = kronecker3_expand(c->scalar);
    auto t0 = std::chrono::steady_clock::now();
    c->paper = std::make_unique<SparseInverse>(
        c->full, SparseInverseOptions{CholmodOrdering::kNestedDissection, KroneckerStructure::kNone});
    const double t_full = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    c->kron = std::make_unique<SparseInverse>(c->full);
    const double t_kron = seconds_since(t0);
    std::fprintf(stderr, "cloth %s: factor + inverse %.2f s (3n x 3n), %.2f s (Kronecker-aware)\n", item.c_str(),
                 t_full, t_kron);
    g_cloths.push_back(std::move(c));
  }
}

std::map<std::string, std::unique_ptr<Backend>> g_backends;
Backend& backend(const std::string& name) {
  auto& b = g_backends[name];
  if (!b) b = make_backend(name);
  return *b;
}

void gbs(benchmark::State& s, double bytes) {
  s.counters["GB/s"] = benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void register_benchmarks() {
  for (std::size_t i = 0; i < g_cloths.size(); ++i) {
    Cloth* c = g_cloths[i].get();
    const std::string v = "/v:" + std::to_string(c->grid.vertices());
    for (const BackendInfo& info : builtin_backends().list()) {
      if (!info.usable) continue;
      for (bool kron : {true, false}) {
        const std::string name = std::string("global_step_sparse_inverse/") + (kron ? "kron/" : "3n/") + info.name + v;
        benchmark::RegisterBenchmark(name.c_str(),
                                     [c, kron, bname = info.name](benchmark::State& s) {
                                       Backend& b = backend(bname);
                                       SparseInverseOperator op(b, kron ? *c->kron : *c->paper);
                                       std::vector<double> bh(static_cast<std::size_t>(op.dofs()), 1.0);
                                       for (std::size_t k = 0; k < bh.size(); ++k)
                                         bh[k] = 1.0 + 1e-3 * static_cast<double>(k % 97);
                                       DeviceArray<double> rhs = b.upload(bh), x = b.allocate<double>(bh.size());
                                       op.apply(rhs, x);  // warm-up: the first apply touches the intermediate vectors
                                       for (auto _ : s) {
                                         op.apply(rhs, x);
                                         b.synchronize();
                                       }
                                       gbs(s, op.bytes_per_apply());  // in the storage apply() uses
                                       s.counters["run_compressed"] = op.run_compressed() ? 1.0 : 0.0;
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
    for (bool kron : {true, false}) {
      const std::string name = std::string("global_step_cholmod_solve/") + (kron ? "kron" : "3n") + v;
      benchmark::RegisterBenchmark(
          name.c_str(),
          [c, kron](benchmark::State& s) {
            CholmodSolver chol;
            chol.compute(kron ? c->scalar : c->full);
            const Index n = kron ? c->scalar.rows : c->full.rows;
            const Eigen::MatrixXd B = Eigen::MatrixXd::Ones(n, kron ? 3 : 1);
            Eigen::MatrixXd X;
            for (auto _ : s) {
              X = chol.solve(B);
              benchmark::DoNotOptimize(X.data());
            }
            // Forward and backward substitution each read L once (values and row indices).
            gbs(s, 2.0 * chol.factor_nnz() * (sizeof(double) + sizeof(Index)) + 4.0 * B.size() * sizeof(double));
            s.counters["factor_nnz"] = static_cast<double>(chol.factor_nnz());
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cloths = sinew::bench::take_flag(argc, argv, "cloth", "71x72,101x101,123x124,142x142");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  build_cloths(cloths);
  print_table();
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  g_backends.clear();
  benchmark::Shutdown();
  return 0;
}
