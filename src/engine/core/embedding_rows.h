// embedding_rows.h: a table of learned vectors read by id (embedding gather)
// and its gradient written back (scatter-add).
//
// Does, for a table E (V x D) and n ids (0 <= id < V):
//   gather        X (n x D),  X.row(i) = E.row(ids[i])
//   scatter-add   dE.row(ids[i]) += dX.row(i)  for i = 0 .. n-1, in order
// (an id used twice collects both rows: the gradient of a gather).
// Does not: zero dE (the caller does, so several batches or tables can
// accumulate), know what the ids are (words, positions), or allocate beyond
// sizing X.
//
// Shape letters: V rows of the table, D = d_model columns, n ids.
#pragma once
#include <vector>

#include "status.h"
#include "tensor.h"

namespace headroom {

// On an id outside 0 .. V-1 returns which and leaves x unchanged.
Status gather_rows(const Mat& table, const std::vector<int>& ids, Mat& x);
// dtable must be V x D and dx n x D; on a bad id or shape nothing is added.
Status scatter_add_rows(const Mat& dx, const std::vector<int>& ids, Mat& dtable);

}  // namespace headroom
