// The CUDA path of LocalGlobalIntegrator's local step (local_global_cuda.cu), private to
// integrators; local_global_no_cuda.cpp stands in when sinew is built without CUDA.
#pragma once

#include <cstddef>

#include "local_global_kernels.hpp"
#include "local_global_triangle_kernels.hpp"

namespace sinew::integrators::detail {

/// True when integrators was built with its CUDA local-step kernel.
bool have_cuda_local_step();

/// local_step_element() for elements [0, n) on the GPU, one thread each; every pointer is device
/// memory (F_t, u, p_w: 9 n; volumes, weights, energy: n). Waits for the kernel and throws sinew::Error
/// on a CUDA error.
void local_step_cuda(const LocalConstants& constants, const double* volumes, const double* weights, std::size_t n,
                     const double* F_t, double* u, double* p_w, double* energy);

/// triangle_local_step() for triangles [0, n) on the GPU, one thread each; every pointer is
/// device memory (F, u, p_w: 6 n; volumes, weights, energy: n). Waits and throws like
/// local_step_cuda().
void triangle_local_step_cuda(const LocalConstants& constants, const double* volumes, const double* weights,
                              std::size_t n, const double* F, double* u, double* p_w, double* energy);

}  // namespace sinew::integrators::detail
