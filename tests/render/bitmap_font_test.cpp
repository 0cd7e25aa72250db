#include "sinew/render/bitmap_font.hpp"

#include <gtest/gtest.h>

#include <string>

#include "expect_error.hpp"

namespace sinew::render::render_bitmap_font_test {
namespace {

const Rgb kWhite{255, 255, 255}, kBlack{0, 0, 0};

// Bounding box of the non-white pixels; false when there are none.
bool ink_box(const Image& img, int& x0, int& y0, int& x1, int& y1) {
  x0 = img.width(), y0 = img.height(), x1 = -1, y1 = -1;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x)
      if (img.at(x, y) != kWhite) {
        x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
      }
  return x1 >= 0;
}

TEST(BitmapFont, EveryPrintableGlyphHasInkExceptSpace) {
  for (int c = 33; c <= 126; ++c) {
    int ink = 0;
    for (int col = 0; col < 5; ++col)
      for (int row = 0; row < 9; ++row) ink += glyph_pixel(static_cast<char>(c), col, row);
    EXPECT_GT(ink, 0) << "glyph '" << static_cast<char>(c) << "'";
  }
  for (int col = 0; col < 5; ++col)
    for (int row = 0; row < 9; ++row) EXPECT_FALSE(glyph_pixel(' ', col, row));
  EXPECT_FALSE(glyph_pixel('A', 5, 0)) << "outside the 5 x 9 cell";
  // Descenders reach below the baseline; capitals do not.
  EXPECT_TRUE(glyph_pixel('g', 1, 8) || glyph_pixel('g', 2, 8));
  for (int col = 0; col < 5; ++col) EXPECT_FALSE(glyph_pixel('E', col, 7));
  // Characters outside printable ASCII are drawn as '?'.
  for (int col = 0; col < 5; ++col)
    for (int row = 0; row < 9; ++row) EXPECT_EQ(glyph_pixel('\n', col, row), glyph_pixel('?', col, row));
}

TEST(BitmapFont, TextStaysInsideItsBox) {
  const std::string text = "Energy [J] 10^-3 gjpqy";
  for (int scale : {1, 2, 3}) {
    Image img(text_width(text, scale) + 20, text_height(scale) + 20, kWhite);
    draw_text(img, 10, 10, text, kBlack, scale);
    int x0, y0, x1, y1;
    ASSERT_TRUE(ink_box(img, x0, y0, x1, y1));
    EXPECT_GE(x0, 10);
    EXPECT_GE(y0, 10);
    EXPECT_LT(x1, 10 + text_width(text, scale));
    EXPECT_LT(y1, 10 + text_height(scale));
    EXPECT_EQ(y1, 10 + text_height(scale) - 1) << "descenders use the last row";
  }
}

TEST(BitmapFont, VerticalTextIsTheQuarterTurnOfHorizontalText) {
  const std::string text = "residual";
  const int s = 2, w = text_width(text, s), h = text_height(s);
  Image across(w, h, kWhite), up(h, w, kWhite);
  draw_text(across, 0, 0, text, kBlack, s);
  draw_text_vertical(up, 0, 0, text, kBlack, s);
  // Counter-clockwise: horizontal (x, y) lands on vertical (y, w - 1 - x).
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ASSERT_EQ(across.at(x, y), up.at(y, w - 1 - x)) << x << ", " << y;
}

TEST(BitmapFont, ClipsAtTheImageBorderAndChecksTheScale) {
  Image img(10, 10, kWhite);
  draw_text(img, -7, -3, "WWWW", kBlack, 3);  // mostly outside: drawn where it falls, no error
  int x0, y0, x1, y1;
  EXPECT_TRUE(ink_box(img, x0, y0, x1, y1));
  EXPECT_SINEW_ERROR(draw_text(img, 0, 0, "x", kBlack, 0), "scale");
  EXPECT_SINEW_ERROR(draw_text_vertical(img, 0, 0, "x", kBlack, 0), "scale");
}

}  // namespace
}  // namespace sinew::render::render_bitmap_font_test
