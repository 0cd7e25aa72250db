#include "sinew/collision/narrow_phase.hpp"

#include <cmath>

#include "mesh_proximity.hpp"
#include "sinew/collision/box_pairs.hpp"
#include "sinew/collision/cylinder_pairs.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

constexpr int kTypes = static_cast<int>(ShapeType::kCount);

const char* type_name(ShapeType t) {
  switch (t) {
    case ShapeType::kHalfSpace:
      return "half-space";
    case ShapeType::kSphere:
      return "sphere";
    case ShapeType::kBox:
      return "box";
    case ShapeType::kCapsule:
      return "capsule";
    case ShapeType::kCylinder:
      return "cylinder";
    default:
      return "unknown";
  }
}

// B-A entry from an A-B function: swap the arguments, then swap the witness points and flip the
// normal so that it still points from B to A.
template <ShapePairFunction F>
int swapped(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin, ShapePairContact* out) {
  const int n = F(b, pb, a, pa, margin, out);
  for (int k = 0; k < n; ++k)
    out[k] = ShapePairContact{out[k].point_b, out[k].point_a, v3::neg(out[k].normal), out[k].gap};
  return n;
}

// The MuJoCo-style type-pair table: kTable[type of A][type of B].
struct PairTable {
  ShapePairFunction f[kTypes][kTypes] = {};
  PairTable() {
    const int H = static_cast<int>(ShapeType::kHalfSpace), S = static_cast<int>(ShapeType::kSphere),
              B = static_cast<int>(ShapeType::kBox), C = static_cast<int>(ShapeType::kCapsule),
              Y = static_cast<int>(ShapeType::kCylinder);
    for (int t : {H, S, B, C, Y}) {
      f[S][t] = collide_sphere_shape;
    }
    f[H][S] = swapped<collide_sphere_shape>;
    f[B][S] = swapped<collide_sphere_shape>;
    f[C][S] = swapped<collide_sphere_shape>;
    f[Y][S] = swapped<collide_sphere_shape>;
    f[C][H] = collide_capsule_halfspace;
    f[H][C] = swapped<collide_capsule_halfspace>;
    f[C][C] = collide_capsule_capsule;
    f[B][H] = collide_box_halfspace;
    f[H][B] = swapped<collide_box_halfspace>;
    f[C][B] = collide_capsule_box;
    f[B][C] = swapped<collide_capsule_box>;
    f[B][B] = collide_box_box;
    f[Y][H] = collide_cylinder_halfspace;
    f[H][Y] = swapped<collide_cylinder_halfspace>;
    f[C][Y] = collide_capsule_cylinder;
    f[Y][C] = swapped<collide_capsule_cylinder>;
    f[Y][B] = collide_cylinder_box;
    f[B][Y] = swapped<collide_cylinder_box>;
    f[Y][Y] = collide_cylinder_cylinder;
  }
};

const PairTable& pair_table() {
  static const PairTable table;
  return table;
}

// The checks build their messages only on failure, so that a valid call allocates nothing.
void check_margin(double margin, const char* where) {
  if (!(std::isfinite(margin) && margin >= 0.0))
    throw Error(std::string(where) + ": margin must be finite and >= 0, got " + number_text(margin));
}

void check_mesh(const MeshInstance& m, const char* where) {
  auto w = [&] { return std::string(where) + ": mesh " + std::to_string(m.id); };
  if (m.positions == nullptr || m.triangles == nullptr) throw Error(w() + " needs non-null positions and triangles");
  if (m.first_vertex < 0) throw Error(w() + " has first_vertex " + std::to_string(m.first_vertex) + ", expected >= 0");
  const Index n = static_cast<Index>(m.positions->size());
  for (size_t t = 0; t < m.triangles->size(); ++t) {
    for (Index v : (*m.triangles)[t]) {
      if (!(v >= 0 && v < n))
        throw Error(w() + ": triangle " + std::to_string(t) + " has vertex index " + std::to_string(v) +
                    ", expected one in [0, " + std::to_string(n) + ")");
    }
  }
  for (size_t v = 0; v < m.positions->size(); ++v) {
    const Vec3& x = (*m.positions)[v];
    if (!(std::isfinite(x[0]) && std::isfinite(x[1]) && std::isfinite(x[2])))
      throw Error(w() + ": vertex " + std::to_string(v) + " position is not finite");
  }
}

void check_shapes(const std::vector<ShapeInstance>& shapes, const char* where) {
  for (size_t i = 0; i < shapes.size(); ++i)
    check_shape(shapes[i], std::string(where) + ": shape " + std::to_string(i));
}

Contact pair_contact(ContactKind kind, Index a, Index b, const Vec3& pa, const Vec3& pb, double gap, const Vec3& n,
                     const Vec3& obstacle_velocity) {
  Contact c;
  c.kind = kind;
  c.object_a = a;
  c.object_b = b;
  for (int k = 0; k < 4; ++k) {
    c.vertices[k] = -1;
    c.weights[k] = 0.0;
  }
  c.point_a = pa;
  c.point_b = pb;
  c.local_a = pa;
  c.local_b = pb;
  c.gap = gap;
  c.frame = contact_frame(n);
  c.obstacle_velocity = obstacle_velocity;
  return c;
}

class TableNarrowPhase final : public NarrowPhase {
 public:
  explicit TableNarrowPhase(const NarrowPhaseOptions& p) : params_(p) {}
  std::string name() const override { return "table"; }

 protected:
  void do_point_shape(const MeshInstance& mesh, const std::vector<ShapeInstance>& shapes, double margin,
                      ContactSet& out) const override {
    const std::vector<Vec3>& x = *mesh.positions;
    for (Index v = 0; v < static_cast<Index>(x.size()); ++v) {
      for (const ShapeInstance& s : shapes) {
        const SignedDistance sd = point_shape(x[v], s.shape, s.pose);
        if (!(sd.distance <= margin)) continue;
        Contact c = pair_contact(ContactKind::kPointShape, mesh.id, s.id, x[v], sd.closest, sd.distance, sd.normal,
                                 point_velocity(s.pose, s.motion, sd.closest));
        c.vertices[0] = mesh.first_vertex + v;
        c.weights[0] = 1.0;
        c.local_b = to_local(s.pose, sd.closest);
        out.push_back(c);
      }
    }
  }

  void do_point_grid(const MeshInstance& mesh, const std::vector<GridInstance>& grids, double margin,
                     ContactSet& out) const override {
    const std::vector<Vec3>& x = *mesh.positions;
    for (Index v = 0; v < static_cast<Index>(x.size()); ++v) {
      for (const GridInstance& g : grids) {
        const SignedDistance local = sdf_grid_query(g.grid->view(), to_local(g.pose, x[v]));
        if (!(local.distance <= margin)) continue;
        const Vec3 closest = to_world(g.pose, local.closest);
        Contact c = pair_contact(ContactKind::kPointShape, mesh.id, g.id, x[v], closest, local.distance,
                                 to_world_direction(g.pose, local.normal), point_velocity(g.pose, g.motion, closest));
        c.vertices[0] = mesh.first_vertex + v;
        c.weights[0] = 1.0;
        c.local_b = local.closest;
        out.push_back(c);
      }
    }
  }

  void do_shape_shape(const std::vector<ShapeInstance>& shapes, double margin, ContactSet& out) const override {
    ShapePairContact buf[kMaxPairContacts];
    for (size_t i = 0; i < shapes.size(); ++i) {
      for (size_t j = i + 1; j < shapes.size(); ++j) {
        const ShapeInstance &a = shapes[i], &b = shapes[j];
        const int n = shape_pair_function(a.shape.type, b.shape.type)(a.shape, a.pose, b.shape, b.pose, margin, buf);
        for (int k = 0; k < n; ++k) {
          Contact c = pair_contact(ContactKind::kShapeShape, a.id, b.id, buf[k].point_a, buf[k].point_b, buf[k].gap,
                                   buf[k].normal, point_velocity(b.pose, b.motion, buf[k].point_b));
          c.local_a = to_local(a.pose, buf[k].point_a);
          c.local_b = to_local(b.pose, buf[k].point_b);
          out.push_back(c);
        }
      }
    }
  }

  void do_mesh_mesh(const MeshInstance& a, const MeshInstance& b, double margin, NarrowPhaseWorkspace& workspace,
                    ContactSet& out) const override {
    if (workspace.owner != this) {
      // Broad phases made by another narrow phase may have other parameters: start afresh.
      workspace.vertex_a_triangle_b.broad.reset();
      workspace.vertex_b_triangle_a.broad.reset();
      workspace.edge_edge.broad.reset();
      workspace.owner = this;
    }
    detail::mesh_proximity(a, b, margin, params_, workspace, out);
  }

 private:
  NarrowPhaseOptions params_;
};

}  // namespace

ShapePairFunction shape_pair_function(ShapeType a, ShapeType b) {
  const int ia = static_cast<int>(a), ib = static_cast<int>(b);
  if (ia < 0 || ia >= kTypes || ib < 0 || ib >= kTypes) return nullptr;
  return pair_table().f[ia][ib];
}

void check_shape(const ShapeInstance& s, const std::string& what) {
  const int t = static_cast<int>(s.shape.type);
  require(t >= 0 && t < kTypes, [&] { return what + ": unknown shape type " + std::to_string(t); });
  const double* z = s.shape.size;
  const std::string w = what + " (" + type_name(s.shape.type) + ")";
  switch (s.shape.type) {
    case ShapeType::kSphere:
      require(z[0] > 0.0 && std::isfinite(z[0]), [&] { return w + ": radius must be > 0, got " + number_text(z[0]); });
      break;
    case ShapeType::kBox:
      for (int k = 0; k < 3; ++k) {
        require(z[k] > 0.0 && std::isfinite(z[k]),
                [&] { return w + ": half extents must be > 0, got " + number_text(z[k]); });
      }
      break;
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      require(z[0] > 0.0 && std::isfinite(z[0]), [&] { return w + ": radius must be > 0, got " + number_text(z[0]); });
      require(z[1] >= 0.0 && std::isfinite(z[1]),
              [&] { return w + ": half length must be >= 0, got " + number_text(z[1]); });
      break;
    default:
      break;
  }
  const Mat3 rtr = transpose(s.pose.rotation) * s.pose.rotation;
  double err = 0.0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) err = std::fmax(err, std::fabs(rtr(r, c) - (r == c ? 1.0 : 0.0)));
  require(err < 1e-9 && determinant(s.pose.rotation) > 0.0, [&] {
    return w + ": pose rotation must be orthonormal with det +1 (|R^T R - I| = " + number_text(err) + ")";
  });
  for (int k = 0; k < 3; ++k) {
    if (!(std::isfinite(s.pose.translation[k]) && std::isfinite(s.motion.linear[k]) &&
          std::isfinite(s.motion.angular[k])))
      throw Error(w + ": pose translation and motion must be finite");
  }
}

void NarrowPhase::point_shape_contacts(const MeshInstance& mesh, const std::vector<ShapeInstance>& shapes,
                                       double margin, ContactSet& out) const {
  check_margin(margin, "NarrowPhase::point_shape_contacts");
  check_mesh(mesh, "NarrowPhase::point_shape_contacts");
  check_shapes(shapes, "NarrowPhase::point_shape_contacts");
  do_point_shape(mesh, shapes, margin, out);
}

void NarrowPhase::point_grid_contacts(const MeshInstance& mesh, const std::vector<GridInstance>& grids, double margin,
                                      ContactSet& out) const {
  check_margin(margin, "NarrowPhase::point_grid_contacts");
  check_mesh(mesh, "NarrowPhase::point_grid_contacts");
  for (size_t i = 0; i < grids.size(); ++i) {
    const std::string w = "NarrowPhase::point_grid_contacts: grid " + std::to_string(i);
    require(grids[i].grid != nullptr && !grids[i].grid->values().empty(),
            [&] { return w + " must point to a built SignedDistanceGrid"; });
    // The pose and motion checks of shapes apply unchanged; a sphere stands in for the grid.
    check_shape(ShapeInstance{grids[i].id, Shape{ShapeType::kSphere, {1, 0, 0}}, grids[i].pose, grids[i].motion}, w);
  }
  do_point_grid(mesh, grids, margin, out);
}

void NarrowPhase::shape_shape_contacts(const std::vector<ShapeInstance>& shapes, double margin, ContactSet& out) const {
  check_margin(margin, "NarrowPhase::shape_shape_contacts");
  check_shapes(shapes, "NarrowPhase::shape_shape_contacts");
  for (size_t i = 0; i < shapes.size(); ++i) {
    for (size_t j = i + 1; j < shapes.size(); ++j) {
      if (!(shape_pair_function(shapes[i].shape.type, shapes[j].shape.type) != nullptr))
        throw Error(std::string("NarrowPhase::shape_shape_contacts: no contact function yet for shape ") +
                    std::to_string(i) + " (" + type_name(shapes[i].shape.type) + ") against shape " +
                    std::to_string(j) + " (" + type_name(shapes[j].shape.type) + ")");
    }
  }
  do_shape_shape(shapes, margin, out);
}

void NarrowPhase::mesh_mesh_contacts(const MeshInstance& a, const MeshInstance& b, double margin,
                                     ContactSet& out) const {
  NarrowPhaseWorkspace workspace;
  mesh_mesh_contacts(a, b, margin, workspace, out);
}

void NarrowPhase::mesh_mesh_contacts(const MeshInstance& a, const MeshInstance& b, double margin,
                                     NarrowPhaseWorkspace& workspace, ContactSet& out) const {
  check_margin(margin, "NarrowPhase::mesh_mesh_contacts");
  check_mesh(a, "NarrowPhase::mesh_mesh_contacts");
  check_mesh(b, "NarrowPhase::mesh_mesh_contacts");
  if (!(a.id != b.id || (a.positions == b.positions && a.triangles == b.triangles)))
    throw Error("NarrowPhase::mesh_mesh_contacts: two different meshes share id " + std::to_string(a.id) +
                " (the same id means self-contact of one mesh)");
  do_mesh_mesh(a, b, margin, workspace, out);
}

std::unique_ptr<NarrowPhase> make_narrow_phase(const std::string& name, const NarrowPhaseOptions& params) {
  make_broad_phase(params.broad_phase, params.broad);  // validates the broad-phase name and params now
  if (name == "table") return std::make_unique<TableNarrowPhase>(params);
  throw Error("unknown narrow phase '" + name + "': expected \"table\"");
}

}  // namespace sinew
