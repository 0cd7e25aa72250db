// Native CUDA: device memory by cudaMalloc, one stream per backend, cuSPARSE for CSR SpMV,
// cuBLAS for dot and scale (both opened when the first backend is made: cuda_libraries.hpp), and
// the shared loop::* functors launched as plain kernels for the rest (written once with the CPU
// backends, so every backend computes the same row math).
#include <cuda_runtime.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "cuda_libraries.hpp"
#include "sinew/backends/cuda.hpp"
#include "sinew/backends/cuda_launch.cuh"
#include "sinew/core/loop_backend.hpp"

namespace sinew {
namespace {

using cuda_detail::cuda_libraries;

void check_cuda(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw Error(std::string("CUDA: ") + call + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}
void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string("cuBLAS: ") + call + " failed with status " + std::to_string(s));
}
void check_cusparse(cusparseStatus_t s, const char* call) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("cuSPARSE: ") + call + " failed: " + cuda_libraries().cusparse_error_string(s));
}

struct CudaExec {
  int device = 0;
  cudaStream_t stream = nullptr;

  template <class F>
  void for_each(std::size_t n, const F& f) const {
    cuda_for_each_index(CudaQueue{device, stream}, n, f);
  }
  void* allocate(std::size_t bytes) const {
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e != cudaSuccess)
      throw Error("cuda allocation of " + std::to_string(bytes) + " bytes failed: " + cudaGetErrorString(e));
    return p;
  }
  void deallocate(void* p) const noexcept { cudaFree(p); }
  void copy(void* dst, const void* src, std::size_t bytes, CopyKind kind) const {
    const cudaMemcpyKind k = kind == CopyKind::kHostToDevice   ? cudaMemcpyHostToDevice
                             : kind == CopyKind::kDeviceToHost ? cudaMemcpyDeviceToHost
                                                               : cudaMemcpyDeviceToDevice;
    check_cuda(cudaMemcpyAsync(dst, src, bytes, k, stream), "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  void synchronize() const { check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize"); }
  std::string execution_space() const {
    cudaDeviceProp p{};
    check_cuda(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
    return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
           std::to_string(p.totalGlobalMem >> 20) + " MiB)";
  }
  int concurrency() const {
    int sms = 0;
    check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    return sms;
  }
};

CudaExec make_exec(int device) {
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  CudaExec e;
  e.device = device;
  check_cuda(cudaStreamCreateWithFlags(&e.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  return e;
}

class CudaBackend final : public LoopBackend<CudaExec> {
 public:
  explicit CudaBackend(const BackendOptions& o) : LoopBackend("cuda", make_exec(o.device)), lib_(cuda_libraries()) {
    check_cublas(lib_.cublas_create(&cublas_), "cublasCreate");
    check_cublas(lib_.cublas_set_stream(cublas_, exec_.stream), "cublasSetStream");
    check_cusparse(lib_.cusparse_create(&cusparse_), "cusparseCreate");
    check_cusparse(lib_.cusparse_set_stream(cusparse_, exec_.stream), "cusparseSetStream");
  }
  // The libraries' own kernels (sinew::for_each_index) run on this backend's device and stream.
  std::optional<CudaQueue> cuda_queue() const override { return CudaQueue{exec_.device, exec_.stream}; }
  ~CudaBackend() override {
    workspace_.reset();
    lib_.cusparse_destroy(cusparse_);
    lib_.cublas_destroy(cublas_);
    cudaStreamDestroy(exec_.stream);
  }

 protected:
  // cuBLAS: deterministic for a given GPU and toolkit (no atomics mode).
  double do_dot(std::size_t n, const double* x, const double* y) override {
    double r = 0.0;
    check_cublas(lib_.cublas_ddot(cublas_, static_cast<int>(n), x, 1, y, 1, &r), "cublasDdot");
    return r;
  }
  void do_scale(std::size_t n, double a, double* x) override {
    check_cublas(lib_.cublas_dscal(cublas_, static_cast<int>(n), &a, x, 1), "cublasDscal");
  }
  // cuSPARSE SpMV with CSR_ALG2: deterministic, load-balanced over non-zeros.
  void do_spmv(double alpha, const CsrRef& A, const double* x, double beta, double* y) override {
    if (A.cols == 0 || A.rows == 0 || A.nnz == 0) {
      LoopBackend::do_spmv(alpha, A, x, beta, y);  // cuSPARSE rejects empty operands
      return;
    }
    cusparseSpMatDescr_t mat;
    cusparseDnVecDescr_t vx, vy;
    check_cusparse(
        lib_.cusparse_create_csr(&mat, A.rows, A.cols, A.nnz, const_cast<Index*>(A.row_ptr),
                                 const_cast<Index*>(A.col_idx), const_cast<double*>(A.values), CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
        "cusparseCreateCsr");
    check_cusparse(lib_.cusparse_create_dn_vec(&vx, A.cols, const_cast<double*>(x), CUDA_R_64F), "cusparseCreateDnVec");
    check_cusparse(lib_.cusparse_create_dn_vec(&vy, A.rows, y, CUDA_R_64F), "cusparseCreateDnVec");
    std::size_t bytes = 0;
    check_cusparse(lib_.cusparse_spmv_buffer_size(cusparse_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta,
                                                  vy, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2, &bytes),
                   "cusparseSpMV_bufferSize");
    if (workspace_.size() < bytes) workspace_ = allocate<char>(bytes);
    check_cusparse(lib_.cusparse_spmv(cusparse_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy,
                                      CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2, workspace_.data()),
                   "cusparseSpMV");
    lib_.cusparse_destroy_dn_vec(vy);
    lib_.cusparse_destroy_dn_vec(vx);
    lib_.cusparse_destroy_sp_mat(mat);
  }

 private:
  const cuda_detail::CudaLibraries& lib_;
  cublasHandle_t cublas_ = nullptr;
  cusparseHandle_t cusparse_ = nullptr;
  DeviceArray<char> workspace_;  // cuSPARSE SpMV buffer, grown on demand, never shrunk
};

BackendInfo probe() {
  BackendInfo info{"cuda", true, false, "", 0};
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  const std::string need =
      "; the cuda backend needs an NVIDIA GPU of compute capability 9.0 (H100/H200, the sm_90 "
      "this build targets) and its driver";
  if (e != cudaSuccess) {
    info.where = std::string("no GPU present (cudaGetDeviceCount: ") + cudaGetErrorName(e) + ", " +
                 cudaGetErrorString(e) + ")" + need;
    return info;
  }
  if (count == 0) {
    info.where = "no GPU present (cudaGetDeviceCount found 0 devices)" + need;
    return info;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess || p.major < 9) {
    info.where = std::string("GPU 0 (") + p.name + ") has compute capability " + std::to_string(p.major) + "." +
                 std::to_string(p.minor) + need;
    return info;
  }
  try {
    cuda_libraries();
  } catch (const Error& e) {
    info.where = std::string("GPU 0 (") + p.name + ") present, but " + e.what();
    return info;
  }
  info.usable = true;
  info.where = std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
               std::to_string(p.totalGlobalMem >> 20) + " MiB)";
  info.concurrency = p.multiProcessorCount;
  return info;
}

}  // namespace

void register_cuda_backend(BackendRegistry& registry) {
  registry.add(
      "cuda", [](const BackendOptions& o) { return std::unique_ptr<Backend>(new CudaBackend(o)); }, probe);
}

}  // namespace sinew
