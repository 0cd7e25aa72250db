#include "sinew/materials/material.hpp"

#include <string>

#include "sinew/core/error.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/linear_elasticity.hpp"
#include "sinew/materials/st_venant_kirchhoff.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "tet_elements_kernel.hpp"

namespace sinew {
namespace {

constexpr MaterialModel kAllModels[] = {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kArap,
                                        MaterialModel::kStVenantKirchhoff, MaterialModel::kStableNeoHookean};

// Gathers the 12 coordinates of tetrahedron e.
void gather(const double* x, const Index* tets, Index e, double xe[12]) {
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) xe[3 * a + i] = x[3 * static_cast<std::size_t>(tets[4 * e + a]) + i];
}

// The per-element model behind the interface: plain loops here; backends loop the same inline
// functions in their own kernels.
template <class Model>
class TetMaterialOf final : public TetMaterial {
 public:
  TetMaterialOf(MaterialModel model, const LameParameters& lame) : TetMaterial(model, lame) {}

 protected:
  double do_energy(const double* x, const Index* tets, const TetRest* rests, Index n_tets) const override {
    double sum = 0.0;
    for (Index e = 0; e < n_tets; ++e) {
      double xe[12];
      gather(x, tets, e, xe);
      sum += tet_energy<Model>(rests[e], xe, lame());
    }
    return sum;
  }
  void do_add_gradient(const double* x, const Index* tets, const TetRest* rests, Index n_tets,
                       double* g) const override {
    for (Index e = 0; e < n_tets; ++e) {
      double xe[12], ge[12];
      gather(x, tets, e, xe);
      tet_gradient<Model>(rests[e], xe, lame(), ge);
      for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) g[3 * static_cast<std::size_t>(tets[4 * e + a]) + i] += ge[3 * a + i];
    }
  }
  void do_element_hessians(const double* x, const Index* tets, const TetRest* rests, Index n_tets, bool project_psd,
                           double* H) const override {
    for (Index e = 0; e < n_tets; ++e) {
      double xe[12];
      gather(x, tets, e, xe);
      hessian(rests[e], xe, project_psd, H + 144 * static_cast<std::size_t>(e));
    }
  }
  void do_evaluate_elements(const DeviceTetMesh& mesh, const double* x, bool project_psd,
                            DeviceTetValues& out) const override {
    const detail::TetElementsKernel<Model> kernel{
        x,           mesh.tets().data(), mesh.rests().data(), lame(),
        project_psd, out.energy.data(),  out.gradient.data(), out.hessian.data()};
    for_each_index(mesh.backend(), mesh.num_tets(), kernel, "tet material element kernel");
  }

 private:
  // The exact or PSD-projected 12x12 Hessian of one element, row-major into H.
  void hessian(const TetRest& rest, const double xe[12], bool project_psd, double* H) const {
    Mat12 He;
    if (project_psd) {
      tet_projected_hessian<Model>(rest, xe, lame(), He);
    } else {
      tet_hessian<Model>(rest, xe, lame(), He);
    }
    for (int k = 0; k < 144; ++k) H[k] = He.m[k];
  }
};

}  // namespace

const char* material_model_name(MaterialModel model) {
  switch (model) {
    case MaterialModel::kLinear:
      return "linear";
    case MaterialModel::kCorotational:
      return "corotational";
    case MaterialModel::kArap:
      return "arap";
    case MaterialModel::kStVenantKirchhoff:
      return "st_venant_kirchhoff";
    case MaterialModel::kStableNeoHookean:
      return "stable_neo_hookean";
  }
  return "unknown";
}

MaterialModel parse_material_model(const std::string& name) {
  std::string valid;
  for (MaterialModel m : kAllModels) {
    if (name == material_model_name(m)) return m;
    valid += std::string(valid.empty() ? "" : ", ") + material_model_name(m);
  }
  throw Error("material model: unknown name '" + name + "', expected one of: " + valid);
}

void TetMaterial::check(const std::vector<double>& x, const std::vector<Index>& tets,
                        const std::vector<TetRest>& rests) const {
  require(x.size() % 3 == 0,
          "tet material: positions must have 3 entries per vertex, got " + std::to_string(x.size()) + " values");
  require(tets.size() == 4 * rests.size(), "tet material: tets must have 4 indices per rest element, got " +
                                               std::to_string(tets.size()) + " indices for " +
                                               std::to_string(rests.size()) + " rest elements");
  const std::size_t n_vertices = x.size() / 3;
  for (std::size_t k = 0; k < tets.size(); ++k)
    require(tets[k] >= 0 && static_cast<std::size_t>(tets[k]) < n_vertices,
            "tet material: tetrahedron " + std::to_string(k / 4) + " has vertex index " + std::to_string(tets[k]) +
                ", expected 0 <= index < " + std::to_string(n_vertices));
}

double TetMaterial::energy(const std::vector<double>& x, const std::vector<Index>& tets,
                           const std::vector<TetRest>& rests) const {
  check(x, tets, rests);
  return do_energy(x.data(), tets.data(), rests.data(), static_cast<Index>(rests.size()));
}

void TetMaterial::add_gradient(const std::vector<double>& x, const std::vector<Index>& tets,
                               const std::vector<TetRest>& rests, std::vector<double>& g) const {
  check(x, tets, rests);
  require(g.size() == x.size(), "tet material: gradient must have the size of the positions (" +
                                    std::to_string(x.size()) + "), got " + std::to_string(g.size()));
  do_add_gradient(x.data(), tets.data(), rests.data(), static_cast<Index>(rests.size()), g.data());
}

void TetMaterial::element_hessians(const std::vector<double>& x, const std::vector<Index>& tets,
                                   const std::vector<TetRest>& rests, bool project_psd, std::vector<double>& H) const {
  check(x, tets, rests);
  H.assign(144 * rests.size(), 0.0);
  do_element_hessians(x.data(), tets.data(), rests.data(), static_cast<Index>(rests.size()), project_psd, H.data());
}

void TetMaterial::evaluate_elements(const DeviceTetMesh& mesh, const DeviceArray<double>& x, bool project_psd,
                                    DeviceTetValues& out) const {
  Backend& backend = mesh.backend();
  const std::size_t n = mesh.num_tets();
  require(x.backend() == &backend || (x.empty() && n == 0),
          "tet material: positions must live on the mesh's backend '" + backend.name() + "'");
  require(x.size() == 3 * static_cast<std::size_t>(mesh.num_vertices()),
          "tet material: positions must have 3 entries for each of the mesh's " + std::to_string(mesh.num_vertices()) +
              " vertices, got " + std::to_string(x.size()));
  auto fit = [&](DeviceArray<double>& a, std::size_t size) {
    if (a.size() != size || a.backend() != &backend) a = backend.allocate<double>(size);
  };
  fit(out.energy, n);
  fit(out.gradient, 12 * n);
  fit(out.hessian, 144 * n);
  do_evaluate_elements(mesh, x.data(), project_psd, out);
}

void TetMaterial::evaluate_elements(Backend& backend, const std::vector<double>& x, const std::vector<Index>& tets,
                                    const std::vector<TetRest>& rests, bool project_psd, TetElementValues& out) const {
  check(x, tets, rests);
  const DeviceTetMesh mesh(backend, tets, rests, static_cast<Index>(x.size() / 3));
  DeviceTetValues values;
  evaluate_elements(mesh, backend.upload(x), project_psd, values);
  out.energy = backend.download(values.energy);
  out.gradient = backend.download(values.gradient);
  out.hessian = backend.download(values.hessian);
}

std::unique_ptr<TetMaterial> make_tet_material(MaterialModel model, const ElasticParameters& parameters) {
  const LameParameters lame = lame_parameters(parameters);
  switch (model) {
    case MaterialModel::kLinear:
      return std::make_unique<TetMaterialOf<LinearElasticity>>(model, lame);
    case MaterialModel::kCorotational:
      return std::make_unique<TetMaterialOf<Corotational>>(model, lame);
    case MaterialModel::kArap:
      return std::make_unique<TetMaterialOf<Arap>>(model, lame);
    case MaterialModel::kStVenantKirchhoff:
      return std::make_unique<TetMaterialOf<StVenantKirchhoff>>(model, lame);
    case MaterialModel::kStableNeoHookean:
      return std::make_unique<TetMaterialOf<StableNeoHookean>>(model, lame);
  }
  throw Error("material model: invalid enum value " + std::to_string(static_cast<int>(model)));
}

}  // namespace sinew
