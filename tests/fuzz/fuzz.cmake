# fuzz.cmake: libFuzzer targets, included by CMakeLists.txt when HEADROOM_FUZZ
# is on (clang only; build.sh configures build/native-asan that way with
# -fsanitize=fuzzer-no-link,address,undefined for every object).
#
# Does: build one libFuzzer target per name in HEADROOM_FUZZ_TARGETS (the one
# list; build.sh asks CTest for it), and register a short ctest run
# of each (HEADROOM_FUZZ_SMOKE_SECONDS, default 10) seeded from
# tests/fuzz/corpus/<name>/; new inputs go to build/.../fuzz-corpus/<name>/.
# Does not: write into the source tree, or run long (./build.sh fuzz does).
set(HEADROOM_FUZZ_SMOKE_SECONDS 10 CACHE STRING "seconds each fuzzer runs under ctest")
set(HEADROOM_FUZZ_TARGETS tokenizer url_state json training tour)
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
  add_test(NAME fuzz_${name}
    COMMAND fuzz_${name} -max_total_time=${HEADROOM_FUZZ_SMOKE_SECONDS} -print_final_stats=1 ${dict} -artifact_prefix=${CMAKE_BINARY_DIR}/fuzz-artifacts/${name}-
      ${CMAKE_BINARY_DIR}/fuzz-corpus/${name} ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${name})
endforeach()
