/// @file
/// @brief Compile-time configuration shared by every sinew library: the host/device function
/// qualifier and the index type of sparse matrices.
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
/// Marks a function that compiles for both host and device (under nvcc) so that per-element
/// math is written once and looped by every backend.
#define SINEW_HD __host__ __device__ inline
#else
/// Marks a function that compiles for both host and device (under nvcc) so that per-element
/// math is written once and looped by every backend.
#define SINEW_HD inline
#endif

namespace sinew {

/// Index type of sparse matrix row pointers and column indices (32-bit, as cuSPARSE expects).
using Index = std::int32_t;

}  // namespace sinew
