// sinew::Error as the Python exception sinew.Error, and the backends by name.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/error.hpp"

namespace sinew::python {

void bind_errors(py::module_& m) {
  // A subclass of RuntimeError, so `except RuntimeError` catches it too; the message is what()
  // of the C++ exception, unchanged.
  py::register_exception<Error>(m, "Error", PyExc_RuntimeError).attr("__doc__") =
      "Bad input, API misuse or an unusable backend: the message of sinew::Error, unchanged.";
}

SharedBackend backend_by_name(const std::string& name) {
  const std::string chosen = name.empty() ? backend_name_from_environment("serial") : name;
  return SharedBackend(make_backend(chosen));
}

void bind_backends(py::module_& m) {
  py::class_<Backend, SharedBackend>(m, "Backend", "A compute backend (serial, tbb, kokkos, cuda) made by name.")
      .def_property_readonly("name", &Backend::name, "The backend's name, e.g. 'serial'.");
  m.def("make_backend", &backend_by_name, py::arg("name") = "",
        "The backend named `name` ('' : $SINEW_BACKEND, else 'serial'); raises sinew.Error naming an unknown or "
        "unusable backend and why.");
  m.def(
      "backend_names", [] { return builtin_backends().names(); },
      "The names of the backends this build knows (each may still be unusable here, e.g. cuda without a GPU).");
}

}  // namespace sinew::python
