// cuBLAS and cuSPARSE, opened at run time (dlopen) the first time a cuda backend is made or
// probed, not when a program starts: loading them costs about 250 MB resident and 0.4 s, which
// every sinew command (help, info, a serial run) would otherwise pay. Private to the cuda backend.
#pragma once

#include <cublas_v2.h>
#include <cusparse.h>

namespace sinew::cuda_detail {

/// The cuBLAS and cuSPARSE functions the cuda backend calls, resolved from the libraries of the
/// toolkit sinew was built with (same sonames).
struct CudaLibraries {
  decltype(&::cublasCreate_v2) cublas_create;                      ///< cublasCreate
  decltype(&::cublasDestroy_v2) cublas_destroy;                    ///< cublasDestroy
  decltype(&::cublasSetStream_v2) cublas_set_stream;               ///< cublasSetStream
  decltype(&::cublasDdot_v2) cublas_ddot;                          ///< cublasDdot
  decltype(&::cublasDscal_v2) cublas_dscal;                        ///< cublasDscal
  decltype(&::cusparseCreate) cusparse_create;                     ///< cusparseCreate
  decltype(&::cusparseDestroy) cusparse_destroy;                   ///< cusparseDestroy
  decltype(&::cusparseSetStream) cusparse_set_stream;              ///< cusparseSetStream
  decltype(&::cusparseGetErrorString) cusparse_error_string;       ///< cusparseGetErrorString
  decltype(&::cusparseCreateCsr) cusparse_create_csr;              ///< cusparseCreateCsr
  decltype(&::cusparseDestroySpMat) cusparse_destroy_sp_mat;       ///< cusparseDestroySpMat
  decltype(&::cusparseCreateDnVec) cusparse_create_dn_vec;         ///< cusparseCreateDnVec
  decltype(&::cusparseDestroyDnVec) cusparse_destroy_dn_vec;       ///< cusparseDestroyDnVec
  decltype(&::cusparseSpMV_bufferSize) cusparse_spmv_buffer_size;  ///< cusparseSpMV_bufferSize
  decltype(&::cusparseSpMV) cusparse_spmv;                         ///< cusparseSpMV
};

/// The libraries, opened on the first call (thread-safe) and kept open.
/// @throws sinew::Error naming the library (and where it was looked for) when one cannot be
///         opened or lacks a function; every later call throws the same.
const CudaLibraries& cuda_libraries();

}  // namespace sinew::cuda_detail
