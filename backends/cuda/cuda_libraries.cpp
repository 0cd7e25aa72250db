#include "cuda_libraries.hpp"

#include <dlfcn.h>

#include <string>

#include "sinew/core/error.hpp"

namespace sinew::cuda_detail {
namespace {

// Opens @p soname as the dynamic loader finds it (LD_LIBRARY_PATH, the cache), else from the
// toolkit's library folder of the build.
void* open_library(const std::string& soname) {
  void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle) return handle;
  const std::string first = dlerror();
  const std::string installed = std::string(SINEW_CUDA_LIBRARY_DIR) + "/" + soname;
  handle = dlopen(installed.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle) return handle;
  throw Error("cuda backend: cannot load " + soname + " (" + first + "; nor " + installed +
              "): install the CUDA toolkit's libraries or add their folder to LD_LIBRARY_PATH");
}

template <class F>
void resolve(void* library, const char* soname, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(library, name));
  if (!out) throw Error(std::string("cuda backend: ") + soname + " has no " + name + " (another CUDA version?)");
}

CudaLibraries load() {
  void* blas = open_library(SINEW_CUBLAS_SONAME);
  void* sparse = open_library(SINEW_CUSPARSE_SONAME);
  CudaLibraries l{};
  const char* b = SINEW_CUBLAS_SONAME;
  const char* s = SINEW_CUSPARSE_SONAME;
  resolve(blas, b, "cublasCreate_v2", l.cublas_create);
  resolve(blas, b, "cublasDestroy_v2", l.cublas_destroy);
  resolve(blas, b, "cublasSetStream_v2", l.cublas_set_stream);
  resolve(blas, b, "cublasDdot_v2", l.cublas_ddot);
  resolve(blas, b, "cublasDscal_v2", l.cublas_dscal);
  resolve(sparse, s, "cusparseCreate", l.cusparse_create);
  resolve(sparse, s, "cusparseDestroy", l.cusparse_destroy);
  resolve(sparse, s, "cusparseSetStream", l.cusparse_set_stream);
  resolve(sparse, s, "cusparseGetErrorString", l.cusparse_error_string);
  resolve(sparse, s, "cusparseCreateCsr", l.cusparse_create_csr);
  resolve(sparse, s, "cusparseDestroySpMat", l.cusparse_destroy_sp_mat);
  resolve(sparse, s, "cusparseCreateDnVec", l.cusparse_create_dn_vec);
  resolve(sparse, s, "cusparseDestroyDnVec", l.cusparse_destroy_dn_vec);
  resolve(sparse, s, "cusparseSpMV_bufferSize", l.cusparse_spmv_buffer_size);
  resolve(sparse, s, "cusparseSpMV", l.cusparse_spmv);
  return l;
}

}  // namespace

const CudaLibraries& cuda_libraries() {
  // A failure is kept as its message, so that every call reports it the same way.
  static const struct Loaded {
    CudaLibraries libraries{};
    std::string error;
    Loaded() {
      try {
        libraries = load();
      } catch (const Error& e) {
        error = e.what();
      }
    }
  } loaded;
  if (!loaded.error.empty()) throw Error(loaded.error);
  return loaded.libraries;
}

}  // namespace sinew::cuda_detail
