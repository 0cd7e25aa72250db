#include "sinew/scene/vtk_writer.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "expect_error.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene::scene_vtk_writer_test {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("sinew_vtk_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A bar of tets with its boundary as triangles, a vector field on the points and a scalar per cell.
VtuFrame bar_frame(double shift) {
  const TetMesh m = box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{2, 0.5, 0.5}}, 4, 1, 1);
  VtuFrame f;
  f.points = interleaved(m.vertices);
  for (std::size_t i = 0; i < f.points.size(); i += 3) f.points[i + 2] += shift * f.points[i] * f.points[i];
  f.tets = m.tets;
  f.triangles = boundary_triangles(m).triangles;
  f.point_fields.push_back({"velocity", 3, std::vector<double>(f.points.size(), 0.5)});
  f.cell_fields.push_back({"stress_norm", 1, std::vector<double>(f.tets.size() + f.triangles.size(), 1.0 / 3.0)});
  return f;
}

// Runs tests/scene/validate_vtk.py on @p path; skips when python3 is missing.
int validate(const fs::path& path) {
  if (std::system("python3 -c 'import xml.etree.ElementTree' > /dev/null 2>&1") != 0) return -1;
  const std::string cmd = "python3 " SINEW_TEST_SOURCE "/scene/validate_vtk.py '" + path.string() + "'";
  return std::system(cmd.c_str());
}

TEST(VtkWriter, SeriesOfFramesIsValidVtkXml) {
  const fs::path dir = scratch("series");
  PvdSeries series(dir / "bar.pvd");
  for (int k = 0; k < 3; ++k) series.add(0.01 * k, 5 * k, bar_frame(0.1 * k));
  EXPECT_EQ(series.size(), 3u);
  EXPECT_TRUE(fs::exists(dir / "bar_000010.vtu"));  // named by step
  // read_pvd gives back what the series lists, times to the bit.
  const std::vector<PvdEntry> read = read_pvd(dir / "bar.pvd");
  ASSERT_EQ(read.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(read[k].time, series.entries()[k].time);
    EXPECT_EQ(read[k].file, series.entries()[k].file);
  }
  // A series continued from them (a resumed run) appends after them.
  PvdSeries resumed(dir / "bar.pvd", read);
  resumed.add(0.03, 15, bar_frame(0.3));
  EXPECT_EQ(read_pvd(dir / "bar.pvd").size(), 4u);
  const int status = validate(dir / "bar.pvd");
  if (status < 0) GTEST_SKIP() << "python3 is not available to validate the XML";
  EXPECT_EQ(status, 0);
  // The validator does reject a broken file (so the check above can fail).
  std::ofstream(dir / "broken.vtu")
      << "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"2\" "
         "NumberOfCells=\"0\"><Points><DataArray>0 0 0</DataArray></Points>";
  EXPECT_NE(validate(dir / "broken.vtu"), 0);
}

TEST(VtkWriter, BadFramesAreErrorsAndWriteNothing) {
  const fs::path dir = scratch("bad");
  VtuFrame f = bar_frame(0.0);
  f.point_fields[0].values.pop_back();
  EXPECT_SINEW_ERROR(write_vtu(f, dir / "a.vtu"), "a.vtu", "point field 'velocity' has");
  f = bar_frame(0.0);
  f.tets[3][2] = 1000;
  EXPECT_SINEW_ERROR(write_vtu(f, dir / "b.vtu"), "b.vtu", "cell 3 uses point 1000");
  f = bar_frame(0.0);
  f.points[7] = std::nan("");
  EXPECT_SINEW_ERROR(write_vtu(f, dir / "c.vtu"), "c.vtu", "point 2 has a non-finite coordinate");
  f = bar_frame(0.0);
  f.cell_fields[0].name = "a\"b";
  EXPECT_SINEW_ERROR(write_vtu(f, dir / "d.vtu"), "field name");
  EXPECT_TRUE(fs::is_empty(dir)) << "nothing half-written";
  PvdSeries series(dir / "s.pvd");
  series.add(1.0, 1, bar_frame(0.0));
  EXPECT_SINEW_ERROR(series.add(1.0, 2, bar_frame(0.0)), "s.pvd", "not after the previous frame");
  EXPECT_EQ(series.size(), 1u);
  series.add(1.0, 1, bar_frame(0.5));  // the same step again replaces its frame
  EXPECT_EQ(series.size(), 1u);
  std::ofstream(dir / "garbled.pvd") << "<VTKFile>\n<DataSet timestep=\"x\" file=\"a.vtu\"/>\n";
  EXPECT_SINEW_ERROR(read_pvd(dir / "garbled.pvd"), "garbled.pvd:2");
  EXPECT_SINEW_ERROR(read_pvd(dir / "missing.pvd"), "missing.pvd");
}

}  // namespace
}  // namespace sinew::scene::scene_vtk_writer_test
