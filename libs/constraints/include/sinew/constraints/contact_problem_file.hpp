/// @file
/// @brief One entry point for contact problem files, whatever their format (FCLIB HDF5, local or
/// global; Siconos .dat, local or global), and the conversions from the files' structs to the
/// problems sinew's solvers take (DelassusProblem, GlobalProblem).
#pragma once

#include <optional>
#include <string>

#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/fclib_file.hpp"

namespace sinew::constraints {

/// A problem file's content: exactly one of local and global is set.
struct ContactProblemFile {
  std::string format;                        ///< "fclib" (HDF5) or "siconos-dat"
  std::optional<FclibLocalProblem> local;    ///< the local form u = W r + q
  std::optional<FclibGlobalProblem> global;  ///< the global form M v = H r + G l + f
};

/// Reads @p path by its content: an HDF5 file as FCLIB (its /fclib_local or /fclib_global
/// group), anything else as a Siconos .dat file.
/// @throws sinew::Error naming @p path when the file cannot be read as either (see
/// read_fclib_local(), read_fclib_global(), read_siconos_dat()).
ContactProblemFile read_contact_problem_file(const std::string& path);

/// The local problem of @p file: one circular-cone contact block per entry of mu.
DelassusProblem to_delassus_problem(const FclibLocalProblem& file);

/// The global problem of @p file: FCLIB's equalities G^T v + b = 0 become bilateral rows ahead
/// of the contacts (H = [G H_contacts], w = [b; w]), then one contact block per entry of mu.
GlobalProblem to_global_problem(const FclibGlobalProblem& file);

}  // namespace sinew::constraints
