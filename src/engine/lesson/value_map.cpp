// value_map.cpp: the anchored value-space plane. See value_map.h.
#include "value_map.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace headroom {

namespace {

// Unit vector along the largest-variance direction of `rows` after removing
// their component along `u` (used when the anchors do not span a plane).
Eigen::VectorXd principal_orthogonal(const MatD& rows, const Eigen::VectorXd& u) {
  const MatD r = rows - (rows * u) * u.transpose();
  Eigen::SelfAdjointEigenSolver<MatD> eig(r.transpose() * r);
  Eigen::VectorXd w = eig.eigenvectors().col(eig.eigenvectors().cols() - 1);
  w -= u * u.dot(w);
  const double n = w.norm();
  if (n > 1e-9) return w / n;
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
