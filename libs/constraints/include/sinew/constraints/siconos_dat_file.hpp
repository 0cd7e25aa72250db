/// @file
/// @brief Reading Siconos' text problem files (`.dat`): 3-D frictional contact problems in the
/// local form (Siconos `frictionContact_newFromFile`: u = W r + q) and the global form
/// (`globalFrictionContact_newFromFile`: M v = H r + q, u = H^T v + b), as Siconos and LMGC90
/// write them for Siconos' test data.
///
/// The layout, whitespace-separated numbers:
///   local:  d  n_c  W  q (d n_c values)  mu (n_c values)
///   global: d  n_c  M  H  q (n values)  b (d n_c values)  mu (n_c values)
/// with each matrix in Siconos' NumericsMatrix text form: a storage type, then its rows and
/// columns, then
///   0 (dense):  rows and columns again, then rows x columns values in column-major order;
///   1 (sparse block): nbblocks, block rows, block columns, the cumulative block row sizes, the
///     cumulative block column sizes, filled1 and filled2, the block-row pointers (filled1), the
///     block columns (filled2), then per block its number and its values in column-major order.
/// The file holds no marker of its form: it is global when the first matrix is followed by the
/// header of H (a storage type, then M's row count, both written as integers), local otherwise
/// (q follows, written as reals). Anything after mu is ignored, as Siconos' readers do (its
/// test files end with a flag).
/// The problems are returned in FCLIB's structs (fclib_file.hpp), which hold the same data with
/// the same signs (Siconos' global q is FCLIB's f, its b is FCLIB's w).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sinew/constraints/fclib_file.hpp"

namespace sinew::constraints {

/// A problem read from a Siconos `.dat` file: exactly one of the two forms is set.
struct SiconosDatProblem {
  std::optional<FclibLocalProblem> local;    ///< the local form, when the file holds one
  std::optional<FclibGlobalProblem> global;  ///< the global form, when the file holds one
};

/// Reads the Siconos problem file @p path (see the file comment for the layout).
/// @throws sinew::Error naming @p path and the place (line, what was expected) when the file is
/// missing or malformed, holds a 2-D problem (d = 2: sinew solves 3-D contact) or a matrix in
/// Siconos' general sparse storage (type 2, which Siconos' own test problems do not use), or
/// holds numbers that are not finite or a negative mu.
SiconosDatProblem read_siconos_dat(const std::string& path);

/// Reads a Siconos problem from its text @p text; @p path names it in messages.
/// @throws sinew::Error as read_siconos_dat() does.
SiconosDatProblem parse_siconos_dat(std::string_view text, const std::string& path);

}  // namespace sinew::constraints
