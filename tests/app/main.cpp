// main.cpp: doctest's runner for the app suite (src/app: the Demo's verbs,
// URL state, the words). Native, under ASan + UBSan, and as wasm under node.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
