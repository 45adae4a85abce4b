// alloc_tests.cpp: the kernel backends' steady state allocates nothing.
//
// Replaces the global operator new for this test binary with a counting one
// (it still allocates through malloc), then runs forward() twice on the same
// Trace and shapes: the second call must not allocate at all.
// Does not: check Backend::Eigen (Eigen's GEMM may take heap workspace for
// large products; the app runs the kernel backends on the web).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "reference.h"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace headroom;

TEST_CASE("a repeated forward with the kernel backends allocates nothing") {
  struct Shape { int L, D, H; };
  for (const Shape& s : {Shape{12, 64, 1}, Shape{12, 64, 8}, Shape{37, 96, 6}, Shape{130, 64, 2}})
    for (Backend b : {Backend::Scalar, Backend::Simd})
      for (bool causal : {false, true}) {
        CAPTURE(backend_name(b)); CAPTURE(s.L); CAPTURE(s.D); CAPTURE(s.H); CAPTURE(causal);
        const Mat x = ref::random_mat(s.L, s.D, 4);
        const AttentionWeights w = ref::random_weights(s.D, s.H, 6);
        Trace t;
        ForwardOptions opt;
        opt.backend = b;
        opt.causal = causal;
        REQUIRE(forward(x, w, t, opt).is_ok());  // sizes the Trace
        const long before = g_allocations.load();
        REQUIRE(forward(x, w, t, opt).is_ok());
        const long allocations = g_allocations.load() - before;
        CHECK(allocations == 0);
      }
}
