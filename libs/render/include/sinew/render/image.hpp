/// @file
/// @brief An 8-bit RGB raster image and its PNG file format (libpng), so that results can be
/// looked at without a GPU, a display or a viewer program: charts (line_chart.hpp) and mesh
/// snapshots (mesh_render.hpp) are drawn into an Image and written with write_png.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sinew::render {

/// An 8-bit sRGB colour.
struct Rgb {
  std::uint8_t r = 0;  ///< red, 0..255
  std::uint8_t g = 0;  ///< green, 0..255
  std::uint8_t b = 0;  ///< blue, 0..255
};

/// True when the three channels are equal.
inline bool operator==(const Rgb& a, const Rgb& b) { return a.r == b.r && a.g == b.g && a.b == b.b; }
/// True when a channel differs.
inline bool operator!=(const Rgb& a, const Rgb& b) { return !(a == b); }

/// The colour (1 - t) a + t b, rounded to nearest, for t in [0, 1] (clamped).
Rgb mix(const Rgb& a, const Rgb& b, double t);

/// A width x height RGB image, row 0 at the top, stored row-major as 3 bytes per pixel.
/// Drawing calls (set, blend, fill_rect) clip: pixels outside the image are ignored, so drawing
/// code needs no bounds checks; reading (at) outside the image is an error.
class Image {
 public:
  /// An empty 0 x 0 image.
  Image() = default;
  /// A @p width x @p height image filled with @p background.
  /// @throws sinew::Error when a side is negative or the image exceeds 2^28 pixels.
  Image(int width, int height, Rgb background = Rgb{255, 255, 255});

  /// Width in pixels.
  int width() const { return width_; }
  /// Height in pixels.
  int height() const { return height_; }
  /// True when (x, y) is a pixel of the image.
  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }

  /// The colour of pixel (x, y). @throws sinew::Error when (x, y) is outside the image.
  Rgb at(int x, int y) const;
  /// Sets pixel (x, y) to @p c; ignored outside the image.
  void set(int x, int y, Rgb c) {
    if (!contains(x, y)) return;
    std::uint8_t* p = &pixels_[3 * (static_cast<std::size_t>(y) * width_ + x)];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }
  /// Pixel (x, y) becomes (1 - alpha) old + alpha @p c (alpha clamped to [0, 1]); ignored outside.
  void blend(int x, int y, Rgb c, double alpha);
  /// Every pixel becomes @p c.
  void fill(Rgb c);
  /// Pixels x0 <= x < x1, y0 <= y < y1 become @p c (clipped to the image).
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c);

  /// The pixels, (height x width x 3) bytes: row y, column x, channel r g b.
  const std::vector<std::uint8_t>& pixels() const { return pixels_; }

 private:
  int width_ = 0, height_ = 0;
  std::vector<std::uint8_t> pixels_;  // (height x width x 3) r g b
};

/// True when both images have the same size and the same pixels.
bool operator==(const Image& a, const Image& b);
/// True when the sizes or a pixel differ.
inline bool operator!=(const Image& a, const Image& b) { return !(a == b); }

/// True when sinew was built with libpng (write_png and read_png work); false otherwise.
bool png_supported();

/// Writes @p image to @p path as an 8-bit RGB PNG, atomically: the bytes go to a temporary file
/// in the same folder (PATH.tmp), which is then renamed over @p path, so a reader never sees a
/// partial file. On failure no temporary is left and an existing file at @p path is untouched.
/// The output is deterministic (no time stamp): equal images give equal files.
/// @throws sinew::Error naming @p path and the reason (empty image, folder missing or not
/// writable, disk full, libpng error), or saying sinew was built without libpng.
void write_png(const Image& image, const std::string& path);

/// Reads the PNG file @p path (any bit depth and colour type; alpha is dropped, grey becomes RGB).
/// @throws sinew::Error naming @p path when it cannot be read, is not a PNG, is truncated or
/// corrupt, or when sinew was built without libpng.
Image read_png(const std::string& path);

}  // namespace sinew::render
