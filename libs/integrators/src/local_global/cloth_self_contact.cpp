// The self-contact of LocalGlobalIntegrator's triangles (cloth; LocalGlobalDescription::self_contact):
// vertex-triangle and edge-edge contacts of the sheet with itself (cloth_self_contacts.hpp), turned
// into the same four-vertex rows of H as the contacts between bodies (seed Sec. 5.1, eq. (11): the
// relative displacement of the two witness points along n, t1, t2), solved in the same constrained
// global step (Algorithm 4) with the Coulomb coefficient self_friction. The gap kept between the
// layers is contact_thickness: u_n drives distance - thickness to >= 0.
//
// The side of each pair is the detector's business, given the last step's contacts: their keys and
// normals are in contacts_prev_, which save() writes, so a resumed run keeps the same sides.
#include <algorithm>
#include <array>
#include <iterator>

#include "contact_solver.hpp"
#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/vec3_ops.hpp"

namespace sinew::integrators::detail {

// Every triangle and its vertices: contact_vertices choose the vertices that touch obstacles (and
// other bodies), not the parts of the cloth that touch each other.
void LocalGlobalContactSolver::build_cloth(const LocalGlobalDescription& d) {
  std::vector<std::array<Index, 3>> triangles;
  for (std::size_t t = 0; t + 2 < d.triangles.size(); t += 3)
    triangles.push_back({d.triangles[t], d.triangles[t + 1], d.triangles[t + 2]});
  cloth_triangles_ = static_cast<int>(triangles.size());
  cloth_ = std::make_unique<ClothSelfContactDetector>(std::move(triangles), n_);
  // The contacts are gathered per vertex: over the contact vertices and the cloth's, ascending.
  std::vector<Index> both;
  std::set_union(order_.begin(), order_.end(), cloth_->vertices().begin(), cloth_->vertices().end(),
                 std::back_inserter(both));
  order_ = std::move(both);
}

void LocalGlobalContactSolver::detect_cloth_contacts() {
  cloth_vt_.clear();
  cloth_ee_.clear();
  if (!cloth_) return;
  // The last step's self-contacts, by the detector's keys, with their normals (their sides).
  cloth_vt_prev_.clear();
  cloth_ee_prev_.clear();
  const std::vector<std::array<Index, 2>>& edges = cloth_->edges();
  for (const Contact& c : contacts_prev_) {
    if (!is_cloth_contact(c)) continue;
    if (is_cloth_edge_contact(c)) {
      const std::array<Index, 2> a{c.vertex, c.tri[0]};
      const auto it = std::lower_bound(edges.begin(), edges.end(), a);
      if (it == edges.end() || *it != a) continue;  // not an edge of the cloth: a foreign key, no side kept
      ClothEdgeEdgeContact e;
      e.edge_a = static_cast<Index>(it - edges.begin());
      e.edge_b = c.obstacle - first_cloth_key_ - cloth_triangles_;
      e.normal = c.frame[0];
      cloth_ee_prev_.push_back(e);
    } else {
      ClothVertexTriangleContact t;
      t.vertex = c.vertex;
      t.triangle = c.obstacle - first_cloth_key_;
      t.normal = c.frame[0];
      cloth_vt_prev_.push_back(t);
    }
  }
  // Within the thickness plus the margin at q_t or at q~, as the contacts between bodies.
  cloth_->detect(xs_, &ys_, margin_ + thickness_, &cloth_vt_prev_, &cloth_ee_prev_, cloth_vt_, cloth_ee_);
  // Edge-edge contacts in the contacts' key order (a0, edge b, a1).
  std::sort(cloth_ee_.begin(), cloth_ee_.end(), [&](const ClothEdgeEdgeContact& a, const ClothEdgeEdgeContact& b) {
    const auto& ea = edges[a.edge_a];
    const auto& eb = edges[b.edge_a];
    return ea[0] != eb[0] ? ea[0] < eb[0] : a.edge_b != b.edge_b ? a.edge_b < b.edge_b : ea[1] < eb[1];
  });
}

void LocalGlobalContactSolver::append_cloth_contacts(Index v, std::size_t& next_vt, std::size_t& next_ee) {
  if (!cloth_) return;
  const std::vector<std::array<Index, 3>>& triangles = cloth_->triangles();
  // Vertex-triangle: rows over v and the triangle's three vertices, weights 1 and -b_k. Both sides
  // move, so u's constant part is the gap rate alone.
  for (; next_vt < cloth_vt_.size() && cloth_vt_[next_vt].vertex == v; ++next_vt) {
    const ClothVertexTriangleContact& b = cloth_vt_[next_vt];
    const ContactFrame f = contact_frame(b.normal);
    Contact c{v, first_cloth_key_ + static_cast<int>(b.triangle), {f.normal, f.tangent1, f.tangent2}};
    for (int k = 0; k < 3; ++k) {
      c.tri[k] = triangles[b.triangle][k];
      c.bary[k] = b.bary[k];
    }
    contacts_.push_back(c);
    witness_.insert(witness_.end(), {xs_[static_cast<std::size_t>(v)], b.closest});
    const double d = b.distance - thickness_;
    e_host_.insert(e_host_.end(), {d / h_, 0.0, 0.0});
  }
  // Edge-edge, as edge a's first vertex: rows over a0, a1, b0, b1 with weights 1 - s, s, -(1 - t), -t.
  const std::vector<std::array<Index, 2>>& edges = cloth_->edges();
  for (; next_ee < cloth_ee_.size() && edges[cloth_ee_[next_ee].edge_a][0] == v; ++next_ee) {
    const ClothEdgeEdgeContact& g = cloth_ee_[next_ee];
    append_edge_edge(v, first_cloth_key_ + cloth_triangles_ + static_cast<int>(g.edge_b), edges[g.edge_a],
                     edges[g.edge_b], g.s, g.t, g.normal, g.distance);
  }
}

}  // namespace sinew::integrators::detail
