#include "sinew/model/fem_fields.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/linear_elasticity.hpp"
#include "sinew/materials/membrane_models.hpp"
#include "sinew/materials/st_venant_kirchhoff.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::model {
namespace {

// Calls fn.template operator()<Model>() for the volumetric model type of @p m.
template <class Fn>
auto with_tet_model(MaterialModel m, Fn&& fn) {
  switch (m) {
    case MaterialModel::kLinear:
      return fn(LinearElasticity{});
    case MaterialModel::kCorotational:
      return fn(Corotational{});
    case MaterialModel::kArap:
      return fn(Arap{});
    case MaterialModel::kStVenantKirchhoff:
      return fn(StVenantKirchhoff{});
    case MaterialModel::kStableNeoHookean:
      break;
  }
  return fn(StableNeoHookean{});
}

// The same for the membrane version of the model.
template <class Fn>
auto with_membrane_model(MaterialModel m, Fn&& fn) {
  switch (m) {
    case MaterialModel::kLinear:
      return fn(MembraneLinear{});
    case MaterialModel::kCorotational:
      return fn(MembraneCorotational{});
    case MaterialModel::kArap:
      return fn(MembraneArap{});
    case MaterialModel::kStVenantKirchhoff:
      return fn(MembraneStVenantKirchhoff{});
    case MaterialModel::kStableNeoHookean:
      break;
  }
  return fn(MembraneStableNeoHookean{});
}

template <std::size_t N>
void gather(const SystemState& s, const std::array<Index, N>& nodes, double* x) {
  for (std::size_t a = 0; a < N; ++a)
    for (int c = 0; c < 3; ++c) x[3 * a + c] = s.x[nodes[a]][c];
}

template <std::size_t N>
void scatter_minus(const SystemState& s, const std::array<Index, N>& nodes, const double* g, Eigen::VectorXd& f) {
  for (std::size_t a = 0; a < N; ++a)
    for (int c = 0; c < 3; ++c) f[s.particle_dof[nodes[a]] + c] -= g[3 * a + c];
}

template <std::size_t N>
void rest_positions(const MechanicalSystem& system, const std::array<Index, N>& nodes, const std::string& what,
                    double* X) {
  for (std::size_t a = 0; a < N; ++a) {
    system.check_particle(nodes[a], what + ", node " + std::to_string(a));
    for (int c = 0; c < 3; ++c) X[3 * a + c] = system.particle(nodes[a]).position[c];
  }
}

template <std::size_t N>
void node_layout(const MechanicalSystem& system, const std::vector<std::array<Index, N>>& all, ElementLayout& out) {
  std::vector<Index> dofs;
  for (const auto& nodes : all) {
    dofs.clear();
    for (Index i : nodes)
      for (int c = 0; c < 3; ++c) dofs.push_back(system.particle_velocity_offset(i) + c);
    out.add(dofs);
  }
}

template <std::size_t N>
void check_nodes(const MechanicalSystem& system, const std::vector<std::array<Index, N>>& all,
                 const std::string& what) {
  for (std::size_t e = 0; e < all.size(); ++e)
    for (std::size_t a = 0; a < N; ++a)
      system.check_particle(all[e][a], what + " " + std::to_string(e) + ", node " + std::to_string(a));
}

// ---- tetrahedra and membranes ----

// The per-element maths of each kind of FemField: the materials library's functions of it.
template <class Elements>
struct Kind;

template <>
struct Kind<TetElements> {
  static constexpr const char* field = "tetrahedra";
  static constexpr const char* element = "tetrahedron";
  using Hessian = Mat12;
  static TetRest make_rest(const double* X) { return make_tet_rest(X); }
  template <class Fn>
  static auto with_model(MaterialModel m, Fn&& fn) {
    return with_tet_model(m, std::forward<Fn>(fn));
  }
  template <class Model>
  static double energy(const TetRest& r, const double* x, const LameParameters& l) {
    return tet_energy<Model>(r, x, l);
  }
  template <class Model>
  static void gradient(const TetRest& r, const double* x, const LameParameters& l, double* g) {
    tet_gradient<Model>(r, x, l, g);
  }
  template <class Model>
  static void hessian(const TetRest& r, const double* x, const LameParameters& l, bool projected, Mat12& H) {
    if (projected)
      tet_projected_hessian<Model>(r, x, l, H);
    else
      tet_hessian<Model>(r, x, l, H);
  }
};

template <>
struct Kind<MembraneElements> {
  static constexpr const char* field = "membranes";
  static constexpr const char* element = "triangle";
  using Hessian = Mat9;
  static TriRest make_rest(const double* X) { return make_tri_rest(X); }
  template <class Fn>
  static auto with_model(MaterialModel m, Fn&& fn) {
    return with_membrane_model(m, std::forward<Fn>(fn));
  }
  template <class Model>
  static double energy(const TriRest& r, const double* x, const LameParameters& l) {
    return tri_energy<Model>(r, x, l);
  }
  template <class Model>
  static void gradient(const TriRest& r, const double* x, const LameParameters& l, double* g) {
    tri_gradient<Model>(r, x, l, g);
  }
  template <class Model>
  static void hessian(const TriRest& r, const double* x, const LameParameters& l, bool projected, Mat9& H) {
    if (projected)
      tri_projected_hessian<Model>(r, x, l, H);
    else
      tri_hessian<Model>(r, x, l, H);
  }
};

}  // namespace

template <class Elements>
FemField<Elements>::FemField(MaterialModel model, const ElasticParameters& parameters)
    : model_(model), lame_(lame_parameters(parameters)) {}

template <class Elements>
std::string FemField<Elements>::name() const {
  return Kind<Elements>::field;
}

template <class Elements>
void FemField<Elements>::add(const MechanicalSystem& system, const Nodes& nodes) {
  const std::string what = std::string(Elements::kNodes == 4 ? "TetFemField" : "MembraneField") +
                           "::add: " + Kind<Elements>::element + " " + std::to_string(nodes_.size());
  double X[3 * Elements::kNodes];
  rest_positions(system, nodes, what, X);
  typename Elements::Rest rest{};
  try {
    rest = Kind<Elements>::make_rest(X);
  } catch (const Error& e) {
    throw Error(what + ": " + e.what());
  }
  add(nodes, rest);
}

template <class Elements>
void FemField<Elements>::add(const Nodes& nodes, const typename Elements::Rest& rest) {
  nodes_.push_back(nodes);
  rests_.push_back(rest);
}

template <class Elements>
void FemField<Elements>::check(const MechanicalSystem& system) const {
  check_nodes(system, nodes_, Kind<Elements>::element);
}

template <class Elements>
void FemField<Elements>::layout(const MechanicalSystem& system, ElementLayout& out) const {
  node_layout(system, nodes_, out);
}

template <class Elements>
void FemField<Elements>::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  Kind<Elements>::with_model(model_, [&](auto m) {
    using Model = decltype(m);
    double x[3 * Elements::kNodes], g[3 * Elements::kNodes];
    for (std::size_t e = 0; e < nodes_.size(); ++e) {
      gather(s, nodes_[e], x);
      Kind<Elements>::template gradient<Model>(rests_[e], x, lame_, g);
      scatter_minus(s, nodes_[e], g, f);
    }
    return 0;
  });
}

template <class Elements>
void FemField<Elements>::stiffness_values(const SystemState& s, bool projected, double* values) const {
  constexpr int kEntries = 9 * Elements::kNodes * Elements::kNodes;
  Kind<Elements>::with_model(model_, [&](auto m) {
    using Model = decltype(m);
    double x[3 * Elements::kNodes];
    typename Kind<Elements>::Hessian H{};
    for (std::size_t e = 0; e < nodes_.size(); ++e) {
      gather(s, nodes_[e], x);
      Kind<Elements>::template hessian<Model>(rests_[e], x, lame_, projected, H);
      for (int k = 0; k < kEntries; ++k) values[kEntries * e + k] = H.m[k];
    }
    return 0;
  });
}

template <class Elements>
double FemField<Elements>::energy(const SystemState& s) const {
  return Kind<Elements>::with_model(model_, [&](auto m) {
    using Model = decltype(m);
    double x[3 * Elements::kNodes], V = 0.0;
    for (std::size_t e = 0; e < nodes_.size(); ++e) {
      gather(s, nodes_[e], x);
      V += Kind<Elements>::template energy<Model>(rests_[e], x, lame_);
    }
    return V;
  });
}

template class FemField<TetElements>;
template class FemField<MembraneElements>;

// ---- bending ----

void BendingField::add(const MechanicalSystem& system, const std::array<Index, 4>& nodes, double stiffness) {
  const std::string what = "BendingField::add: hinge " + std::to_string(nodes_.size());
  require(stiffness >= 0.0 && std::isfinite(stiffness),
          [&] { return what + ": stiffness must be finite and >= 0, got " + number_text(stiffness); });
  double X[12];
  rest_positions(system, nodes, what, X);
  BendingHinge h{};
  try {
    h = make_bending_hinge(X);
  } catch (const Error& e) {
    throw Error(what + ": " + e.what());
  }
  nodes_.push_back(nodes);
  hinges_.push_back(h);
  stiffness_.push_back(stiffness);
}

void BendingField::check(const MechanicalSystem& system) const { check_nodes(system, nodes_, "hinge"); }

void BendingField::layout(const MechanicalSystem& system, ElementLayout& out) const {
  node_layout(system, nodes_, out);
}

void BendingField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  double x[12], g[12];
  for (std::size_t e = 0; e < nodes_.size(); ++e) {
    gather(s, nodes_[e], x);
    bending_gradient(hinges_[e], stiffness_[e], x, g);
    scatter_minus(s, nodes_[e], g, f);
  }
}

void BendingField::stiffness_values(const SystemState& /*s*/, bool /*projected*/, double* values) const {
  Mat12 H{};  // constant and PSD: its own projection
  for (std::size_t e = 0; e < nodes_.size(); ++e) {
    bending_hessian(hinges_[e], stiffness_[e], H);
    for (int k = 0; k < 144; ++k) values[144 * e + k] = H.m[k];
  }
}

double BendingField::energy(const SystemState& s) const {
  double x[12], V = 0.0;
  for (std::size_t e = 0; e < nodes_.size(); ++e) {
    gather(s, nodes_[e], x);
    V += bending_energy(hinges_[e], stiffness_[e], x);
  }
  return V;
}

}  // namespace sinew::model
