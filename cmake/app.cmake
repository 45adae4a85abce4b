# app.cmake: src/app's rooms, each its own library whose links say what it
# may use (included by CMakeLists.txt in every configuration), as the
# engine's rooms are (cmake/engine.cmake).
#
#   headroom_app_lang      src/app/lang/      the catalogues (*.po) and the language
#                                             shown, the Scene in words (engine)
#   headroom_app_wire      src/app/wire/      JSON writing, the training wire format,
#                                             the text model's snapshot (lang: a
#                                             refusal travels as its code; engine)
#   headroom_app_training  src/app/training/  live training, here or in a Worker
#                                             (wire, lang, engine)
#   headroom_app_tour      src/app/tour/      the guided lesson: it measures through
#                                             TourHost, never the Demo (training, wire,
#                                             lang, engine)
#   headroom_app_state     src/app/state/     the Demo and its verbs, the URL hash,
#                                             exports, the state JSON (every room)
#   headroom_app           all five, for the UI, the platform and the tests
#   headroom_app_lang_every, headroom_app_lang_english: the catalogues
#                                             compiled in (below)
#
# Does: give each room an include root of its own in the build folder
# (app-rooms/<room>/app/<room> -> src/app/<room>), so a room sees exactly the
# headers of the rooms it links: `#include "app/state/demo.h"` in a tour or
# lang file is "file not found", a build error. CTest's app_rooms_* tests
# prove it, app_rooms_includes that no quoted include walks around a root,
# and app_include_cycles_<room> that no two files of a room include each other.
# Does not: build anything outside src/app.

set(HEADROOM_APP_ROOMS_DIR ${CMAKE_BINARY_DIR}/app-rooms)
set(HEADROOM_APP_ROOMS lang wire training tour state)

# headroom_app_room(<room> [LINKS <libs>...]): the library of src/app/<room>/
# with its own include root.
function(headroom_app_room room)
  cmake_parse_arguments(ARG "" "" "LINKS" ${ARGN})
  set(root ${HEADROOM_APP_ROOMS_DIR}/${room})
  file(MAKE_DIRECTORY ${root}/app)
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/app/${room} ${root}/app/${room} SYMBOLIC)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/app/${room}/*.cpp)
  add_library(headroom_app_${room} STATIC ${sources})
  target_include_directories(headroom_app_${room} PUBLIC ${root})
  target_compile_options(headroom_app_${room} PRIVATE ${HEADROOM_WARNINGS})
  target_link_libraries(headroom_app_${room} PUBLIC headroom_engine ${ARG_LINKS})
endfunction()

headroom_app_room(lang)
headroom_app_room(wire LINKS headroom_app_lang)
headroom_app_room(training LINKS headroom_app_wire headroom_app_lang)
headroom_app_room(tour LINKS headroom_app_training headroom_app_wire headroom_app_lang)
headroom_app_room(state LINKS headroom_app_tour headroom_app_training headroom_app_wire headroom_app_lang)

# The interface's languages, one catalogue per file (app/lang/lang.h), compiled
# in by one of two libraries of app/lang/catalogues/catalogues.cpp, built
# from two generated headers: headroom_app_lang_every (every catalogue:
# native programs, the test suites, the first picture) or
# headroom_app_lang_english (English only: the site's wasm, whose page
# fetches the others; a program says so with the target property
# HEADROOM_FETCHED_CATALOGUES, cmake/web.cmake). headroom_app_lang links the
# one its program asks for, after itself on the link line.
include(${CMAKE_SOURCE_DIR}/cmake/embed.cmake)
file(GLOB HEADROOM_LANG_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/app/lang/*.po)
headroom_embed_catalogues(${CMAKE_BINARY_DIR}/generated_app ${HEADROOM_LANG_FILES})
foreach(which every english)
  add_library(headroom_app_lang_${which} STATIC ${CMAKE_SOURCE_DIR}/src/app/lang/catalogues/catalogues.cpp)
  target_include_directories(headroom_app_lang_${which} PRIVATE ${CMAKE_BINARY_DIR}/generated_app/${which}
    ${HEADROOM_APP_ROOMS_DIR}/lang)
  target_compile_options(headroom_app_lang_${which} PRIVATE ${HEADROOM_WARNINGS})
endforeach()
target_link_libraries(headroom_app_lang INTERFACE
  "$<IF:$<BOOL:$<TARGET_PROPERTY:HEADROOM_FETCHED_CATALOGUES>>,headroom_app_lang_english,headroom_app_lang_every>")

# Everything above the app (the UI, the platform, the tests) includes by the
# repository's src/ root.
add_library(headroom_app INTERFACE)
target_link_libraries(headroom_app INTERFACE headroom_app_state)
target_include_directories(headroom_app INTERFACE ${CMAKE_SOURCE_DIR}/src)

# The walls, as CTest tests (native only): a lang file and a tour file that
# include the Demo must fail to compile for want of the header; the same
# files without it compile (so the failure is the wall, not a typo).
if(NOT EMSCRIPTEN AND NOT HEADROOM_FUZZ AND BUILD_TESTING_ROOMS)
  foreach(wall lang_uses_state tour_uses_state)
    string(REGEX MATCH "^[a-z]+" room ${wall})
    foreach(kind allowed forbidden)
      add_library(app_rooms_${wall}_${kind} OBJECT EXCLUDE_FROM_ALL
        ${CMAKE_SOURCE_DIR}/tests/rooms/${wall}.cpp)
      target_link_libraries(app_rooms_${wall}_${kind} PRIVATE headroom_app_${room})
      if(kind STREQUAL "forbidden")
        target_compile_definitions(app_rooms_${wall}_${kind} PRIVATE HEADROOM_CROSS_THE_WALL=1)
      endif()
    endforeach()
    add_test(NAME app_rooms_${wall}_allowed
      COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target app_rooms_${wall}_allowed)
    add_test(NAME app_rooms_${wall}_forbidden
      COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target app_rooms_${wall}_forbidden)
    set_tests_properties(app_rooms_${wall}_allowed app_rooms_${wall}_forbidden PROPERTIES
      RESOURCE_LOCK headroom_build_folder)
    set_tests_properties(app_rooms_${wall}_forbidden PROPERTIES
      PASS_REGULAR_EXPRESSION "app/[a-z]+/[a-z_]+\\.h: No such file|'app/[a-z]+/[a-z_]+\\.h' file not found")
  endforeach()
  add_test(NAME app_rooms_includes
    COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR}/src -DTREE=app -P ${CMAKE_SOURCE_DIR}/tests/rooms/includes.cmake)
  find_program(HEADROOM_NODE_FOR_ROOMS node)
  if(HEADROOM_NODE_FOR_ROOMS)
    foreach(room IN LISTS HEADROOM_APP_ROOMS)
      add_test(NAME app_include_cycles_${room} COMMAND ${HEADROOM_NODE_FOR_ROOMS}
        ${CMAKE_SOURCE_DIR}/tests/rooms/include_cycles.mjs ${CMAKE_SOURCE_DIR}/src/app/${room} app/${room}/)
    endforeach()
  endif()
endif()
