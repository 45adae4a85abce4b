// value_map.cpp: the anchored value-space plane. See value_map.h.
#include "value_map.h"

#include <algorithm>
#include <cmath>

namespace headroom {

namespace {

// The unit eigenvector of the largest eigenvalue of the symmetric matrix `g`
// (n x n), by cyclic Jacobi rotations: a few dozen lines in place of Eigen's
// SelfAdjointEigenSolver, which cost about 40 KB of the page's wasm for a path
// that runs only with parallel anchors. Exact to rounding for any spectrum,
// repeated eigenvalues included (any vector of the top eigenspace is then as
// good as another).
Eigen::VectorXd top_eigenvector(MatD g) {
  const Eigen::Index n = g.rows();
  MatD vecs = MatD::Identity(n, n);
  for (int sweep = 0; sweep < 64; ++sweep) {
    double off = 0;
    for (Eigen::Index p = 0; p < n; ++p)
      for (Eigen::Index q = p + 1; q < n; ++q) off += g(p, q) * g(p, q);
    if (off <= 1e-30 * std::max(1.0, g.squaredNorm())) break;
    for (Eigen::Index p = 0; p < n; ++p) {
      for (Eigen::Index q = p + 1; q < n; ++q) {
        if (g(p, q) == 0) continue;
        // The rotation that zeroes g(p, q) (Golub & Van Loan, 8.5.2).
        const double theta = (g(q, q) - g(p, p)) / (2 * g(p, q));
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (Eigen::Index k = 0; k < n; ++k) {  // g <- g J
          const double gp = g(k, p), gq = g(k, q);
          g(k, p) = c * gp - s * gq;
          g(k, q) = s * gp + c * gq;
        }
        for (Eigen::Index k = 0; k < n; ++k) {  // g <- J^T g
          const double gp = g(p, k), gq = g(q, k);
          g(p, k) = c * gp - s * gq;
          g(q, k) = s * gp + c * gq;
        }
        for (Eigen::Index k = 0; k < n; ++k) {  // vecs <- vecs J
          const double vp = vecs(k, p), vq = vecs(k, q);
          vecs(k, p) = c * vp - s * vq;
          vecs(k, q) = s * vp + c * vq;
        }
      }
    }
  }
  Eigen::Index top = 0;
  g.diagonal().maxCoeff(&top);
  return vecs.col(top);
}

// Unit vector along the largest-variance direction of `rows` after removing
// their component along `u` (used when the anchors do not span a plane); its
// largest component positive, so the picture does not flip between frames.
Eigen::VectorXd principal_orthogonal(const MatD& rows, const Eigen::VectorXd& u) {
  const MatD r = rows - (rows * u) * u.transpose();
  if (r.norm() > 1e-9 * std::max(1.0, rows.norm())) {
    // r^T r (dh x dh) and r r^T (L x L) share their nonzero eigenvalues, and
    // r^T y is the first's eigenvector for the second's y: the smaller one.
    Eigen::VectorXd w = r.rows() < r.cols() ? Eigen::VectorXd(r.transpose() * top_eigenvector(r * r.transpose()))
                                            : top_eigenvector(r.transpose() * r);
    w -= u * u.dot(w);
    const double n = w.norm();
    if (n > 0) {
      Eigen::Index big = 0;
      w.cwiseAbs().maxCoeff(&big);
      return (w[big] < 0 ? -1.0 : 1.0) * w / n;
    }
  }
  // no variance left at all: any unit vector orthogonal to u
  Eigen::VectorXd e = Eigen::VectorXd::Zero(u.size());
  Eigen::Index smallest = 0;
  u.cwiseAbs().minCoeff(&smallest);
  e[smallest] = 1;
  e -= u * u.dot(e);
  return e / e.norm();
}

}  // namespace

ValueMap value_map(const HeadTrace& head, int query, int anchor_a, int anchor_b) {
  ValueMap m;
  const MatD v = head.v.cast<double>();
  const Eigen::Index L = v.rows(), dh = v.cols();
  m.anchor_a = anchor_a;
  m.anchor_b = anchor_b;
  m.axes = Mat::Zero(dh, 2);
  if (dh == 1) {
    m.axes(0, 0) = 1;
  } else {
    Eigen::VectorXd u = v.row(anchor_a).transpose();
    if (u.norm() < 1e-12) u = Eigen::VectorXd::Unit(dh, 0);
    u.normalize();
    Eigen::VectorXd w = v.row(anchor_b).transpose();
    w -= u * u.dot(w);
    // parallel anchors (same word twice, or a == b): fall back to variance
    if (w.norm() < 1e-6 * std::max(1.0, v.row(anchor_b).norm())) w = principal_orthogonal(v, u);
    else w.normalize();
    m.axes.col(0) = u.cast<float>();
    m.axes.col(1) = w.cast<float>();
  }
  const MatD axes = m.axes.cast<double>();
  const MatD p = v * axes;
  m.points = p.cast<float>();
  m.in_plane.resize(L);
  double kept = 0, total = 0;
  for (Eigen::Index j = 0; j < L; ++j) {
    const double n2 = v.row(j).squaredNorm(), k2 = p.row(j).squaredNorm();
    kept += k2;
    total += n2;
    m.in_plane[j] = n2 > 0 ? static_cast<float>(std::sqrt(k2 / n2)) : 1.f;
  }
  m.explained = total > 0 ? static_cast<float>(kept / total) : 1.f;
  const Eigen::RowVectorXd o = head.out.row(query).cast<double>();
  const Eigen::RowVectorXd po = o * axes;
  m.output = po.cast<float>();
  m.output_in_plane = o.norm() > 0 ? static_cast<float>(po.norm() / o.norm()) : 1.f;
  return m;
}

}  // namespace headroom
