// alloc_tests.cpp: the kernel backends' steady state allocates nothing.
//
// Replaces the global operator new for this test binary with a counting one
// (it still allocates through malloc), then runs forward() twice on the same
// Trace and shapes: the second call must not allocate at all. Likewise a
// second training step (forward_batch + backward_batch + Adam::step). Eigen's
// matrices allocate through malloc, not operator new, so on a plain glibc
// build (no sanitizer, which owns malloc itself; not Emscripten, whose libc
// malloc cannot be wrapped) malloc is counted too, through __libc_malloc.
// Everywhere, every Trace buffer must also keep its address.
// Does not: check Backend::Eigen (Eigen's GEMM may take heap workspace for
// large products; the app runs the kernel backends on the web).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "engine/core/adam.h"
#include "engine/core/attention_batch.h"
#include "reference.h"

namespace {
std::atomic<long> g_allocations{0};
}

#if defined(__SANITIZE_ADDRESS__)
#define HEADROOM_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEADROOM_COUNT_MALLOC 0
#endif
#endif
#if !defined(HEADROOM_COUNT_MALLOC)
#if defined(__GLIBC__) && !defined(__EMSCRIPTEN__)
#define HEADROOM_COUNT_MALLOC 1
#else
#define HEADROOM_COUNT_MALLOC 0
#endif
#endif

#if HEADROOM_COUNT_MALLOC
// Every malloc in the process (Eigen's aligned_malloc included) is counted.
extern "C" void* __libc_malloc(std::size_t n);
extern "C" void* malloc(std::size_t n) {
  ++g_allocations;
  return __libc_malloc(n);
}
#endif

void* operator new(std::size_t n) {
  if (!HEADROOM_COUNT_MALLOC) ++g_allocations;  // else malloc counts it
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace headroom;

namespace {
// Where every matrix of the Trace (and its scratch) keeps its floats.
std::vector<const float*> buffer_addresses(const Trace& t) {
  std::vector<const float*> out{t.concat.data(), t.out.data(), t.scratch.data()};
  for (const HeadTrace& h : t.heads)
    for (const Mat* m : {&h.q, &h.k, &h.v, &h.scores, &h.weights, &h.out}) out.push_back(m->data());
  return out;
}
}  // namespace

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
        const std::vector<const float*> buffers = buffer_addresses(t);
        const long before = g_allocations.load();
        REQUIRE(forward(x, w, t, opt).is_ok());
        const long allocations = g_allocations.load() - before;
        CHECK(allocations == 0);
        CHECK(buffer_addresses(t) == buffers);
      }
}

TEST_CASE("a second training step (forward_batch, backward_batch, Adam) allocates nothing") {
  struct Shape { int B, L, D, H; };
  for (const Shape& s : {Shape{32, 12, 64, 1}, Shape{4, 12, 64, 8}, Shape{3, 37, 96, 6},
                         Shape{2, 130, 64, 2}, Shape{5, 1, 16, 2}})
    for (Backend b : {Backend::Scalar, Backend::Simd}) {
      CAPTURE(backend_name(b)); CAPTURE(s.B); CAPTURE(s.L); CAPTURE(s.D); CAPTURE(s.H);
      const Mat x = ref::random_mat(s.B * s.L, s.D, 4);
      const Mat dy = ref::random_mat(s.B * s.L, s.D, 5);
      AttentionWeights w = ref::random_weights(s.D, s.H, 6);
      BatchTrace t;
      AttentionGrads g;
      Adam adam;
      Mat dx;
      auto train_step = [&] {
        REQUIRE(forward_batch(x, s.B, w, t, b).is_ok());
        REQUIRE(backward_batch(x, s.B, w, t, dy, g, b, &dx).is_ok());
        adam.step(w, g);
      };
      train_step();  // sizes the trace, the gradients and Adam's moments
      const float* out = t.out.data();
      const float* scratch = t.scratch.data();
      const long before = g_allocations.load();
      train_step();
      const long allocations = g_allocations.load() - before;
      CHECK(allocations == 0);
      CHECK(t.out.data() == out);
      CHECK(t.scratch.data() == scratch);
    }
}
