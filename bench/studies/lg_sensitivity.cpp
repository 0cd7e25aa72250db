// Sensitivity and L-G convergence of the local-global contact scenes (issue 24, point 2).
//
//   lg_sensitivity --mode=perturb [--scene=ball|pulled|grab] [--n=6] [--steps=40] [--delta=1e-12]
//                  [--axis=0] [--iterations=0] [--solve=default|auto|converged|seed]
//                  [--tolerance=-1] [--newton=0] [--cr=0] [--margin=-2] [--substeps=1]
//   lg_sensitivity --mode=kconv [--scene=pulled] [--n=4] [--steps=50] [--ks=10,20,40,80,160,320] ...
//
// perturb: runs the scene twice, the second with every vertex moved by --delta (m) along --axis
// at the start, and prints per step the largest position difference, both runs' contacts, how
// many (vertex, obstacle or triangle) pairs one run has and the other not, and both runs'
// contact_error and Newton steps. kconv: runs the scene once per K of --ks and prints the largest
// difference of the positions at the last step between successive K and against the largest K.
// (0 or -1 or -2 = the scene's own setting.) --substeps=S divides h by S and runs S times the
// steps (the drivers are called with the fine step index, so only scenes without a driver or
// with a time-scaled one are meaningful: the ball).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/scene/solid_scenes.hpp"

namespace {

using namespace sinew;
using integrators::ContactSolve;
using integrators::LocalGlobalIntegrator;
using integrators::LocalGlobalReport;

using Key = std::tuple<Index, Index, Index>;

std::set<Key> contact_keys(const LocalGlobalReport& r) {
  std::set<Key> keys;
  for (std::size_t c = 0; c < r.contact_vertex.size(); ++c)
    keys.insert({r.contact_vertex[c], r.contact_obstacle[c], r.contact_triangle[c]});
  return keys;
}

std::size_t only_in(const std::set<Key>& a, const std::set<Key>& b) {
  std::size_t n = 0;
  for (const Key& k : a) n += b.count(k) == 0 ? 1 : 0;
  return n;
}

// Mass-weighted mean of coordinate @p axis.
double mean_coordinate(const LocalGlobalIntegrator& lg, int axis) {
  const std::vector<double> x = lg.positions();
  double sum = 0.0, mass = 0.0;
  for (std::size_t v = 0; v < lg.masses().size(); ++v) {
    sum += lg.masses()[v] * x[3 * v + static_cast<std::size_t>(axis)];
    mass += lg.masses()[v];
  }
  return sum / mass;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

struct Settings {
  std::string scene = "ball";
  int n = 6;
  int iterations = 0, newton = 0, cr = 0, substeps = 1;
  std::string solve = "default";
  double tolerance = -1.0, margin = -2.0, mu = -1.0, nh_weight = 0.0, floor = -1.0;
};

scene::SolidScene make(const Settings& s) {
  scene::SolidScene sc = s.scene == "ball"     ? scene::squeezing_ball_scene(s.n)
                         : s.scene == "pulled" ? scene::pulled_through_gap_scene(s.n)
                         : s.scene == "grab"   ? scene::two_finger_grab_scene(s.n)
                                               : throw std::runtime_error("unknown scene " + s.scene);
  if (s.iterations > 0) sc.options.iterations = s.iterations;
  if (s.newton > 0) sc.options.contact.newton_steps = s.newton;
  if (s.cr > 0) sc.options.contact.cr_iterations = s.cr;
  if (s.tolerance > 0) sc.options.contact.tolerance = s.tolerance;
  if (s.solve == "auto") sc.options.contact.solve = ContactSolve::kAuto;
  if (s.solve == "converged") sc.options.contact.solve = ContactSolve::kConverged;
  if (s.solve == "seed") sc.options.contact.solve = ContactSolve::kSeedSteps;
  if (s.margin > -2.0) sc.description.contact_margin = s.margin;
  sc.description.time_step /= s.substeps;
  if (s.nh_weight > 0.0) sc.options.neo_hookean_weight = s.nh_weight;
  if (s.floor >= 0.0) sc.options.neo_hookean_weight_floor = s.floor;
  if (s.mu >= 0.0)
    for (auto& o : sc.description.obstacles) o.friction = s.mu;
  sc.options.record_energy = false;
  return sc;
}

void perturb(Backend& backend, const Settings& s, int steps, double delta, int axis, bool verbose) {
  const scene::SolidScene sc = make(s);
  LocalGlobalIntegrator a(backend, sc.description, sc.options), b(backend, sc.description, sc.options);
  std::vector<double> x = b.positions();
  for (std::size_t i = static_cast<std::size_t>(axis); i < x.size(); i += 3) x[i] += delta;
  b.set_state(x, b.velocities());
  std::printf(
      "step,maxdiff,contacts_a,contacts_b,only_a,only_b,error_a,error_b,newton_a,newton_b,cr_a,cx_a,cx_b,cz_a\n");
  for (int k = 0; k < steps * s.substeps; ++k) {
    const LocalGlobalReport ra = scene::step_scene(sc, a), rb = scene::step_scene(sc, b);
    const std::set<Key> ka = contact_keys(ra), kb = contact_keys(rb);
    std::printf("%d,%.3e,%zu,%zu,%zu,%zu,%.2e,%.2e,%d,%d,%d,%.4e,%.4e,%.4f\n", k + 1,
                max_diff(a.positions(), b.positions()), ra.contacts, rb.contacts, only_in(ka, kb), only_in(kb, ka),
                ra.contact_error, rb.contact_error, ra.newton_steps, rb.newton_steps, ra.cr_iterations,
                mean_coordinate(a, 0), mean_coordinate(b, 0), mean_coordinate(a, 2));
    if (verbose) {
      const std::vector<double> xa = a.positions(), xb = b.positions();
      std::size_t worst = 0;
      double w = -1.0, rms = 0.0;
      for (std::size_t v = 0; v < xa.size() / 3; ++v) {
        double d2 = 0.0;
        for (int i = 0; i < 3; ++i) d2 += (xa[3 * v + i] - xb[3 * v + i]) * (xa[3 * v + i] - xb[3 * v + i]);
        rms += d2;
        if (d2 > w) {
          w = d2;
          worst = v;
        }
      }
      bool in_contact = false;
      for (Index c : ra.contact_vertex) in_contact = in_contact || c == static_cast<Index>(worst);
      std::printf("#   worst vertex %zu at (%.4f %.4f %.4f) |d| %.3e contact %d; rms %.3e\n", worst, xa[3 * worst],
                  xa[3 * worst + 1], xa[3 * worst + 2], std::sqrt(w), in_contact ? 1 : 0,
                  std::sqrt(rms / static_cast<double>(xa.size() / 3)));
    }
    std::fflush(stdout);
    if (!ra.ok() || !rb.ok()) {
      std::printf("# not ok: %s %s\n", ra.message.c_str(), rb.message.c_str());
      return;
    }
  }
}

void kconv(Backend& backend, Settings s, int steps, const std::vector<int>& ks) {
  std::vector<std::vector<double>> finals;
  std::printf("K,max_contact_error,diff_prev,contacts\n");
  for (int K : ks) {
    s.iterations = K;
    const scene::SolidScene sc = make(s);
    LocalGlobalIntegrator lg(backend, sc.description, sc.options);
    double worst = 0.0;
    std::size_t contacts = 0;
    for (int k = 0; k < steps; ++k) {
      const LocalGlobalReport r = scene::step_scene(sc, lg);
      worst = std::max(worst, r.contact_error);
      contacts = r.contacts;
    }
    finals.push_back(lg.positions());
    std::printf("%d,%.2e,%.3e,%zu\n", K, worst,
                finals.size() > 1 ? max_diff(finals[finals.size() - 2], finals.back()) : 0.0, contacts);
    std::fflush(stdout);
  }
  for (std::size_t i = 0; i + 1 < finals.size(); ++i)
    std::printf("# K=%d against K=%d: %.3e\n", ks[i], ks.back(), max_diff(finals[i], finals.back()));
}

}  // namespace

int main(int argc, char** argv) {
  using bench::take_flag;
  Settings s;
  const std::string mode = take_flag(argc, argv, "mode", "perturb");
  s.scene = take_flag(argc, argv, "scene", "ball");
  s.n = std::stoi(take_flag(argc, argv, "n", "6"));
  s.iterations = std::stoi(take_flag(argc, argv, "iterations", "0"));
  s.newton = std::stoi(take_flag(argc, argv, "newton", "0"));
  s.cr = std::stoi(take_flag(argc, argv, "cr", "0"));
  s.substeps = std::stoi(take_flag(argc, argv, "substeps", "1"));
  s.solve = take_flag(argc, argv, "solve", "default");
  s.tolerance = std::stod(take_flag(argc, argv, "tolerance", "-1"));
  s.margin = std::stod(take_flag(argc, argv, "margin", "-2"));
  s.mu = std::stod(take_flag(argc, argv, "mu", "-1"));
  s.nh_weight = std::stod(take_flag(argc, argv, "nh_weight", "0"));
  s.floor = std::stod(take_flag(argc, argv, "floor", "-1"));
  const int steps = std::stoi(take_flag(argc, argv, "steps", "40"));
  std::unique_ptr<Backend> backend = make_backend(take_flag(argc, argv, "backend", "serial"));
  if (mode == "perturb") {
    perturb(*backend, s, steps, std::stod(take_flag(argc, argv, "delta", "1e-12")),
            std::stoi(take_flag(argc, argv, "axis", "0")), take_flag(argc, argv, "verbose", "0") == "1");
  } else {
    std::vector<int> ks;
    std::stringstream in(take_flag(argc, argv, "ks", "10,20,40,80,160,320"));
    std::string item;
    while (std::getline(in, item, ','))
      if (!item.empty()) ks.push_back(std::stoi(item));
    kconv(*backend, s, steps, ks);
  }
  return 0;
}
