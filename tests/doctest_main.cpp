// doctest_main.cpp: doctest's runner, one object linked into every doctest
// suite (engine, app, ui, first_picture), natively, under ASan + UBSan and as
// wasm under node.
// Does: main(): doctest's command line (filters, reporters, --duration).
// Does not: hold tests (each suite's folder does).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
