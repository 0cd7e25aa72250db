// Dynamic load balancing over MPI ranks. Messages (MPI_COMM_WORLD):
//   worker -> 0, tag kRequest: the previous variant's result_text() (empty on the first request);
//   0 -> worker, tag kAssign: one long long, the next variant index, or -1 = no more work.
// Rank 0's main thread is the only one calling MPI (MPI_THREAD_FUNNELED); when it also computes,
// a second thread takes indices from the same queue without any MPI call.
#include "sinew/ensemble/mpi_sweep.hpp"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "sinew/core/error.hpp"

namespace sinew::ensemble {
namespace {

constexpr int kRequest = 1;
constexpr int kAssign = 2;

// Runs one variant, turning even a failure to write its result into a failed result.
VariantResult run_one(const SweepFile& sweep, const Variant& v, const SweepOptions& options) {
  const std::string backend = variant_backend(v, options.backend);
  try {
    return run_variant(sweep, v, options.out_dir, backend, backend == "tbb" ? std::max(options.threads, 1) : 0);
  } catch (const std::exception& e) {
    VariantResult r;
    r.index = v.index;
    r.error = e.what();
    r.outputs.assign(sweep.outputs.size(), std::numeric_limits<double>::quiet_NaN());
    return r;
  }
}

void worker(const SweepFile& sweep, const std::vector<Variant>& variants, const SweepOptions& options) {
  std::string last;  // the previous result, sent with the next request
  for (;;) {
    MPI_Send(last.data(), static_cast<int>(last.size()), MPI_CHAR, 0, kRequest, MPI_COMM_WORLD);
    long long index = -1;
    MPI_Recv(&index, 1, MPI_LONG_LONG, 0, kAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (index < 0) return;
    last = result_text(run_one(sweep, variants[static_cast<std::size_t>(index)], options));
  }
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void MpiSession::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}

std::optional<SweepResult> run_sweep_mpi(const SweepFile& sweep, const SweepOptions& options,
                                         const MpiSweepOptions& mpi) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Variant> variants = expand(sweep);
  if (rank != 0) {
    worker(sweep, variants, options);
    return std::nullopt;
  }

  SweepResult out;
  out.jobs = size;
  // Results come from the MPI thread and the local worker: progress.done() serializes them.
  detail::SweepProgress progress(sweep, variants, options, out);
  const std::vector<std::size_t>& todo = progress.todo();
  std::atomic<std::size_t> next{0};  // the next entry of todo to hand out, to a rank or the local worker
  auto take = [&]() -> long long {
    const std::size_t i = next.fetch_add(1);
    return i < todo.size() ? static_cast<long long>(todo[i]) : -1;
  };

  std::thread local;
  if (mpi.root_computes || size == 1)
    local = std::thread([&] {
      for (long long i; (i = take()) >= 0;)
        progress.done(run_one(sweep, variants[static_cast<std::size_t>(i)], options));
    });

  int active = size - 1;  // workers not yet told to stop
  std::string buffer;
  while (active > 0) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kRequest, MPI_COMM_WORLD, &flag, &status);
    if (!flag) {  // poll without spinning: Open MPI's blocking receive busy-waits a core
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    buffer.assign(static_cast<std::size_t>(count), '\0');
    MPI_Recv(buffer.data(), count, MPI_CHAR, status.MPI_SOURCE, kRequest, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (count > 0) {
      VariantResult r;
      try {
        r = parse_result(buffer, "result from rank " + std::to_string(status.MPI_SOURCE));
      } catch (const Error& e) {
        throw Error(std::string("sweep over MPI: ") + e.what());  // a protocol error, not a variant's
      }
      progress.done(r);
    }
    const long long index = take();
    MPI_Send(&index, 1, MPI_LONG_LONG, status.MPI_SOURCE, kAssign, MPI_COMM_WORLD);
    if (index < 0) --active;
  }
  if (local.joinable()) local.join();

  // A result that never arrived (cannot happen unless a rank died, which MPI reports itself).
  for (std::size_t i = 0; i < out.variants.size(); ++i) out.variants[i].index = i;
  progress.finish(start);
  return out;
}

}  // namespace sinew::ensemble
