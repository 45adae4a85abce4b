// json_tensor.h: arrays as {"shape": [...], "data": [...]} (row-major), the
// form every snapshot JSON uses (live_training_json.cpp, text_json.cpp).
// Does not: check that the shape's product is the data's length (callers
// pass a matrix's own size).
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "app/wire/json_write.h"
#include "engine/core/tensor.h"

namespace headroom::app {

// {"shape":[...],"data":[...]} for `n` numbers at `data` (floats in their
// 9-digit round-trip form, integers as integers).
template <class T>
void append_tensor(std::string& out, std::initializer_list<long long> shape, const T* data, long long n) {
  JsonObject o(out);
  append_values(o.key("shape"), shape);
  append_array_n(o.key("data"), n, [&](long long i) { append_value(out, data[i]); });
}

// A row-major Mat as a tensor of the given shape (its size must match).
inline void append_mat(std::string& out, std::initializer_list<long long> shape, const Mat& m) {
  append_tensor(out, shape, m.data(), static_cast<long long>(m.size()));
}

}  // namespace headroom::app
