#include "sinew/render/line_chart.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/render/bitmap_font.hpp"

namespace sinew::render {
namespace {

const Rgb kInk{40, 40, 40}, kFrame{90, 90, 90}, kGrid{225, 225, 225}, kMinorGrid{242, 242, 242};
constexpr int kTick = 6;  // tick mark length, px
constexpr int kPad = 12;  // outer padding and gap between blocks, px

// Number of decimals (0..15) needed to write multiples of @p step exactly.
int decimals_for(double step) {
  for (int d = 0; d < 15; ++d) {
    const double scaled = step * std::pow(10.0, d);
    if (std::round(scaled) >= 1.0 && std::abs(scaled - std::round(scaled)) < 1e-6 * scaled) return d;
  }
  return 15;
}

std::string printf_string(const char* format, int precision, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, precision, v);
  return buffer;
}

// A data axis before layout: its range in "axis space" (log10 of the values on a log axis).
struct AxisRange {
  double lo, hi;
  bool log;
};

// Ticks of one axis in axis space, with their labels; on a log axis also the minor ticks.
struct Ticks {
  std::vector<double> major;  // axis-space positions
  std::vector<std::string> labels;
  std::vector<int> exponents;  // log axis: the k of each 10^k label
  std::vector<double> minor;   // log axis: log10(m 10^k), m = 2..9
  std::string note;            // linear axis far from zero: "ticks + OFFSET", labels are value - OFFSET
};

AxisRange data_range(const ChartSpec& spec, bool is_x, const std::vector<std::array<double, 2>>& points,
                     const std::optional<double>& given_lo, const std::optional<double>& given_hi, int target,
                     const char* name) {
  const bool log = is_x ? spec.log_x : spec.log_y;
  auto to_axis = [&](double v, const char* which) {
    require(std::isfinite(v), std::string("render_chart: ") + name + "_" + which + " must be finite");
    require(!log || v > 0.0, std::string("render_chart: ") + name + "_" + which +
                                 " must be positive on a logarithmic axis, got " + number_text(v));
    return log ? std::log10(v) : v;
  };
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& p : points) {
    lo = std::min(lo, p[is_x ? 0 : 1]);
    hi = std::max(hi, p[is_x ? 0 : 1]);
  }
  if (lo > hi) {  // no drawable point
    lo = 0.0;
    hi = 1.0;
  } else if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {  // a constant, up to round-off:
    // centre it in a range of sensible size
    const double half = log ? 0.5 : (lo == 0.0 ? 1.0 : 0.1 * std::abs(lo));
    lo -= half;
    hi += half;
  }
  if (log) {  // whole decades
    lo = std::floor(lo + 1e-9);
    hi = std::ceil(hi - 1e-9);
    if (hi <= lo) hi = lo + 1.0;
  } else {  // whole steps
    double step = 1.0;
    nice_ticks(lo, hi, target, &step);
    lo = std::floor(lo / step + 1e-9) * step;
    hi = std::ceil(hi / step - 1e-9) * step;
  }
  if (given_lo) lo = to_axis(*given_lo, "min");
  if (given_hi) hi = to_axis(*given_hi, "max");
  require(hi > lo, std::string("render_chart: the ") + name + " axis range must be increasing, got [" +
                       number_text(lo) + ", " + number_text(hi) + "]" + (log ? " (log10)" : ""));
  return AxisRange{lo, hi, log};
}

Ticks make_ticks(const AxisRange& r, int target) {
  Ticks t;
  if (!r.log) {
    double step = 1.0;
    t.major = nice_ticks(r.lo, r.hi, target, &step);
    // A range narrow for its distance from zero (an energy drifting by 1e-9 J around -0.5 J) would
    // need many digits per label, all alike: label the difference from a round offset instead.
    double offset = 0.0;
    if (std::max(std::abs(r.lo), std::abs(r.hi)) > 1e3 * (r.hi - r.lo)) {
      const double quantum = std::pow(10.0, std::floor(std::log10(r.hi - r.lo)) + 1.0);
      offset = std::round(0.5 * (r.lo + r.hi) / quantum) * quantum;
      const std::string value = printf_string("%.*g", 15, offset);
      t.note = "ticks + " + (offset < 0.0 ? "(" + value + ")" : value);
    }
    std::vector<double> relative;
    double largest = 0.0;
    for (double v : t.major) {
      relative.push_back(std::abs(v - offset) < 1e-6 * step ? 0.0 : v - offset);
      largest = std::max(largest, std::abs(relative.back()));
    }
    for (double v : relative) t.labels.push_back(format_tick(v, step, largest));
    return t;
  }
  const int k0 = static_cast<int>(std::ceil(r.lo - 1e-9)), k1 = static_cast<int>(std::floor(r.hi + 1e-9));
  // Label every n-th decade, n chosen so that 10^0 = 1 is among them; the others get a minor line.
  const int every = std::max(1, (k1 - k0 + target) / std::max(1, target));
  for (int k = k0; k <= k1; ++k)
    if (k % every == 0) {
      t.major.push_back(k);
      t.exponents.push_back(k);
      t.labels.push_back("10");
    } else {
      t.minor.push_back(k);
    }
  if (r.hi - r.lo <= 2.0 + 1e-9 && target >= 6)  // one or two decades, room for more: 2 and 5 x 10^k
    for (int k = static_cast<int>(std::floor(r.lo)); k <= static_cast<int>(std::ceil(r.hi)); ++k)
      for (int m : {2, 5}) {
        const double v = k + std::log10(static_cast<double>(m));
        if (v < r.lo - 1e-9 || v > r.hi + 1e-9) continue;
        t.major.push_back(v);
        t.exponents.push_back(k);
        t.labels.push_back(std::to_string(m) + "x10");
      }
  if (r.hi - r.lo <= 8.0)  // minor ticks only where decades are wide enough to show them
    for (int k = static_cast<int>(std::floor(r.lo)); k <= static_cast<int>(std::ceil(r.hi)); ++k)
      for (int m = 2; m <= 9; ++m) {
        const double v = k + std::log10(static_cast<double>(m));
        if (v >= r.lo && v <= r.hi) t.minor.push_back(v);
      }
  return t;
}

// Smallest distance in pixels between neighbouring major ticks of @p t on an axis of @p pixels.
double min_spacing(const Ticks& t, const AxisRange& r, double pixels) {
  std::vector<double> at = t.major;
  std::sort(at.begin(), at.end());
  double gap = std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < at.size(); ++i) gap = std::min(gap, (at[i] - at[i - 1]) * pixels / (r.hi - r.lo));
  return gap;
}

// Width and height of a tick label: on a log axis "10" or "2x10" with a superscript exponent at
// the next smaller scale.
int label_width(const Ticks& t, std::size_t i, int s) {
  if (t.exponents.empty()) return text_width(t.labels[i], s);
  return text_width(t.labels[i], s) + text_width(std::to_string(t.exponents[i]), std::max(1, s - 1));
}

void draw_label(Image& img, const Ticks& t, std::size_t i, int x, int y, int s) {
  if (t.exponents.empty()) {
    draw_text(img, x, y, t.labels[i], kInk, s);
    return;
  }
  const int ss = std::max(1, s - 1);
  const int raise = text_height(ss) / 2;
  draw_text(img, x, y + raise, t.labels[i], kInk, s);
  draw_text(img, x + text_width(t.labels[i], s), y, std::to_string(t.exponents[i]), kInk, ss);
}

int label_height(const Ticks& t, int s) {
  return t.exponents.empty() ? text_height(s) : text_height(s) + text_height(std::max(1, s - 1)) / 2;
}

// Clips segment a-b to the box [x0, x1] x [y0, y1] (Liang-Barsky); false when nothing is left.
bool clip_segment(double& ax, double& ay, double& bx, double& by, double x0, double y0, double x1, double y1) {
  double t0 = 0.0, t1 = 1.0;
  const double dx = bx - ax, dy = by - ay;
  const double p[4] = {-dx, dx, -dy, dy}, q[4] = {ax - x0, x1 - ax, ay - y0, y1 - ay};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0.0) {
      if (q[i] < 0.0) return false;
      continue;
    }
    const double r = q[i] / p[i];
    if (p[i] < 0.0)
      t0 = std::max(t0, r);
    else
      t1 = std::min(t1, r);
    if (t0 > t1) return false;
  }
  const double sx = ax, sy = ay;
  ax = sx + t0 * dx;
  ay = sy + t0 * dy;
  bx = sx + t1 * dx;
  by = sy + t1 * dy;
  return true;
}

// Per-series coverage of the plot area (max over segments, so joints are not drawn twice), then
// blended once: a curve is continuous, of even width and lightly anti-aliased.
class Coverage {
 public:
  Coverage(int left, int top, int width, int height)
      : left_(left), top_(top), w_(width), h_(height), c_(static_cast<std::size_t>(width) * height, 0.0f) {}

  // Pixels within half the width of segment a-b (image coordinates).
  void segment(double ax, double ay, double bx, double by, double width) {
    const double r = 0.5 * width;
    if (!clip_segment(ax, ay, bx, by, left_ - r - 1, top_ - r - 1, left_ + w_ + r + 1, top_ + h_ + r + 1)) return;
    const int x0 = std::max(left_, static_cast<int>(std::floor(std::min(ax, bx) - r - 1)));
    const int x1 = std::min(left_ + w_, static_cast<int>(std::ceil(std::max(ax, bx) + r + 1)));
    const int y0 = std::max(top_, static_cast<int>(std::floor(std::min(ay, by) - r - 1)));
    const int y1 = std::min(top_ + h_, static_cast<int>(std::ceil(std::max(ay, by) + r + 1)));
    const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        const double px = x + 0.5 - ax, py = y + 0.5 - ay;
        const double t = len2 > 0.0 ? std::clamp((px * dx + py * dy) / len2, 0.0, 1.0) : 0.0;
        const double d = std::hypot(px - t * dx, py - t * dy);
        const float cover = static_cast<float>(std::clamp(r + 0.5 - d, 0.0, 1.0));
        float& c = c_[static_cast<std::size_t>(y - top_) * w_ + (x - left_)];
        c = std::max(c, cover);
      }
  }

  void blend_into(Image& img, Rgb color) const {
    for (int y = 0; y < h_; ++y)
      for (int x = 0; x < w_; ++x) {
        const float c = c_[static_cast<std::size_t>(y) * w_ + x];
        if (c > 0.0f) img.blend(left_ + x, top_ + y, color, c);
      }
  }

 private:
  int left_, top_, w_, h_;
  std::vector<float> c_;  // (h x w) coverage in [0, 1]
};

}  // namespace

double ChartAxis::to_pixel(double v) const {
  const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
  const double t = ((log ? std::log10(v) : v) - a) / (b - a);
  return pixel_lo + t * (pixel_hi - pixel_lo);
}

Rgb chart_color(int i) {
  // Tableau 10: distinct hues that stay apart in print and for most colour-blind readers.
  static const Rgb palette[10] = {{31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
                                  {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
  return palette[((i % 10) + 10) % 10];
}

std::vector<double> nice_ticks(double lo, double hi, int target, double* step_out) {
  std::vector<double> ticks;
  double step = 1.0;
  if (std::isfinite(lo) && std::isfinite(hi) && hi > lo) {
    const double raw = (hi - lo) / std::max(1, target);
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / p;
    step = (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * p;
    const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
    for (double k = first; k <= last && ticks.size() < 1000; k += 1.0) {
      const double v = k * step;
      ticks.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);  // no "-0" or 1e-17 at zero
    }
  }
  if (step_out) *step_out = step;
  return ticks;
}

std::string format_tick(double v, double step, double largest) {
  if (std::abs(v) < 1e-9 * step) return "0";
  const int fixed_decimals = decimals_for(step);
  if (fixed_decimals <= 4 && largest < 1e6) return printf_string("%.*f", fixed_decimals, v);
  // Scientific: as many mantissa digits as the step needs at this value's exponent.
  const int e = static_cast<int>(std::floor(std::log10(std::abs(v)) + 1e-12));
  const int digits = std::min(decimals_for(step / std::pow(10.0, e)), 6);
  const std::string s = printf_string("%.*e", digits, v);  // e.g. "2.50e-07"
  const std::size_t at = s.find('e');
  std::string mantissa = s.substr(0, at);
  if (mantissa.find('.') != std::string::npos) {  // "1.00" -> "1", "2.50" -> "2.5"
    mantissa.erase(mantissa.find_last_not_of('0') + 1);
    if (mantissa.back() == '.') mantissa.pop_back();
  }
  return mantissa + "e" + std::to_string(std::atoi(s.c_str() + at + 1));
}

LineChart render_chart(const ChartSpec& spec) {
  require(spec.width >= 240 && spec.width <= 16384 && spec.height >= 180 && spec.height <= 16384,
          "render_chart: size must be in [240, 16384] x [180, 16384], got " + std::to_string(spec.width) + " x " +
              std::to_string(spec.height));
  require(spec.line_width >= 1 && spec.line_width <= 8,
          "render_chart: line_width must be in [1, 8], got " + std::to_string(spec.line_width));
  require(spec.text_scale >= 1 && spec.text_scale <= 8,
          "render_chart: text_scale must be in [1, 8], got " + std::to_string(spec.text_scale));
  LineChart out;
  // Drawable points per series in axis space; a NaN pair marks a gap.
  std::vector<std::vector<std::array<double, 2>>> curves(spec.series.size());
  std::vector<std::array<double, 2>> all;
  const double gap = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < spec.series.size(); ++k) {
    const ChartSeries& s = spec.series[k];
    require(s.x.size() == s.y.size(), "render_chart: series '" + s.name + "' has " + std::to_string(s.x.size()) +
                                          " x values but " + std::to_string(s.y.size()) + " y values");
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double x = s.x[i], y = s.y[i];
      if (!std::isfinite(x) || !std::isfinite(y)) {
        ++out.skipped_nonfinite;
        curves[k].push_back({gap, gap});
      } else if ((spec.log_x && x <= 0.0) || (spec.log_y && y <= 0.0)) {
        ++out.skipped_nonpositive;
        curves[k].push_back({gap, gap});
      } else {
        curves[k].push_back({spec.log_x ? std::log10(x) : x, spec.log_y ? std::log10(y) : y});
        all.push_back(curves[k].back());
      }
    }
  }

  // Layout: the y tick labels set the left margin, which sets the room for x ticks.
  const int s = spec.text_scale, th = text_height(s);
  const int top = kPad + (spec.title.empty() ? 0 : th + kPad);
  const int x_label_h = spec.log_x ? th + text_height(std::max(1, s - 1)) / 2 : th;
  const int bottom = kTick + 4 + x_label_h + kPad + (spec.x_label.empty() ? 0 : th + kPad / 2);
  const int plot_h = spec.height - top - bottom;
  // About one tick per 5 text lines; decade labels are shorter, so one per 3 lines on a log axis.
  // A nice step may give up to 1.75 times the ticks asked for: fewer are asked for until the
  // labels have room.
  AxisRange yr{};
  Ticks yt;
  for (int y_target = std::max(2, plot_h / ((spec.log_y ? 3 : 5) * th));; y_target = y_target * 3 / 4) {
    yr = data_range(spec, false, all, spec.y_min, spec.y_max, y_target, "y");
    yt = make_ticks(yr, y_target);
    if (y_target <= 2 || min_spacing(yt, yr, plot_h) >= label_height(yt, s) + 2 * s) break;
  }
  int y_label_w = 0;
  for (std::size_t i = 0; i < yt.major.size(); ++i) y_label_w = std::max(y_label_w, label_width(yt, i, s));
  const int left = kPad + (spec.y_label.empty() ? 0 : th + kPad) + y_label_w + 4 + kTick;
  const int right_guess = kPad + text_width("0.0000", s) / 2;
  const int plot_w_guess = spec.width - left - right_guess;
  AxisRange xr{};
  Ticks xt;
  for (int x_target = std::max(2, plot_w_guess / text_width(spec.log_x ? "10-00" : "0.00000", s));;
       x_target = x_target * 3 / 4) {
    xr = data_range(spec, true, all, spec.x_min, spec.x_max, x_target, "x");
    xt = make_ticks(xr, x_target);
    int widest = 0;
    for (std::size_t i = 0; i < xt.major.size(); ++i) widest = std::max(widest, label_width(xt, i, s));
    if (x_target <= 2 || min_spacing(xt, xr, plot_w_guess) >= widest + kGlyphAdvance * s) break;
  }
  // The rightmost label is centred on the end of the axis: half of it needs room on the right.
  int last_x_label = 0;
  double rightmost = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < xt.major.size(); ++i)
    if (xt.major[i] > rightmost) {
      rightmost = xt.major[i];
      last_x_label = label_width(xt, i, s);
    }
  const int right = std::max(kPad, last_x_label / 2 + 4);
  require(spec.width - left - right >= 40 && plot_h >= 40,
          "render_chart: " + std::to_string(spec.width) + " x " + std::to_string(spec.height) +
              " leaves no room for the plot at text_scale " + std::to_string(s) + ": enlarge the image");

  out.plot_left = left;
  out.plot_top = top;
  out.plot_right = spec.width - right;
  out.plot_bottom = spec.height - bottom;
  auto value = [](double a, bool log) { return log ? std::pow(10.0, a) : a; };
  out.x = ChartAxis{value(xr.lo, xr.log), value(xr.hi, xr.log), xr.log, double(out.plot_left), double(out.plot_right)};
  out.y = ChartAxis{value(yr.lo, yr.log), value(yr.hi, yr.log), yr.log, double(out.plot_bottom), double(out.plot_top)};
  // Axis space (log10 on a log axis) to image coordinates.
  const double sx = (out.plot_right - out.plot_left) / (xr.hi - xr.lo);
  const double sy = (out.plot_bottom - out.plot_top) / (yr.hi - yr.lo);
  auto px = [&](double a) { return out.plot_left + (a - xr.lo) * sx; };
  auto py = [&](double a) { return out.plot_bottom - (a - yr.lo) * sy; };
  auto column = [&](double a) { return std::min(out.plot_right - 1, static_cast<int>(std::floor(px(a)))); };
  auto row = [&](double a) { return std::min(out.plot_bottom - 1, static_cast<int>(std::floor(py(a)))); };

  Image& img = out.image = Image(spec.width, spec.height, Rgb{255, 255, 255});
  const int pl = out.plot_left, pt = out.plot_top, pr = out.plot_right, pb = out.plot_bottom;
  for (double a : xt.minor) img.fill_rect(column(a), pt, column(a) + 1, pb, kMinorGrid);
  for (double a : yt.minor) img.fill_rect(pl, row(a), pr, row(a) + 1, kMinorGrid);
  for (double a : xt.major) img.fill_rect(column(a), pt, column(a) + 1, pb, kGrid);
  for (double a : yt.major) img.fill_rect(pl, row(a), pr, row(a) + 1, kGrid);

  // Curves, clipped to the plot; an isolated point (gaps on both sides) is drawn as a dot.
  for (std::size_t k = 0; k < curves.size(); ++k) {
    Coverage cover(pl, pt, pr - pl, pb - pt);
    const auto& c = curves[k];
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (std::isnan(c[i][0])) continue;
      const bool prev = i > 0 && !std::isnan(c[i - 1][0]), next = i + 1 < c.size() && !std::isnan(c[i + 1][0]);
      if (next) cover.segment(px(c[i][0]), py(c[i][1]), px(c[i + 1][0]), py(c[i + 1][1]), spec.line_width);
      if (!prev && !next) cover.segment(px(c[i][0]), py(c[i][1]), px(c[i][0]), py(c[i][1]), 2.0 * spec.line_width + 1);
    }
    cover.blend_into(img, spec.series[k].color.value_or(chart_color(static_cast<int>(k))));
  }

  // Frame, ticks and their labels (drawn after the curves so the frame stays crisp).
  img.fill_rect(pl - 1, pt - 1, pr + 1, pt, kFrame);
  img.fill_rect(pl - 1, pb, pr + 1, pb + 1, kFrame);
  img.fill_rect(pl - 1, pt - 1, pl, pb + 1, kFrame);
  img.fill_rect(pr, pt - 1, pr + 1, pb + 1, kFrame);
  for (std::size_t i = 0; i < xt.major.size(); ++i) {
    const int x = column(xt.major[i]);
    img.fill_rect(x, pb + 1, x + 1, pb + 1 + kTick, kFrame);
    draw_label(img, xt, i, x - label_width(xt, i, s) / 2, pb + kTick + 4, s);
  }
  for (std::size_t i = 0; i < yt.major.size(); ++i) {
    const int y = row(yt.major[i]);
    img.fill_rect(pl - 1 - kTick, y, pl - 1, y + 1, kFrame);
    // Centre the digits' ink (7 of the cell's 9 rows) on the tick; a superscript sits above.
    const int raise = label_height(yt, s) - th;
    draw_label(img, yt, i, pl - kTick - 4 - label_width(yt, i, s), y - 7 * s / 2 - raise, s);
  }
  const int mid_x = (pl + pr) / 2;
  if (!spec.title.empty()) {  // one pixel of horizontal double-strike makes the title bold
    const int x = std::max(kPad, mid_x - text_width(spec.title, s) / 2);
    draw_text(img, x, kPad, spec.title, kInk, s);
    draw_text(img, x + 1, kPad, spec.title, kInk, s);
  }
  if (!spec.x_label.empty())
    draw_text(img, std::max(kPad, mid_x - text_width(spec.x_label, s) / 2), spec.height - kPad - th, spec.x_label, kInk,
              s);
  if (!spec.y_label.empty())
    draw_text_vertical(img, kPad, std::max(kPad, (pt + pb) / 2 - text_width(spec.y_label, s) / 2), spec.y_label, kInk,
                       s);

  // Offset notes inside the plot: the y axis's at the top left, the x axis's at the bottom right.
  auto note = [&](int x, int y, const std::string& text) {
    for (int j = y - s; j < y + th + s; ++j)
      for (int i = x - s; i < x + text_width(text, s) + s; ++i) img.blend(i, j, Rgb{255, 255, 255}, 0.85);
    draw_text(img, x, y, text, kInk, s);
  };
  if (!yt.note.empty()) note(pl + 3 * s, pt + 3 * s, yt.note);
  if (!xt.note.empty()) note(pr - 3 * s - text_width(xt.note, s), pb - 3 * s - th, xt.note);

  // Legend in the plot corner that hides the fewest points.
  if (spec.legend && !spec.series.empty()) {
    const int swatch = 8 * s, line_h = th + 2 * s;
    int name_w = 0;
    for (const ChartSeries& se : spec.series) name_w = std::max(name_w, text_width(se.name, s));
    const int box_w = 3 * s + swatch + 3 * s + name_w + 2 * s;
    const int box_h = 2 * s + line_h * static_cast<int>(spec.series.size()) + s;
    const int inset = 2 * s;
    const std::array<std::array<int, 2>, 4> corners{{{pr - inset - box_w, pt + inset},
                                                     {pl + inset, pt + inset},
                                                     {pr - inset - box_w, pb - inset - box_h},
                                                     {pl + inset, pb - inset - box_h}}};
    long best = -1;
    std::array<int, 2> at = corners[0];
    for (std::size_t c = 0; c < corners.size(); ++c) {
      if ((c == 1 && !yt.note.empty()) || (c == 2 && !xt.note.empty())) continue;  // an offset note is there
      const auto& corner = corners[c];
      long hidden = 0;
      for (const auto& p : all) {
        const double x = px(p[0]), y = py(p[1]);
        hidden += x >= corner[0] && x < corner[0] + box_w && y >= corner[1] && y < corner[1] + box_h;
      }
      if (best < 0 || hidden < best) {
        best = hidden;
        at = corner;
      }
    }
    for (int y = at[1]; y < at[1] + box_h; ++y)
      for (int x = at[0]; x < at[0] + box_w; ++x) img.blend(x, y, Rgb{255, 255, 255}, 0.85);
    img.fill_rect(at[0], at[1], at[0] + box_w, at[1] + 1, kGrid);
    img.fill_rect(at[0], at[1] + box_h - 1, at[0] + box_w, at[1] + box_h, kGrid);
    img.fill_rect(at[0], at[1], at[0] + 1, at[1] + box_h, kGrid);
    img.fill_rect(at[0] + box_w - 1, at[1], at[0] + box_w, at[1] + box_h, kGrid);
    for (std::size_t k = 0; k < spec.series.size(); ++k) {
      const int y = at[1] + 2 * s + static_cast<int>(k) * line_h;
      const Rgb color = spec.series[k].color.value_or(chart_color(static_cast<int>(k)));
      const int mid = y + th / 2 - 1;
      img.fill_rect(at[0] + 3 * s, mid - spec.line_width / 2, at[0] + 3 * s + swatch,
                    mid - spec.line_width / 2 + std::max(2, spec.line_width), color);
      draw_text(img, at[0] + 6 * s + swatch, y, spec.series[k].name, kInk, s);
    }
  }
  return out;
}

}  // namespace sinew::render
