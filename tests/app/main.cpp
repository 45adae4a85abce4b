// main.cpp: doctest's runner for the app suite (pure C++ parts of src/app:
// URL state). Native, under ASan + UBSan, and as wasm under node.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
