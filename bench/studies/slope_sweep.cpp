// Stick and slip on a slope at every angle: a slab on a frictional incline, integrated by
// LocalGlobalIntegrator (by default with its default contact settings), against Coulomb's closed
// form for a rigid block. With mu* = tan(a), a block with mu = mu* - delta slides with
// x(t) = g (sin a - mu cos a) t^2 / 2; one with mu = mu* + delta does not move. For each slope
// angle, time step, modulus and side of mu* the study runs T seconds from rest in the undeformed
// shape (or a settled one, --start) and reports the slab's slip (the mass-weighted mean
// displacement along the slope of its bottom vertices) against the closed form, the first step's
// slip, the largest contact_error, and Coulomb's law after the start-up (slip velocity over the
// last tenth of T, acceleration between T/2 and T against g (sin a - mu cos a)).
// tests/integrators/local_global_slope_test.cpp checks the same runs; docs/lib_integrators.md
// ("Stick and slip at every slope") discusses them.
//
//   slope_sweep [--angles=5,10,15,20,25,30,35,40,45] [--steps=1e-3,2e-3,5e-3,1e-2]
//               [--moduli=1e9,1e5] [--delta=0.001] [--duration=1]
//               [--start=undeformed|held|sliding] [--settle=1]
//               [--solve=default|auto|converged|seed] [--function=default|fb|minmap]
//               [--iterations=0] [--newton=0] [--cr=0] [--max_newton=0] [--tolerance=-1]
//               [--backend=serial] [--out=results]
// (0 or -1 = the option's default). --start=held first settles the slab for S = --settle seconds
// with mu = 10 and starts at rest in that shape (its shear as elasticity distributes it: on
// release part of it turns into a kick); --start=sliding settles it with mu = mu* (sliding
// steadily: friction at mu* times the pressure at every contact) and starts at rest in that shape,
// where a soft slab follows the rigid closed form too. Writes OUT/slope_sweep.csv (one row per
// case), OUT/slope_sweep_trajectories.csv (time, slip and closed form of the sliding cases) and
// the plots OUT/slope_sweep.png (slip at T against the closed form, one point per sliding case,
// with the line y = x; the scheme's own closed form a T (T + h) / 2 lies h / T above it),
// OUT/slope_sweep_ratio.png (that ratio against the angle) and OUT/slope_sweep_stick.png (the
// sticking side's slip at T against the angle, floored at 1e-12 m for the log axis).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/render/image.hpp"
#include "sinew/render/line_chart.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace {

using namespace sinew;
using integrators::LocalGlobalDescription;
using integrators::LocalGlobalIntegrator;
using integrators::LocalGlobalOptions;

constexpr double kPi = 3.14159265358979323846, kG = 9.81;

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(std::stod(item));
  return out;
}

// One case's result.
struct Outcome {
  double slip = 0.0;               // bottom-face mean displacement along the slope at T (m)
  double com = 0.0;                // centre-of-mass displacement along the slope at T (m)
  double first_slip = 0.0;         // bottom-face mean displacement after the first step (m)
  double max_error = 0.0;          // largest contact_error over the steps
  double max_newton = 0.0;         // most Newton steps in one time step
  double late_velocity = 0.0;      // mean slip velocity over the last tenth of T (m/s)
  double late_acceleration = 0.0;  // slip acceleration between T/2 and T from tenth-of-T velocities (m/s^2)
  std::vector<double> t, x;        // (steps) time and slip
};

// The seed's stick/slip slab (Sec. 7.5): 0.1 x 0.1 x 0.04 m, 4 x 4 x 2 cells of 6 tets, ARAP,
// rho = 1000, nu = 0.3, on the plane z = 0 with gravity tilted by the slope angle about y (the
// slope direction is +x). Flat so that it does not tip before 68 degrees (tan a = 0.05 / 0.02).
Outcome run_case(Backend& backend, double angle_deg, double h, double modulus, double mu, double duration,
                 const LocalGlobalOptions& options, const std::string& start, double settle) {
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, 0.04}}, 4, 4, 2);
  LocalGlobalDescription d;
  d.rest_positions = scene::interleaved(mesh.vertices);
  for (const auto& t : mesh.tets) d.tets.insert(d.tets.end(), t.begin(), t.end());
  d.model = MaterialModel::kArap;
  d.elastic = {modulus, 0.3};
  d.density = 1000.0;
  d.time_step = h;
  const double a = angle_deg * kPi / 180.0;
  d.gravity = Vec3{{kG * std::sin(a), 0.0, -kG * std::cos(a)}};
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, mu));
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    if (mesh.vertices[v][2] == 0.0) d.contact_vertices.push_back(static_cast<Index>(v));
  LocalGlobalIntegrator lg(backend, d, options);
  const std::vector<double>& m = lg.masses();
  if (start != "undeformed") {
    LocalGlobalDescription settling = d;
    settling.obstacles[0].friction = start == "sliding" ? std::tan(a) : 10.0;
    LocalGlobalIntegrator pre(backend, settling, options);
    for (long s = 0; s < std::lround(settle / h); ++s) pre.step();
    lg.set_state(pre.positions(), std::vector<double>(pre.positions().size(), 0.0));
  }
  const std::vector<double> x0 = lg.positions();
  const auto along = [&](const std::vector<double>& x, bool bottom) {
    double sum = 0.0, total = 0.0;
    const auto add = [&](std::size_t v) {
      sum += m[v] * (x[3 * v] - x0[3 * v]);
      total += m[v];
    };
    if (bottom)
      for (Index v : d.contact_vertices) add(static_cast<std::size_t>(v));
    else
      for (std::size_t v = 0; v < m.size(); ++v) add(v);
    return sum / total;
  };
  Outcome o;
  const long steps = std::lround(duration / h);
  for (long s = 0; s < steps; ++s) {
    const integrators::LocalGlobalReport report = lg.step();
    if (!report.ok()) throw std::runtime_error(report.message);
    const std::vector<double> x = lg.positions();
    o.max_error = std::max(o.max_error, report.contact_error);
    o.max_newton = std::max(o.max_newton, static_cast<double>(report.newton_steps));
    o.t.push_back(static_cast<double>(s + 1) * h);
    o.x.push_back(along(x, true));
    if (s == 0) o.first_slip = o.x.back();
    if (s + 1 == steps) {
      o.slip = o.x.back();
      o.com = along(x, false);
    }
  }
  const std::size_t n = o.x.size(), w = std::max<std::size_t>(1, n / 10);
  const auto velocity = [&](std::size_t end) {
    return (o.x[end - 1] - o.x[end - 1 - w]) / (static_cast<double>(w) * h);
  };
  o.late_velocity = velocity(n);
  o.late_acceleration = (velocity(n) - velocity(n / 2)) / (static_cast<double>(n - n / 2) * h);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<double> angles = parse_list(bench::take_flag(argc, argv, "angles", "5,10,15,20,25,30,35,40,45"));
    const std::vector<double> hs = parse_list(bench::take_flag(argc, argv, "steps", "1e-3,2e-3,5e-3,1e-2"));
    const std::vector<double> moduli = parse_list(bench::take_flag(argc, argv, "moduli", "1e9,1e5"));
    const double delta = std::stod(bench::take_flag(argc, argv, "delta", "0.001"));
    const double duration = std::stod(bench::take_flag(argc, argv, "duration", "1"));
    const std::string start = bench::take_flag(argc, argv, "start", "undeformed");
    const double settle = std::stod(bench::take_flag(argc, argv, "settle", "1"));
    if (start != "undeformed" && start != "held" && start != "sliding")
      throw std::invalid_argument("--start: expected undeformed, held or sliding, got '" + start + "'");
    const std::string function = bench::take_flag(argc, argv, "function", "default");
    const int iterations = std::stoi(bench::take_flag(argc, argv, "iterations", "0"));
    const int newton = std::stoi(bench::take_flag(argc, argv, "newton", "0"));
    const int cr = std::stoi(bench::take_flag(argc, argv, "cr", "0"));
    const int max_newton = std::stoi(bench::take_flag(argc, argv, "max_newton", "0"));
    const double tolerance = std::stod(bench::take_flag(argc, argv, "tolerance", "-1"));
    const std::string solve = bench::take_flag(argc, argv, "solve", "default");
    const std::string backend_name = bench::take_flag(argc, argv, "backend", "serial");
    const std::filesystem::path out = bench::take_flag(argc, argv, "out", "results");
    LocalGlobalOptions options;
    options.record_energy = false;
    if (function == "fb") options.contact.function = constraints::NcpFunction::kFischerBurmeister;
    if (function == "minmap") options.contact.function = constraints::NcpFunction::kMinMap;
    if (iterations > 0) options.iterations = iterations;
    if (newton > 0) options.contact.newton_steps = newton;
    if (cr > 0) options.contact.cr_iterations = cr;
    if (max_newton > 0) options.contact.max_newton_steps = max_newton;
    if (tolerance >= 0.0) options.contact.tolerance = tolerance;
    if (solve == "seed") options.contact.solve = integrators::ContactSolve::kSeedSteps;
    if (solve == "converged") options.contact.solve = integrators::ContactSolve::kConverged;
    if (solve == "auto") options.contact.solve = integrators::ContactSolve::kAuto;
    std::unique_ptr<Backend> backend = make_backend(backend_name);
    std::filesystem::create_directories(out);
    std::ostringstream csv, traj;
    csv << "angle_deg,h,modulus,mu,closed_form,slip,com,relative_error,first_step_slip,max_contact_error,"
           "max_newton_steps,late_velocity,late_acceleration,coulomb_acceleration\n";
    traj << "angle_deg,h,modulus,mu,t,slip,closed_form\n";
    render::ChartSpec chart;
    char title[128];
    std::snprintf(title, sizeof title, "Slab on a slope: slip after %g s against Coulomb's closed form", duration);
    chart.title = title;
    chart.x_label = "closed form g (sin a - mu cos a) T^2 / 2 (m)";
    chart.y_label = "simulated slip (m)";
    chart.log_x = chart.log_y = true;
    // Per angle: the slide's slip over the closed form, and the sticking slab's slip.
    render::ChartSpec ratio, stuck;
    ratio.title = "Sliding slab (mu = tan a - delta): slip / closed form after T";
    ratio.x_label = "slope angle (degrees)";
    ratio.y_label = "slip / (g (sin a - mu cos a) T^2 / 2)";
    stuck.title = "Slab above the threshold (mu = tan a + delta): slip after T";
    stuck.x_label = "slope angle (degrees)";
    stuck.y_label = "slip (m)";
    stuck.log_y = true;
    std::printf("%5s %7s %7s %9s %12s %12s %10s %11s %9s %6s %10s %10s\n", "angle", "h", "E", "mu", "closed", "slip",
                "rel.err", "first-step", "max err", "newton", "late v", "late a/a");
    for (double modulus : moduli) {
      for (double h : hs) {
        render::ChartSeries series;
        char name[64];
        std::snprintf(name, sizeof name, "E=%.0e h=%.0e", modulus, h);
        series.name = name;
        render::ChartSeries ratio_series{name, {}, {}, std::nullopt}, stuck_series{name, {}, {}, std::nullopt};
        for (double angle : angles) {
          const double a = angle * kPi / 180.0, mu_star = std::tan(a);
          for (double mu : {mu_star - delta, mu_star + delta}) {
            const Outcome o = run_case(*backend, angle, h, modulus, mu, duration, options, start, settle);
            const double coulomb = kG * (std::sin(a) - mu * std::cos(a));  // < 0 above mu*: decelerates
            const double acc = std::max(0.0, coulomb);
            const double closed = 0.5 * acc * duration * duration;
            const double rel = closed > 0.0 ? (o.slip - closed) / closed : 0.0;
            std::printf("%5.1f %7.0e %7.0e %9.6f %12.5e %12.5e %10.2e %11.3e %9.2e %6.0f %10.2e %10.4f\n", angle, h,
                        modulus, mu, closed, o.slip, rel, o.first_slip, o.max_error, o.max_newton, o.late_velocity,
                        o.late_acceleration / coulomb);
            std::fflush(stdout);
            csv << angle << ',' << h << ',' << modulus << ',' << mu << ',' << closed << ',' << o.slip << ',' << o.com
                << ',' << rel << ',' << o.first_slip << ',' << o.max_error << ',' << o.max_newton << ','
                << o.late_velocity << ',' << o.late_acceleration << ',' << coulomb << '\n';
            if (closed > 0.0) {
              for (std::size_t k = 0; k < o.t.size(); k += std::max<std::size_t>(1, o.t.size() / 100))
                traj << angle << ',' << h << ',' << modulus << ',' << mu << ',' << o.t[k] << ',' << o.x[k] << ','
                     << 0.5 * acc * o.t[k] * o.t[k] << '\n';
              series.x.push_back(closed);
              series.y.push_back(o.slip);
              ratio_series.x.push_back(angle);
              ratio_series.y.push_back(o.slip / closed);
            } else {
              stuck_series.x.push_back(angle);
              stuck_series.y.push_back(std::max(std::abs(o.slip), 1e-12));
            }
          }
        }
        chart.series.push_back(series);
        ratio.series.push_back(ratio_series);
        stuck.series.push_back(stuck_series);
      }
    }
    write_file_atomically(out / "slope_sweep.csv", csv.str());
    write_file_atomically(out / "slope_sweep_trajectories.csv", traj.str());
    std::printf("wrote %s and %s\n", (out / "slope_sweep.csv").string().c_str(),
                (out / "slope_sweep_trajectories.csv").string().c_str());
    if (!render::png_supported()) {
      std::printf("no plot: sinew was built without libpng\n");
      return 0;
    }
    double lo = 1e300, hi = 0.0;
    for (const auto& s : chart.series)
      for (double x : s.x) lo = std::min(lo, x), hi = std::max(hi, x);
    if (hi > 0.0) chart.series.push_back({"closed form (y = x)", {lo, hi}, {lo, hi}, render::Rgb{0, 0, 0}});
    for (const auto& [spec, name] : {std::pair{&chart, "slope_sweep.png"}, std::pair{&ratio, "slope_sweep_ratio.png"},
                                     std::pair{&stuck, "slope_sweep_stick.png"}}) {
      render::write_png(render::render_chart(*spec).image, (out / name).string());
      std::printf("wrote %s\n", (out / name).string().c_str());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "slope_sweep: %s\n", e.what());
    return 2;
  }
}
