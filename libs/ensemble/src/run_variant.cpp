// One variant: parse, build, run with scene::run_simulation, reduce the chosen outputs, record.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "json_fields.hpp"  // the scene library's checked JSON reader (libs/scene/src)
#include "sinew/backends/registry.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/ensemble/sweep_runner.hpp"
#include "sinew/render/png_snapshots.hpp"
#include "sinew/scene/runner.hpp"

namespace sinew::ensemble {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Reduces the per-step values of one output as the steps come.
struct Accumulator {
  int column = -1;      // scalar column (Kind::kScalar)
  double value = kNaN;  // last, min or max so far; the sum for mean
  long count = 0;       // steps seen
};

// The vertex centroid of body @p name in @p sim's output meshes (sum in vertex order).
std::array<double, 3> centroid(const scene::Simulation& sim, const std::string& name) {
  for (const scene::OutputMesh& m : sim.output_meshes()) {
    if (m.name != name) continue;
    std::array<double, 3> c{0.0, 0.0, 0.0};
    const std::size_t n = m.frame.points.size() / 3;
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) c[k] += m.frame.points[3 * i + k];
    for (int k = 0; k < 3; ++k) c[k] /= static_cast<double>(std::max<std::size_t>(n, 1));
    return c;
  }
  std::string known;
  for (const scene::OutputMesh& m : sim.output_meshes()) known += (known.empty() ? "" : ", ") + m.name;
  throw Error("output displacement: the scene has no body \"" + name + "\" (bodies: " + known + ")");
}

std::string hex(std::uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

}  // namespace

VariantResult run_variant(const SweepFile& sweep, const Variant& variant, const std::filesystem::path& out_dir,
                          const std::string& backend, int threads) {
  VariantResult r;
  r.index = variant.index;
  r.fingerprint = scene::fnv1a64(variant.scene_text);
  r.outputs.assign(sweep.outputs.size(), kNaN);
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path dir = out_dir / variant_folder(variant.index);
  try {
    const scene::SceneFile sf = parse_variant(sweep, variant);
    BackendOptions bo;
    bo.threads = threads;
    std::unique_ptr<Backend> b = make_backend(backend, bo);
    std::unique_ptr<scene::Simulation> sim = sf.make(*b);

    const std::vector<std::string> names = sim->scalar_names();
    std::vector<Accumulator> acc(sweep.outputs.size());
    std::vector<std::array<double, 3>> first(sweep.outputs.size());
    for (std::size_t k = 0; k < sweep.outputs.size(); ++k) {
      const OutputSpec& o = sweep.outputs[k];
      if (o.kind == OutputSpec::Kind::kDisplacement) {
        first[k] = centroid(*sim, o.body);
        continue;
      }
      const auto it = std::find(names.begin(), names.end(), o.scalar);
      if (it == names.end()) {
        std::string known;
        for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
        throw Error("output \"" + o.name + "\": the simulation has no scalar \"" + o.scalar + "\" (columns: " + known +
                    ")");
      }
      acc[k].column = static_cast<int>(it - names.begin());
    }

    scene::RunOptions run;
    run.out_dir = dir;
    run.overwrite = true;  // the variant's own folder: a variant run again (--retry-failed) replaces its outputs
    run.steps = sf.steps;
    run.outputs = sf.outputs;
    run.scene_hash = r.fingerprint;
    if (run.outputs.png_every > 0) run.snapshots = render::png_snapshots(run.outputs);
    const scene::RunResult rr = scene::run_simulation(*sim, run, [&](const scene::RunProgress& p) {
      for (std::size_t k = 0; k < acc.size(); ++k) {
        Accumulator& a = acc[k];
        if (a.column < 0) continue;
        const double x = p.outcome->scalars[static_cast<std::size_t>(a.column)];
        switch (sweep.outputs[k].reduction) {
          case Reduction::kLast:
            a.value = x;
            break;
          case Reduction::kMin:
            a.value = a.count == 0 ? x : std::min(a.value, x);
            break;
          case Reduction::kMax:
            a.value = a.count == 0 ? x : std::max(a.value, x);
            break;
          case Reduction::kMean:
            a.value = a.count == 0 ? x : a.value + x;
            break;
        }
        ++a.count;
      }
      return true;
    });
    if (!rr.ok()) {
      r.error = rr.message.empty() ? "the run did not reach its last step" : rr.message;
    } else {
      r.completed = true;
      for (std::size_t k = 0; k < sweep.outputs.size(); ++k) {
        const OutputSpec& o = sweep.outputs[k];
        if (o.kind == OutputSpec::Kind::kScalar) {
          const Accumulator& a = acc[k];
          r.outputs[k] =
              o.reduction == Reduction::kMean && a.count > 0 ? a.value / static_cast<double>(a.count) : a.value;
        } else {
          const std::array<double, 3> c = centroid(*sim, o.body);
          const double d[3] = {c[0] - first[k][0], c[1] - first[k][1], c[2] - first[k][2]};
          r.outputs[k] = o.component < 3 ? d[o.component] : std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        }
      }
    }
  } catch (const std::exception& e) {  // sinew::Error (bad value) or anything a library threw
    r.completed = false;
    r.error = e.what();
  } catch (...) {
    r.completed = false;
    r.error = "unknown exception";
  }
  if (!r.ok()) std::fill(r.outputs.begin(), r.outputs.end(), kNaN);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_file_atomically(dir / "result.json", result_text(r));
  return r;
}

std::string result_text(const VariantResult& r) {
  nlohmann::json j;
  j["variant"] = r.index;
  j["fingerprint"] = hex(r.fingerprint);
  j["status"] = r.ok() ? "ok" : "failed";
  j["error"] = r.error;
  nlohmann::json outs = nlohmann::json::array();
  for (double x : r.outputs) outs.push_back(number_text(x));  // strings: exact, NaN and inf kept
  j["outputs"] = outs;
  j["wall_seconds"] = r.wall_seconds;
  return j.dump(2) + "\n";
}

VariantResult parse_result(const std::string& text, const std::string& where) {
  const nlohmann::json j = scene::detail::parse_json(text, where);
  scene::detail::JsonObject c(j, where, "");
  VariantResult r;
  r.index = static_cast<std::size_t>(c.integer("variant", std::nullopt, 0, 1 << 30));
  r.fingerprint = std::strtoull(c.string("fingerprint", std::nullopt).c_str(), nullptr, 16);
  r.completed = c.choice("status", {"ok", "failed"}, std::nullopt) == "ok";
  r.error = c.string("error", std::nullopt);
  const nlohmann::json& outs = c.value("outputs");
  if (!outs.is_array()) c.fail("outputs", "expected an array");
  for (const nlohmann::json& x : outs) {
    if (!x.is_string()) c.fail("outputs", "expected number texts");
    r.outputs.push_back(std::strtod(x.get<std::string>().c_str(), nullptr));
  }
  r.wall_seconds = c.real("wall_seconds", std::nullopt, 0.0);
  c.finish();
  return r;
}

std::optional<VariantResult> load_result(const SweepFile& sweep, const Variant& variant,
                                         const std::filesystem::path& out_dir) {
  const std::filesystem::path path = out_dir / variant_folder(variant.index) / "result.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    VariantResult r = parse_result(text, path.string());
    if (r.index != variant.index || r.fingerprint != scene::fnv1a64(variant.scene_text) ||
        r.outputs.size() != sweep.outputs.size())
      return std::nullopt;  // another sweep's (or an edited one's) result: run again
    r.reused = true;
    return r;
  } catch (const Error&) {
    return std::nullopt;  // unreadable: run again
  }
}

}  // namespace sinew::ensemble
