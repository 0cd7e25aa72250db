/// @file
/// @brief Export of one constrained step's contact problem (ContactStep::last_problem()) as an
/// FCLIB global problem file, so that scenes feed the Siconos fc3d benchmarks and peer solvers
/// solve exactly what sinew solved.
///
/// The mapping is the identity of FCLIB's global form (fclib_file.hpp): M = the step matrix A
/// (theta-method seed, A = M + h^2 K + h D), H = J^T, f = A v*, w = gap / h on normal rows,
/// mu per contact; FCLIB's equality block (G, b) is left empty. Only problems made of circular
/// contact blocks without compliance can be written (FCLIB has no other laws).
#pragma once

#include <string>

#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/fclib_file.hpp"

namespace sinew::integrators {

/// The FCLIB global problem of @p problem, with @p info as its description.
/// @throws sinew::Error when a block is not a circular contact or a row is compliant.
constraints::FclibGlobalProblem to_fclib_global(const constraints::GlobalProblem& problem,
                                                const constraints::FclibInfo& info = {});

/// Writes @p problem (and, when @p v and @p r are non-empty, the solution v (n), r (m) with
/// u = H^T v + w) to the FCLIB file @p path, atomically (write_fclib_global()).
/// @throws sinew::Error as to_fclib_global() and write_fclib_global() do, or when only one of
///         v, r is given or their sizes are not problem.velocities() and problem.rows().
void write_step_fclib(const std::string& path, const constraints::GlobalProblem& problem,
                      const constraints::FclibInfo& info = {}, const Eigen::VectorXd& v = {},
                      const Eigen::VectorXd& r = {});

}  // namespace sinew::integrators
