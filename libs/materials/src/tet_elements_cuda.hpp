// The CUDA path of TetMaterial::evaluate_elements (tet_elements_cuda.cu), private to materials.
#pragma once

#include <cstddef>

#include "sinew/core/config.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/material.hpp"
#include "sinew/materials/tetrahedron.hpp"

namespace sinew::detail {

/// True when materials was built with its CUDA kernels.
bool have_cuda_tet_elements();

/// Energy, gradient and Hessian of n elements on the GPU; every pointer is device memory. Waits
/// for the kernel and throws sinew::Error on a CUDA error.
void evaluate_tet_elements_cuda(MaterialModel model, const LameParameters& lame, const double* x, const Index* tets,
                                const TetRest* rests, std::size_t n, bool project_psd, double* energy, double* gradient,
                                double* hessian);

}  // namespace sinew::detail
