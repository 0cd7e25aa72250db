#include "sinew/scene/body_state.hpp"

namespace sinew::scene {
namespace {

std::vector<std::string> columns(const std::string& body, std::initializer_list<const char*> names) {
  std::vector<std::string> out;
  for (const char* n : names) out.push_back(body + "." + n);
  return out;
}

}  // namespace

std::vector<std::string> rigid_body_columns(const std::string& body) {
  return columns(body, {"x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"});
}

void append_rigid_body_state(const Vec3& x, const Quaternion& q, const Vec3& v, const Vec3& w,
                             std::vector<double>& out) {
  out.insert(out.end(), {x[0], x[1], x[2], q.s, q.v[0], q.v[1], q.v[2], v[0], v[1], v[2], w[0], w[1], w[2]});
}

std::vector<std::string> deformable_body_columns(const std::string& body) {
  return columns(body, {"com_x", "com_y", "com_z", "kinetic_energy"});
}

void append_deformable_body_state(const double* x, const double* v, const double* mass, std::size_t n,
                                  std::vector<double>& out) {
  double m = 0.0, moment[3] = {0.0, 0.0, 0.0}, kinetic = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    m += mass[i];
    for (int k = 0; k < 3; ++k) moment[k] += mass[i] * x[3 * i + k];
    kinetic += 0.5 * mass[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
  }
  for (double c : moment) out.push_back(m > 0.0 ? c / m : 0.0);
  out.push_back(kinetic);
}

}  // namespace sinew::scene
