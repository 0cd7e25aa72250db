# The 16-variant stick/slip sweep of the slope (scenes/sweeps/slope_friction.json: friction around
# tan(10 deg) = 0.176, variant 0 with a negative friction the scene refuses) run by `sinew sweep`
# on 2 jobs and, when MPI_RUN is given, by `mpirun --oversubscribe -np 3 sinew-mpi sweep`: both
# exit 1 (one variant failed), report variant 0's error, complete the 15 others, and write the
# same summary.csv byte for byte; a re-run in the same folder reuses all 16 results.
#   cmake -DSINEW=... -DSWEEP=... -DOUT=DIR [-DMPI_RUN=mpirun -DSINEW_MPI=...] -P sweep_equal.cmake
file(REMOVE_RECURSE "${OUT}")

function(run_expect_1 name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${name}: exit code ${rc}, expected 1 (one variant fails)\n${out}\n${err}")
  endif()
  set(_out "${out}" PARENT_SCOPE)
endfunction()

# Fails unless summary files @p a and @p b are byte-identical (@p what names the runs compared).
function(expect_same a b what)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} RESULT_VARIABLE differ)
  if(differ)
    file(READ "${b}" m)
    message(FATAL_ERROR "summary.csv differs between ${what}:\n${m}")
  endif()
endfunction()

function(check_summary dir)
  file(READ "${dir}/summary.csv" s)
  string(REGEX MATCHALL "\n[0-9]+,[^\n]*,ok," ok_rows "${s}")
  list(LENGTH ok_rows n_ok)
  if(NOT n_ok EQUAL 15)
    message(FATAL_ERROR "${dir}/summary.csv: ${n_ok} variants ok, expected 15:\n${s}")
  endif()
  if(NOT s MATCHES "\n0,-0.05,nan,nan,nan,nan,failed,\"slope_friction.json variant 0 \\(mu=-0.05\\): /obstacles/0/friction")
    message(FATAL_ERROR "${dir}/summary.csv: variant 0's failure not reported:\n${s}")
  endif()
endfunction()

run_expect_1("sinew sweep" ${SINEW} sweep ${SWEEP} --out ${OUT}/local --jobs 2 --quiet)
check_summary(${OUT}/local)
run_expect_1("sinew sweep (again)" ${SINEW} sweep ${SWEEP} --out ${OUT}/local --jobs 2 --quiet)
file(READ "${OUT}/local/timings.csv" t)
string(REGEX MATCHALL ",1\n" reused "${t}")
list(LENGTH reused n_reused)
if(NOT n_reused EQUAL 16)
  message(FATAL_ERROR "the re-run reused ${n_reused} of 16 variants:\n${t}")
endif()
run_expect_1("sinew sweep --jobs 1" ${SINEW} sweep ${SWEEP} --out ${OUT}/jobs1 --jobs 1 --quiet)
expect_same(${OUT}/local/summary.csv ${OUT}/jobs1/summary.csv "--jobs 2 and --jobs 1")

if(DEFINED MPI_RUN)
  run_expect_1("mpirun -np 3 sinew-mpi sweep" ${MPI_RUN} --oversubscribe -np 3 ${SINEW_MPI} sweep ${SWEEP}
    --out ${OUT}/mpi --quiet)
  check_summary(${OUT}/mpi)
  expect_same(${OUT}/local/summary.csv ${OUT}/mpi/summary.csv "one process and 3 MPI ranks")
endif()
