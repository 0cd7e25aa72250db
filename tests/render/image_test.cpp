#include "sinew/render/image.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "expect_error.hpp"

namespace sinew::render::render_image_test {
namespace {

namespace fs = std::filesystem;

// A fresh, empty folder under the system temporary folder, removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("sinew_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::permissions(path_, fs::perms::owner_all, ignored);
    fs::remove_all(path_, ignored);
  }
  fs::path operator/(const std::string& leaf) const { return path_ / leaf; }
  const fs::path& path() const { return path_; }
  // Names of the entries in the folder.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
    return names;
  }

 private:
  fs::path path_;
};

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

// Every channel value, and neighbours that differ, so that a filter or channel mix-up shows.
Image pattern(int w, int h) {
  Image img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.set(x, y,
              Rgb{static_cast<std::uint8_t>((x * 7 + y * 13) & 255), static_cast<std::uint8_t>((x * y) & 255),
                  static_cast<std::uint8_t>((255 - x + 3 * y) & 255)});
  return img;
}

TEST(Image, SetAtFillAndBlend) {
  Image img(4, 3, Rgb{10, 20, 30});
  EXPECT_EQ(img.width(), 4);
  EXPECT_EQ(img.height(), 3);
  EXPECT_EQ(img.pixels().size(), 36u);
  EXPECT_EQ(img.at(3, 2), (Rgb{10, 20, 30}));
  img.set(1, 2, Rgb{1, 2, 3});
  EXPECT_EQ(img.at(1, 2), (Rgb{1, 2, 3}));
  EXPECT_EQ(img.pixels()[3 * (2 * 4 + 1) + 2], 3) << "row-major, 3 bytes per pixel";
  img.set(-1, 0, Rgb{}), img.set(4, 0, Rgb{}), img.set(0, 3, Rgb{});  // clipped, no effect
  EXPECT_EQ(img.at(0, 0), (Rgb{10, 20, 30}));
  img.blend(0, 0, Rgb{110, 120, 130}, 0.5);
  EXPECT_EQ(img.at(0, 0), (Rgb{60, 70, 80}));
  img.fill_rect(-5, -5, 2, 2, Rgb{9, 9, 9});
  EXPECT_EQ(img.at(1, 1), (Rgb{9, 9, 9}));
  EXPECT_EQ(img.at(2, 1), (Rgb{10, 20, 30}));
  EXPECT_SINEW_ERROR(img.at(4, 0), "(4, 0)", "outside");
  EXPECT_SINEW_ERROR(Image(-1, 2), "non-negative");
  EXPECT_EQ(mix(Rgb{0, 0, 0}, Rgb{255, 255, 255}, 2.0), (Rgb{255, 255, 255})) << "t is clamped";
}

TEST(Png, RoundTripIsBitExact) {
  if (!png_supported()) GTEST_SKIP() << "sinew was built without libpng";
  TempDir dir("png_roundtrip");
  for (auto [w, h] : {std::pair{1, 1}, std::pair{257, 3}, std::pair{64, 91}}) {
    const Image img = pattern(w, h);
    const std::string path = (dir / ("p" + std::to_string(w) + ".png")).string();
    write_png(img, path);
    const Image back = read_png(path);
    EXPECT_EQ(back, img) << w << " x " << h;
  }
  EXPECT_EQ(dir.entries().size(), 3u) << "no temporary files left behind";
}

TEST(Png, SameImageSameBytes) {
  if (!png_supported()) GTEST_SKIP() << "sinew was built without libpng";
  TempDir dir("png_deterministic");
  write_png(pattern(50, 40), (dir / "a.png").string());
  write_png(pattern(50, 40), (dir / "b.png").string());
  const std::string a = file_bytes(dir / "a.png");
  EXPECT_GT(a.size(), 8u);
  EXPECT_EQ(a.substr(1, 3), "PNG");
  EXPECT_EQ(a, file_bytes(dir / "b.png"));
}

TEST(Png, FailedWriteLeavesNoFileAndKeepsTheOldOne) {
  if (!png_supported()) GTEST_SKIP() << "sinew was built without libpng";
  TempDir dir("png_atomic");
  // A "folder" that is a regular file: no one, root included, can create a file in it.
  write_bytes(dir / "not_a_folder", "x");
  const std::string inside_file = (dir / "not_a_folder" / "chart.png").string();
  EXPECT_SINEW_ERROR(write_png(pattern(8, 8), inside_file), inside_file.c_str(), "cannot create");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"not_a_folder"});

  // An existing picture survives a failed rewrite: here the temporary's name is taken by a folder.
  const std::string target = (dir / "keep.png").string();
  const Image old = pattern(8, 8);
  write_png(old, target);
  fs::create_directory(dir / "keep.png.tmp");
  EXPECT_SINEW_ERROR(write_png(pattern(9, 9), target), target.c_str(), "keep.png.tmp");
  EXPECT_EQ(read_png(target), old);
  EXPECT_TRUE(fs::is_directory(dir / "keep.png.tmp")) << "what was not ours is not removed";
  fs::remove(dir / "keep.png.tmp");

  // The target is a folder: the rename fails and the temporary is removed.
  fs::create_directory(dir / "folder.png");
  fs::create_directory(dir / "folder.png" / "child");
  EXPECT_SINEW_ERROR(write_png(old, (dir / "folder.png").string()), "folder.png", "renaming");
  EXPECT_FALSE(fs::exists(dir / "folder.png.tmp"));
  EXPECT_TRUE(fs::is_directory(dir / "folder.png" / "child"));

  EXPECT_SINEW_ERROR(write_png(Image(0, 5), (dir / "empty.png").string()), "empty.png", "empty");
  EXPECT_FALSE(fs::exists(dir / "empty.png"));
}

TEST(Png, UnwritableFolderLeavesNothing) {
  if (!png_supported()) GTEST_SKIP() << "sinew was built without libpng";
  TempDir dir("png_readonly");
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(dir.path().c_str(), W_OK) == 0) GTEST_SKIP() << "permissions do not bind this user (root)";
  const std::string path = (dir / "chart.png").string();
  EXPECT_SINEW_ERROR(write_png(pattern(4, 4), path), path.c_str(), "Permission denied");
  EXPECT_TRUE(dir.entries().empty());
}

TEST(Png, ReadRejectsGarbageTruncatedAndMissingFiles) {
  if (!png_supported()) GTEST_SKIP() << "sinew was built without libpng";
  TempDir dir("png_read");
  const fs::path good = dir / "good.png";
  write_png(pattern(40, 30), good.string());
  const std::string bytes = file_bytes(good);

  write_bytes(dir / "text.png", "step,t\n0,0\n");
  EXPECT_SINEW_ERROR(read_png((dir / "text.png").string()), "text.png", "not a PNG");
  write_bytes(dir / "empty.png", "");
  EXPECT_SINEW_ERROR(read_png((dir / "empty.png").string()), "empty.png", "not a PNG");
  write_bytes(dir / "signature_only.png", bytes.substr(0, 8));
  EXPECT_SINEW_ERROR(read_png((dir / "signature_only.png").string()), "signature_only.png", "truncated");
  write_bytes(dir / "half.png", bytes.substr(0, bytes.size() / 2));
  EXPECT_SINEW_ERROR(read_png((dir / "half.png").string()), "half.png", "truncated");
  std::string flipped = bytes;
  flipped[bytes.size() / 2] = static_cast<char>(flipped[bytes.size() / 2] ^ 0x5A);  // inside the pixel data
  write_bytes(dir / "flipped.png", flipped);
  EXPECT_SINEW_ERROR(read_png((dir / "flipped.png").string()), "flipped.png", "corrupt");
  EXPECT_SINEW_ERROR(read_png((dir / "missing.png").string()), "missing.png", "cannot open");
}

TEST(Png, WithoutLibpngTheFunctionsSaySo) {
  if (png_supported()) GTEST_SKIP() << "sinew was built with libpng";
  EXPECT_SINEW_ERROR(write_png(pattern(2, 2), "x.png"), "x.png", "without libpng");
  EXPECT_SINEW_ERROR(read_png("x.png"), "x.png", "without libpng");
}

}  // namespace
}  // namespace sinew::render::render_image_test
