#include "sinew/backends/registry.hpp"

#include <cstdlib>

#include "sinew/backends/serial.hpp"
#if SINEW_HAVE_TBB
#include "sinew/backends/tbb.hpp"
#endif
#if SINEW_HAVE_KOKKOS
#include "sinew/backends/kokkos.hpp"
#endif
#if SINEW_HAVE_CUDA
#include "sinew/backends/cuda.hpp"
#endif

namespace sinew {

const BackendRegistry& builtin_backends() {
  static const BackendRegistry registry = [] {
    BackendRegistry r;
    register_serial_backend(r);
#if SINEW_HAVE_TBB
    register_tbb_backend(r);
#else
    r.add_absent("tbb", "reconfigure with -DSINEW_WITH_TBB=ON (needs oneTBB: apt-get install libtbb-dev)");
#endif
#if SINEW_HAVE_KOKKOS
    register_kokkos_backend(r);
#else
    r.add_absent("kokkos",
                 "reconfigure with -DSINEW_WITH_KOKKOS=ON (needs Kokkos: apt-get install libtrilinos-kokkos-dev)");
#endif
#if SINEW_HAVE_CUDA
    register_cuda_backend(r);
#else
    r.add_absent("cuda", "reconfigure with -DSINEW_WITH_CUDA=ON (needs the CUDA toolkit, nvcc; runs on an sm_90 GPU)");
#endif
    return r;
  }();
  return registry;
}

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options) {
  return builtin_backends().make(name, options);
}

std::string backend_name_from_environment(const std::string& fallback) {
  const char* env = std::getenv("SINEW_BACKEND");
  return env && *env ? std::string(env) : fallback;
}

}  // namespace sinew
