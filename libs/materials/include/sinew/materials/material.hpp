/// @file
/// @brief Host-side material interface: a constitutive model chosen at run time, evaluated over a
/// batch of tetrahedra (virtual once per batch, the per-element math inline).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/materials/device_tet_mesh.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/tetrahedron.hpp"

namespace sinew {

/// The volumetric constitutive models, one per per-element model type.
enum class MaterialModel {
  kLinear,             ///< LinearElasticity
  kCorotational,       ///< Corotational
  kArap,               ///< Arap
  kStVenantKirchhoff,  ///< StVenantKirchhoff
  kStableNeoHookean,   ///< StableNeoHookean
};

/// The scene-file name of a model: "linear", "corotational", "arap", "st_venant_kirchhoff" or
/// "stable_neo_hookean".
const char* material_model_name(MaterialModel model);

/// The model of a scene-file name (see material_model_name()).
/// @throws sinew::Error naming the unknown name and listing the valid ones.
MaterialModel parse_material_model(const std::string& name);

/// An elastic material over tetrahedra. Public methods check their inputs once and throw
/// sinew::Error; the protected virtual do_* methods behind them assume valid input.
class TetMaterial {
 public:
  virtual ~TetMaterial() = default;

  /// The constitutive model.
  MaterialModel model() const { return model_; }
  /// The Lame parameters, converted and checked from the elastic parameters.
  const LameParameters& lame() const { return lame_; }

  /// Total elastic energy sum_e V_e Psi(F_e).
  /// @param x      (3 n_vertices) positions x0 y0 z0 x1 ...
  /// @param tets   (4 n_tets) vertex indices per tetrahedron.
  /// @param rests  (n_tets) rest data per tetrahedron.
  /// @throws sinew::Error on inconsistent sizes or a vertex index out of range.
  double energy(const std::vector<double>& x, const std::vector<Index>& tets, const std::vector<TetRest>& rests) const;

  /// Adds the energy gradient (minus the elastic forces) to @p g.
  /// @param x      (3 n_vertices) positions.
  /// @param tets   (4 n_tets) vertex indices.
  /// @param rests  (n_tets) rest data.
  /// @param g      (3 n_vertices) gradient, accumulated into.
  /// @throws sinew::Error on inconsistent sizes or a vertex index out of range.
  void add_gradient(const std::vector<double>& x, const std::vector<Index>& tets, const std::vector<TetRest>& rests,
                    std::vector<double>& g) const;

  /// Element Hessians (exact or PSD-projected), for assembly by the caller.
  /// @param x            (3 n_vertices) positions.
  /// @param tets         (4 n_tets) vertex indices.
  /// @param rests        (n_tets) rest data.
  /// @param project_psd  clamp each element's negative eigenvalues (tet_projected_hessian()).
  /// @param H            (n_tets x 144) output, element e's row-major 12x12 at 144 e; resized.
  /// @throws sinew::Error on inconsistent sizes or a vertex index out of range.
  void element_hessians(const std::vector<double>& x, const std::vector<Index>& tets, const std::vector<TetRest>& rests,
                        bool project_psd, std::vector<double>& H) const;
  /// Energy, gradient and Hessian of every element at once, in parallel on the mesh's backend:
  /// the per-element kernel of an implicit step. Each element is computed whole by one thread,
  /// so the values are bitwise identical on every host backend and thread count. One functor of
  /// the model's inline functions runs on every backend (sinew::for_each_index): looped on host
  /// backends, a kernel on the backend's stream on cuda (when sinew is built with CUDA).
  /// @param mesh         connectivity and rest data on a backend.
  /// @param x            (3 mesh.num_vertices()) positions on the same backend.
  /// @param project_psd  project each element Hessian to be positive semi-definite.
  /// @param out          per-element values on the same backend; (re)allocated when sizes differ.
  /// @throws sinew::Error on a size mismatch, an array of another backend, or a backend with no
  ///         implementation of these kernels.
  void evaluate_elements(const DeviceTetMesh& mesh, const DeviceArray<double>& x, bool project_psd,
                         DeviceTetValues& out) const;
  /// evaluate_elements() from and to host arrays (uploads, evaluates on @p backend, downloads).
  /// @throws sinew::Error as the device version, and on an index out of range.
  void evaluate_elements(Backend& backend, const std::vector<double>& x, const std::vector<Index>& tets,
                         const std::vector<TetRest>& rests, bool project_psd, TetElementValues& out) const;

 protected:
  /// Stores the model and its Lame parameters.
  TetMaterial(MaterialModel model, const LameParameters& lame) : model_(model), lame_(lame) {}
  /// energy() on checked input.
  virtual double do_energy(const double* x, const Index* tets, const TetRest* rests, Index n_tets) const = 0;
  /// add_gradient() on checked input; g has 3 n_vertices entries.
  virtual void do_add_gradient(const double* x, const Index* tets, const TetRest* rests, Index n_tets,
                               double* g) const = 0;
  /// element_hessians() on checked input; H has 144 n_tets entries.
  virtual void do_element_hessians(const double* x, const Index* tets, const TetRest* rests, Index n_tets,
                                   bool project_psd, double* H) const = 0;
  /// evaluate_elements() on checked input: the model's per-element kernel over the mesh on its
  /// backend (sinew::for_each_index), into @p out, which has the mesh's sizes.
  virtual void do_evaluate_elements(const DeviceTetMesh& mesh, const double* x, bool project_psd,
                                    DeviceTetValues& out) const = 0;

 private:
  /// Throws sinew::Error unless x has 3 entries per vertex, tets 4 in-range indices per rest element.
  void check(const std::vector<double>& x, const std::vector<Index>& tets, const std::vector<TetRest>& rests) const;

  MaterialModel model_;  ///< the constitutive model
  LameParameters lame_;  ///< checked Lame parameters
};

/// Makes the tetrahedral material of a model.
/// @throws sinew::Error from lame_parameters() on out-of-range elastic parameters.
std::unique_ptr<TetMaterial> make_tet_material(MaterialModel model, const ElasticParameters& parameters);

}  // namespace sinew
