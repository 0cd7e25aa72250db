#include "sinew/integrators/contact_step_fclib.hpp"

#include <string>

#include "sinew/core/error.hpp"

namespace sinew::integrators {

constraints::FclibGlobalProblem to_fclib_global(const constraints::GlobalProblem& problem,
                                                const constraints::FclibInfo& info) {
  problem.validate();
  constraints::FclibGlobalProblem g;
  g.mu.resize(static_cast<Index>(problem.blocks.size()));
  for (std::size_t b = 0; b < problem.blocks.size(); ++b) {
    require(problem.blocks[b].kind == constraints::BlockKind::kContact, [&] {
      return "to_fclib_global: block " + std::to_string(b) + " is a " + constraints::to_string(problem.blocks[b].kind) +
             " block; FCLIB global problems hold circular-cone contacts only";
    });
    g.mu[static_cast<Index>(b)] = problem.blocks[b].mu;
  }
  require(problem.compliance.size() == 0 || problem.compliance.cwiseAbs().maxCoeff() == 0.0,
          "to_fclib_global: compliant rows have no FCLIB equivalent");
  g.M = problem.M;
  g.H = problem.H;
  g.G.rows = problem.M.rows;  // no equality block: n x 0
  g.G.cols = 0;
  g.G.row_ptr.assign(static_cast<std::size_t>(problem.M.rows) + 1, 0);
  g.f = problem.f;
  g.w = problem.w;
  g.info = info;
  return g;
}

void write_step_fclib(const std::string& path, const constraints::GlobalProblem& problem,
                      const constraints::FclibInfo& info, const Eigen::VectorXd& v, const Eigen::VectorXd& r) {
  const constraints::FclibGlobalProblem g = to_fclib_global(problem, info);
  if (v.size() == 0 && r.size() == 0) {
    constraints::write_fclib_global(path, g);
    return;
  }
  require(v.size() == problem.velocities() && r.size() == problem.rows(), [&] {
    return "write_step_fclib: the solution needs v (" + std::to_string(problem.velocities()) + ") and r (" +
           std::to_string(problem.rows()) + "), got " + std::to_string(v.size()) + " and " + std::to_string(r.size());
  });
  constraints::FclibSolution solution;
  solution.v = v;
  solution.r = r;
  solution.u = to_eigen(problem.H).transpose() * v + problem.w;
  constraints::write_fclib_global(path, g, &solution);
}

}  // namespace sinew::integrators
