// sinew's snapshot writer for a run (png_snapshots.hpp).
#include "sinew/render/png_snapshots.hpp"

#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <unistd.h>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/render/image.hpp"
#include "sinew/render/snapshot.hpp"

namespace sinew::render {
namespace {

// The memory this process can count on (bytes): the smaller of the physical memory and the
// control group's limit (cgroup v2, then v1); 0 when neither is known.
std::size_t machine_memory() {
  std::size_t bytes = 0;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) bytes = static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
  for (const char* limit : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(limit);
    unsigned long long v = 0;
    if (in >> v && v > 0 && (bytes == 0 || v < bytes)) bytes = static_cast<std::size_t>(v);  // "max" reads nothing
  }
  return bytes;
}

std::string gigabytes(std::size_t bytes) { return number_text(static_cast<double>(bytes) / 1e9, 3) + " GB"; }

// What a run's snapshots share: the ground patch and the camera, fixed at the first one.
struct SnapshotState {
  int width = 0, height = 0;
  RenderCamera camera;
  std::optional<GroundPatch> ground;
  bool framed = false;
};

}  // namespace

RenderCamera render_camera(const scene::SnapshotCamera& c) {
  RenderCamera r;
  r.direction = c.direction;
  r.up = c.up;
  r.target = c.target;
  r.perspective = c.perspective;
  r.fov_degrees = c.fov_degrees;
  r.distance = c.distance;
  r.view_height = c.view_height;
  r.auto_frame = c.auto_frame;
  r.margin = c.margin;
  return r;
}

scene::SnapshotWriter png_snapshots(const scene::OutputSettings& outputs, std::size_t memory_bytes) {
  const int w = outputs.png_width, h = outputs.png_height;
  require(w >= 1 && w <= 16384 && h >= 1 && h <= 16384, "png_snapshots: PNG size " + std::to_string(w) + " x " +
                                                            std::to_string(h) + " out of range (1..16384 per side)");
  require(png_supported(), "run: PNG snapshots asked for, but sinew was built without libpng (install libpng-dev)");
  // Rendering, plus the encoded file at worst as large as the raw pixels.
  const std::size_t need = render_memory_bytes(w, h) + 3 * static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  const std::size_t have = memory_bytes > 0 ? memory_bytes : machine_memory();
  require(have == 0 || need <= have / 2, "run: PNG snapshots of " + std::to_string(w) + " x " + std::to_string(h) +
                                             " pixels need about " + gigabytes(need) +
                                             " to render and encode, more than half of the " + gigabytes(have) +
                                             " this run can count on; choose a smaller png_width / png_height");
  auto state = std::make_shared<SnapshotState>();
  state->width = w;
  state->height = h;
  state->camera = render_camera(outputs.camera);
  return [state](const std::vector<scene::TriangleMesh>& bodies, const std::vector<Obstacle>& obstacles,
                 const std::filesystem::path& png) {
    RenderSpec spec;
    spec.width = state->width;
    spec.height = state->height;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      RenderMesh r;
      r.vertices = bodies[b].vertices;
      r.triangles = bodies[b].triangles;
      r.color = body_color(b);
      spec.meshes.push_back(std::move(r));
    }
    if (!state->ground) state->ground = ground_under(spec.meshes);
    for (RenderMesh& r : obstacle_meshes(obstacles, *state->ground)) spec.meshes.push_back(std::move(r));
    if (!state->framed) {
      state->camera = frame_camera(state->camera, spec.meshes, bodies.size());
      state->framed = true;
    }
    spec.camera = state->camera;
    write_png(render_meshes(spec), png.string());
  };
}

}  // namespace sinew::render
