# engine.cmake: the engine's rooms, each its own library whose links say what
# it may use (included by CMakeLists.txt in every configuration).
#
#   headroom_engine_common  src/engine/common/  embedding layout, role bits,
#                           portable random numbers (uses nothing)
#   headroom_engine_core    src/engine/core/    tensors, attention forward and
#                           backward, Adam, kernels/ (uses nothing)
#   headroom_engine_lesson  src/engine/lesson/  tokenizer, lexicon, parser,
#                           relations, scene, readout, value map (core, common)
#   headroom_engine_train   src/engine/train/   the task and the trainer
#                           (core, common; never the lesson)
#   headroom_engine         all four, for the app and the tests
#
# Does: give each room an include root of its own in the build folder
# (rooms/<room>/engine/<room> -> src/engine/<room>), so a room sees exactly the
# headers of the rooms it links: `#include "engine/lesson/parser.h"` in a
# train file is "file not found", a build error. CTest's engine_rooms_* tests
# prove it (tests/rooms/), and engine_rooms_includes that no quoted include
# walks around a root ("../lesson/parser.h").
# Does not: build anything outside src/engine.

set(HEADROOM_ROOMS_DIR ${CMAKE_BINARY_DIR}/rooms)

# headroom_room(<room> [LINKS <libs>...]): the library of src/engine/<room>/
# with its own include root.
function(headroom_room room)
  cmake_parse_arguments(ARG "" "" "LINKS" ${ARGN})
  set(root ${HEADROOM_ROOMS_DIR}/${room})
  file(MAKE_DIRECTORY ${root}/engine)
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/engine/${room} ${root}/engine/${room} SYMBOLIC)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/engine/${room}/*.cpp)
  if(room STREQUAL "core")
    # kernels/: the ISA folders other than this build's are not compiled
    list(FILTER sources EXCLUDE REGEX "/kernels/(wasm|generic)/")
    file(GLOB isa_sources CONFIGURE_DEPENDS
      ${CMAKE_SOURCE_DIR}/src/engine/core/kernels/${HEADROOM_KERNEL_ISA}/*.cpp)
    list(APPEND sources ${isa_sources})
  endif()
  add_library(headroom_engine_${room} STATIC ${sources})
  target_include_directories(headroom_engine_${room} PUBLIC ${root})
  target_include_directories(headroom_engine_${room} SYSTEM PUBLIC ${EIGEN3_INCLUDE_DIR})
  target_compile_options(headroom_engine_${room} PRIVATE ${HEADROOM_WARNINGS} ${HEADROOM_SIMD_FLAGS})
  target_compile_definitions(headroom_engine_${room} PUBLIC EIGEN_MPL2_ONLY EIGEN_NO_DEBUG)
  if(EMSCRIPTEN)
    target_compile_options(headroom_engine_${room} PUBLIC -msimd128)
  elseif(HEADROOM_MARCH_NATIVE)
    target_compile_options(headroom_engine_${room} PUBLIC -march=native)
  endif()
  if(ARG_LINKS)
    target_link_libraries(headroom_engine_${room} PUBLIC ${ARG_LINKS})
  endif()
endfunction()

headroom_room(common)
headroom_room(core)
headroom_room(lesson LINKS headroom_engine_core headroom_engine_common)
headroom_room(train LINKS headroom_engine_core headroom_engine_common)

add_library(headroom_engine INTERFACE)
target_link_libraries(headroom_engine INTERFACE
  headroom_engine_lesson headroom_engine_train headroom_engine_core headroom_engine_common)

# The scalar reference twins stay scalar: no auto-vectorisation, so the
# "scalar" benchmark variant and the twins mean what they say.
file(GLOB HEADROOM_SCALAR_KERNELS CONFIGURE_DEPENDS src/engine/core/kernels/*__scalar*.cpp)
set_source_files_properties(${HEADROOM_SCALAR_KERNELS} PROPERTIES COMPILE_OPTIONS
  "$<$<CXX_COMPILER_ID:GNU>:-fno-tree-vectorize>;$<$<CXX_COMPILER_ID:Clang>:-fno-vectorize;-fno-slp-vectorize>")
if(NOT EMSCRIPTEN)
  # kernels/generic/ is written for the compiler to vectorise: let a*b + c
  # become one FMA where the target has it (its tests use tolerances); its
  # vector-extension helpers are inline, so GCC's note that 32-byte vector
  # returns change the ABI without AVX (-Wpsabi) does not apply.
  file(GLOB HEADROOM_GENERIC_KERNELS CONFIGURE_DEPENDS src/engine/core/kernels/generic/*.cpp)
  set_source_files_properties(${HEADROOM_GENERIC_KERNELS} PROPERTIES COMPILE_OPTIONS
    "-ffp-contract=fast;-Wno-psabi")
endif()

# The rooms' walls, as CTest tests (native only): a train file that includes
# the parser, and a core file that includes the trainer, must fail to compile
# for want of the header; the same files without the forbidden include must
# compile (so the failure is the wall, not a typo).
if(NOT EMSCRIPTEN AND NOT HEADROOM_FUZZ AND BUILD_TESTING_ROOMS)
  foreach(wall train_uses_parser core_uses_trainer)
    string(REGEX MATCH "^[a-z]+" room ${wall})
    foreach(kind allowed forbidden)
      add_library(rooms_${wall}_${kind} OBJECT EXCLUDE_FROM_ALL
        ${CMAKE_SOURCE_DIR}/tests/rooms/${wall}.cpp)
      target_link_libraries(rooms_${wall}_${kind} PRIVATE headroom_engine_${room})
      if(kind STREQUAL "forbidden")
        target_compile_definitions(rooms_${wall}_${kind} PRIVATE HEADROOM_CROSS_THE_WALL=1)
      endif()
    endforeach()
    add_test(NAME engine_rooms_${wall}_allowed
      COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target rooms_${wall}_allowed)
    add_test(NAME engine_rooms_${wall}_forbidden
      COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target rooms_${wall}_forbidden)
    # Two builds in one build folder at once trip over each other (ctest -j).
    set_tests_properties(engine_rooms_${wall}_allowed engine_rooms_${wall}_forbidden PROPERTIES
      RESOURCE_LOCK headroom_build_folder)
    set_tests_properties(engine_rooms_${wall}_forbidden PROPERTIES
      PASS_REGULAR_EXPRESSION "engine/[a-z]+/[a-z_]+\\.h: No such file|'engine/[a-z]+/[a-z_]+\\.h' file not found")
  endforeach()
  # ... and no include walks around them ("../lesson/parser.h", "engine/train/../lesson/...").
  add_test(NAME engine_rooms_includes
    COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR}/src -P ${CMAKE_SOURCE_DIR}/tests/rooms/includes.cmake)
endif()
