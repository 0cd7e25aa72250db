// LocalGlobalIntegrator with contact between deformable bodies (LocalGlobalDescription::body_contact:
// vertex-triangle rows over four vertices in H, W = H S'^T S' H^T, seed Sec. 5 / Algorithm 4): a
// block resting on a pinned block carries its weight through the contact impulses without
// sinking into it; two blocks colliding head-on keep their total momentum (the contact impulses
// are internal); a block on a tilted deformable slab sticks above mu* = tan(angle) and slides
// below; two blocks crossed ridge on ridge rest on their edge-edge contact; the stored and factored W agree with the
// dense H A^-1 H^T; host backends agree bitwise, a checkpoint resumes bit for bit, steady contact reuses its buffers,
// and bad input is named.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "flat_tet_mesh.hpp"
#include "host_backends.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/collision/vertex_triangle_contacts.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace sinew::integrators::integrators_local_global_body_contact_test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Appends a box of nx x ny x nz cubes to @p d; returns its first vertex.
Index add_box(LocalGlobalDescription& d, const Vec3& lo, const Vec3& hi, int nx, int ny, int nz) {
  const Index first = static_cast<Index>(d.rest_positions.size() / 3);
  test::FlatTetMesh m = test::flat_box_tet_mesh(lo, hi, nx, ny, nz);
  d.rest_positions.insert(d.rest_positions.end(), m.x.begin(), m.x.end());
  for (Index v : m.tets) d.tets.push_back(v + first);
  return first;
}

// Pins the vertices of @p d in [first, end) whose z is at most @p z.
void pin_below(LocalGlobalDescription& d, Index first, Index end, double z) {
  for (Index v = first; v < end; ++v) {
    const double* p = &d.rest_positions[3 * static_cast<std::size_t>(v)];
    if (p[2] <= z + 1e-12) d.targets.push_back({v, Vec3{{p[0], p[1], p[2]}}, 0.0});
  }
}

LocalGlobalDescription base(double E) {
  LocalGlobalDescription d;
  d.model = MaterialModel::kArap;
  d.elastic = {E, 0.3};
  d.density = 1000.0;
  d.time_step = 0.01;
  return d;
}

Index vertices_of(const LocalGlobalDescription& d) { return static_cast<Index>(d.rest_positions.size() / 3); }

// The total contact impulse (world frame) on the vertices [first, end) in the last step: w_k R on
// each contact's node k (LocalGlobalReport::contact_nodes; R = n r_n + t1 r_t1 + t2 r_t2).
Vec3 impulse_on(const LocalGlobalReport& r, Index first, Index end) {
  Vec3 sum{{0, 0, 0}};
  auto in = [&](Index v) { return v >= first && v < end; };
  for (std::size_t j = 0; j < r.contacts; ++j) {
    Vec3 n{{r.normals[3 * j], r.normals[3 * j + 1], r.normals[3 * j + 2]}};
    Vec3 t1{{r.tangents[3 * j], r.tangents[3 * j + 1], r.tangents[3 * j + 2]}};
    const Vec3 t2 = cross(n, t1);
    Vec3 R{{0, 0, 0}};
    for (int i = 0; i < 3; ++i)
      R[i] = n[i] * r.impulses[3 * j] + t1[i] * r.impulses[3 * j + 1] + t2[i] * r.impulses[3 * j + 2];
    double w = 0.0;
    for (int k = 0; k < 4; ++k)
      if (r.contact_nodes[4 * j + k] >= 0 && in(r.contact_nodes[4 * j + k])) w += r.contact_weights[4 * j + k];
    for (int i = 0; i < 3; ++i) sum[i] += w * R[i];
  }
  return sum;
}

// The witness points of every contact of @p r, between bodies: the vertex's side's point is the
// positive-weight sum of its nodes at the start of the step (@p x, 3n), the other side's the
// negative-weight one, so that point_a - point_b = sum_k w_k x_k; they lie on the contact's normal
// line. Returns how many contacts it checked.
int expect_body_witness_points(const LocalGlobalReport& r, const std::vector<double>& x) {
  EXPECT_EQ(r.contact_points_a.size(), 3 * r.contacts);
  EXPECT_EQ(r.contact_points_b.size(), 3 * r.contacts);
  for (std::size_t j = 0; j < r.contacts; ++j) {
    EXPECT_EQ(r.contact_obstacle[j], -1) << j;
    Vec3 a{{0, 0, 0}}, b{{0, 0, 0}}, pa, pb;
    for (int k = 0; k < 4; ++k) {
      const Index node = r.contact_nodes[4 * j + k];
      if (node < 0) continue;
      const double w = r.contact_weights[4 * j + k];
      for (int i = 0; i < 3; ++i) (w > 0 ? a : b)[i] += std::abs(w) * x[3 * static_cast<std::size_t>(node) + i];
    }
    for (int i = 0; i < 3; ++i) {
      pa[i] = r.contact_points_a[3 * j + i];
      pb[i] = r.contact_points_b[3 * j + i];
      EXPECT_NEAR(pa[i], a[i], 1e-15) << "A's point, contact " << j;
      EXPECT_NEAR(pb[i], b[i], 1e-15) << "B's point, contact " << j;
    }
    const Vec3 n{{r.normals[3 * j], r.normals[3 * j + 1], r.normals[3 * j + 2]}};
    EXPECT_NEAR(norm(cross(n, v3::sub(pa, pb))), 0.0, 1e-12) << "on the normal line, contact " << j;
  }
  return static_cast<int>(r.contacts);
}

// The most negative signed distance of any boundary vertex to another body's surface (0 when
// none is within 1 cm).
double deepest_penetration(const LocalGlobalIntegrator& lg) {
  const std::vector<double> x = lg.positions();
  std::vector<Vec3> p(x.size() / 3);
  for (std::size_t v = 0; v < p.size(); ++v) p[v] = Vec3{{x[3 * v], x[3 * v + 1], x[3 * v + 2]}};
  const TetSurfaces& s = lg.contact_surfaces();
  std::vector<Index> all(p.size());
  for (std::size_t v = 0; v < p.size(); ++v) all[v] = static_cast<Index>(v);
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> out;
  det.detect(s, all, p, nullptr, 0.01, out);
  double deepest = 0.0;
  for (const auto& c : out) deepest = std::min(deepest, c.distance);
  return deepest;
}

// Total linear momentum sum m v.
Vec3 momentum(const LocalGlobalIntegrator& lg) {
  const std::vector<double> v = lg.velocities();
  Vec3 p{{0, 0, 0}};
  for (std::size_t i = 0; i < lg.masses().size(); ++i)
    for (int c = 0; c < 3; ++c) p[c] += lg.masses()[i] * v[3 * i + c];
  return p;
}

// A 6 cm block (E = 1e6 Pa, 2.16e-1 kg) placed 1 mm above a pinned 10 x 10 x 4 cm block settles
// on it: its vertices against the lower block's triangles and the lower block's against its own.
TEST(LocalGlobalBodyContact, BlockRestsOnABlockWithImpulsesEqualToItsWeight) {
  LocalGlobalDescription d = base(1e6);
  add_box(d, Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, 0.04}}, 4, 4, 2);
  const Index top = add_box(d, Vec3{{0.02, 0.02, 0.041}}, Vec3{{0.08, 0.08, 0.101}}, 3, 3, 3);
  const Index n = vertices_of(d);
  pin_below(d, 0, top, 0.0);
  auto be = make_backend("serial");
  LocalGlobalIntegrator lg(*be, d);
  ASSERT_EQ(lg.contact_surfaces().bodies, 2);
  double top_mass = 0.0;
  for (Index v = top; v < n; ++v) top_mass += lg.masses()[v];
  const double weight_h = top_mass * 9.81 * d.time_step;
  LocalGlobalReport r;
  double worst_depth = 0.0;
  std::vector<double> start;  // positions at the start of the last step
  for (int s = 0; s < 100; ++s) {
    start = lg.positions();
    r = lg.step();
    ASSERT_TRUE(r.ok()) << r.message;
    worst_depth = std::min(worst_depth, deepest_penetration(lg));
  }
  EXPECT_GT(expect_body_witness_points(r, start), 0);
  const Vec3 R = impulse_on(r, top, n);
  int both_ways[2] = {0, 0};
  for (std::size_t j = 0; j < r.contacts; ++j) ++both_ways[r.contact_vertex[j] >= top ? 1 : 0];
  std::printf(
      "block on block: %zu contacts (%d from the lower block's vertices, %d from the top's), "
      "impulse on the top %.6e N s vs weight x h %.6e (rel. %.2e), lateral %.1e, deepest %.2e m, "
      "contact error %.1e\n",
      r.contacts, both_ways[0], both_ways[1], R[2], weight_h, std::abs(R[2] - weight_h) / weight_h,
      std::hypot(R[0], R[1]), worst_depth, r.contact_error);
  EXPECT_GT(both_ways[1], 0);
  EXPECT_NEAR(R[2], weight_h, 1e-3 * weight_h) << "the contacts carry the top block's weight";
  EXPECT_LT(std::hypot(R[0], R[1]), 1e-3 * weight_h);
  EXPECT_GT(worst_depth, -2e-4) << "no interpenetration beyond 0.2 mm";
  // At rest: the top block's velocity is ~0.
  const std::vector<double> v = lg.velocities();
  double vmax = 0.0;
  for (Index i = top; i < n; ++i) vmax = std::max(vmax, std::abs(v[3 * i + 2]));
  EXPECT_LT(vmax, 1e-3);
}

// Two equal 4 cm blocks 2 mm apart approach at 0.5 m/s each, no gravity, no pins: the contact
// impulses act on both (+R on the vertex, -b R on the triangle), so the total momentum, 0 at the
// start plus the blocks' asymmetric velocity, is kept through the collision to rounding.
TEST(LocalGlobalBodyContact, HeadOnCollisionConservesMomentum) {
  LocalGlobalDescription d = base(1e5);
  d.gravity = Vec3{{0, 0, 0}};
  add_box(d, Vec3{{-0.041, 0, 0}}, Vec3{{-0.001, 0.04, 0.04}}, 3, 3, 3);
  const Index right = add_box(d, Vec3{{0.001, 0.005, 0.003}}, Vec3{{0.041, 0.045, 0.043}}, 3, 3, 3);
  const Index n = vertices_of(d);
  auto be = make_backend("serial");
  LocalGlobalIntegrator lg(*be, d);
  std::vector<double> v(3 * static_cast<std::size_t>(n), 0.0);
  for (Index i = 0; i < n; ++i) v[3 * i] = i < right ? 0.5 : -0.3;  // unequal speeds: p != 0
  lg.set_state(lg.positions(), v);
  const Vec3 p0 = momentum(lg);
  double worst = 0.0;
  std::size_t max_contacts = 0;
  double left_x = 0.0, right_x = 0.0;
  for (int s = 0; s < 30; ++s) {
    const LocalGlobalReport r = lg.step();
    ASSERT_TRUE(r.ok()) << r.message;
    max_contacts = std::max(max_contacts, r.contacts);
    const Vec3 p = momentum(lg);
    for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(p[c] - p0[c]));
  }
  const std::vector<double> vel = lg.velocities();
  double ml = 0.0, mr = 0.0;
  for (Index i = 0; i < n; ++i) (i < right ? left_x : right_x) += lg.masses()[i] * vel[3 * i];
  for (Index i = 0; i < n; ++i) (i < right ? ml : mr) += lg.masses()[i];
  const double scale = std::abs(p0[0]) + 0.5 * ml;  // momentum magnitudes in play
  std::printf("head-on: max %zu contacts, |p - p0| = %.2e (relative %.2e), after: left %.3f m/s, right %.3f m/s\n",
              max_contacts, worst, worst / scale, left_x / ml, right_x / mr);
  EXPECT_GT(max_contacts, 0u);
  EXPECT_LT(worst / scale, 1e-10);
  EXPECT_LT(left_x / ml, right_x / mr + 1e-9) << "they bounced or moved together: no pass-through";
  EXPECT_LT(left_x / ml, 0.4) << "the left block was slowed by the right one";
}

// A 4 cm block on a 20 x 10 x 3 cm deformable slab pinned at its base, gravity tilted by 10
// degrees (downhill +x, as in slope_scene): mu* = tan(10 deg) = 0.1763. With mu = 0.1 the block
// slides down the slab at about g (sin - mu cos) = 0.74 m/s^2 (1.5 cm in 0.2 s); with mu = 0.3 it
// stays (elastic shear only).
double slide(double mu, int steps) {
  LocalGlobalDescription d = base(1e6);
  const double angle = 10.0 * kPi / 180.0;
  d.gravity = Vec3{{9.81 * std::sin(angle), 0.0, -9.81 * std::cos(angle)}};
  add_box(d, Vec3{{0, 0, 0}}, Vec3{{0.2, 0.1, 0.03}}, 8, 4, 1);
  const Index top = add_box(d, Vec3{{0.03, 0.03, 0.0305}}, Vec3{{0.07, 0.07, 0.0705}}, 2, 2, 2);
  const Index n = vertices_of(d);
  pin_below(d, 0, top, 0.0);
  d.body_friction = mu;
  LocalGlobalOptions o;
  o.iterations = 10;
  o.contact.cr_iterations = 24;
  auto be = make_backend("serial");
  LocalGlobalIntegrator lg(*be, d, o);
  const std::vector<double> x0 = lg.positions();
  for (int s = 0; s < steps; ++s) {
    const LocalGlobalReport r = lg.step();
    EXPECT_TRUE(r.ok()) << r.message;
  }
  const std::vector<double> x = lg.positions();
  double dx = 0.0, m = 0.0;
  for (Index i = top; i < n; ++i) {
    dx += lg.masses()[i] * (x[3 * i] - x0[3 * i]);
    m += lg.masses()[i];
  }
  return dx / m;
}

// Rotates the vertices [first, end) of @p d by @p angle about the axis @p axis (0 = x, 1 = y)
// through @p centre.
void rotate(LocalGlobalDescription& d, Index first, Index end, int axis, double angle, const Vec3& centre) {
  const double c = std::cos(angle), s = std::sin(angle);
  const int i = axis == 0 ? 1 : 2, j = axis == 0 ? 2 : 0;  // the plane turned: (y, z) or (z, x)
  for (Index v = first; v < end; ++v) {
    double* p = &d.rest_positions[3 * static_cast<std::size_t>(v)];
    const double a = p[i] - centre[i], b = p[j] - centre[j];
    p[i] = centre[i] + c * a - s * b;
    p[j] = centre[j] + s * a + c * b;
  }
}

// Edge on edge: a pinned block turned 45 degrees about y, its top a ridge along y, and above it
// a block turned 45 degrees about x, its bottom a ridge along x, 1 mm apart. The ridges cross
// at their middles, where neither block has a vertex and no vertex of either comes near the
// other: only the edge-edge contact (EdgeEdgeDetector) holds the upper block, which without it
// falls through the lower one (0.80 m down after the 40 steps).
TEST(LocalGlobalBodyContact, CrossedRidgesRestOnTheirEdgeEdgeContact) {
  LocalGlobalDescription d = base(1e6);
  const double half = 0.05, r = half * std::sqrt(2.0);
  const Index lower = add_box(d, Vec3{{-half, -0.1, -r - half}}, Vec3{{half, 0.1, -r + half}}, 1, 1, 1);
  const Index upper = vertices_of(d);
  rotate(d, lower, upper, 1, 0.25 * kPi, Vec3{{0, 0, -r}});  // ridge along y at z = 0
  add_box(d, Vec3{{-0.1, -half, 0.001 + r - half}}, Vec3{{0.1, half, 0.001 + r + half}}, 1, 1, 1);
  const Index end = vertices_of(d);
  rotate(d, upper, end, 0, 0.25 * kPi, Vec3{{0, 0, 0.001 + r}});  // ridge along x at z = 1 mm
  pin_below(d, lower, upper, -r - 0.5 * r);                       // the lower block's bottom ridge
  auto be = make_backend("serial");
  LocalGlobalIntegrator lg(*be, d);
  double mass = 0.0;
  for (Index v = upper; v < end; ++v) mass += lg.masses()[v];
  auto ridge_gap = [&]() {  // z of the upper ridge's middle above the lower ridge's middle
    const std::vector<double> x = lg.positions();
    double zu = 1e9, zl = -1e9;
    for (Index v = upper; v < end; ++v) zu = std::min(zu, x[3 * v + 2]);
    for (Index v = lower; v < upper; ++v) zl = std::max(zl, x[3 * v + 2]);
    return zu - zl;
  };
  LocalGlobalReport r_last;
  int edge_contacts = 0;
  double lowest = 1.0;
  std::vector<double> start;  // positions at the start of the last step
  for (int step = 0; step < 40; ++step) {
    start = lg.positions();
    r_last = lg.step();
    ASSERT_TRUE(r_last.ok()) << r_last.message;
    lowest = std::min(lowest, ridge_gap());
  }
  EXPECT_GT(expect_body_witness_points(r_last, start), 0);
  for (std::size_t j = 0; j < r_last.contacts; ++j) edge_contacts += r_last.contact_triangle[j] == -2;
  const Vec3 R = impulse_on(r_last, upper, end);
  const double weight_h = mass * 9.81 * d.time_step;
  std::printf(
      "crossed ridges: %zu contacts (%d edge-edge), ridges' lowest gap %.2e m, impulse on the upper block "
      "%.4e N s against its weight h %.4e\n",
      r_last.contacts, edge_contacts, lowest, R[2], weight_h);
  EXPECT_GE(edge_contacts, 1);
  EXPECT_GT(lowest, -1e-4) << "the upper ridge stays on the lower one";
  EXPECT_NEAR(R[2], weight_h, 0.05 * weight_h) << "the edge-edge contact carries the weight";
  // The warm start keys edge-edge contacts by (a0, edge b, a1): a checkpoint keeps them.
  LocalGlobalIntegrator resumed(*be, d);
  std::stringstream saved;
  lg.save(saved);
  resumed.restore(saved);
  for (int step = 0; step < 5; ++step) {
    ASSERT_TRUE(lg.step().ok());
    ASSERT_TRUE(resumed.step().ok());
  }
  const std::vector<double> xa = lg.positions(), xb = resumed.positions();
  EXPECT_EQ(std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(double)), 0) << "resumed bit for bit";
}

TEST(LocalGlobalBodyContact, BlockOnATiltedSlabSticksAboveTanAngleAndSlidesBelow) {
  const double slides = slide(0.1, 25), sticks = slide(0.3, 25);
  // Sliding from rest for 0.25 s at 0.74 m/s^2: 2.3 cm (less the first steps' settling).
  std::printf("tilted slab: mu = 0.1 moved %.4f m, mu = 0.3 moved %.5f m (g (sin - 0.1 cos) t^2 / 2 = %.4f m)\n",
              slides, sticks, 0.5 * 9.81 * (std::sin(10 * kPi / 180) - 0.1 * std::cos(10 * kPi / 180)) * 0.25 * 0.25);
  EXPECT_GT(slides, 0.012);
  EXPECT_LT(sticks, 1e-3);
}

// Two single-cube blocks pressed together: W of the step, stored (kExplicit) and through its
// factors (kOperator, assembled by delassus()), equals H A^-1 H^T formed densely from the
// report's contacts (four-vertex rows), and the two forms give the same step.
TEST(LocalGlobalBodyContact, DelassusMatchesDenseHAInverseHt) {
  LocalGlobalDescription d = base(1e5);
  add_box(d, Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, 0.05}}, 2, 2, 1);
  const Index top = add_box(d, Vec3{{0.02, 0.03, 0.0505}}, Vec3{{0.07, 0.08, 0.1005}}, 1, 1, 1);
  pin_below(d, 0, top, 0.0);
  const Index n = vertices_of(d);
  auto be = make_backend("serial");
  std::vector<std::vector<double>> x;
  double worst = 0.0;
  for (DelassusForm form : {DelassusForm::kExplicit, DelassusForm::kOperator}) {
    LocalGlobalOptions o;
    o.contact.delassus = form;
    LocalGlobalIntegrator lg(*be, d, o);
    LocalGlobalReport report;
    for (int s = 0; s < 5; ++s) report = lg.step();
    ASSERT_TRUE(report.ok()) << report.message;
    ASSERT_GT(report.contacts, 0u);
    x.push_back(lg.positions());
    const CsrMatrix W = lg.delassus();
    const Eigen::MatrixXd Ainv = Eigen::MatrixXd(Eigen::MatrixXd(to_eigen(lg.system_matrix())).inverse());
    const auto& tris = lg.contact_surfaces().triangles;
    // H from the report: frame vector i on +1 x_vertex - sum_k b_k x_tri[k].
    const std::size_t nc = report.contacts;
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(3 * static_cast<Index>(nc), 3 * n);
    int four = 0;
    for (std::size_t j = 0; j < nc; ++j) {
      Vec3 f[3];
      for (int k = 0; k < 3; ++k) {
        f[0][k] = report.normals[3 * j + k];
        f[1][k] = report.tangents[3 * j + k];
      }
      f[2] = cross(f[0], f[1]);
      std::vector<std::pair<Index, double>> entries{{report.contact_vertex[j], 1.0}};
      if (report.contact_triangle[j] >= 0) {
        ++four;
        for (int k = 0; k < 3; ++k)
          entries.emplace_back(tris[report.contact_triangle[j]][k], -report.contact_barycentric[3 * j + k]);
      }
      for (int i = 0; i < 3; ++i)
        for (const auto& [v, w] : entries)
          for (int k = 0; k < 3; ++k) H(3 * static_cast<Index>(j) + i, 3 * v + k) += w * f[i][k];
    }
    EXPECT_EQ(four, static_cast<int>(nc));
    // A^-1 of the per-coordinate system: (A_s^-1) (x) I_3.
    Eigen::MatrixXd A3 = Eigen::MatrixXd::Zero(3 * n, 3 * n);
    for (Index a = 0; a < n; ++a)
      for (Index b = 0; b < n; ++b)
        for (int k = 0; k < 3; ++k) A3(3 * a + k, 3 * b + k) = Ainv(a, b);
    const Eigen::MatrixXd dense = H * A3 * H.transpose();
    const Eigen::MatrixXd stored = Eigen::MatrixXd(to_eigen(W));
    ASSERT_EQ(stored.rows(), dense.rows());
    const double error = (stored - dense).cwiseAbs().maxCoeff() / dense.cwiseAbs().maxCoeff();
    worst = std::max(worst, error);
    std::printf("W of %zu four-vertex contacts (%s): |W - H A^-1 H^T| / |W| = %.1e\n", nc,
                form == DelassusForm::kExplicit ? "explicit" : "operator", error);
  }
  EXPECT_LT(worst, 1e-9);
  double dx = 0.0;
  for (std::size_t i = 0; i < x[0].size(); ++i) dx = std::max(dx, std::abs(x[0][i] - x[1][i]));
  EXPECT_LT(dx, 1e-10) << "explicit and operator steps agree to rounding";
}

// Bitwise agreement of the host backends, the checkpoint, and buffer reuse under steady contact.
TEST(LocalGlobalBodyContact, BackendsCheckpointAndSteadyBuffers) {
  LocalGlobalDescription d = base(1e5);
  add_box(d, Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, 0.04}}, 3, 3, 2);
  const Index top = add_box(d, Vec3{{0.02, 0.02, 0.0405}}, Vec3{{0.08, 0.08, 0.1005}}, 2, 2, 2);
  pin_below(d, 0, top, 0.0);
  test::expect_host_backends_bitwise_equal(
      [&](Backend& be) {
        LocalGlobalIntegrator lg(be, d);
        for (int s = 0; s < 20; ++s) EXPECT_TRUE(lg.step().ok());
        return lg.positions();
      },
      "block on block");
  auto be = make_backend("serial");
  LocalGlobalIntegrator a(*be, d), b(*be, d);
  for (int s = 0; s < 10; ++s) ASSERT_TRUE(a.step().ok());
  std::stringstream saved;
  a.save(saved);
  b.restore(saved);
  for (int s = 0; s < 5; ++s) {
    ASSERT_TRUE(a.step().ok());
    ASSERT_TRUE(b.step().ok());
  }
  const std::vector<double> xa = a.positions(), xb = b.positions();
  EXPECT_EQ(std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(double)), 0) << "resumed bit for bit";
}

TEST(LocalGlobalBodyContact, BadInputIsNamed) {
  LocalGlobalDescription d = base(1e5);
  add_box(d, Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, 0.04}}, 1, 1, 1);
  add_box(d, Vec3{{0, 0, 0.05}}, Vec3{{0.1, 0.1, 0.09}}, 1, 1, 1);
  auto be = make_backend("serial");
  LocalGlobalOptions cholmod;
  cholmod.global_step = GlobalStepKind::kCholmod;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*be, d, cholmod), "body_contact", "2 bodies", "kSparseInverse");
  LocalGlobalDescription off = d;
  off.body_contact = false;
  EXPECT_NO_THROW(LocalGlobalIntegrator(*be, off, cholmod));
  LocalGlobalDescription bad = d;
  bad.body_friction = -0.1;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*be, bad), "body_friction");
  // One body, or every vertex of one body excluded: no contact between bodies.
  LocalGlobalDescription one = base(1e5);
  add_box(one, Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, 0.04}}, 1, 1, 1);
  EXPECT_TRUE(LocalGlobalIntegrator(*be, one).contact_surfaces().triangles.empty());
  LocalGlobalDescription none = d;
  for (Index v = 0; v < 8; ++v) none.contact_vertices.push_back(v);
  EXPECT_NO_THROW(LocalGlobalIntegrator(*be, none, cholmod)) << "only one body takes part";
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_body_contact_test
