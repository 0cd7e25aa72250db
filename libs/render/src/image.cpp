#include "sinew/render/image.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"

#ifdef SINEW_WITH_PNG
#include <png.h>

#include <csetjmp>
#endif

namespace sinew::render {

namespace {
// Large enough for any chart or snapshot, small enough that a corrupt header claiming billions of
// pixels is refused before anything is allocated.
constexpr long long kMaxPixels = 1LL << 28;
}  // namespace

Rgb mix(const Rgb& a, const Rgb& b, double t) {
  t = std::clamp(t, 0.0, 1.0);
  auto channel = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround((1.0 - t) * x + t * y));
  };
  return Rgb{channel(a.r, b.r), channel(a.g, b.g), channel(a.b, b.b)};
}

Image::Image(int width, int height, Rgb background) : width_(width), height_(height) {
  require(width >= 0 && height >= 0,
          "Image: size must be non-negative, got " + std::to_string(width) + " x " + std::to_string(height));
  require(static_cast<long long>(width) * height <= kMaxPixels,
          "Image: " + std::to_string(width) + " x " + std::to_string(height) + " exceeds 2^28 pixels");
  pixels_.resize(3 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  fill(background);
}

Rgb Image::at(int x, int y) const {
  require(contains(x, y), "Image::at: pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the " +
                              std::to_string(width_) + " x " + std::to_string(height_) + " image");
  const std::uint8_t* p = &pixels_[3 * (static_cast<std::size_t>(y) * width_ + x)];
  return Rgb{p[0], p[1], p[2]};
}

void Image::blend(int x, int y, Rgb c, double alpha) {
  if (!contains(x, y) || !(alpha > 0.0)) return;
  set(x, y, alpha >= 1.0 ? c : mix(at(x, y), c, alpha));
}

void Image::fill(Rgb c) {
  for (std::size_t i = 0; i < pixels_.size(); i += 3) {
    pixels_[i] = c.r;
    pixels_[i + 1] = c.g;
    pixels_[i + 2] = c.b;
  }
}

void Image::fill_rect(int x0, int y0, int x1, int y1, Rgb c) {
  x0 = std::max(x0, 0);
  y0 = std::max(y0, 0);
  x1 = std::min(x1, width_);
  y1 = std::min(y1, height_);
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) set(x, y, c);
}

bool operator==(const Image& a, const Image& b) {
  return a.width() == b.width() && a.height() == b.height() && a.pixels() == b.pixels();
}

#ifdef SINEW_WITH_PNG

bool png_supported() { return true; }

namespace {

// libpng reports errors through a callback that must not return; it longjmps back to the setjmp
// in encode/decode. No C++ object with a destructor lives between those setjmp calls and a
// longjmp (the byte buffers belong to the callers), so the jump skips no destructor.
struct PngFailure {
  char message[256] = {0};
};

void on_png_error(png_structp png, png_const_charp message) {
  auto* failure = static_cast<PngFailure*>(png_get_error_ptr(png));
  std::snprintf(failure->message, sizeof failure->message, "%s", message);
  png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}  // warnings (e.g. a bad ancillary chunk) are not failures

// Appends libpng's output to a byte vector; allocation failure becomes a libpng error.
void write_to_vector(png_structp png, png_bytep data, png_size_t n) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
  bool ok = true;
  try {
    out->insert(out->end(), data, data + n);
  } catch (...) {
    ok = false;
  }
  if (!ok) png_error(png, "out of memory while encoding");
}

// Reads from an in-memory PNG; running past the end is a libpng error (a truncated file).
struct ByteSource {
  const std::uint8_t* data;
  std::size_t size, pos;
};

void read_from_bytes(png_structp png, png_bytep out, png_size_t n) {
  auto* src = static_cast<ByteSource*>(png_get_io_ptr(png));
  if (n > src->size - src->pos) png_error(png, "unexpected end of file (truncated PNG)");
  std::memcpy(out, src->data + src->pos, n);
  src->pos += n;
}

// Encodes @p image into @p out; false with failure.message set on a libpng error.
bool encode(const Image& image, std::vector<std::uint8_t>& out, PngFailure& failure) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, on_png_error, on_png_warning);
  if (!png) {
    std::snprintf(failure.message, sizeof failure.message, "libpng could not start (out of memory)");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(failure.message, sizeof failure.message, "libpng could not start (out of memory)");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, &out, write_to_vector, nullptr);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width()), static_cast<png_uint_32>(image.height()), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const std::uint8_t* rows = image.pixels().data();
  for (int y = 0; y < image.height(); ++y)
    png_write_row(png, rows + 3 * static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width()));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

// Decodes @p src into @p rgb, which the caller sized from the header to width x height x 3;
// false with failure.message set on a libpng error.
bool decode(ByteSource& src, int width, int height, std::uint8_t* rgb, PngFailure& failure) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, on_png_error, on_png_warning);
  if (!png) {
    std::snprintf(failure.message, sizeof failure.message, "libpng could not start (out of memory)");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    std::snprintf(failure.message, sizeof failure.message, "libpng could not start (out of memory)");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, &src, read_from_bytes);
  png_read_info(png, info);
  if (static_cast<int>(png_get_image_width(png, info)) != width ||
      static_cast<int>(png_get_image_height(png, info)) != height)
    png_error(png, "inconsistent image header");
  // Whatever the file holds, deliver 8-bit RGB.
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  const int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != 3 * static_cast<std::size_t>(width)) png_error(png, "unsupported pixel format");
  for (int pass = 0; pass < passes; ++pass)
    for (int y = 0; y < height; ++y) png_read_row(png, rgb + 3 * static_cast<std::size_t>(y) * width, nullptr);
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

std::uint32_t big_endian32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

}  // namespace

void write_png(const Image& image, const std::string& path) {
  const std::string what = "write_png: cannot write '" + path + "': ";
  require(image.width() > 0 && image.height() > 0,
          what + "the image is empty (" + std::to_string(image.width()) + " x " + std::to_string(image.height()) + ")");
  std::vector<std::uint8_t> bytes;
  PngFailure failure;
  if (!encode(image, bytes, failure)) throw Error(what + "libpng: " + failure.message);

  write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Image read_png(const std::string& path) {
  const std::string what = "read_png: '" + path + "': ";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error(what + "cannot open: " + std::strerror(errno));
  std::vector<std::uint8_t> bytes;
  std::uint8_t chunk[65536];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
  const bool read_error = std::ferror(f) != 0;
  std::fclose(f);
  require(!read_error, what + "read error");
  // Signature (8 bytes), then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4).
  require(bytes.size() >= 8 && png_sig_cmp(bytes.data(), 0, 8) == 0, what + "not a PNG file (no PNG signature)");
  require(bytes.size() >= 24 && std::memcmp(bytes.data() + 12, "IHDR", 4) == 0,
          what + "truncated or corrupt PNG (no image header)");
  const std::uint32_t width = big_endian32(bytes.data() + 16), height = big_endian32(bytes.data() + 20);
  require(width > 0 && height > 0 && static_cast<long long>(width) * height <= kMaxPixels,
          what + "unsupported image size " + std::to_string(width) + " x " + std::to_string(height));
  Image image(static_cast<int>(width), static_cast<int>(height));
  std::vector<std::uint8_t> rgb(3 * static_cast<std::size_t>(width) * height);
  ByteSource src{bytes.data(), bytes.size(), 0};
  PngFailure failure;
  if (!decode(src, static_cast<int>(width), static_cast<int>(height), rgb.data(), failure))
    throw Error(what + "corrupt or truncated PNG: " + failure.message);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const std::uint8_t* p = &rgb[3 * (static_cast<std::size_t>(y) * width + x)];
      image.set(x, y, Rgb{p[0], p[1], p[2]});
    }
  return image;
}

#else  // no libpng

bool png_supported() { return false; }

void write_png(const Image&, const std::string& path) {
  throw Error("write_png: cannot write '" + path +
              "': sinew was built without libpng (install libpng-dev and reconfigure)");
}

Image read_png(const std::string& path) {
  throw Error("read_png: cannot read '" + path +
              "': sinew was built without libpng (install libpng-dev and reconfigure)");
}

#endif

}  // namespace sinew::render
