// value_map.cpp: PCA of a head's value vectors. See value_map.h.
#include "value_map.h"

#include <Eigen/Eigenvalues>
#include <algorithm>

namespace headroom {

ValueMap value_map(const HeadTrace& head, int query) {
  ValueMap m;
  const Mat& v = head.v;
  const Eigen::Index L = v.rows(), dh = v.cols();
  m.mean = v.colwise().mean();
  const MatD centred = (v.rowwise() - m.mean).cast<double>();
  const MatD cov = centred.transpose() * centred / static_cast<double>(std::max<Eigen::Index>(L, 1));
  Eigen::SelfAdjointEigenSolver<MatD> eig(cov);
  m.axes = Mat::Zero(dh, 2);
  const Eigen::VectorXd values = eig.eigenvalues();  // ascending
  double total = values.sum(), kept = 0;
  for (int a = 0; a < 2 && a < dh; ++a) {
    Eigen::VectorXd axis = eig.eigenvectors().col(dh - 1 - a);
    // Fix the sign so the picture does not flip between runs: the largest
    // component of each axis is positive.
    Eigen::Index big = 0;
    axis.cwiseAbs().maxCoeff(&big);
    if (axis[big] < 0) axis = -axis;
    m.axes.col(a) = axis.cast<float>();
    kept += std::max(0.0, values[dh - 1 - a]);
  }
  m.explained = total > 0 ? static_cast<float>(kept / total) : 1.f;
  m.points = (v.rowwise() - m.mean) * m.axes;
  m.output = (head.out.row(query) - m.mean) * m.axes;
  return m;
}

}  // namespace headroom
