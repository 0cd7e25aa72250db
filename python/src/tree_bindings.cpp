// Rigid-body trees in joint coordinates (model::KinematicTree) and their explicit stepping:
// sinew.KinematicTree.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "sinew/core/error.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/model/kinematic_tree.hpp"

namespace sinew::python {
namespace {

using Vec = std::array<double, 3>;

Vec3 vec3(const Vec& a) { return Vec3{{a[0], a[1], a[2]}}; }

/// The tree and the flag of its running simulate() (BusyGuard).
struct PyTree {
  model::KinematicTree tree;
  mutable std::atomic<bool> busy{false};
  explicit PyTree(const Vec& gravity) : tree(vec3(gravity)) {}
};

}  // namespace

void bind_tree(py::module_& m) {
  py::class_<PyTree>(m, "KinematicTree",
                     "Rigid bodies joined to their parents by hinges and sliders, in joint coordinates (one "
                     "position and one velocity per joint): recursive Newton-Euler bias forces and the "
                     "composite-rigid-body mass matrix (sinew::model::KinematicTree).")
      .def(py::init([](const Vec& gravity) { return std::make_unique<PyTree>(gravity); }),
           py::arg("gravity") = Vec{0.0, 0.0, -9.81}, "An empty tree under gravity (world, m/s^2).")
      .def(
          "add_body",
          [](PyTree& t, int parent, const std::string& joint, const Vec& axis, const Vec& joint_in_parent,
             const Vec& joint_in_body, double mass, const Vec& com, const std::optional<Eigen::Matrix3d>& inertia,
             double armature, double damping, const std::string& name) {
            require(joint == "hinge" || joint == "slider",
                    [&] { return "KinematicTree.add_body: joint must be 'hinge' or 'slider', got '" + joint + "'"; });
            model::TreeBody b;
            b.name = name;
            b.parent = parent;
            b.joint = joint == "hinge" ? model::TreeJointKind::kHinge : model::TreeJointKind::kSlider;
            b.axis = vec3(axis);
            b.joint_in_parent = vec3(joint_in_parent);
            b.joint_in_body = vec3(joint_in_body);
            b.inertia.mass = mass;
            b.inertia.com = vec3(com);
            const Eigen::Matrix3d J = inertia ? *inertia : Eigen::Matrix3d::Identity().eval();
            for (int r = 0; r < 3; ++r)
              for (int c = 0; c < 3; ++c) b.inertia.J(r, c) = J(r, c);
            b.armature = armature;
            b.damping = damping;
            return t.tree.add_body(b);
          },
          py::arg("parent"), py::arg("joint") = "hinge", py::arg("axis") = Vec{0.0, 0.0, 1.0},
          py::arg("joint_in_parent") = Vec{0.0, 0.0, 0.0}, py::arg("joint_in_body") = Vec{0.0, 0.0, 0.0},
          py::arg("mass") = 1.0, py::arg("com") = Vec{0.0, 0.0, 0.0}, py::arg("inertia") = py::none(),
          py::arg("armature") = 0.0, py::arg("damping") = 0.0, py::arg("name") = "",
          "Adds a body joined to parent (an earlier body, or -1 for the world) and returns its index, its "
          "joint's coordinate. joint: 'hinge' (rotation about axis) or 'slider' (translation along it), axis in "
          "the parent's axes; joint_in_parent and joint_in_body: the joint point in each frame (at q = 0 the "
          "body's axes are its parent's); mass, com (body frame) and inertia (3 x 3, about the centre of mass; None: "
          "the identity); "
          "armature (added to the joint's inertia) and damping (joint force -damping u). Raises sinew.Error "
          "naming the body and the field.")
      .def_property_readonly(
          "num_bodies", [](const PyTree& t) { return t.tree.num_bodies(); }, "Bodies, joints and coordinates.")
      .def(
          "body_point",
          [](const PyTree& t, const Eigen::VectorXd& q, Index body, const Vec& local) {
            const Vec3 p = t.tree.body_point(q, body, vec3(local));
            return Eigen::Vector3d(p[0], p[1], p[2]);
          },
          py::arg("q"), py::arg("body"), py::arg("local") = Vec{0.0, 0.0, 0.0},
          "The world position of the point local (body frame) of a body at joint positions q.")
      .def(
          "point_jacobian",
          [](const PyTree& t, const Eigen::VectorXd& q, Index body, const Vec& local) {
            Eigen::MatrixXd J;
            t.tree.point_jacobian(q, body, vec3(local), J);
            return J;
          },
          py::arg("q"), py::arg("body"), py::arg("local") = Vec{0.0, 0.0, 0.0},
          "The 6 x n Jacobian of a body point: J u is the point's world velocity (rows 0-2) and the body's "
          "angular velocity (rows 3-5).")
      .def(
          "mass_matrix",
          [](const PyTree& t, const Eigen::VectorXd& q) {
            Eigen::MatrixXd M;
            t.tree.dense_mass_matrix(q, M);
            return M;
          },
          py::arg("q"), "The dense mass matrix M(q), armature included.")
      .def(
          "accelerations",
          [](const PyTree& t, const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
            Eigen::VectorXd qdd;
            require(t.tree.accelerations(0.0, q, u, qdd),
                    "KinematicTree.accelerations: the mass matrix is not positive definite or a value is not finite");
            return qdd;
          },
          py::arg("q"), py::arg("u"),
          "The joint accelerations under gravity and damping, M(q)^-1 (-D u - b(q, u)). Raises sinew.Error when "
          "they are not finite.")
      .def(
          "energy",
          [](const PyTree& t, const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
            return py::make_tuple(t.tree.kinetic_energy(0.0, q, u), t.tree.potential_energy(0.0, q));
          },
          py::arg("q"), py::arg("u"), "(kinetic, potential) energy at (q, u), in J.")
      .def(
          "simulate",
          [](const PyTree& t, Eigen::VectorXd q, Eigen::VectorXd u, double h, int steps,
             const std::string& integrator) {
            require(steps >= 0, "KinematicTree.simulate: steps must be >= 0");
            std::unique_ptr<integrators::Integrator> stepper = integrators::make_integrator(integrator);
            integrators::State s{0.0, std::move(q), std::move(u)};
            {
              BusyGuard guard(t.busy, "KinematicTree.simulate");
              py::gil_scoped_release release;  // steps of a whole run
              for (int k = 0; k < steps; ++k) {
                const integrators::StepReport r = stepper->step(t.tree, s, h);
                require(r.ok(),
                        [&] { return "KinematicTree.simulate: step " + std::to_string(k) + " failed: " + r.message; });
              }
            }
            return py::make_tuple(std::move(s.q), std::move(s.u));
          },
          py::arg("q"), py::arg("u"), py::arg("h"), py::arg("steps"), py::arg("integrator") = "runge_kutta4",
          "Steps (q, u) by h, steps times, with a named integrator ('runge_kutta4', 'symplectic_euler': MuJoCo's "
          "RK4 and Euler; the implicit ones too) and returns the final (q, u). Raises sinew.Error on a failed step "
          "(naming it), an unknown integrator or bad sizes.");
}

}  // namespace sinew::python
