// The module sinew._sinew: everything the Python package sinew re-exports (python/sinew/__init__.py).
#include "bindings.hpp"

PYBIND11_MODULE(_sinew, m) {
  m.doc() = "sinew's solvers and simulations from Python (numpy / scipy.sparse arrays); import sinew.";
  sinew::python::bind_errors(m);  // first: every later binding may raise sinew.Error
  sinew::python::bind_backends(m);
  sinew::python::bind_scene(m);
  sinew::python::bind_linalg(m);
  sinew::python::bind_baraff(m);
  sinew::python::bind_contact(m);
  sinew::python::bind_global_contact(m);  // after bind_contact: returns its types
  sinew::python::bind_tree(m);
}
