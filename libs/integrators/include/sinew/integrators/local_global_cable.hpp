/// @file
/// @brief Cables of a LocalGlobalIntegrator solid: the bilateral cable constraints of the seed
/// paper's soft manipulator (Sec. 7.8, Figs. 2 and 11), solved with the contacts in the
/// constrained global step (Sec. 5, eq. (18), Algorithm 4).
///
/// A cable is a chain of mesh vertices x_0 ... x_{K-1} (routed through the body like the tendon
/// of Fig. 11) whose length L(q) = sum_k |x_{k+1} - x_k| must equal L_target = rest_length - pull.
/// It is one bilateral row of H whose gradient is taken once per step at q_t like the contacts'
/// rows (so that W = H S'^T S' H^T stays fixed for the step, Algorithm 4):
///   H_cable = dL/dq (q_t),  u = H (q - q^k) / h + (L(q^k) - L_target) / h = 0,
/// with the length re-measured at each L-G iterate q^k (q^0 = q~): a chord iteration whose fixed
/// point has exactly the target length (a single linearization at q_t left the second-order
/// error of the segments' rotation, 2.4e-4 m on a 0.4 m cable bending a bar). The row's impulse r (free
/// sign) is the cable tension times h, and h H^T r is the force it puts on the chain's vertices:
/// the body bends toward the cable's side. dL/dx_k = e_{k-1} - e_k with e_k the unit vector of
/// segment k (e_{-1} = e_{K-1} = 0).
///
/// Cost: W gains a row and column per pulled cable (sums over its K vertices of C = S'^T S'
/// entries, on the host with the contacts' frame expansion), and each L-G iteration downloads
/// q^k (3n doubles) to re-measure L on the host.
///
/// A cable with pull 0 is slack: it adds no row, so the step is bit for bit the step without it
/// (a tendon that is not pulled carries no force; pulling is what the actuator does).
#pragma once

#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::integrators {

/// A cable through a chain of vertices of a LocalGlobalIntegrator solid (file comment).
struct Cable {
  std::vector<Index> vertices;  ///< (K >= 2) the chain, distinct vertices in routing order
  /// Length with no pull (m); < 0 = automatic: the chain's length at the rest positions.
  double rest_length = -1.0;
  /// Initial shortening (m), >= 0 and < rest_length; change it per step with
  /// LocalGlobalIntegrator::set_cable_pull(). 0 = slack (no row).
  double pull = 0.0;
};

/// L = sum_k |x_{k+1} - x_k| of @p cable over the (3 n_vertices) interleaved @p positions.
/// The vertices are assumed in range (checked by validate_cables()).
double cable_length(const Cable& cable, const std::vector<double>& positions);

/// L and its gradient: @p gradient (K) receives dL/dx_k per chain vertex (a zero-length segment
/// contributes nothing, its direction being undefined). Returns L.
double cable_length_gradient(const Cable& cable, const double* positions, std::vector<Vec3>& gradient);

/// Throws sinew::Error (message prefixed by @p who) naming the first bad field of
/// @p cables[k]: fewer than 2 vertices, a vertex out of [0, @p n_vertices) or repeated, a rest
/// segment of zero length in @p rest_positions, a rest_length that is not finite (or 0), a pull
/// that is not finite, < 0, or not below the rest length.
void validate_cables(const std::vector<Cable>& cables, const std::vector<double>& rest_positions, Index n_vertices,
                     const std::string& who);

}  // namespace sinew::integrators
