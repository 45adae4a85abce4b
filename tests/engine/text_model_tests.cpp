// text_model_tests.cpp: what the text model added to the core (causal
// attention forward and backward, embedding gather / scatter-add,
// softmax cross-entropy, matmul, AdamList) and the text model itself
// (text_model.h) against independent references.
//
// The reference is a naive double-precision language model written here from
// text_model.h's formula (loops, no Eigen products, no engine code): token +
// position embeddings, causal multi-head attention layers on a residual
// stream, unembedding + bias, mean cross-entropy over scored rows. Gradients
// are its central finite differences in double, every entry of every
// parameter matrix nudged by +-kTextFdStep. Tolerances are named; a failing CHECK
// prints the worst difference through CAPTURE.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/core/adam.h"
#include "engine/core/attention_batch.h"
#include "engine/core/cross_entropy.h"
#include "engine/core/embedding_rows.h"
#include "engine/core/matmul.h"
#include "engine/train/text_model.h"
#include "reference.h"

using namespace headroom;

namespace {

// Float gradients against double finite differences, relative to the
// largest magnitude of that matrix's reference gradient.
constexpr double kTextGradRelTol = 5e-4;
// Central-difference step in double.
constexpr double kTextFdStep = 1e-5;
// Two backends' float results (summation order, FMA or not, exp variants).
constexpr double kTextBackendRelTol = 5e-5;
// A float cross-entropy (softmax kernel, float logs) against double.
constexpr double kLossRelTol = 2e-6;

constexpr Backend kTextBackends[] = {Backend::Eigen, Backend::Scalar, Backend::Simd};

// The text model in double, from the formula. `m` lists the parameters in
// text_param_list's order. With ko_layer >= 0, head ko_head of that layer is
// knocked out: its output O_h is left out of the concatenation (zero there).
double naive_text_loss(const TextShape& s, const std::vector<MatD>& m, const std::vector<int>& ids,
                       const std::vector<int>& targets, int B, int ko_layer = -1, int ko_head = -1) {
  const int L = s.tokens, D = s.d_model, H = s.heads, dh = D / H, V = s.vocab;
  const MatD& tok = m[0];
  const MatD& pos = m[1];
  const size_t per_layer = 3 * static_cast<size_t>(H) + 1;
  const MatD& wu = m[2 + per_layer * s.layers];
  const MatD& bu = m[3 + per_layer * s.layers];
  double sum = 0;
  int scored = 0;
  for (int b = 0; b < B; ++b) {
    MatD x(L, D);
    for (int i = 0; i < L; ++i)
      for (int d = 0; d < D; ++d) x(i, d) = tok(ids[b * L + i], d) + pos(i, d);
    for (int l = 0; l < s.layers; ++l) {
      const size_t at = 2 + per_layer * l;
      MatD concat = MatD::Zero(L, D);
      for (int h = 0; h < H; ++h) {
        if (l == ko_layer && h == ko_head) continue;  // O_h = 0
        const MatD& wq = m[at + 3 * h];
        const MatD& wk = m[at + 3 * h + 1];
        const MatD& wv = m[at + 3 * h + 2];
        MatD q = MatD::Zero(L, dh), k = MatD::Zero(L, dh), v = MatD::Zero(L, dh);
        for (int i = 0; i < L; ++i)
          for (int c = 0; c < dh; ++c)
            for (int d = 0; d < D; ++d) {
              q(i, c) += x(i, d) * wq(d, c);
              k(i, c) += x(i, d) * wk(d, c);
              v(i, c) += x(i, d) * wv(d, c);
            }
        for (int i = 0; i < L; ++i) {
          std::vector<double> sc(i + 1, 0.0);
          double mx = -1e300, z = 0;
          for (int j = 0; j <= i; ++j) {
            for (int c = 0; c < dh; ++c) sc[j] += q(i, c) * k(j, c);
            sc[j] /= std::sqrt(double(dh));
            mx = std::max(mx, sc[j]);
          }
          for (int j = 0; j <= i; ++j) z += std::exp(sc[j] - mx);
          for (int j = 0; j <= i; ++j)
            for (int c = 0; c < dh; ++c) concat(i, h * dh + c) += std::exp(sc[j] - mx) / z * v(j, c);
        }
      }
      const MatD& wo = m[at + 3 * H];
      MatD y = MatD::Zero(L, D);
      for (int i = 0; i < L; ++i)
        for (int c = 0; c < D; ++c)
          for (int d = 0; d < D; ++d) y(i, c) += concat(i, d) * wo(d, c);
      x += y;
    }
    for (int i = 0; i < L; ++i) {
      const int t = targets[b * L + i];
      if (t < 0) continue;
      std::vector<double> zr(V, 0.0);
      double mx = -1e300, z = 0;
      for (int v = 0; v < V; ++v) {
        zr[v] = bu(0, v);
        for (int d = 0; d < D; ++d) zr[v] += x(i, d) * wu(d, v);
        mx = std::max(mx, zr[v]);
      }
      for (int v = 0; v < V; ++v) z += std::exp(zr[v] - mx);
      sum += mx + std::log(z) - zr[t];
      ++scored;
    }
  }
  return sum / scored;
}

std::vector<MatD> to_double(TextParams& p) {
  std::vector<MatD> out;
  for (Mat* m : text_param_list(p)) out.push_back(m->cast<double>());
  return out;
}

struct Case {
  TextShape shape;
  int B;
};

// A small random problem: ids, targets with a few unscored (-1) rows.
void make_batch(const Case& c, uint64_t seed, std::vector<int>& ids, std::vector<int>& targets) {
  const int n = c.B * c.shape.tokens;
  ids.resize(n);
  targets.resize(n);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  for (int i = 0; i < n; ++i) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    ids[i] = static_cast<int>(s % static_cast<uint64_t>(c.shape.vocab));
    targets[i] = static_cast<int>((s >> 20) % static_cast<uint64_t>(c.shape.vocab));
    if (i % 5 == 3) targets[i] = -1;
  }
}

}  // namespace

TEST_CASE("causal forward_batch: rows sum to 1, zero above the diagonal, equal to the naive causal forward") {
  const int B = 3, L = 6, D = 8, H = 2;
  const Mat x = ref::random_mat(B * L, D, 41);
  const AttentionWeights w = ref::random_weights(D, H, 42, 0.9f);
  for (Backend b : kTextBackends) {
    CAPTURE(backend_name(b));
    BatchTrace t;
    REQUIRE(forward_batch(x, B, w, t, b, true).is_ok());
    CHECK(t.causal);
    for (int s = 0; s < B; ++s) {
      const ref::NaiveTrace n = ref::naive_forward(x.middleRows(s * L, L), w, true);
      for (int h = 0; h < H; ++h) {
        const auto P = t.weights(s, h);
        for (int i = 0; i < L; ++i) {
          CHECK(P.row(i).sum() == doctest::Approx(1.0).epsilon(1e-6));
          for (int j = i + 1; j < L; ++j) CHECK(P(i, j) == 0.f);
        }
        const double dp = ref::rel_diff(P, n.weights[h]);
        CAPTURE(dp);
        CHECK(dp <= 1e-5);
      }
      const double dy = ref::rel_diff(t.out.middleRows(s * L, L), n.out);
      CAPTURE(dy);
      CHECK(dy <= 1e-5);
    }
  }
}

TEST_CASE("causal attention: a later token never changes an earlier row's output") {
  const int L = 7, D = 8, H = 4;
  Mat x = ref::random_mat(L, D, 51);
  const AttentionWeights w = ref::random_weights(D, H, 52, 1.f);
  for (Backend b : kTextBackends) {
    BatchTrace before, after;
    REQUIRE(forward_batch(x, 1, w, before, b, true).is_ok());
    Mat x2 = x;
    x2.row(4) = ref::random_mat(1, D, 53);
    REQUIRE(forward_batch(x2, 1, w, after, b, true).is_ok());
    CHECK(after.out.topRows(4) == before.out.topRows(4));              // rows 0..3 cannot see token 4
    CHECK((after.out.row(4) - before.out.row(4)).norm() > 1e-3f);    // row 4 can
  }
}

TEST_CASE("gather_rows and scatter_add_rows: rows by id, repeated ids accumulate, bad ids refused") {
  const Mat table = ref::random_mat(5, 3, 61);
  const std::vector<int> ids = {4, 0, 4, 2};
  Mat x;
  REQUIRE(gather_rows(table, ids, x).is_ok());
  for (size_t i = 0; i < ids.size(); ++i) CHECK(x.row(i) == table.row(ids[i]));
  const Mat dx = ref::random_mat(4, 3, 62);
  Mat dt = Mat::Zero(5, 3);
  REQUIRE(scatter_add_rows(dx, ids, dt).is_ok());
  CHECK(dt.row(4).isApprox(dx.row(0) + dx.row(2)));
  CHECK(dt.row(0) == dx.row(1));
  CHECK(dt.row(2) == dx.row(3));
  CHECK(dt.row(1).isZero());
  CHECK(dt.row(3).isZero());
  const Mat keep = dt;
  CHECK_FALSE(gather_rows(table, {0, 5}, x).is_ok());
  CHECK_FALSE(scatter_add_rows(dx, {0, 1, -1, 2}, dt).is_ok());
  CHECK(dt == keep);
}

TEST_CASE("softmax_cross_entropy: loss and dZ against double, unscored rows, refusals") {
  const int N = 9, V = 37;
  const Mat z = ref::random_mat(N, V, 71, 4.f);
  std::vector<int> t(N);
  for (int i = 0; i < N; ++i) t[i] = (i * 7 + 3) % V;
  t[2] = -1;
  // the reference in double
  double sum = 0;
  MatD dz_ref = MatD::Zero(N, V);
  const int scored = N - 1;
  for (int i = 0; i < N; ++i) {
    if (t[i] < 0) continue;
    double mx = -1e300, s = 0;
    for (int v = 0; v < V; ++v) mx = std::max(mx, double(z(i, v)));
    for (int v = 0; v < V; ++v) s += std::exp(z(i, v) - mx);
    sum += mx + std::log(s) - z(i, t[i]);
    for (int v = 0; v < V; ++v) dz_ref(i, v) = (std::exp(z(i, v) - mx) / s - (v == t[i])) / scored;
  }
  for (Backend b : kTextBackends) {
    CAPTURE(backend_name(b));
    CrossEntropy ce;
    Mat dz;
    REQUIRE(softmax_cross_entropy(z, t, b, ce, &dz).is_ok());
    CHECK(ce.scored == scored);
    CHECK(ce.loss == doctest::Approx(sum / scored).epsilon(kLossRelTol));
    const double d = ref::rel_diff(dz, dz_ref);
    CAPTURE(d);
    CHECK(d <= 1e-5);
    CHECK(dz.row(2).isZero());
    CrossEntropy ce2;
    Mat probs;
    REQUIRE(softmax_cross_entropy(z, t, b, ce2, nullptr, &probs).is_ok());
    CHECK(ce2.loss == ce.loss);
  }
  // a logit so low its float probability underflows: the double path
  Mat far = Mat::Zero(1, 4);
  far(0, 0) = 200.f;
  CrossEntropy ce;
  REQUIRE(softmax_cross_entropy(far, {1}, Backend::Scalar, ce, nullptr).is_ok());
  CHECK(ce.loss == doctest::Approx(200.0).epsilon(1e-6));
  CHECK_FALSE(softmax_cross_entropy(z, std::vector<int>(N, -1), Backend::Scalar, ce, nullptr).is_ok());
  CHECK_FALSE(softmax_cross_entropy(z, std::vector<int>(N, V), Backend::Scalar, ce, nullptr).is_ok());
  CHECK_FALSE(softmax_cross_entropy(z, std::vector<int>(N - 1, 0), Backend::Scalar, ce, nullptr).is_ok());
}

TEST_CASE("matmul, matmul_tn, matmul_nt on every backend equal the double product") {
  for (int M : {1, 5, 17})
    for (int N : {1, 7, 33})
      for (int K : {1, 8, 13}) {
        const Mat a = ref::random_mat(M, K, 81 + M), b = ref::random_mat(K, N, 82 + N);
        const Mat at = a.transpose(), bt = b.transpose();
        const MatD want = ref::naive_gemm(a, b);
        for (Backend be : kTextBackends) {
          CAPTURE(M); CAPTURE(N); CAPTURE(K); CAPTURE(backend_name(be));
          MatmulWork w;
          Mat c;
          REQUIRE(matmul(a, b, c, be, w).is_ok());
          CHECK(ref::rel_diff(c, want) <= ref::kGemmRelTol);
          REQUIRE(matmul_tn(at, b, c, be, w).is_ok());
          CHECK(ref::rel_diff(c, want) <= ref::kGemmRelTol);
          REQUIRE(matmul_nt(a, bt, c, be, w).is_ok());
          CHECK(ref::rel_diff(c, want) <= ref::kGemmRelTol);
        }
      }
  MatmulWork w;
  Mat c;
  CHECK_FALSE(matmul(ref::random_mat(2, 3, 1), ref::random_mat(4, 2, 2), c, Backend::Simd, w).is_ok());
}

TEST_CASE("text model: every gradient equals central differences in double (causal, embeddings, cross-entropy, two layers)") {
  const Case cases[] = {{{7, 8, 5, 2, 1}, 2}, {{6, 8, 4, 2, 2}, 2}, {{5, 4, 3, 1, 2}, 3}, {{9, 8, 6, 4, 2}, 1}};
  for (const Case& c : cases) {
    CAPTURE(c.shape.layers); CAPTURE(c.shape.heads); CAPTURE(c.shape.tokens);
    REQUIRE(check_text_shape(c.shape).is_ok());
    TextParams p = initial_text_params(c.shape, 5, 9);
    // bigger attention weights than the initial ones, so the scores matter
    for (AttentionWeights& w : p.layers) {
      const AttentionWeights r = ref::random_weights(c.shape.d_model, c.shape.heads, 90 + c.shape.layers, 1.f);
      w = r;
    }
    p.bias = ref::random_mat(1, c.shape.vocab, 91);
    std::vector<int> ids, targets;
    make_batch(c, 17, ids, targets);
    std::vector<MatD> md = to_double(p);
    const double loss0 = naive_text_loss(c.shape, md, ids, targets, c.B);
    // finite differences of every entry of every matrix
    std::vector<MatD> fd;
    for (MatD& m : md) {
      MatD g(m.rows(), m.cols());
      for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
          const double keep = m(i, j);
          m(i, j) = keep + kTextFdStep;
          const double up = naive_text_loss(c.shape, md, ids, targets, c.B);
          m(i, j) = keep - kTextFdStep;
          const double down = naive_text_loss(c.shape, md, ids, targets, c.B);
          m(i, j) = keep;
          g(i, j) = (up - down) / (2 * kTextFdStep);
        }
      fd.push_back(std::move(g));
    }
    for (Backend b : kTextBackends) {
      CAPTURE(backend_name(b));
      TextWork work;
      TextGrads g;
      CrossEntropy ce;
      REQUIRE(text_loss(p, ids, targets, c.B, b, work, ce, &g).is_ok());
      CHECK(ce.loss == doctest::Approx(loss0).epsilon(1e-5));
      const std::vector<const Mat*> gl = text_grad_list(g);
      REQUIRE(gl.size() == fd.size());
      for (size_t k = 0; k < gl.size(); ++k) {
        CAPTURE(k);
        const double d = ref::rel_diff(*gl[k], fd[k]);
        CAPTURE(d);
        CHECK(d <= kTextGradRelTol);
        CHECK(fd[k].cwiseAbs().maxCoeff() > 1e-6);  // every matrix's gradient is seen (none trivially 0)
      }
    }
  }
}

TEST_CASE("text model: backends agree; a perturbation moves the loss; an unused word's row gets no gradient") {
  const Case c{{11, 16, 8, 4, 2}, 3};
  TextParams p = initial_text_params(c.shape, 3, 9);
  std::vector<int> ids, targets;
  make_batch(c, 23, ids, targets);
  TextGrads ge, gs, gv;
  TextWork work;
  CrossEntropy ce, cs, cv;
  REQUIRE(text_loss(p, ids, targets, c.B, Backend::Eigen, work, ce, &ge).is_ok());
  REQUIRE(text_loss(p, ids, targets, c.B, Backend::Scalar, work, cs, &gs).is_ok());
  REQUIRE(text_loss(p, ids, targets, c.B, Backend::Simd, work, cv, &gv).is_ok());
  const auto le = text_grad_list(ge), ls = text_grad_list(gs), lv = text_grad_list(gv);
  for (size_t k = 0; k < le.size(); ++k) {
    CAPTURE(k);
    CHECK(ref::rel_diff(*lv[k], *ls[k]) <= kTextBackendRelTol);
    CHECK(ref::rel_diff(*le[k], *ls[k]) <= kTextBackendRelTol);
  }
  CHECK(ce.loss == doctest::Approx(cs.loss).epsilon(1e-6));
  // ids never used as input: their embedding rows get exactly zero gradient
  for (int v = 0; v < c.shape.vocab; ++v)
    if (std::find(ids.begin(), ids.end(), v) == ids.end()) CHECK(gs.tok.row(v).isZero());
  // nudging the second layer's W_Q of head 1 moves the loss
  TextParams q = p;
  q.layers[1].wq[1] *= 3.f;
  CrossEntropy c2;
  REQUIRE(text_loss(q, ids, targets, c.B, Backend::Scalar, work, c2, nullptr).is_ok());
  CHECK(std::abs(c2.loss - cs.loss) > 1e-4);
  // a word changed at position 5 leaves the logits of positions 0..4 as they were
  REQUIRE(text_forward(p, ids, c.B, Backend::Scalar, work).is_ok());
  const Mat before = work.logits;
  std::vector<int> ids2 = ids;
  ids2[5] = (ids2[5] + 1) % c.shape.vocab;
  REQUIRE(text_forward(p, ids2, c.B, Backend::Scalar, work).is_ok());
  CHECK(work.logits.topRows(5) == before.topRows(5));
  CHECK((work.logits.row(5) - before.row(5)).norm() > 1e-4f);
  // refusals
  CHECK_FALSE(text_forward(p, std::vector<int>(5, 0), 1, Backend::Scalar, work).is_ok());
  CHECK_FALSE(check_text_shape({11, 16, 8, 3, 1}).is_ok());
  CHECK_FALSE(check_text_shape({11, 16, 8, 4, 3}).is_ok());
}

TEST_CASE("knockout: equals the naive model with that head's output zeroed, on every backend") {
  const Case cases[] = {{{7, 8, 5, 2, 1}, 2}, {{9, 8, 6, 4, 2}, 2}};
  for (const Case& c : cases) {
    TextParams p = initial_text_params(c.shape, 5, 9);
    for (AttentionWeights& w : p.layers) w = ref::random_weights(c.shape.d_model, c.shape.heads, 90 + c.shape.layers, 1.f);
    std::vector<int> ids, targets;
    make_batch(c, 17, ids, targets);
    const double whole = naive_text_loss(c.shape, to_double(p), ids, targets, c.B);
    for (int l = 0; l < c.shape.layers; ++l)
      for (int h = 0; h < c.shape.heads; ++h) {
        CAPTURE(c.shape.layers); CAPTURE(l); CAPTURE(h);
        const double want = naive_text_loss(c.shape, to_double(p), ids, targets, c.B, l, h);
        CHECK(std::abs(want - whole) > 1e-4);  // the head mattered: the check below is not vacuous
        TextParams q = p;
        REQUIRE(knock_out_head(q, l, h).is_ok());
        for (Backend b : kTextBackends) {
          CAPTURE(backend_name(b));
          TextWork work;
          CrossEntropy ce;
          REQUIRE(text_loss(q, ids, targets, c.B, b, work, ce, nullptr).is_ok());
          CHECK(ce.loss == doctest::Approx(want).epsilon(1e-5));
        }
      }
  }
}

TEST_CASE("knockout: a head whose W_O rows are already zero changes nothing; refusals keep the model") {
  const Case c{{11, 16, 8, 4, 2}, 3};
  TextParams p = initial_text_params(c.shape, 3, 9);
  const int dh = c.shape.d_model / c.shape.heads;
  p.layers[1].wo.middleRows(2 * dh, dh).setZero();  // head 2 of layer 1 reaches nothing already
  std::vector<int> ids, targets;
  make_batch(c, 23, ids, targets);
  TextWork work;
  CrossEntropy before, after;
  REQUIRE(text_loss(p, ids, targets, c.B, Backend::Scalar, work, before, nullptr).is_ok());
  TextParams q = p;
  REQUIRE(knock_out_head(q, 1, 2).is_ok());
  REQUIRE(text_loss(q, ids, targets, c.B, Backend::Scalar, work, after, nullptr).is_ok());
  CHECK(after.loss == before.loss);
  // only that head's rows of that layer's W_O changed (here: none)
  CHECK(q.layers[1].wo == p.layers[1].wo);
  CHECK(q.layers[0].wo == p.layers[0].wo);
  for (const std::pair<int, int>& bad : {std::pair{-1, 0}, std::pair{2, 0}, std::pair{0, -1}, std::pair{0, 4}}) {
    const int layer = bad.first, head = bad.second;  // (not a structured binding: clang 14 cannot capture one)
    CAPTURE(layer); CAPTURE(head);
    TextParams r = p;
    CHECK_FALSE(knock_out_head(r, layer, head).is_ok());
    CHECK(r.layers[0].wo == p.layers[0].wo);
    CHECK(r.layers[1].wo == p.layers[1].wo);
  }
}

TEST_CASE("knockout: every head of a layer knocked out is the model without that layer's attention") {
  const Case c{{11, 16, 8, 4, 2}, 3};
  TextParams p = initial_text_params(c.shape, 3, 9);
  for (AttentionWeights& w : p.layers) w = ref::random_weights(c.shape.d_model, c.shape.heads, 77, 1.f);
  p.layers[1] = ref::random_weights(c.shape.d_model, c.shape.heads, 78, 1.f);
  std::vector<int> ids, targets;
  make_batch(c, 29, ids, targets);
  for (int gone = 0; gone < 2; ++gone) {
    CAPTURE(gone);
    TextParams q = p;
    for (int h = 0; h < c.shape.heads; ++h) REQUIRE(knock_out_head(q, gone, h).is_ok());
    // the reference: a one-layer model holding only the other layer (X_{l+1} = X_l)
    TextParams one = p;
    one.shape.layers = 1;
    one.layers = {p.layers[static_cast<size_t>(1 - gone)]};
    for (Backend b : kTextBackends) {
      CAPTURE(backend_name(b));
      TextWork work;
      CrossEntropy knocked, without;
      REQUIRE(text_loss(q, ids, targets, c.B, b, work, knocked, nullptr).is_ok());
      REQUIRE(text_loss(one, ids, targets, c.B, b, work, without, nullptr).is_ok());
      CHECK(knocked.loss == without.loss);
    }
  }
}

TEST_CASE("AdamList takes the same steps as Adam, bit for bit") {
  AttentionWeights w1 = ref::random_weights(8, 2, 101, 0.7f), w2 = w1;
  const AttentionWeights gsrc = ref::random_weights(8, 2, 102, 0.3f);
  const AttentionGrads g{gsrc.wq, gsrc.wk, gsrc.wv, gsrc.wo};
  Adam a;
  AdamList b;
  REQUIRE(a.set_lr(3e-3f).is_ok());
  REQUIRE(b.set_lr(3e-3f).is_ok());
  std::vector<Mat*> wl;
  std::vector<const Mat*> gl;
  for (int h = 0; h < 2; ++h) {
    wl.insert(wl.end(), {&w2.wq[h], &w2.wk[h], &w2.wv[h]});
    gl.insert(gl.end(), {&g.wq[h], &g.wk[h], &g.wv[h]});
  }
  wl.push_back(&w2.wo);
  gl.push_back(&g.wo);
  for (int s = 0; s < 3; ++s) {
    a.step(w1, g);
    b.step(wl, gl);
  }
  CHECK(b.steps() == 3);
  for (int h = 0; h < 2; ++h) {
    CHECK(w1.wq[h] == w2.wq[h]);
    CHECK(w1.wv[h] == w2.wv[h]);
  }
  CHECK(w1.wo == w2.wo);
  CHECK_FALSE(b.set_lr(-1.f).is_ok());
  CHECK(b.lr() == 3e-3f);
}
