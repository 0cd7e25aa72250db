// Internal: vertex-triangle and edge-edge proximity between two meshes (or within one).
#pragma once

#include "sinew/collision/narrow_phase.hpp"

namespace sinew::detail {

// Appends vertex-triangle (A vertices vs B triangles, then B vertices vs A triangles unless
// self) and edge-edge contacts with distance <= margin, in sorted candidate order.
// Buffers and broad phases come from `ws`, which is reused across calls (see
// NarrowPhaseWorkspace); the output does not depend on what the workspace held before.
void mesh_proximity(const MeshInstance& a, const MeshInstance& b, double margin, const NarrowPhaseOptions& params,
                    NarrowPhaseWorkspace& ws, ContactSet& out);

}  // namespace sinew::detail
