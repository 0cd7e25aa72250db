// LocalGlobalContactSolver's collision, once per step on the host: the bodies' surfaces for contact
// between bodies (body_surfaces()), each contact vertex against the obstacles (two-sided sheets
// keeping their side), the vertex-triangle and edge-edge contacts between bodies, the obstacles'
// sharp features, and the cloth's self-contacts (cloth_self_contact.cpp), gathered per vertex in
// the contacts' key order with their rows' constant terms.
#include <algorithm>
#include <utility>

#include "contact_solver.hpp"
#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/point_shape.hpp"
#include "sinew/collision/vec3_ops.hpp"

namespace sinew::integrators::detail {

BodySurfaces body_surfaces(const LocalGlobalDescription& d, Index n) {
  BodySurfaces b;
  if (!d.body_contact || d.tets.empty()) return b;
  TetSurfaces all = tet_surfaces(d.tets, n);
  // With self_contact one body touches itself: its surface's parts that fold onto each other.
  const bool self = d.self_contact;
  if (all.bodies < 2 && !self) return b;
  std::vector<char> candidate(static_cast<std::size_t>(n), d.contact_vertices.empty() ? 1 : 0);
  for (Index v : d.contact_vertices) candidate[v] = 1;
  std::vector<char> boundary(static_cast<std::size_t>(n), 0);
  b.surfaces.vertex_body = all.vertex_body;
  b.surfaces.bodies = all.bodies;
  for (std::size_t t = 0; t < all.triangles.size(); ++t) {
    const auto& tri = all.triangles[t];
    for (Index v : tri) boundary[v] = 1;
    if (candidate[tri[0]] && candidate[tri[1]] && candidate[tri[2]]) {
      b.surfaces.triangles.push_back(tri);
      b.surfaces.triangle_body.push_back(all.triangle_body[t]);
    }
  }
  for (Index v = 0; v < n; ++v)
    if (candidate[v] && boundary[v]) b.queries.push_back(v);
  // Active when a query vertex and a triangle lie on different bodies, or with self-contact on one.
  std::vector<char> has_query(static_cast<std::size_t>(all.bodies), 0);
  for (Index v : b.queries) has_query[all.vertex_body[v]] = 1;
  int query_bodies = 0;
  for (char c : has_query) query_bodies += c;
  for (int body : b.surfaces.triangle_body)
    if (query_bodies > 1 || (query_bodies == 1 && !has_query[body]) || (self && has_query[body])) b.active = true;
  if (!b.active) return BodySurfaces{};
  if (self) b.self.assign(static_cast<std::size_t>(all.bodies), 1);
  return b;
}

double LocalGlobalContactSolver::sheet_side(Index v, int obstacle, const SignedDistance& d) const {
  // contacts_prev_ is ordered by vertex, then key (an obstacle's key is its index), then tri[0].
  const auto first = std::lower_bound(
      contacts_prev_.begin(), contacts_prev_.end(), std::make_pair(v, obstacle),
      [](const Contact& c, const std::pair<Index, int>& key) { return std::make_pair(c.vertex, c.obstacle) < key; });
  if (first != contacts_prev_.end() && first->vertex == v && first->obstacle == obstacle)
    return dot(first->frame[0], d.normal) >= 0.0 ? 1.0 : -1.0;
  return d.distance >= 0.0 ? 1.0 : -1.0;
}

// Collision once per step on the host, at q_t: the constraints are linearized there, because
// v = (q - q_t)/h and the gap's first-order change n.(x - x_t) are measured from q_t. A pair
// is kept when it is within the margin at q_t OR at the prediction q~ (inertia and gravity),
// so that vertices arriving within the step are constrained from its start. Fills contacts_ in
// key order and e_host_ with their rows' constant terms d/h - H v_obs.
void LocalGlobalContactSolver::detect_contacts() {
  contacts_.clear();
  witness_.clear();
  std::vector<double>& e_host = e_host_;
  e_host.clear();
  for (std::size_t v = 0; v < xs_.size(); ++v)  // the positions as points for the detectors
    for (int i = 0; i < 3; ++i) {
      xs_[v][i] = x_host_[3 * v + i];
      ys_[v][i] = y_host_[3 * v + i];
    }
  detect_body_contacts();
  detect_cloth_contacts();
  std::size_t next_cloth_vt = 0, next_cloth_ee = 0;  // cloth_vt_ and cloth_ee_ are sorted by vertex too
  if (features_) features_->detect(obstacles_, x_host_, y_host_, h_, margin_, thickness_, first_feature_key_);
  const std::vector<FeatureContact> no_features;
  const std::vector<FeatureContact>& features = features_ ? features_->found() : no_features;
  std::size_t next_feature = 0;  // features is sorted by (vertex, key, tri[0]) too
  const int n_obstacles = static_cast<int>(obstacles_.size());
  const int n_triangle_keys = n_obstacles + static_cast<int>(bodies_.surfaces.triangles.size());
  std::size_t next_found = 0;  // found_ is sorted by (vertex, triangle) and its vertices are candidates
  std::size_t next_edge = 0;   // found_edges_ likewise by (a0, edge b, a1)
  for (Index v : order_) {
    const std::size_t o3 = 3 * static_cast<std::size_t>(v);
    const Vec3 x{{x_host_[o3], x_host_[o3 + 1], x_host_[o3 + 2]}};
    const Vec3 y{{y_host_[o3], y_host_[o3 + 1], y_host_[o3 + 2]}};
    for (std::size_t k = 0; k < (touches_obstacles_[v] ? obstacles_.size() : 0); ++k) {
      const Obstacle& o = obstacles_[k];
      SignedDistance at_start = obstacle_distance(x, o);
      double predicted = obstacle_distance(y, o).distance;
      if (is_sheet(o)) {
        // A sheet: its distance is signed by the faces' side. The vertex stays on the side of its
        // contact with the sheet in the last step, else on the side it is on: a vertex a little
        // behind the sheet after an inexact solve is pushed back, not through.
        const double side = sheet_side(v, static_cast<int>(k), at_start);
        at_start.distance *= side;
        at_start.normal = v3::scale(side, at_start.normal);
        predicted *= side;
      }
      if (std::min(at_start.distance, predicted) - thickness_ >= margin_) continue;
      const ContactFrame f = contact_frame(at_start.normal);
      Contact c{v, static_cast<int>(k), {f.normal, f.tangent1, f.tangent2}};
      contacts_.push_back(c);
      witness_.insert(witness_.end(), {x, at_start.closest});
      const Vec3 v_obs = point_velocity(o.pose, o.motion, at_start.closest);
      const double d = at_start.distance - thickness_;
      for (int i = 0; i < 3; ++i) e_host.push_back((i == 0 ? d / h_ : 0.0) - dot(c.frame[i], v_obs));
    }
    // Then its contacts with other bodies (keys obstacles + triangle: after the obstacles'). Both
    // sides move, so u's constant part is the gap rate alone: the relative velocity is in H.
    for (; next_found < found_.size() && found_[next_found].vertex == v; ++next_found) {
      const VertexTriangleContact& b = found_[next_found];
      const ContactFrame f = contact_frame(b.normal);
      Contact c{v, n_obstacles + static_cast<int>(b.triangle), {f.normal, f.tangent1, f.tangent2}};
      for (int k = 0; k < 3; ++k) {
        c.tri[k] = bodies_.surfaces.triangles[b.triangle][k];
        c.bary[k] = b.bary[k];
      }
      contacts_.push_back(c);
      witness_.insert(witness_.end(), {x, b.closest});
      const double d = b.distance - thickness_;
      e_host.insert(e_host.end(), {d / h_, 0.0, 0.0});
    }
    // Then its edge-edge contacts as edge a's first vertex: rows over a0, a1, b0, b1 with weights
    // 1 - s, s, -(1 - t), -t.
    const auto& edges = edge_detector_.edges();
    for (; next_edge < found_edges_.size() && edges[found_edges_[next_edge].edge_a][0] == v; ++next_edge) {
      const EdgeEdgeContact& g = found_edges_[next_edge];
      append_edge_edge(v, n_triangle_keys + static_cast<int>(g.edge_b), edges[g.edge_a], edges[g.edge_b], g.s, g.t,
                       g.normal, g.distance);
    }
    // Then the obstacles' sharp features on the surface points of v's triangles and edges (keys
    // past the edges'): rows over the surface point's vertices, the obstacle's velocity in e.
    for (; next_feature < features.size() && features[next_feature].rows.vertex == v; ++next_feature) {
      const FeatureContact& f = features[next_feature];
      contacts_.push_back(f.rows);
      witness_.insert(witness_.end(), {f.body_point, f.obstacle_point});
      const double d = f.gap - thickness_;
      for (int i = 0; i < 3; ++i) e_host.push_back((i == 0 ? d / h_ : 0.0) - dot(f.rows.frame[i], f.obstacle_velocity));
    }
    // Then the cloth's self-contacts (keys past the features').
    append_cloth_contacts(v, next_cloth_vt, next_cloth_ee);
  }
}

// Contact between bodies: each boundary contact vertex against the nearest boundary triangle of
// every other body (vertex_triangle_contacts.hpp), and sharp edges crossing (edge-edge), kept on
// the same margin rule as the obstacles' pairs; the broad phase covers each primitive's sweep
// from q_t to q~. With self_contact each body also meets its own surface away from each vertex's
// and edge's neighbourhood, where the two parts face each other (the detectors' self-contact mode).
void LocalGlobalContactSolver::detect_body_contacts() {
  found_.clear();
  if (!bodies_.active) return;
  const std::vector<char>* self = bodies_.self.empty() ? nullptr : &bodies_.self;
  detector_.detect(bodies_.surfaces, bodies_.queries, xs_, &ys_, margin_ + thickness_, found_, self);
  // Edge-edge contacts in the contacts' key order (a0, edge b, a1).
  edge_detector_.detect(bodies_.surfaces, xs_, &ys_, margin_ + thickness_, kSharpEdgeAngle, found_edges_, self);
  const auto& edges = edge_detector_.edges();
  std::sort(found_edges_.begin(), found_edges_.end(), [&](const EdgeEdgeContact& a, const EdgeEdgeContact& b) {
    const auto& ea = edges[a.edge_a];
    const auto& eb = edges[b.edge_a];
    return ea[0] != eb[0] ? ea[0] < eb[0] : a.edge_b != b.edge_b ? a.edge_b < b.edge_b : ea[1] < eb[1];
  });
}

void LocalGlobalContactSolver::append_edge_edge(Index v, int key, const std::array<Index, 2>& a,
                                                const std::array<Index, 2>& b, double s, double t, const Vec3& normal,
                                                double distance) {
  const ContactFrame f = contact_frame(normal);
  Contact c{v, key, {f.normal, f.tangent1, f.tangent2}};
  c.self = 1.0 - s;
  c.tri[0] = a[1];
  c.tri[1] = b[0];
  c.tri[2] = b[1];
  c.bary[0] = -s;
  c.bary[1] = 1.0 - t;
  c.bary[2] = t;
  contacts_.push_back(c);
  const auto at = [&](Index u) { return xs_[static_cast<std::size_t>(u)]; };
  witness_.insert(witness_.end(), {v3::madd(v3::scale(1.0 - s, at(a[0])), s, at(a[1])),
                                   v3::madd(v3::scale(1.0 - t, at(b[0])), t, at(b[1]))});
  const double d = distance - thickness_;
  e_host_.insert(e_host_.end(), {d / h_, 0.0, 0.0});
}

}  // namespace sinew::integrators::detail
