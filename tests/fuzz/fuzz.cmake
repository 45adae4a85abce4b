# fuzz.cmake: libFuzzer targets, included by CMakeLists.txt when HEADROOM_FUZZ
# is on (clang only; build.sh configures build/native-asan that way with
# -fsanitize=fuzzer-no-link,address,undefined for every object).
#
# Does: build one libFuzzer target per name in HEADROOM_FUZZ_TARGETS (the one
# list; build.sh asks CTest for it), and register a short ctest run
# of each seeded from tests/fuzz/corpus/<name>/, with a budget of inputs
# run (libFuzzer's -runs, HEADROOM_FUZZ_SMOKE_RUNS), not of seconds: a
# loaded machine runs the same inputs, only later; new inputs go to
# build/.../fuzz-corpus/<name>/.
# Does not: write into the source tree, or run long (./build.sh fuzz does).
set(HEADROOM_FUZZ_TARGETS tokenizer url_state json training tour)
# Inputs each fuzzer runs under ctest (seeds included). Ten seconds each
# used to run 98k (tokenizer), 106k (url_state), 124k (json), 9 (training:
# each input trains) and 35 (tour) inputs (a fresh ./build.sh test's
# asan.log, stat::number_of_executed_units); these budgets keep about a
# fifth of the fast ones' and all of the slow ones' (training: the seeds and one more).
set(HEADROOM_FUZZ_SMOKE_RUNS "tokenizer=20000;url_state=20000;json=20000;training=10;tour=35"
    CACHE STRING "name=runs for each fuzzer's ctest run")
foreach(name ${HEADROOM_FUZZ_TARGETS})
  add_executable(fuzz_${name} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${name}.cpp)
  target_link_libraries(fuzz_${name} PRIVATE headroom_app)
  target_include_directories(fuzz_${name} PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_compile_options(fuzz_${name} PRIVATE ${HEADROOM_WARNINGS})
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz-corpus/${name} ${CMAKE_BINARY_DIR}/fuzz-artifacts)
  set(dict "")
  if(EXISTS ${CMAKE_SOURCE_DIR}/tests/fuzz/${name}.dict)
    set(dict -dict=${CMAKE_SOURCE_DIR}/tests/fuzz/${name}.dict)
  endif()
  set(runs "")
  foreach(pair ${HEADROOM_FUZZ_SMOKE_RUNS})
    if(pair MATCHES "^${name}=([0-9]+)$")
      set(runs ${CMAKE_MATCH_1})
    endif()
  endforeach()
  if(runs STREQUAL "")
    message(FATAL_ERROR "HEADROOM_FUZZ_SMOKE_RUNS has no budget for fuzz_${name}")
  endif()
  add_test(NAME fuzz_${name}
    COMMAND fuzz_${name} -runs=${runs} -print_final_stats=1 ${dict} -artifact_prefix=${CMAKE_BINARY_DIR}/fuzz-artifacts/${name}-
      ${CMAKE_BINARY_DIR}/fuzz-corpus/${name} ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${name})
endforeach()
