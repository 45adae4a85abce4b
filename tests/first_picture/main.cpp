// main.cpp: doctest's runner for the first picture's suite (the build-time
// picture's numbers against the engine's). Native, under ASan + UBSan, and
// as wasm under node.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
