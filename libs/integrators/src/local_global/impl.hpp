// The private state of LocalGlobalIntegrator (its pimpl), shared by setup.cpp (construction),
// local_global.cpp (the step) and checkpoint.cpp (save / restore).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <vector>

#include "bending.hpp"
#include "contact_solver.hpp"
#include "global_step.hpp"
#include "kernels.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/integrators/local_global.hpp"
#include "triangles.hpp"

namespace sinew::integrators {

/// Everything a LocalGlobalIntegrator owns: constants of the description, the factor of A, the
/// backend arrays and the contact solver. Persistent across steps (what save() writes): steps,
/// x, v, targets / pin_t3_host, and the contact solver's checkpoint(); the rest is rebuilt from
/// the description or recomputed at each step's start.
struct LocalGlobalIntegrator::Impl {
  Backend* backend = nullptr;
  LocalGlobalOptions options;
  detail::MaterialTable materials;                    // the elements' materials (host)
  DeviceArray<detail::LocalMaterial> material_table;  // materials.table on the backend; empty with one material
  DeviceArray<Index> tet_material;                    // (n_tets) entry of material_table per tet, or empty
  double h = 0.0;
  Index n = 0;                            // vertices
  std::size_t n_tets = 0;                 // tetrahedra
  std::vector<double> masses;             // (n) lumped masses
  std::vector<PositionalTarget> targets;  // weights resolved (> 0)
  std::vector<double> pin_t3_host;        // (3n) target coordinates of pinned vertices, 0 elsewhere
  bool targets_dirty = true;              // pin_t3_host not yet uploaded
  CsrMatrix As;                           // (n x n) scalar system matrix, A = A_s (x) I_3
  long steps = 0;
  std::unique_ptr<detail::GlobalStep> global;  // q = A^-1 b (global_step.hpp)

  DeviceCsr G;                          // (3 n_tets x n) rows (e, j): dF_ij/dx_{v,i} = c_e[a][j] at column v
  DeviceArray<double> volumes;          // (n_tets) rest volumes
  DeviceArray<double> weights;          // (n_tets) constraint weights W_e (the ADMM w_e of Neo-Hookean elements)
  DeviceArray<double> x, v, x_prev;     // (3n) positions, velocities, positions at the step start
  DeviceArray<double> y;                // (3n) q~ = x_n + h v_n + h^2 g
  DeviceArray<double> c;                // (3n) constant part of b: M q~ + h^2 sum w t
  DeviceArray<double> b, tmp, tmp2;     // (3n) right-hand side and scratch
  DeviceArray<double> mass3, gravity3;  // (3n) m_v and g per coordinate
  DeviceArray<double> pin_w3, pin_t3;   // (3n) pin weight and target per coordinate (0 if free)
  DeviceArray<double> F_t, p_w, u;      // (9 n_tets) F^T, weighted projections, ADMM dual (NH only)
  DeviceArray<double> energy, ones;     // (n_tets) element energies, ones for their sum
  detail::TriangleElements tris;        // membranes (triangles.hpp); empty without
  detail::BendingElements bending;      // the triangles' bending (bending.hpp); empty without
  std::unique_ptr<detail::LocalGlobalContactSolver> contact;  // null without obstacles
  std::vector<Obstacle> no_obstacles;                         // what obstacles() returns then
  TetSurfaces no_surfaces;                                    // what contact_surfaces() returns then

  /// Uploads the description's state and G (3 n_tets x n), the tets' rest volumes and weights
  /// and the pins' per-coordinate weights; allocates every array a step uses.
  void allocate(const LocalGlobalDescription& d, const CsrMatrix& G_host, const std::vector<double>& tet_volumes,
                const std::vector<double>& tet_weights, const std::vector<double>& pin_w3_host);
  void local_pass(int mode);
  double incremental_potential();
};

}  // namespace sinew::integrators
