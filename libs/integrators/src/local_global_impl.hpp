// The private state of LocalGlobalIntegrator (its pimpl), shared by local_global.cpp (setup and
// step) and local_global_checkpoint.cpp (save / restore).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <vector>

#include "local_global_contact_solver.hpp"
#include "local_global_kernels.hpp"
#include "local_global_triangles.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace sinew::integrators {

/// Everything a LocalGlobalIntegrator owns: constants of the description, the factor of A, the
/// backend arrays and the contact solver. Persistent across steps (what save() writes): steps,
/// x, v, targets / pin_t3_host, and the contact solver's checkpoint(); the rest is rebuilt from
/// the description or recomputed at each step's start.
struct LocalGlobalIntegrator::Impl {
  Backend* backend = nullptr;
  LocalGlobalOptions options;
  detail::LocalConstants constants{};  // mode set per pass
  double h = 0.0;
  Index n = 0;                            // vertices
  std::size_t n_tets = 0;                 // tetrahedra
  std::vector<double> masses;             // (n) lumped masses
  std::vector<PositionalTarget> targets;  // weights resolved (> 0)
  std::vector<double> pin_t3_host;        // (3n) target coordinates of pinned vertices, 0 elsewhere
  bool targets_dirty = true;              // pin_t3_host not yet uploaded
  CsrMatrix As;                           // (n x n) scalar system matrix, A = A_s (x) I_3
  double jacobi_omega = 1.0;
  long steps = 0;

  std::unique_ptr<SparseInverse> inverse;             // kSparseInverse
  std::unique_ptr<SparseInverseOperator> inverse_op;  // kSparseInverse
  std::unique_ptr<CholmodSolver> cholmod;             // kCholmod
  std::vector<double> b_host, x_host;                 // (3n) kCholmod transfers
  Eigen::MatrixXd rhs_host;                           // (n x 3) kCholmod right-hand side
  DeviceCsr As_dev;                                   // kJacobi
  DeviceArray<double> jacobi_scale;                   // (3n) omega / a_ii, kJacobi

  DeviceCsr G;                          // (3 n_tets x n) rows (e, j): dF_ij/dx_{v,i} = c_e[a][j] at column v
  DeviceArray<double> volumes;          // (n_tets) rest volumes
  DeviceArray<double> weights;          // (n_tets) constraint weights W_e (the ADMM w_e of Neo-Hookean elements)
  DeviceArray<double> x, v, x_prev;     // (3n) positions, velocities, positions at the step start
  DeviceArray<double> y;                // (3n) q~ = x_n + h v_n + h^2 g
  DeviceArray<double> c;                // (3n) constant part of b: M q~ + h^2 sum w t
  DeviceArray<double> b, r, tmp, tmp2;  // (3n) right-hand side and scratch
  DeviceArray<double> mass3, gravity3;  // (3n) m_v and g per coordinate
  DeviceArray<double> pin_w3, pin_t3;   // (3n) pin weight and target per coordinate (0 if free)
  DeviceArray<double> F_t, p_w, u;      // (9 n_tets) F^T, weighted projections, ADMM dual (NH only)
  DeviceArray<double> energy, ones;     // (n_tets) element energies, ones for their sum
  detail::TriangleElements tris;        // membranes (local_global_triangles.hpp); empty without
  std::unique_ptr<detail::LocalGlobalContactSolver> contact;  // null without obstacles
  std::vector<Obstacle> no_obstacles;                         // what obstacles() returns then
  TetSurfaces no_surfaces;                                    // what contact_surfaces() returns then

  void local_pass(int mode);
  double incremental_potential();
  void global_solve();
};

}  // namespace sinew::integrators
