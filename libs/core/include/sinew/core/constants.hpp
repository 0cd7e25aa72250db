/// @file
/// @brief Mathematical constants shared by the libraries (one definition, so that no file keeps
/// its own copy).
#pragma once

namespace sinew {

/// pi to double precision.
inline constexpr double kPi = 3.14159265358979323846;

}  // namespace sinew
