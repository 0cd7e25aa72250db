/// @file
/// @brief A built-in 5x7 bitmap font for printable ASCII (32..126), so that charts carry titles,
/// axis labels, tick numbers and legends without any font file. Each glyph sits in a 6 x 9 cell:
/// 5 columns of ink and one of spacing; 7 rows above the baseline and 2 for the descenders of
/// g j p q y (spacing between lines for every other glyph); scaled by an integer factor.
#pragma once

#include <string>

#include "sinew/render/image.hpp"

namespace sinew::render {

/// Glyph cell width in pixels at scale 1 (5 columns of ink and 1 of spacing).
constexpr int kGlyphAdvance = 6;
/// Glyph cell height in pixels at scale 1 (7 rows above the baseline, 2 of descenders).
constexpr int kGlyphHeight = 9;

/// True when glyph @p c (a character; anything outside 32..126 is drawn as '?') has ink at
/// column @p col (0..4, left to right) and row @p row (0..8, top to bottom; the baseline under row 6).
bool glyph_pixel(char c, int col, int row);

/// Width in pixels of @p text at @p scale (kGlyphAdvance * scale per character, the trailing
/// spacing column included).
int text_width(const std::string& text, int scale = 1);

/// Height in pixels of one line of text at @p scale (kGlyphHeight * scale).
int text_height(int scale = 1);

/// Draws @p text with its top-left corner at (x, y), each font pixel a @p scale x @p scale block
/// of @p color; clipped to the image. @throws sinew::Error when scale < 1.
void draw_text(Image& image, int x, int y, const std::string& text, Rgb color, int scale = 1);

/// Draws @p text rotated a quarter turn counter-clockwise (reading bottom to top, as a y-axis
/// title), its bounding box text_height(scale) wide and text_width(text, scale) tall with its
/// top-left corner at (x, y). @throws sinew::Error when scale < 1.
void draw_text_vertical(Image& image, int x, int y, const std::string& text, Rgb color, int scale = 1);

}  // namespace sinew::render
