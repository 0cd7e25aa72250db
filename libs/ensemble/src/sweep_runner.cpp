// The local scheduler: worker threads take variants in index order; each waits until the cores its
// variant needs are free, so the cores in use never exceed the job count.
#include "sinew/ensemble/sweep_runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "sinew/backends/registry.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::ensemble {
namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break (line breaks become spaces,
// so every row is one line).
std::string csv_field(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Cores handed out to variants: acquire() blocks until @p n are free.
class CoreBudget {
 public:
  explicit CoreBudget(int cores) : free_(cores) {}
  void acquire(int n) {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return free_ >= n; });
    free_ -= n;
  }
  void release(int n) {
    {
      std::lock_guard<std::mutex> lock(m_);
      free_ += n;
    }
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int free_;
};

}  // namespace

std::size_t SweepResult::failed() const {
  return static_cast<std::size_t>(
      std::count_if(variants.begin(), variants.end(), [](const VariantResult& r) { return !r.ok(); }));
}

std::string variant_backend(const Variant& variant, const std::string& forced) {
  if (!forced.empty()) return forced;
  try {
    const nlohmann::json scene = nlohmann::json::parse(variant.scene_text);
    if (scene.is_object() && scene.contains("backend") && scene["backend"].is_string())
      return scene["backend"].get<std::string>();
  } catch (const nlohmann::json::exception&) {
    // not JSON: the variant fails in parse_variant(), on whatever backend
  }
  return backend_name_from_environment("serial");
}

int variant_cores(const std::string& backend, int threads, int jobs) {
  jobs = std::max(jobs, 1);
  if (backend == "serial") return 1;
  if (backend == "tbb") return threads > 0 ? std::min(threads, jobs) : jobs;
  return jobs;  // kokkos (one process-wide thread pool), cuda (one device): one at a time
}

void write_summary(const SweepFile& sweep, const std::vector<Variant>& variants, std::vector<VariantResult> results,
                   const std::filesystem::path& out_dir) {
  std::sort(results.begin(), results.end(),
            [](const VariantResult& a, const VariantResult& b) { return a.index < b.index; });
  std::string summary = "variant";
  for (const Parameter& p : sweep.parameters) summary += "," + csv_field(p.name);
  for (const OutputSpec& o : sweep.outputs) summary += "," + csv_field(o.name);
  summary += ",status,error\n";
  std::string timings = "variant,wall_seconds,reused\n";
  for (const VariantResult& r : results) {
    summary += std::to_string(r.index);
    for (std::size_t k = 0; k < sweep.parameters.size(); ++k)
      summary += "," + csv_field(r.index < variants.size() ? variants[r.index].values[k] : "");
    for (double x : r.outputs) summary += "," + number_text(x);
    summary += std::string(",") + (r.ok() ? "ok" : "failed") + "," + csv_field(r.error) + "\n";
    char buf[64];
    std::snprintf(buf, sizeof buf, ",%.6f,%d\n", r.wall_seconds, r.reused ? 1 : 0);
    timings += std::to_string(r.index) + buf;
  }
  write_file_atomically(out_dir / "summary.csv", summary);
  write_file_atomically(out_dir / "timings.csv", timings);
}

detail::SweepProgress::SweepProgress(const SweepFile& sweep, const std::vector<Variant>& variants,
                                     const SweepOptions& options, SweepResult& out)
    : sweep_(sweep), variants_(variants), options_(options), out_(out) {
  out.variants.resize(variants.size());
  std::filesystem::create_directories(options.out_dir);
  for (const Variant& v : variants) {
    std::optional<VariantResult> earlier = load_result(sweep, v, options.out_dir);
    if (earlier && (earlier->ok() || !options.retry_failed))
      done(*earlier);
    else
      todo_.push_back(v.index);
  }
}

void detail::SweepProgress::done(const VariantResult& result) {
  std::lock_guard<std::mutex> lock(mutex_);
  out_.variants[result.index] = result;
  if (options_.on_done) options_.on_done(result);
}

void detail::SweepProgress::finish(std::chrono::steady_clock::time_point start) {
  write_summary(sweep_, variants_, out_.variants, options_.out_dir);
  out_.summary = options_.out_dir / "summary.csv";
  out_.timings = options_.out_dir / "timings.csv";
  out_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

SweepResult run_sweep(const SweepFile& sweep, const SweepOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Variant> variants = expand(sweep);
  SweepResult out;
  out.jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  detail::SweepProgress progress(sweep, variants, options, out);
  const std::vector<std::size_t>& todo = progress.todo();

  CoreBudget budget(out.jobs);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < todo.size();) {
      const Variant& v = variants[todo[i]];
      const std::string backend = variant_backend(v, options.backend);
      const int cores = variant_cores(backend, options.threads, out.jobs);
      budget.acquire(cores);
      VariantResult r;
      try {
        r = run_variant(sweep, v, options.out_dir, backend, backend == "tbb" ? cores : 0);
      } catch (const std::exception& e) {  // result.json could not be written: record, go on
        r.index = v.index;
        r.error = e.what();
        r.outputs.assign(sweep.outputs.size(), std::numeric_limits<double>::quiet_NaN());
      }
      budget.release(cores);
      progress.done(r);
    }
  };
  const std::size_t n_threads = std::min<std::size_t>(static_cast<std::size_t>(out.jobs), todo.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < n_threads; ++t) threads.emplace_back(worker);
  if (n_threads > 0) worker();
  for (std::thread& t : threads) t.join();

  progress.finish(start);
  return out;
}

}  // namespace sinew::ensemble
