/// @file
/// @brief Line charts of data series as images (energies, iteration counts, timings, convergence
/// curves), drawn on the CPU with the built-in font: linear or logarithmic axes with "nice" ticks,
/// a title, axis titles and a legend. Same input, same pixels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sinew/render/image.hpp"

namespace sinew::render {

/// One named curve: points (x[i], y[i]) joined in order. A point with a NaN or infinite
/// coordinate, or a non-positive one on a logarithmic axis, is skipped and breaks the line there.
struct ChartSeries {
  std::string name;          ///< legend entry
  std::vector<double> x;     ///< (n) abscissae
  std::vector<double> y;     ///< (n) ordinates
  std::optional<Rgb> color;  ///< default: the next colour of the built-in 10-colour palette
};

/// What to draw and how.
struct ChartSpec {
  std::vector<ChartSeries> series;  ///< the curves, drawn in order (later ones on top)
  std::string title;                ///< above the plot; empty: none
  std::string x_label;              ///< below the x axis; empty: none
  std::string y_label;              ///< left of the y axis, reading upwards; empty: none
  int width = 960;                  ///< image width in pixels (>= 240)
  int height = 600;                 ///< image height in pixels (>= 180)
  bool log_x = false;               ///< logarithmic x axis (decades labelled 10^k)
  bool log_y = false;               ///< logarithmic y axis (decades labelled 10^k)
  /// Axis limits; unset: from the data, widened to whole tick steps (whole decades on a log axis).
  std::optional<double> x_min;
  std::optional<double> x_max;  ///< see x_min
  std::optional<double> y_min;  ///< see x_min
  std::optional<double> y_max;  ///< see x_min
  int line_width = 2;           ///< curve width in pixels (1..8); 2 stays visible when scaled down
  int text_scale = 2;           ///< font scale: 5x7 glyphs at 2 are 10x14 px, readable at 960 px
  bool legend = true;           ///< draw the legend (in the plot corner that covers the fewest points)
};

/// How one axis maps data values to image coordinates (a pixel column or row i covers [i, i+1)).
struct ChartAxis {
  double lo = 0.0;        ///< data value at the start of the axis (left or bottom)
  double hi = 1.0;        ///< data value at the end of the axis (right or top)
  bool log = false;       ///< logarithmic: positions are linear in log10(value)
  double pixel_lo = 0.0;  ///< image coordinate of lo
  double pixel_hi = 1.0;  ///< image coordinate of hi
  /// The image coordinate of data value @p v (a column for x, a row for y; may lie outside the plot).
  double to_pixel(double v) const;
};

/// A rendered chart: the image, the axis mappings (to find where a data point landed) and what
/// was skipped.
struct LineChart {
  Image image;                   ///< the picture
  ChartAxis x;                   ///< column of an x value
  ChartAxis y;                   ///< row of a y value
  int plot_left = 0;             ///< first pixel column inside the plot frame
  int plot_top = 0;              ///< first pixel row inside the plot frame
  int plot_right = 0;            ///< one past the last pixel column inside the frame
  int plot_bottom = 0;           ///< one past the last pixel row inside the frame
  long skipped_nonfinite = 0;    ///< points with a NaN or infinite coordinate
  long skipped_nonpositive = 0;  ///< points with a coordinate <= 0 on a logarithmic axis
};

/// Draws @p spec: axes, grid, ticks with labels, curves, title, axis titles, legend.
/// Without any drawable point the axes span [0, 1] (or [1, 10] when logarithmic).
/// @throws sinew::Error when a series' x and y differ in length, the size, line width or text
/// scale is out of range, or a given axis limit is not finite, not increasing, or not positive on
/// a logarithmic axis.
LineChart render_chart(const ChartSpec& spec);

/// The i-th colour of the built-in palette (10 distinct colours, repeating).
Rgb chart_color(int i);

/// The tick values of a linear axis over [lo, hi] with a "nice" step (1, 2 or 5 times a power of
/// ten) giving about @p target ticks; @p step receives the step.
std::vector<double> nice_ticks(double lo, double hi, int target, double* step = nullptr);

/// A tick label for value @p v on an axis with tick spacing @p step whose largest tick magnitude
/// is @p largest: as many decimals as the step needs ("0.25", "1500"), or scientific ("2.5e-7",
/// "1.5e6") when the step needs more than 4 decimals or @p largest reaches 1e6, so that all
/// labels of one axis share a style.
std::string format_tick(double v, double step, double largest);

}  // namespace sinew::render
