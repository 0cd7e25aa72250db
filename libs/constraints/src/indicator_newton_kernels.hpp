// The per-block kernel of IndicatorNewtonStep (indicator_newton_step.cpp), private to constraints:
// one plain functor looped on host backends and launched on CUDA ones by sinew::for_each_index
// (indicator_newton_cuda.cu compiles the launch).
#pragma once

#include <cstddef>
#include <type_traits>

#include "sinew/constraints/ncp_indicators.hpp"
#include "sinew/core/config.hpp"
#include "sinew/core/for_each_index.hpp"

namespace sinew::constraints::detail {

/// Law of a block as the kernel sees it: BlockKind without its Eigen-bound header, so that nvcc
/// compiles this file without Eigen (box friction is rejected before).
enum class IndicatorKind : int { kBilateral, kUnilateral, kContact };

/// One row block as the kernel sees it (plain data, uploaded once per solve).
struct IndicatorBlock {
  Index row = 0;                                   ///< first row
  IndicatorKind kind = IndicatorKind::kBilateral;  ///< law
  double mu = 0.0;                                 ///< friction coefficient (contacts)
};

/// Rows whose indicator omega is below this are solved as decoupled (dr_i = -phi_i / e_i). Only
/// FB rows reach (0, 1e-8): omega = 1 - u / S ~ (rho r / u)^2 / 2 for a nearly open row, whose
/// e is then ~ rho, so the dropped term omega (W dr)_i is ~1e-8 of e dr_i (an inexact-Newton
/// perturbation), while keeping it would make y = dr / omega overflow as omega underflows.
constexpr double kIndicatorOmegaFloor = 1e-8;

/// Where the kernel writes, each (m) by row: see indicator_newton_solver.hpp for the maths.
struct IndicatorRowsOut {
  double* omega;     ///< indicator, 0 on decoupled rows
  double* diag_add;  ///< e omega on coupled rows, 1 on decoupled rows (the operator's diagonal term)
  double* inv_diag;  ///< CR preconditioner 1 / (omega^2 W_ii + e omega), 1 on decoupled rows
  double* rhs;       ///< -phi on coupled rows, 0 on decoupled rows
  double* dr_open;   ///< -phi / e on decoupled rows, 0 on coupled rows
};

/// Stores row @p i with value @p phi and indicators @p omega, @p e (>= 0; e > 0 whenever omega
/// is below the floor: min-map open rows have e = rho, FB rows e >= (2 - sqrt2 - omega) rho,
/// inactive friction e = 1).
SINEW_HD void indicator_store_row(Index i, double phi, double omega, double e, double w_ii, double shift,
                                  const IndicatorRowsOut& out) {
  if (omega > kIndicatorOmegaFloor) {
    e += shift;
    out.omega[i] = omega;
    out.diag_add[i] = e * omega;
    out.inv_diag[i] = 1.0 / (omega * omega * w_ii + e * omega);
    out.rhs[i] = -phi;
    out.dr_open[i] = 0.0;
  } else {
    out.omega[i] = 0.0;
    out.diag_add[i] = 1.0;
    out.inv_diag[i] = 1.0;
    out.rhs[i] = 0.0;
    out.dr_open[i] = -phi / e;
  }
}

/// Indicators and CR quantities of one block at (u, r): (m) arrays u, r, rho (eq. (28)'s
/// preconditioner per row) and diag_w (W_ii).
SINEW_HD void indicator_newton_block(NcpFunction fn, const IndicatorBlock& b, const double* u, const double* r,
                                     const double* rho, const double* diag_w, double proximal,
                                     const IndicatorRowsOut& out) {
  const Index i = b.row;
  if (b.kind == IndicatorKind::kBilateral) {  // phi = u: omega = 1, e = 0 (eq. (15b) with E_b = 0)
    indicator_store_row(i, u[i], 1.0, 0.0, diag_w[i], proximal * rho[i], out);
  } else if (b.kind == IndicatorKind::kUnilateral) {
    IndicatorRow row;
    indicator_unilateral(fn, u[i], r[i], rho[i], row);
    indicator_store_row(i, row.phi, row.omega, row.e, diag_w[i], proximal * rho[i], out);
  } else {  // kContact (box friction is rejected before)
    IndicatorContact c;
    indicator_contact(fn, u + i, r + i, b.mu, rho[i], rho[i + 1], c);
    for (int k = 0; k < 3; ++k)
      indicator_store_row(i + k, c.phi[k], c.omega[k], c.e[k], diag_w[i + k], proximal * rho[i + k], out);
  }
}

/// indicator_newton_block() of block b: the indicators and CR quantities at (u, r).
struct IndicatorNewtonKernel {
  NcpFunction fn;                ///< NCP function of the indicators
  const IndicatorBlock* blocks;  ///< (n) blocks
  const double* u;               ///< (m) local velocities
  const double* r;               ///< (m) impulses
  const double* rho;             ///< (m) eq. (28) preconditioner
  const double* diag_w;          ///< (m) W_ii
  double proximal;               ///< proximal weight on rho
  IndicatorRowsOut out;          ///< where the rows go
  /// Block b.
  SINEW_HD void operator()(std::size_t b) const {
    indicator_newton_block(fn, blocks[b], u, r, rho, diag_w, proximal, out);
  }
};

}  // namespace sinew::constraints::detail

#if SINEW_CUDA_KERNELS
namespace sinew {
/// indicator_newton_cuda.cu compiles the launch of the per-block kernel.
template <>
struct CudaLaunchCompiled<constraints::detail::IndicatorNewtonKernel> : std::true_type {};
}  // namespace sinew
#endif
