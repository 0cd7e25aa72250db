// What the binding files of the module sinew._sinew share: the functions that add each part to
// the module, and the conversions between scipy.sparse / numpy and sinew's host types.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::scene {
class Simulation;
}

namespace sinew::python {

namespace py = pybind11;

/// sinew.Error (a RuntimeError) raised for every sinew::Error, with its message.
void bind_errors(py::module_& m);
/// Backends by name: backend_names(), the Backend class and make_backend().
void bind_backends(py::module_& m);
/// Scene files, simulations, stepping and runs (scene_bindings.cpp).
void bind_scene(py::module_& m);
/// CG / CR / MINRES on a scipy.sparse matrix (linalg_bindings.cpp).
void bind_linalg(py::module_& m);
/// Baraff's O(n) factor of a tree given as arrays (baraff_bindings.cpp).
void bind_baraff(py::module_& m);
/// Contact problems from arrays, their solvers and FCLIB files (contact_bindings.cpp).
void bind_contact(py::module_& m);
/// Contact problems in FCLIB's global form from arrays and their solvers (global_contact_bindings.cpp).
void bind_global_contact(py::module_& m);
/// Rigid-body trees in joint coordinates and their stepping (tree_bindings.cpp).
void bind_tree(py::module_& m);

/// Marks an object in use for the scope of a call that releases the GIL: a second call meanwhile
/// (from another thread, or from a callback of the first) raises sinew.Error instead of racing
/// on the object's state.
class BusyGuard {
 public:
  /// Takes @p flag; @throws sinew::Error naming @p what when it is already taken.
  BusyGuard(std::atomic<bool>& flag, const char* what);
  /// Releases the flag.
  ~BusyGuard() { flag_.store(false); }
  BusyGuard(const BusyGuard&) = delete;             ///< not copyable
  BusyGuard& operator=(const BusyGuard&) = delete;  ///< not assignable

 private:
  std::atomic<bool>& flag_;
};

/// A backend shared by the Python objects that run on it (a simulation keeps its backend alive).
using SharedBackend = std::shared_ptr<Backend>;

/// The backend @p name ("" or None: SINEW_BACKEND, else "serial"). @throws sinew::Error for an
/// unknown or unusable backend, naming it.
SharedBackend backend_by_name(const std::string& name);

/// A CsrMatrix copied from any scipy.sparse matrix or array @p A (converted to CSR with sorted,
/// summed duplicates; the caller's matrix is left as it was). @p what names it in messages.
/// @throws sinew::Error when @p A is not a scipy.sparse matrix or has more than 2^31 - 1 rows,
///         columns or entries.
CsrMatrix csr_from_scipy(const py::handle& A, const char* what);

/// A scipy.sparse.csr_matrix holding a copy of @p A.
py::object csr_to_scipy(const CsrMatrix& A);

/// A numpy array of @p shape holding @p values, moved (no copy: the array's base owns the vector).
template <class T>
py::array moved_array(std::vector<T> values, const std::vector<py::ssize_t>& shape) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(shape, owned->data(), owner);
}

/// The contacts of @p sim's last step as a dict of arrays (Simulation.contacts(); see its
/// docstring). @throws sinew::Error for a scene kind without contacts.
py::dict simulation_contacts(const scene::Simulation& sim);

/// The last contact step's problem of a multibody scene in FCLIB's global form with its solution
/// (Simulation.contact()). @throws sinew::Error when @p sim is not stepped by a ContactStep.
py::dict step_problem(const scene::Simulation& sim);

/// A read-only 1-D numpy view of @p v kept alive by @p owner (the Python object holding v): no
/// copy; it shows v's current values for as long as v is not resized.
py::array readonly_view(const Eigen::VectorXd& v, const py::object& owner);

}  // namespace sinew::python
