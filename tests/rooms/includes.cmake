# includes.cmake: the rooms' walls against paths that walk around them
# (cmake -DSRC=<repo>/src [-DTREE=engine|app] -P tests/rooms/includes.cmake;
# CTest's engine_rooms_includes and app_rooms_includes).
#
# Does: read every quoted #include in src/<tree>/<room>/ (engine or app) and fail, naming
# each, when an "engine/..." or "app/..." include has a ".." in it
# ("engine/train/../lesson/parser.h" reaches the lesson through the train
# room's own include root), or when any other include, resolved next to its
# file ("../lesson/parser.h"), lands outside the file's own room. The
# include roots (engine.cmake) stop "engine/lesson/..." from a train file;
# this stops the paths they cannot see.
# Does not: read angle-bracket includes (Eigen, the standard library).
if(NOT SRC)
  message(FATAL_ERROR "includes.cmake: pass -DSRC=<repo>/src")
endif()
if(NOT TREE)
  set(TREE engine)  # the tree whose folders are rooms: src/engine or src/app
endif()
file(GLOB_RECURSE files ${SRC}/${TREE}/*.h ${SRC}/${TREE}/*.cpp)
set(checked 0)
set(bad "")
foreach(f IN LISTS files)
  file(RELATIVE_PATH rel ${SRC}/${TREE} ${f})
  string(REGEX MATCH "^[a-z]+" room "${rel}")
  get_filename_component(dir ${f} DIRECTORY)
  file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
    math(EXPR checked "${checked} + 1")
    if(inc MATCHES "^(engine|app)/")
      if(inc MATCHES "\\.\\.")
        list(APPEND bad "${rel}: \"${inc}\" walks out of a room's include root")
      endif()
    else()
      get_filename_component(target ${dir}/${inc} ABSOLUTE)
      file(RELATIVE_PATH trel ${SRC}/${TREE} ${target})
      if(NOT trel MATCHES "^${room}/")
        list(APPEND bad "${rel}: \"${inc}\" is ${trel}, outside the ${room} room")
      endif()
    endif()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "includes that cross a room's wall:\n  ${text}")
endif()
message(STATUS "${TREE} rooms: ${checked} quoted includes, each inside its room or through an include root")
