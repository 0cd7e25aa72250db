/// @file
/// @brief Reading and writing 3-D frictional contact problems in FCLIB's HDF5 files (local and
/// global forms, optional solution), so that sinew's solvers and peer solvers (Siconos) run on
/// the same problem files.
///
/// The structs mirror FCLIB (fclib.h, "fclib_local", "fclib_global", "fclib_solution") exactly,
/// matrices in the same orientation and vectors with the same signs:
///   local:  u = W r + q,                        K*_mu contains u + mu ||u_T|| e_n _|_ r in K_mu;
///   global: M v = H r + G l + f,  G^T v + b = 0,  u = H^T v + w, and the same cone law,
/// with a contact's rows ordered (normal, tangent 1, tangent 2). H is (n x m) here, as in the
/// file; sinew's constraint Jacobian (m x n) is H^T, and eliminating v gives the local form
/// W = H^T M^-1 H, q = w + H^T M^-1 f.
///
/// The layout (groups /fclib_local or /fclib_global, /solution) is read and written with the
/// HDF5 API directly rather than through libfclib, whose reader and writer call exit(1) on a
/// malformed file and cannot replace an existing problem; files written here are read by
/// libfclib (and therefore by Siconos), which the tests check in both directions.
/// Matrices are written in compressed columns (FCLIB nz = -1), the one format every FCLIB
/// consumer (libfclib's merit functions, Siconos' local and global readers) accepts; reading
/// accepts compressed columns, compressed rows and triplets (duplicates summed, as CSparse does),
/// with index and value datasets holding anything from the used count to nzmax entries, as
/// libfclib does (Siconos writes triplets whose x holds fewer than nzmax values).
/// HDF5 (Debian's serial build) is not thread-safe: call these from one thread at a time.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>

#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::constraints {

/// FCLIB's problem description (fclib_info); an empty string is not written and reads back empty.
struct FclibInfo {
  std::string title;        ///< short name of the problem
  std::string description;  ///< where it comes from (scene, step, model)
  std::string math_info;    ///< known mathematical properties (existence, uniqueness, ...)
};

/// Local (Delassus) form of FCLIB: find r with u = W r + q and the Coulomb cone law per contact.
struct FclibLocalProblem {
  CsrMatrix W;         ///< (m x m) Delassus operator, m = 3 n_c, rows (n, t1, t2) per contact
  Eigen::VectorXd q;   ///< (m) free local velocity
  Eigen::VectorXd mu;  ///< (n_c) friction coefficient per contact, >= 0
  FclibInfo info;      ///< title, description, math info

  /// Number of contacts n_c.
  int contacts() const { return static_cast<int>(mu.size()); }
  /// Throws sinew::Error naming the first problem: sizes, a non-square W, a W that breaks the
  /// CSR invariants, non-finite entries, a negative mu; @p where names the file in the message.
  void validate(const std::string& where) const;
};

/// Global form of FCLIB: M v = H r + G l + f, G^T v + b = 0, u = H^T v + w, cone law per contact.
struct FclibGlobalProblem {
  CsrMatrix M;         ///< (n x n) mass (or iteration) matrix, symmetric positive definite
  CsrMatrix H;         ///< (n x m) transposed contact Jacobian, m = 3 n_c (FCLIB's orientation)
  CsrMatrix G;         ///< (n x p) equality (bilateral) constraints; 0 columns = none
  Eigen::VectorXd f;   ///< (n) right-hand side of M v = H r + G l + f
  Eigen::VectorXd w;   ///< (m) u = H^T v + w
  Eigen::VectorXd b;   ///< (p) G^T v + b = 0; empty when G has no columns
  Eigen::VectorXd mu;  ///< (n_c) friction coefficient per contact, >= 0
  FclibInfo info;      ///< title, description, math info

  /// Number of contacts n_c.
  int contacts() const { return static_cast<int>(mu.size()); }
  /// Whether the problem has FCLIB's equality block (G, b).
  bool has_equalities() const { return G.cols > 0; }
  /// Throws sinew::Error naming the first size mismatch, non-finite entry or negative mu;
  /// @p where names the file in the message.
  void validate(const std::string& where) const;
};

/// A solution (or guess) of an FCLIB problem; a vector that does not apply is empty.
struct FclibSolution {
  Eigen::VectorXd v;  ///< (n) global velocity; empty for a local problem
  Eigen::VectorXd u;  ///< (m) local velocity
  Eigen::VectorXd r;  ///< (m) contact impulse
  Eigen::VectorXd l;  ///< (p) multipliers of G (global problems with G); empty otherwise
};

/// Writes @p problem (and @p solution, when given) to a new FCLIB file at @p path, replacing any
/// file there. The file is written under a temporary name in the same folder and renamed only
/// once complete, so a failure leaves no file behind and the old file, if any, untouched.
/// @throws sinew::Error on invalid input (sizes, non-finite values, mu < 0, no contacts) or when
/// the file cannot be written; the message names @p path.
void write_fclib_local(const std::string& path, const FclibLocalProblem& problem,
                       const FclibSolution* solution = nullptr);

/// Writes a global problem (and @p solution, when given) atomically; see write_fclib_local().
/// @throws sinew::Error as write_fclib_local() does.
void write_fclib_global(const std::string& path, const FclibGlobalProblem& problem,
                        const FclibSolution* solution = nullptr);

/// Reads the local problem of the FCLIB file @p path (spacedim 3; FCLIB's mixed V, R, s block
/// is not supported).
/// @throws sinew::Error naming @p path when the file is missing, is not HDF5, holds no local
/// problem, has spacedim != 3, or holds inconsistent sizes, indices or values.
FclibLocalProblem read_fclib_local(const std::string& path);

/// Reads the global problem of the FCLIB file @p path (spacedim 3, optional G and b). An M
/// stored as one triangle (LMGC90 writes its upper triangle) is mirrored: FCLIB's M is symmetric.
/// @throws sinew::Error as read_fclib_local() does.
FclibGlobalProblem read_fclib_global(const std::string& path);

/// Reads the solution stored in the FCLIB file @p path, or nothing when it holds none; sizes are
/// checked against the file's problem.
/// @throws sinew::Error naming @p path when the file or its problem cannot be read or the
/// solution's sizes do not match the problem.
std::optional<FclibSolution> read_fclib_solution(const std::string& path);

/// The two problem forms an FCLIB file may hold.
enum class FclibForm {
  kLocal,  ///< /fclib_local: u = W r + q
  kGlobal  ///< /fclib_global: M v = H r + G l + f
};

/// Which form the FCLIB file @p path holds.
/// @throws sinew::Error naming @p path when it is not an FCLIB file.
FclibForm fclib_form(const std::string& path);

/// Whether @p path is an HDF5 file (false without FCLIB support, or when it cannot be read).
bool is_hdf5_file(const std::string& path);

/// Whether this build can read and write FCLIB files (false when built without HDF5/FCLIB, in
/// which case every function above throws sinew::Error saying so).
bool fclib_supported();

}  // namespace sinew::constraints
