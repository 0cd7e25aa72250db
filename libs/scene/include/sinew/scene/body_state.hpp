/// @file
/// @brief Every body's state as run.csv columns, named after the body, written the same way by
/// every Simulation: a rigid body's pose and twist, a deformable body's centre of mass and kinetic
/// energy. A sweep's outputs and `sinew plot` name them like any other column (e.g. "cube.x").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::scene {

/// The columns of rigid body @p body, in the order of append_rigid_body_state():
/// `<body>.x .y .z` (position of its origin, m), `.qw .qx .qy .qz` (orientation, unit quaternion,
/// body to world), `.vx .vy .vz` (velocity of its origin, m/s) and `.wx .wy .wz` (angular
/// velocity, rad/s), all in world coordinates.
std::vector<std::string> rigid_body_columns(const std::string& body);

/// Appends the 13 values of rigid_body_columns() to @p out.
void append_rigid_body_state(const Vec3& x, const Quaternion& q, const Vec3& v, const Vec3& w,
                             std::vector<double>& out);

/// The columns of deformable body @p body, in the order of append_deformable_body_state():
/// `<body>.com_x .com_y .com_z` (centre of mass, m) and `<body>.kinetic_energy` (J).
std::vector<std::string> deformable_body_columns(const std::string& body);

/// Appends the 4 values of deformable_body_columns() of the @p n point masses @p mass with
/// positions @p x and velocities @p v ((3 n) interleaved each) to @p out; sums in index order, so
/// the values are the same bits for the same state.
void append_deformable_body_state(const double* x, const double* v, const double* mass, std::size_t n,
                                  std::vector<double>& out);

}  // namespace sinew::scene
