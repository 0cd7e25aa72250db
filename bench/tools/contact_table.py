#!/usr/bin/env python3
"""Side-by-side table of a contact_solvers_bench JSON output (--benchmark_out=FILE.json).

For each problem: every solver's time to 1e-8 (ms) or its failure, the fastest converged sinew
solver, the fastest converged Siconos solver, and their ratio (issue 22 asks for <= 0.5).
    python3 bench/tools/contact_table.py results.json
"""
import json
import sys


def main(path):
    runs = json.load(open(path))["benchmarks"]
    problems, solvers = {}, []
    for b in runs:
        parts = b["name"].split("/")
        if parts[0] == "read":
            problems.setdefault(parts[1], {})["read"] = "unreadable: " + b.get("error_message", "")[:80]
            continue
        solver, problem = parts[0], parts[1]
        if solver not in solvers:
            solvers.append(solver)
        if b.get("error_occurred"):
            cell = "failed"
        elif b.get("converged", 0) != 1:
            cell = "not converged (%.1e)" % b.get("error", float("nan"))
        else:
            cell = b["real_time"] if b["time_unit"] == "ms" else b["real_time"] * 1e-6
        problems.setdefault(problem, {})[solver] = cell
    print("| problem | " + " | ".join(solvers) + " | sinew best / Siconos best |")
    print("|---" * (len(solvers) + 2) + "|")
    for problem, cells in problems.items():
        if "read" in cells:
            print("| %s | %s |" % (problem, cells["read"]))
            continue
        def best(prefix):
            times = [(t, s) for s, t in cells.items() if s.startswith(prefix) and isinstance(t, float)]
            return min(times) if times else (None, None)
        ours, theirs = best("sinew_"), best("siconos_")
        ratio = "%.2f (%s / %s)" % (ours[0] / theirs[0], ours[1], theirs[1]) if ours[0] and theirs[0] else "-"
        row = [("%.3g ms" % cells[s]) if isinstance(cells.get(s), float) else cells.get(s, "-") for s in solvers]
        print("| %s | %s | %s |" % (problem, " | ".join(row), ratio))


if __name__ == "__main__":
    main(sys.argv[1])
