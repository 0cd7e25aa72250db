// TetMaterial::evaluate_elements on every backend: the same per-element values as the plain host
// API (energy(), add_gradient(), element_hessians()), bitwise identical across host backends and
// thread counts; on the GPU equal to rounding (the device may contract products into FMAs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/materials/material.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::materials_element_batch_test {
namespace {

// A block of 4x3x3 cells of 6 tets (scene::box_tet_mesh), rest spacing 0.1, deformed by up to
// 40% of the spacing so some elements invert.
struct Mesh {
  std::vector<double> x;
  std::vector<Index> tets;
  std::vector<TetRest> rests;
};

Mesh make_mesh() {
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{0.4, 0.3, 0.3}}, 4, 3, 3);
  Mesh m;
  const std::vector<double> X = scene::interleaved(mesh.vertices);
  for (const auto& t : mesh.tets) {
    double Xe[12];
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < 3; ++d) Xe[3 * a + d] = X[3 * static_cast<std::size_t>(t[a]) + d];
    m.rests.push_back(make_tet_rest(Xe));
    m.tets.insert(m.tets.end(), t.begin(), t.end());
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-0.04, 0.04);
  m.x = X;
  for (double& v : m.x) v += u(rng);
  return m;
}

// Entry-wise agreement to 1e-9 of the largest magnitude (projected Hessians go through an
// iterative eigensolver whose rounding differs with FMA contraction).
void expect_near(const std::vector<double>& got, const std::vector<double>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 0.0;
  for (double w : want) scale = std::max(scale, std::abs(w));
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-9 * scale) << what << " entry " << i;
}

class ElementBatch : public ::testing::TestWithParam<std::string> {};

TEST_P(ElementBatch, MatchesHostApiAndIsBitwiseEqualToSerial) {
  const std::string name = GetParam();
  for (const BackendInfo& info : builtin_backends().list())
    if (info.name == name && (!info.compiled || !info.usable)) GTEST_SKIP() << name << ": " << info.where;
  auto backend = make_backend(name);
  auto serial = make_backend("serial");
  const Mesh m = make_mesh();
  const std::size_t n = m.rests.size();
  for (MaterialModel model : {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kArap,
                              MaterialModel::kStVenantKirchhoff, MaterialModel::kStableNeoHookean}) {
    SCOPED_TRACE(material_model_name(model));
    const auto material = make_tet_material(model, {1e5, 0.3});
    for (bool project : {false, true}) {
      TetElementValues got, ref;
      material->evaluate_elements(*backend, m.x, m.tets, m.rests, project, got);
      material->evaluate_elements(*serial, m.x, m.tets, m.rests, project, ref);
      ASSERT_EQ(got.energy.size(), n);
      if (backend->runs_host_code()) {  // host backends: serial's bits
        EXPECT_EQ(got.energy, ref.energy);
        EXPECT_EQ(got.gradient, ref.gradient);
        EXPECT_EQ(got.hessian, ref.hessian);
      } else {  // a device: serial's values to rounding
        expect_near(got.energy, ref.energy, "energy");
        expect_near(got.gradient, ref.gradient, "gradient");
        expect_near(got.hessian, ref.hessian, "hessian");
      }

      // The batch on the host against the plain API (host code): energies sum to energy(),
      // scattered gradients to add_gradient(), Hessians equal element_hessians() entry for entry.
      const TetElementValues& host = backend->runs_host_code() ? got : ref;
      double total = 0.0;
      std::vector<double> g(m.x.size(), 0.0), g_ref(m.x.size(), 0.0);
      for (std::size_t e = 0; e < n; ++e) {
        total += host.energy[e];
        for (int a = 0; a < 4; ++a)
          for (int d = 0; d < 3; ++d)
            g[3 * static_cast<std::size_t>(m.tets[4 * e + a]) + d] += host.gradient[12 * e + 3 * a + d];
      }
      const double energy = material->energy(m.x, m.tets, m.rests);
      EXPECT_NEAR(total, energy, 1e-12 * std::abs(energy) + 1e-300);
      material->add_gradient(m.x, m.tets, m.rests, g_ref);
      for (std::size_t i = 0; i < g.size(); ++i) EXPECT_EQ(g[i], g_ref[i]) << "gradient entry " << i;
      std::vector<double> H;
      material->element_hessians(m.x, m.tets, m.rests, project, H);
      EXPECT_EQ(host.hessian, H);
    }
  }
}

TEST(ElementBatchErrors, SizesIndicesAndBackendsAreChecked) {
  auto serial = make_backend("serial");
  auto tbb = make_backend("tbb");
  const auto material = make_tet_material(MaterialModel::kArap, {1e5, 0.3});
  Mesh m = make_mesh();
  const Index nv = static_cast<Index>(m.x.size() / 3);
  const DeviceTetMesh mesh(*serial, m.tets, m.rests, nv);
  DeviceTetValues values;
  const std::string sizes = "3 entries for each of the mesh's " + std::to_string(nv) + " vertices, got 6";
  EXPECT_SINEW_ERROR(material->evaluate_elements(mesh, serial->upload(std::vector<double>(6, 0.0)), false, values),
                     sizes.c_str());
  EXPECT_SINEW_ERROR(material->evaluate_elements(mesh, tbb->upload(m.x), false, values), "mesh's backend 'serial'");
  m.tets[5] = 1000;
  EXPECT_SINEW_ERROR(DeviceTetMesh(*serial, m.tets, m.rests, nv), "tetrahedron 1 has vertex index 1000");
  TetElementValues out;
  EXPECT_SINEW_ERROR(material->evaluate_elements(*serial, m.x, m.tets, m.rests, false, out), "vertex index 1000");
}

INSTANTIATE_TEST_SUITE_P(AllBackends, ElementBatch, ::testing::ValuesIn(builtin_backends().names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace sinew::materials_element_batch_test
