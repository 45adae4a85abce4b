// embedding_rows.cpp: gather and scatter-add of table rows. See embedding_rows.h.
#include "embedding_rows.h"

#include <string>
#include "engine/core/refusals.h"

namespace headroom {

namespace {
Status check_ids(const std::vector<int>& ids, Eigen::Index rows) {
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || ids[i] >= rows)
      return Status::fail(refusals::id_outside_table, ids[i], i, rows);
  return Status::ok();
}
}  // namespace

Status gather_rows(const Mat& table, const std::vector<int>& ids, Mat& x) {
  if (Status s = check_ids(ids, table.rows()); !s) return s;
  x.resize(static_cast<Eigen::Index>(ids.size()), table.cols());
  for (size_t i = 0; i < ids.size(); ++i) x.row(static_cast<Eigen::Index>(i)) = table.row(ids[i]);
  return Status::ok();
}

Status scatter_add_rows(const Mat& dx, const std::vector<int>& ids, Mat& dtable) {
  if (dx.rows() != static_cast<Eigen::Index>(ids.size()) || dx.cols() != dtable.cols())
    return Status::fail(refusals::scatter_shape, dx.rows(), dx.cols(), ids.size(), dtable.cols());
  if (Status s = check_ids(ids, dtable.rows()); !s) return s;
  for (size_t i = 0; i < ids.size(); ++i) dtable.row(ids[i]) += dx.row(static_cast<Eigen::Index>(i));
  return Status::ok();
}

}  // namespace headroom
