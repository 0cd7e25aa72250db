#include "sinew/render/mesh_render.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sinew/core/constants.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::render {
namespace {

Vec3 sub(const Vec3& a, const Vec3& b) { return Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }
Vec3 add_scaled(const Vec3& a, double s, const Vec3& b) {
  return Vec3{{a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]}};
}
Vec3 scaled(double s, const Vec3& a) { return Vec3{{s * a[0], s * a[1], s * a[2]}}; }

Vec3 unit(const Vec3& a, const char* what) {
  const double n = norm(a);
  require(std::isfinite(n) && n > 0.0, std::string("render_meshes: ") + what + " must be a finite non-zero vector");
  return scaled(1.0 / n, a);
}

// The camera as an orthonormal frame and the map from world points to supersampled pixels.
struct View {
  Vec3 eye, right, up, forward;  // forward: from the eye into the scene
  bool perspective;
  double scale = 1.0, cx = 0.0, cy = 0.0;  // projected plane -> pixels
  double half_w = 0.0, half_h = 0.0;       // image centre, supersampled pixels
  double near = 0.0;                       // perspective: points closer than this are behind the eye

  // Depth along forward and the projected (unscaled) coordinates.
  void project(const Vec3& p, double& px, double& py, double& depth) const {
    const Vec3 d = sub(p, eye);
    depth = dot(d, forward);
    px = dot(d, right);
    py = dot(d, up);
    if (perspective && depth > 0.0) {
      px /= depth;
      py /= depth;
    }
  }
  // Supersampled pixel coordinates of projected (px, py).
  double sx(double px) const { return half_w + (px - cx) * scale; }
  double sy(double py) const { return half_h - (py - cy) * scale; }
};

template <class F>
void for_each_used_vertex(const RenderSpec& spec, F f) {
  for (const RenderMesh& m : spec.meshes)
    for (const auto& t : m.triangles)
      for (Index i : t)
        if (is_finite(m.vertices[i])) f(m.vertices[i]);
}

View make_view(const RenderSpec& spec, int w, int h) {
  const RenderCamera& cam = spec.camera;
  View v;
  v.perspective = cam.perspective;
  const Vec3 back = unit(cam.direction, "camera.direction");  // target -> eye
  v.forward = scaled(-1.0, back);
  Vec3 right = cross(v.forward, cam.up);
  if (!(norm(right) > 1e-9 * std::max(1.0, norm(cam.up)))) {  // looking along up: any perpendicular will do
    right = cross(v.forward, Vec3{{1.0, 0.0, 0.0}});
    if (norm(right) < 1e-6) right = cross(v.forward, Vec3{{0.0, 1.0, 0.0}});
  }
  v.right = unit(right, "camera right vector");
  v.up = cross(v.right, v.forward);

  // Scene bounds of the vertices that triangles use.
  Vec3 lo{{std::numeric_limits<double>::infinity(), 0, 0}}, hi{};
  lo[1] = lo[2] = lo[0];
  hi[0] = hi[1] = hi[2] = -lo[0];
  bool any = false;
  for_each_used_vertex(spec, [&](const Vec3& p) {
    any = true;
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[k]);
      hi[k] = std::max(hi[k], p[k]);
    }
  });
  const Vec3 centre = any ? scaled(0.5, Vec3{{lo[0] + hi[0], lo[1] + hi[1], lo[2] + hi[2]}}) : Vec3{{0, 0, 0}};
  const Vec3 target = cam.target.value_or(centre);
  require(is_finite(target), "render_meshes: camera.target must be finite");
  double radius = 0.0;
  for_each_used_vertex(spec, [&](const Vec3& p) { radius = std::max(radius, norm(sub(p, target))); });
  if (!(radius > 0.0)) radius = 1.0;  // empty scene or a single point: any scale will do

  const double half_fov = 0.5 * cam.fov_degrees * kPi / 180.0;
  require(!cam.perspective || (cam.fov_degrees > 0.0 && cam.fov_degrees < 179.0),
          "render_meshes: camera.fov_degrees must be in (0, 179), got " + number_text(cam.fov_degrees));
  double distance = cam.distance.value_or(1.05 * radius / std::sin(std::min(half_fov, 1.2)));
  if (!cam.perspective) distance = cam.distance.value_or(2.0 * radius);  // any eye outside the scene
  require(std::isfinite(distance) && distance > 0.0, "render_meshes: camera.distance must be finite and positive");
  v.eye = add_scaled(target, distance, back);
  v.near = 1e-6 * distance;
  v.half_w = 0.5 * w;
  v.half_h = 0.5 * h;

  if (cam.auto_frame && any) {
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for_each_used_vertex(spec, [&](const Vec3& p) {
      double px, py, depth;
      v.project(p, px, py, depth);
      if (cam.perspective && depth <= v.near) return;
      x0 = std::min(x0, px);
      x1 = std::max(x1, px);
      y0 = std::min(y0, py);
      y1 = std::max(y1, py);
    });
    if (x0 <= x1) {
      require(cam.margin >= 0.0 && cam.margin < 0.5, "render_meshes: camera.margin must be in [0, 0.5)");
      v.cx = 0.5 * (x0 + x1);
      v.cy = 0.5 * (y0 + y1);
      const double room_w = (1.0 - 2.0 * cam.margin) * v.half_w, room_h = (1.0 - 2.0 * cam.margin) * v.half_h;
      const double hx = 0.5 * (x1 - x0), hy = 0.5 * (y1 - y0);
      const double sx = hx > 0.0 ? room_w / hx : std::numeric_limits<double>::infinity();
      const double sy = hy > 0.0 ? room_h / hy : std::numeric_limits<double>::infinity();
      v.scale = std::min(sx, sy);
      if (!std::isfinite(v.scale)) v.scale = v.half_h / (cam.perspective ? std::tan(half_fov) : radius);
      return v;
    }
  }
  if (cam.perspective) {
    v.scale = v.half_h / std::tan(half_fov);
  } else {
    const double view_height = cam.view_height.value_or(2.2 * radius);
    require(std::isfinite(view_height) && view_height > 0.0, "render_meshes: camera.view_height must be positive");
    v.scale = v.half_h / (0.5 * view_height);
  }
  return v;
}

// Calls fragment(x, y, w) for every pixel (x, y) of [0, W) x [row_begin, row_end) whose centre
// lies in the triangle with screen corners (sx, sy), w its barycentric coordinates there; returns
// twice the signed area (0, nothing drawn, for a triangle seen edge-on). A pixel's coverage and
// weights depend only on its own coordinates, so drawing an image in bands of rows gives the same
// bits as drawing it whole.
template <class Fragment>
double rasterize(const double sx[3], const double sy[3], int W, int row_begin, int row_end, Fragment fragment) {
  const double area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
  if (!(std::abs(area) > 1e-9) || row_begin >= row_end) return 0.0;
  // Clamped as doubles before the conversion: a corner far off screen may not fit in an int.
  auto clamp_to = [](double v, int lo, int hi) {
    return static_cast<int>(std::clamp(v, static_cast<double>(lo), static_cast<double>(hi)));
  };
  const int x0 = clamp_to(std::floor(std::min({sx[0], sx[1], sx[2]})), 0, W - 1);
  const int x1 = clamp_to(std::ceil(std::max({sx[0], sx[1], sx[2]})), 0, W - 1);
  const int y0 = clamp_to(std::floor(std::min({sy[0], sy[1], sy[2]})), row_begin, row_end - 1);
  const int y1 = clamp_to(std::ceil(std::max({sy[0], sy[1], sy[2]})), row_begin, row_end - 1);
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const double px = x + 0.5, py = y + 0.5;
      double w[3];
      for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        w[i] = ((sx[k] - sx[j]) * (py - sy[j]) - (sy[k] - sy[j]) * (px - sx[j])) / area;
      }
      if (w[0] >= 0.0 && w[1] >= 0.0 && w[2] >= 0.0) fragment(x, y, w);
    }
  return area;
}

// Heights of the scene along the light direction seen from the light (a parallel projection): a
// point is in shadow where something lies higher towards the light above it.
class ShadowMap {
 public:
  ShadowMap(const RenderSpec& spec, const Vec3& toward_light, int n) : toward_(toward_light), n_(n) {
    right_ = cross(toward_, std::abs(toward_[2]) < 0.9 ? Vec3{{0, 0, 1}} : Vec3{{1, 0, 0}});
    right_ = scaled(1.0 / norm(right_), right_);
    up_ = cross(toward_, right_);
    double u0 = std::numeric_limits<double>::infinity(), u1 = -u0, v0 = u0, v1 = -u0;
    for_each_used_vertex(spec, [&](const Vec3& p) {
      u0 = std::min(u0, dot(p, right_)), u1 = std::max(u1, dot(p, right_));
      v0 = std::min(v0, dot(p, up_)), v1 = std::max(v1, dot(p, up_));
    });
    const double extent = std::max({u1 - u0, v1 - v0, 1e-300});
    texel_ = extent / (n - 2);  // one texel of border on each side
    u0_ = u0 - texel_;
    v0_ = v0 - texel_;
    height_.assign(static_cast<std::size_t>(n) * n, -std::numeric_limits<float>::infinity());
    for (const RenderMesh& m : spec.meshes)
      for (const auto& t : m.triangles) {
        double sx[3], sy[3], h[3];
        bool ok = true;
        for (int i = 0; i < 3; ++i) {
          const Vec3& p = m.vertices[t[i]];
          ok = ok && is_finite(p);
          sx[i] = (dot(p, right_) - u0_) / texel_;
          sy[i] = (dot(p, up_) - v0_) / texel_;
          h[i] = dot(p, toward_);
        }
        if (!ok) continue;
        rasterize(sx, sy, n, 0, n, [&](int x, int y, const double* w) {
          float& top = height_[static_cast<std::size_t>(y) * n_ + x];
          top = std::max(top, static_cast<float>(w[0] * h[0] + w[1] * h[1] + w[2] * h[2]));
        });
      }
  }

  // Fraction of the 3 x 3 texels around @p p with nothing above p (soft, percentage-closer edges);
  // @p slope is tan of the angle between the surface normal and the light, for the depth bias.
  double lit(const Vec3& p, double slope) const {
    const int cx = static_cast<int>(std::clamp(std::floor((dot(p, right_) - u0_) / texel_), -2.0, n_ + 1.0));
    const int cy = static_cast<int>(std::clamp(std::floor((dot(p, up_) - v0_) / texel_), -2.0, n_ + 1.0));
    // A surface tilted from the light changes height by slope texels per texel: bias past that,
    // so that lit faces do not shadow themselves ("acne").
    const double h = dot(p, toward_) + texel_ * (1.5 + 2.0 * std::min(slope, 8.0));
    int free = 0;
    for (int y = cy - 1; y <= cy + 1; ++y)
      for (int x = cx - 1; x <= cx + 1; ++x)
        free += x < 0 || y < 0 || x >= n_ || y >= n_ || height_[static_cast<std::size_t>(y) * n_ + x] <= h;
    return free / 9.0;
  }

 private:
  Vec3 toward_, right_{}, up_{};
  int n_;
  double texel_ = 1.0, u0_ = 0.0, v0_ = 0.0;
  std::vector<float> height_;  // (n x n) highest point along toward_ per texel
};

// One triangle as the renderer draws it: screen corners, nearness and flat shading, computed
// once and drawn into every band of rows it covers.
struct ScreenTriangle {
  const Vec3* corner[3];    // world corners (shadow look-ups)
  double sx[3], sy[3];      // supersampled screen coordinates
  double nearv[3];          // nearness (1/depth or -depth) at the corners
  double y_lo, y_hi;        // screen rows it spans
  double ambient, diffuse;  // light terms of its face
  double slope;             // tan of the angle between its normal and the light (shadow bias)
  double edge_len[3];       // screen length of the edge opposite each corner
  double area2;             // twice its screen area
  const RenderMesh* mesh;   // colour and edge flag
};

// The triangles of @p spec in view, in drawing order (meshes, then triangles).
std::vector<ScreenTriangle> screen_triangles(const RenderSpec& spec, const View& view, const Vec3& light) {
  std::vector<ScreenTriangle> out;
  for (const RenderMesh& mesh : spec.meshes)
    for (const auto& tri : mesh.triangles) {
      const Vec3 &a = mesh.vertices[tri[0]], &b = mesh.vertices[tri[1]], &c = mesh.vertices[tri[2]];
      if (!is_finite(a) || !is_finite(b) || !is_finite(c)) continue;
      Vec3 n = cross(sub(b, a), sub(c, a));
      const double n_len = norm(n);
      if (!(n_len > 0.0)) continue;  // repeated or collinear vertices
      n = scaled(1.0 / n_len, n);
      // Two-sided: the normal faces the eye.
      const Vec3 to_eye = view.perspective ? sub(view.eye, a) : scaled(-1.0, view.forward);
      const double eye_distance = norm(to_eye);
      if (!(eye_distance > 0.0)) continue;  // a vertex at the eye: the triangle is not in view
      if (dot(n, to_eye) < 0.0) n = scaled(-1.0, n);
      const double facing = dot(n, to_eye) / eye_distance;
      ScreenTriangle t;
      t.corner[0] = &a;
      t.corner[1] = &b;
      t.corner[2] = &c;
      t.mesh = &mesh;
      // Ambient scaled a little by how squarely a face is seen, so that faces turned away from the
      // light stay distinguishable from each other; diffuse from the light where it is not shadowed.
      t.ambient = spec.ambient * (0.65 + 0.35 * facing);
      t.diffuse = (1.0 - spec.ambient) * std::max(0.0, dot(n, light));
      const double cos_light = std::max(dot(n, light), 1e-3);
      t.slope = std::sqrt(std::max(0.0, 1.0 - cos_light * cos_light)) / cos_light;
      bool behind = false;
      for (int i = 0; i < 3; ++i) {
        double px, py, depth;
        view.project(*t.corner[i], px, py, depth);
        behind = behind || (view.perspective && depth <= view.near);
        t.sx[i] = view.sx(px);
        t.sy[i] = view.sy(py);
        t.nearv[i] = view.perspective ? 1.0 / depth : -depth;
      }
      if (behind) continue;
      for (int i = 0; i < 3; ++i)
        t.edge_len[i] = std::hypot(t.sx[(i + 2) % 3] - t.sx[(i + 1) % 3], t.sy[(i + 2) % 3] - t.sy[(i + 1) % 3]);
      t.area2 = std::abs((t.sx[1] - t.sx[0]) * (t.sy[2] - t.sy[0]) - (t.sx[2] - t.sx[0]) * (t.sy[1] - t.sy[0]));
      t.y_lo = std::min({t.sy[0], t.sy[1], t.sy[2]});
      t.y_hi = std::max({t.sy[0], t.sy[1], t.sy[2]});
      out.push_back(t);
    }
  return out;
}

// Bytes of the supersampled buffers per sample: colour (3 floats) and nearness (a double).
constexpr std::size_t kBytesPerSample = 3 * sizeof(float) + sizeof(double);

}  // namespace

std::size_t render_memory_bytes(int width, int height) {
  const std::size_t w = static_cast<std::size_t>(std::max(width, 1)), h = static_cast<std::size_t>(std::max(height, 1));
  const std::size_t n = static_cast<std::size_t>(std::clamp(2 * std::max(width, height), 256, 4096));
  // The image, the band buffers (at least one row of 4 x 4 samples a pixel), the shadow map.
  return 3 * w * h + RenderSpec{}.band_bytes + 16 * w * kBytesPerSample + n * n * sizeof(float);
}

Image render_meshes(const RenderSpec& spec) {
  require(spec.width >= 1 && spec.width <= 16384 && spec.height >= 1 && spec.height <= 16384,
          "render_meshes: size must be in [1, 16384] x [1, 16384], got " + std::to_string(spec.width) + " x " +
              std::to_string(spec.height));
  require(spec.supersample >= 1 && spec.supersample <= 4,
          "render_meshes: supersample must be in [1, 4], got " + std::to_string(spec.supersample));
  require(spec.ambient >= 0.0 && spec.ambient <= 1.0,
          "render_meshes: ambient must be in [0, 1], got " + number_text(spec.ambient));
  for (std::size_t k = 0; k < spec.meshes.size(); ++k) {
    const RenderMesh& m = spec.meshes[k];
    for (std::size_t t = 0; t < m.triangles.size(); ++t)
      for (Index i : m.triangles[t])
        require(i >= 0 && static_cast<std::size_t>(i) < m.vertices.size(),
                "render_meshes: mesh " + std::to_string(k) + " triangle " + std::to_string(t) + " has vertex index " +
                    std::to_string(i) + ", expected 0.." + std::to_string(m.vertices.size()) + " - 1");
  }
  const Vec3 light = unit(spec.light_direction, "light_direction");
  const int S = spec.supersample, W = spec.width * S, H = spec.height * S;
  const View view = make_view(spec, W, H);
  std::optional<ShadowMap> shadows;
  if (spec.shadows) shadows.emplace(spec, light, std::clamp(2 * std::max(spec.width, spec.height), 256, 4096));
  const std::vector<ScreenTriangle> triangles = screen_triangles(spec, view, light);
  const double edge_half_width = 0.55 * S;  // each of the two faces along an edge draws half a line

  // Bands of whole pixel rows whose supersampled buffers fit in band_bytes: the image's memory
  // is then its 3 bytes a pixel, not the 20 bytes a sample of the buffers.
  const std::size_t sample_row_bytes = static_cast<std::size_t>(W) * kBytesPerSample;
  const int band_pixels = static_cast<int>(
      std::clamp<std::size_t>(spec.band_bytes / (sample_row_bytes * S), 1, static_cast<std::size_t>(spec.height)));
  // Supersampled colour (linear 0..255 floats) and depth buffers of one band; depth holds a
  // "nearness" that is affine in screen space (1/depth in perspective, -depth in parallel),
  // larger is nearer.
  std::vector<float> color;      // (band rows x W x 3)
  std::vector<double> nearness;  // (band rows x W)
  Image image(spec.width, spec.height);
  for (int first_pixel = 0; first_pixel < spec.height; first_pixel += band_pixels) {
    const int rows_begin = first_pixel * S, rows_end = std::min(first_pixel + band_pixels, spec.height) * S;
    const std::size_t rows = static_cast<std::size_t>(rows_end - rows_begin);
    color.resize(3 * static_cast<std::size_t>(W) * rows);
    nearness.assign(static_cast<std::size_t>(W) * rows, -std::numeric_limits<double>::infinity());
    for (int y = rows_begin; y < rows_end; ++y) {
      const Rgb bg = mix(spec.background_top, spec.background_bottom, (y + 0.5) / H);
      for (int x = 0; x < W; ++x) {
        float* c = &color[3 * (static_cast<std::size_t>(y - rows_begin) * W + x)];
        c[0] = bg.r;
        c[1] = bg.g;
        c[2] = bg.b;
      }
    }
    for (const ScreenTriangle& t : triangles) {
      if (t.y_hi < rows_begin - 1 || t.y_lo > rows_end) continue;
      const Vec3 &a = *t.corner[0], &b = *t.corner[1], &c = *t.corner[2];
      const RenderMesh& mesh = *t.mesh;
      rasterize(t.sx, t.sy, W, rows_begin, rows_end, [&](int x, int y, const double* w) {
        const double z = w[0] * t.nearv[0] + w[1] * t.nearv[1] + w[2] * t.nearv[2];
        const std::size_t at = static_cast<std::size_t>(y - rows_begin) * W + x;
        if (!(z > nearness[at])) return;
        nearness[at] = z;
        double shade = t.ambient + t.diffuse;
        if (shadows && t.diffuse > 0.0) {
          // The world point: screen-space weights made perspective-correct (nearness is 1/depth).
          double u[3] = {w[0], w[1], w[2]};
          if (view.perspective)
            for (int i = 0; i < 3; ++i) u[i] = w[i] * t.nearv[i] / z;
          Vec3 p{{0.0, 0.0, 0.0}};
          for (int k = 0; k < 3; ++k) p[k] = u[0] * a[k] + u[1] * b[k] + u[2] * c[k];
          // A shadow keeps a quarter of the light: dark enough to read, not a black hole.
          shade = t.ambient + t.diffuse * (0.25 + 0.75 * shadows->lit(p, t.slope));
        }
        double edge_mix = 0.0;
        if (mesh.edges)
          for (int i = 0; i < 3; ++i)
            if (t.edge_len[i] > 0.0 && w[i] * t.area2 / t.edge_len[i] < edge_half_width) edge_mix = 0.7;
        float* out = &color[3 * at];
        out[0] = static_cast<float>((1.0 - edge_mix) * mesh.color.r * shade + edge_mix * spec.edge_color.r);
        out[1] = static_cast<float>((1.0 - edge_mix) * mesh.color.g * shade + edge_mix * spec.edge_color.g);
        out[2] = static_cast<float>((1.0 - edge_mix) * mesh.color.b * shade + edge_mix * spec.edge_color.b);
      });
    }
    // Box filter of the S x S samples of each pixel of the band.
    const double inv = 1.0 / (S * S);
    for (int y = rows_begin / S; y < rows_end / S; ++y)
      for (int x = 0; x < spec.width; ++x) {
        double sum[3] = {0.0, 0.0, 0.0};
        for (int j = 0; j < S; ++j)
          for (int i = 0; i < S; ++i) {
            const float* c = &color[3 * (static_cast<std::size_t>(y * S + j - rows_begin) * W + (x * S + i))];
            for (int k = 0; k < 3; ++k) sum[k] += c[k];
          }
        auto byte = [&](double v) { return static_cast<std::uint8_t>(std::clamp(std::lround(v * inv), 0L, 255L)); };
        image.set(x, y, Rgb{byte(sum[0]), byte(sum[1]), byte(sum[2])});
      }
  }
  return image;
}

std::vector<RenderMesh> checker_ground(const Vec3& center, double z, double size, int n, Rgb a, Rgb b) {
  require(n >= 1, "checker_ground: n must be >= 1, got " + std::to_string(n));
  require(std::isfinite(size) && size > 0.0, "checker_ground: size must be finite and positive");
  std::vector<RenderMesh> out(2);
  out[0].color = a;
  out[1].color = b;
  const double h = size / n, x0 = center[0] - 0.5 * size, y0 = center[1] - 0.5 * size;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      RenderMesh& m = out[(i + j) % 2];
      const Index base = static_cast<Index>(m.vertices.size());
      const double xa = x0 + i * h, ya = y0 + j * h;
      m.vertices.push_back(Vec3{{xa, ya, z}});
      m.vertices.push_back(Vec3{{xa + h, ya, z}});
      m.vertices.push_back(Vec3{{xa + h, ya + h, z}});
      m.vertices.push_back(Vec3{{xa, ya + h, z}});
      m.triangles.push_back({base, base + 1, base + 2});  // counter-clockwise from above: normal +z
      m.triangles.push_back({base, base + 2, base + 3});
    }
  return out;
}

}  // namespace sinew::render
