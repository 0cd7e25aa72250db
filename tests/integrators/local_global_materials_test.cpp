// LocalGlobalIntegrator with several materials (LocalGlobalDescription::materials, tet_material,
// triangle_material): every element of one material gives the bits of the single-material
// description, a bar of a stiff and a soft region stretches each by its own modulus (the series
// bar's exact static solution), bodies of different models and moduli in one description move
// as each alone, masses come from each element's density and thickness, host backends agree
// bitwise on a mixed run, and bad materials and indices are named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "flat_tet_mesh.hpp"
#include "host_backends.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::integrators_local_global_materials_test {
namespace {

// A bar [0, L] x [-a/2, a/2]^2 of nx x ny x nz cubes, moved by @p offset.
test::FlatTetMesh bar(int nx, int ny, int nz, double L, double a, const Vec3& offset = Vec3{{0, 0, 0}}) {
  return test::flat_box_tet_mesh(Vec3{{offset[0], offset[1] - a / 2, offset[2] - a / 2}},
                                 Vec3{{offset[0] + L, offset[1] + a / 2, offset[2] + a / 2}}, nx, ny, nz);
}

// A square sheet [0, L]^2 (+ offset) of n x n cells, 2 triangles each, in a plane z = const.
struct Sheet {
  std::vector<double> x;
  std::vector<Index> triangles;
};

Sheet sheet(int n, double L, const Vec3& offset) {
  Sheet s;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) s.x.insert(s.x.end(), {offset[0] + L * i / n, offset[1] + L * j / n, offset[2]});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const Index a = i + (n + 1) * j, b = a + 1, d = a + (n + 1), e = d + 1;
      s.triangles.insert(s.triangles.end(), {a, b, e, a, e, d});
    }
  return s;
}

// Appends the sheet's vertices and triangles to @p d (after its tets' vertices).
void append(LocalGlobalDescription& d, const Sheet& s) {
  const Index offset = static_cast<Index>(d.rest_positions.size() / 3);
  d.rest_positions.insert(d.rest_positions.end(), s.x.begin(), s.x.end());
  for (Index v : s.triangles) d.triangles.push_back(v + offset);
}

// Appends a tet mesh to @p d.
void append(LocalGlobalDescription& d, const test::FlatTetMesh& m) {
  const Index offset = static_cast<Index>(d.rest_positions.size() / 3);
  d.rest_positions.insert(d.rest_positions.end(), m.x.begin(), m.x.end());
  for (Index v : m.tets) d.tets.push_back(v + offset);
}

// Pins (automatic weight) every vertex of @p d in [first, last) whose x is below @p x_max.
void pin_left(LocalGlobalDescription& d, Index first, Index last, double x_max) {
  for (Index v = first; v < last; ++v) {
    const std::size_t i = 3 * static_cast<std::size_t>(v);
    if (d.rest_positions[i] < x_max)
      d.targets.push_back({v, Vec3{{d.rest_positions[i], d.rest_positions[i + 1], d.rest_positions[i + 2]}}, 0.0});
  }
}

// A moving, stretched start: 10% along x, a velocity of bending and spin.
void deformed_start(const std::vector<double>& rest, std::vector<double>& x, std::vector<double>& v) {
  x = rest;
  v.assign(rest.size(), 0.0);
  for (std::size_t i = 0; i < rest.size() / 3; ++i) {
    x[3 * i] = 1.1 * rest[3 * i];
    v[3 * i + 2] = 0.5 * rest[3 * i] * rest[3 * i];
    v[3 * i + 1] = -0.8 * rest[3 * i + 2];
  }
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

LocalGlobalMaterial material(MaterialModel model, double E, double nu, double density, double thickness = 1e-3) {
  LocalGlobalMaterial m;
  m.model = model;
  m.elastic = {E, nu};
  m.density = density;
  m.thickness = thickness;
  return m;
}

// d's own material set to @p m.
void set_own(LocalGlobalDescription& d, const LocalGlobalMaterial& m) {
  d.model = m.model;
  d.elastic = m.elastic;
  d.density = m.density;
  d.thickness = m.thickness;
}

// A bar and a sheet beside it, pinned at x < 0.01, as one description of the single material @p m.
LocalGlobalDescription bar_and_sheet(const LocalGlobalMaterial& m) {
  LocalGlobalDescription d;
  append(d, bar(4, 1, 1, 0.4, 0.1));
  append(d, sheet(3, 0.3, Vec3{{0.0, 0.5, 0.0}}));
  set_own(d, m);
  d.time_step = 0.01;
  d.body_contact = false;
  pin_left(d, 0, static_cast<Index>(d.rest_positions.size() / 3), 0.01);
  return d;
}

// Positions after @p steps steps from deformed_start(), then the energies of the last step.
std::vector<double> run(Backend& backend, const LocalGlobalDescription& d, int steps,
                        std::vector<double>* energies = nullptr) {
  LocalGlobalIntegrator lg(backend, d);
  std::vector<double> x, v;
  deformed_start(d.rest_positions, x, v);
  lg.set_state(x, v);
  for (int s = 0; s < steps; ++s) {
    const LocalGlobalReport r = lg.step();
    EXPECT_TRUE(r.ok()) << r.message;
    if (energies) *energies = r.energies;
  }
  return lg.positions();
}

TEST(LocalGlobalMaterials, EveryElementOfOneMaterialGivesTheBitsOfTheSingleMaterialDescription) {
  auto backend = make_backend("serial");
  for (MaterialModel model : {MaterialModel::kArap, MaterialModel::kCorotational, MaterialModel::kStableNeoHookean}) {
    const LocalGlobalMaterial a = material(model, 3e5, 0.35, 700.0, 2e-3);
    const LocalGlobalDescription single = bar_and_sheet(a);
    // The description's own material and a second one differ from A: neither may leak in.
    LocalGlobalDescription multi = bar_and_sheet(material(MaterialModel::kArap, 1e7, 0.1, 5000.0, 5e-3));
    multi.materials = {material(MaterialModel::kCorotational, 2e6, 0.2, 100.0, 1e-4), a};
    multi.tet_material.assign(multi.tets.size() / 4, 1);
    multi.triangle_material.assign(multi.triangles.size() / 3, 1);
    const std::string label = material_model_name(model);
    EXPECT_TRUE(
        same_bits(LocalGlobalIntegrator(*backend, single).masses(), LocalGlobalIntegrator(*backend, multi).masses()))
        << label;
    EXPECT_TRUE(same_bits(LocalGlobalIntegrator(*backend, single).system_matrix().values,
                          LocalGlobalIntegrator(*backend, multi).system_matrix().values))
        << label;
    std::vector<double> e_single, e_multi;
    EXPECT_TRUE(same_bits(run(*backend, single, 3, &e_single), run(*backend, multi, 3, &e_multi))) << label;
    EXPECT_TRUE(same_bits(e_single, e_multi)) << label;
  }
}

// A bar [0, 1] of a stiff half (E1, x < 1/2) and a soft half (E2), nu = 0, its ends held by
// targets and the right end pulled by delta: the static solution is uniaxial, the stress
// E1 eps1 = E2 eps2 uniform, eps1 L1 + eps2 L2 = delta. With nu = 0 and the lateral faces free
// the ARAP (and co-rotational) stress is exactly E eps for a pure stretch, so the discrete
// solution is the exact one and each half's stretch is set by its own modulus.
TEST(LocalGlobalMaterials, SeriesBarStretchesEachRegionByItsOwnModulus) {
  const double L = 1.0, a = 0.1, delta = 0.01, E1 = 4e5, E2 = 1e5;
  LocalGlobalDescription d;
  append(d, bar(20, 2, 2, L, a));
  d.gravity = Vec3{{0, 0, 0}};
  d.time_step = 0.1;  // much longer than the bar's periods (~0.06 s): damped to the static state
  d.body_contact = false;
  d.materials = {material(MaterialModel::kArap, E1, 0.0, 100.0),
                 material(MaterialModel::kCorotational, E2, 0.0, 300.0)};
  for (std::size_t e = 0; e < d.tets.size() / 4; ++e) {
    double cx = 0.0;
    for (int k = 0; k < 4; ++k) cx += 0.25 * d.rest_positions[3 * static_cast<std::size_t>(d.tets[4 * e + k])];
    d.tet_material.push_back(cx < 0.5 * L ? 0 : 1);
  }
  const Index n = static_cast<Index>(d.rest_positions.size() / 3);
  pin_left(d, 0, n, 1e-9);
  std::vector<Index> right;
  for (Index v = 0; v < n; ++v)
    if (d.rest_positions[3 * static_cast<std::size_t>(v)] > L - 1e-9) {
      const std::size_t i = 3 * static_cast<std::size_t>(v);
      d.targets.push_back({v, Vec3{{L + delta, d.rest_positions[i + 1], d.rest_positions[i + 2]}}, 0.0});
    }
  LocalGlobalOptions o;
  o.iterations = 20;
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d, o);
  for (int s = 0; s < 150; ++s) ASSERT_TRUE(lg.step().ok());
  const std::vector<double> x = lg.positions();
  // Mean x displacement of the vertices of the planes X = X0.
  auto displacement = [&](double X0) {
    double sum = 0.0;
    int count = 0;
    for (Index v = 0; v < n; ++v) {
      const std::size_t i = 3 * static_cast<std::size_t>(v);
      if (std::abs(d.rest_positions[i] - X0) < 1e-9) {
        sum += x[i] - d.rest_positions[i];
        ++count;
      }
    }
    return sum / count;
  };
  const double eps1 = (displacement(0.5 * L) - displacement(0.0)) / (0.5 * L);
  const double eps2 = (displacement(L) - displacement(0.5 * L)) / (0.5 * L);
  const double eps1_exact = delta * E2 / (E2 * 0.5 * L + E1 * 0.5 * L);  // 0.004; a uniform bar: 0.01
  std::printf("series bar: eps1 = %.6g (exact %.6g), eps2 = %.6g (exact %.6g), eps2/eps1 = %.6g (E1/E2 = 4)\n", eps1,
              eps1_exact, eps2, eps1_exact * E1 / E2, eps2 / eps1);
  EXPECT_NEAR(eps1, eps1_exact, 1e-4 * eps1_exact);
  EXPECT_NEAR(eps2, eps1_exact * E1 / E2, 1e-4 * eps1_exact * E1 / E2);
  EXPECT_NEAR(eps2 / eps1, E1 / E2, 2e-4 * E1 / E2);
}

// Two bars (Neo-Hookean and co-rotational, different moduli and densities) and a sheet (ARAP,
// its own thickness and density), far apart, each pinned at one end and falling under gravity:
// one description of three materials moves each body as its own single-material description,
// and the reported incremental potential is the sum of the three.
TEST(LocalGlobalMaterials, SeparateBodiesOfDifferentMaterialsMoveAsEachAlone) {
  auto backend = make_backend("serial");
  const LocalGlobalMaterial soft = material(MaterialModel::kStableNeoHookean, 2e5, 0.3, 500.0);
  const LocalGlobalMaterial stiff = material(MaterialModel::kCorotational, 2e6, 0.4, 2000.0);
  const LocalGlobalMaterial cloth = material(MaterialModel::kArap, 1e6, 0.3, 300.0, 2e-3);
  const test::FlatTetMesh a = bar(6, 2, 2, 0.6, 0.1), b = bar(5, 1, 1, 0.5, 0.1, Vec3{{0.0, 1.0, 0.0}});
  const Sheet c = sheet(4, 0.4, Vec3{{0.0, 2.0, 0.0}});
  auto alone = [&](const LocalGlobalMaterial& m, auto mesh) {
    LocalGlobalDescription d;
    append(d, mesh);
    set_own(d, m);
    pin_left(d, 0, static_cast<Index>(d.rest_positions.size() / 3), 0.01);
    return d;
  };
  LocalGlobalDescription all;
  append(all, a);
  append(all, b);
  append(all, c);
  all.materials = {soft, stiff, cloth};
  all.tet_material.assign(a.tets.size() / 4, 0);
  all.tet_material.resize(all.tets.size() / 4, 1);
  all.triangle_material.assign(all.triangles.size() / 3, 2);
  pin_left(all, 0, static_cast<Index>(all.rest_positions.size() / 3), 0.01);
  std::vector<double> x_all, e_all;
  std::vector<std::vector<double>> x_alone(3), e_alone(3);
  {
    LocalGlobalIntegrator lg(*backend, all);
    ASSERT_TRUE(lg.contact_surfaces().bodies >= 2);  // the bars' contact between bodies is active
    for (int s = 0; s < 20; ++s) {
      const LocalGlobalReport r = lg.step();
      ASSERT_TRUE(r.ok()) << r.message;
      EXPECT_EQ(r.contacts, 0u);
      e_all = r.energies;
    }
    x_all = lg.positions();
  }
  const std::vector<LocalGlobalDescription> parts = {alone(soft, a), alone(stiff, b), alone(cloth, c)};
  for (std::size_t k = 0; k < 3; ++k) {
    LocalGlobalIntegrator lg(*backend, parts[k]);
    for (int s = 0; s < 20; ++s) {
      const LocalGlobalReport r = lg.step();
      ASSERT_TRUE(r.ok()) << r.message;
      e_alone[k] = r.energies;
    }
    x_alone[k] = lg.positions();
  }
  std::size_t offset = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::vector<double> part(x_all.begin() + static_cast<std::ptrdiff_t>(offset),
                                   x_all.begin() + static_cast<std::ptrdiff_t>(offset + x_alone[k].size()));
    const double sag = x_alone[k].back() - parts[k].rest_positions.back();  // z of the free end: not at rest
    EXPECT_LE(max_abs_diff(part, x_alone[k]), 1e-12) << "body " << k;
    std::printf("body %zu: |x - x alone| = %.3g m; its free end fell %.3g m\n", k, max_abs_diff(part, x_alone[k]), sag);
    offset += x_alone[k].size();
  }
  // The falling bodies move differently: the materials are not all the same.
  EXPECT_GT(std::abs((x_alone[0].back() - parts[0].rest_positions.back()) -
                     (x_alone[1].back() - parts[1].rest_positions.back())),
            1e-4);
  ASSERT_EQ(e_all.size(), e_alone[0].size());
  for (std::size_t i = 0; i < e_all.size(); ++i)
    EXPECT_NEAR(e_all[i], e_alone[0][i] + e_alone[1][i] + e_alone[2][i], 1e-10 * std::abs(e_all[i])) << "iterate " << i;
}

TEST(LocalGlobalMaterials, MassesComeFromEachElementsDensityAndThickness) {
  LocalGlobalDescription d;
  append(d, bar(4, 2, 2, 1.0, 0.1));  // volume 0.01 m^3, halves of 0.005
  append(d, sheet(4, 1.0, Vec3{{0.0, 2.0, 0.0}}));
  d.materials = {material(MaterialModel::kArap, 1e6, 0.3, 500.0, 1e-3),
                 material(MaterialModel::kStableNeoHookean, 1e5, 0.45, 2000.0, 4e-3)};
  for (std::size_t e = 0; e < d.tets.size() / 4; ++e) {
    double cx = 0.0;
    for (int k = 0; k < 4; ++k) cx += 0.25 * d.rest_positions[3 * static_cast<std::size_t>(d.tets[4 * e + k])];
    d.tet_material.push_back(cx < 0.5 ? 0 : 1);
  }
  for (std::size_t e = 0; e < d.triangles.size() / 3; ++e) {  // the sheet's lower half (y < 2.5) of material 0
    double cy = 0.0;
    for (int k = 0; k < 3; ++k) cy += d.rest_positions[3 * static_cast<std::size_t>(d.triangles[3 * e + k]) + 1] / 3;
    d.triangle_material.push_back(cy < 2.5 ? 0 : 1);
  }
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d);
  const std::vector<double>& m = lg.masses();
  const Index bar_vertices = 5 * 3 * 3;
  const double bar_mass = std::accumulate(m.begin(), m.begin() + bar_vertices, 0.0);
  const double sheet_mass = std::accumulate(m.begin() + bar_vertices, m.end(), 0.0);
  EXPECT_NEAR(bar_mass, 0.005 * 500.0 + 0.005 * 2000.0, 1e-12);              // 12.5 kg
  EXPECT_NEAR(sheet_mass, 0.5 * 1e-3 * 500.0 + 0.5 * 4e-3 * 2000.0, 1e-12);  // 4.25 kg
  // A vertex away from the interface carries its own half's density: the mass it has in the bar
  // of that density alone.
  for (double density : {500.0, 2000.0}) {
    LocalGlobalDescription one;
    append(one, bar(4, 2, 2, 1.0, 0.1));
    one.density = density;
    const std::vector<double> m_one = LocalGlobalIntegrator(*backend, one).masses();
    for (Index v = 0; v < bar_vertices; ++v) {
      const double X = d.rest_positions[3 * static_cast<std::size_t>(v)];
      if (density == 500.0 ? X < 0.3 : X > 0.7) {
        EXPECT_DOUBLE_EQ(m[v], m_one[v]) << "vertex " << v;
      }
    }
  }
}

TEST(LocalGlobalMaterials, HostBackendsGiveBitwiseIdenticalPositionsOnAMixedRun) {
  LocalGlobalDescription d = bar_and_sheet(material(MaterialModel::kArap, 1e6, 0.3, 1000.0));
  d.materials = {material(MaterialModel::kArap, 5e5, 0.3, 800.0),
                 material(MaterialModel::kCorotational, 2e6, 0.4, 1500.0),
                 material(MaterialModel::kStableNeoHookean, 3e5, 0.45, 1200.0, 2e-3)};
  for (std::size_t e = 0; e < d.tets.size() / 4; ++e) d.tet_material.push_back(static_cast<Index>(e % 3));
  for (std::size_t e = 0; e < d.triangles.size() / 3; ++e) d.triangle_material.push_back(e % 2 ? 2 : 0);
  const int compared = test::expect_host_backends_bitwise_equal([&](Backend& backend) { return run(backend, d, 4); },
                                                                "mixed materials", {1, 2});
  if (compared == 0) GTEST_SKIP() << "only the serial backend is built";
}

TEST(LocalGlobalMaterials, BadMaterialsAndIndicesAreNamed) {
  auto backend = make_backend("serial");
  auto with = [&](auto edit) {
    LocalGlobalDescription d = bar_and_sheet(material(MaterialModel::kArap, 1e6, 0.3, 1000.0));
    d.materials = {material(MaterialModel::kArap, 5e5, 0.3, 800.0),
                   material(MaterialModel::kCorotational, 2e6, 0.4, 1500.0)};
    d.tet_material.assign(d.tets.size() / 4, 1);
    d.triangle_material.assign(d.triangles.size() / 3, 0);
    edit(d);
    return d;
  };
  EXPECT_NO_THROW(LocalGlobalIntegrator(*backend, with([](auto&) {})));
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.tet_material[3] = 2; })), "tet_material[3]",
                     "tetrahedron 3", "= 2", "< 2");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.tet_material[0] = -1; })), "tet_material[0]");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.tet_material.pop_back(); })), "tet_material",
                     "one entry per tetrahedron");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.triangle_material[5] = 7; })),
                     "triangle_material[5]", "triangle 5");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.triangle_material.push_back(0); })),
                     "triangle_material", "one entry per triangle");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.materials[1].elastic.youngs_modulus = -1; })),
                     "materials[1]", "youngs_modulus");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.materials[0].elastic.poisson_ratio = 0.5; })),
                     "materials[0]", "poisson_ratio");
  EXPECT_SINEW_ERROR(
      LocalGlobalIntegrator(*backend, with([](auto& d) { d.materials[1].model = MaterialModel::kLinear; })),
      "materials[1].model", "linear", "no local step");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.materials[1].density = 0.0; })),
                     "materials[1].density");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.materials[0].thickness = -1e-3; })),
                     "materials[0].thickness");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.tet_material.clear();
                       d.triangle_material.clear();
                     })),
                     "materials has 2 entries", "no element refers to them");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.materials.clear(); })), "_material[0]",
                     "< 0");
  // Explicit masses: the materials' densities are not used, so not checked.
  EXPECT_NO_THROW(LocalGlobalIntegrator(*backend, with([](auto& d) {
    d.materials[1].density = 0.0;
    d.masses.assign(d.rest_positions.size() / 3, 1.0);
  })));
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_materials_test
