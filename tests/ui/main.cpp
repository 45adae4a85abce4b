// main.cpp: doctest's runner for the UI geometry suite (src/ui files that
// use no ImGui: label_place). Native, under ASan + UBSan, and as wasm under node.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
