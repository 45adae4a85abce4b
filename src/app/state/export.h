// export.h: a view's numbers as a file (headroom.exportView(view, "csv" |
// "json"), and each card's Save menu).
//
//   std::string text;
//   Status s = export_view(demo, "attention", "json", text);
//
// Does: write, for one view of kViews (app/state/view_rows.h), the numbers that view
// draws, exactly as the engine and the trainer hold them and with the names
// getState() and train.state() use (the shared parts are written by the same
// functions as getState: append_query_rows, append_readout,
// append_value_space):
//   attention  weights and scores: the query's row per head (getState's
//              weights, scores) and every row (weightsMatrix, scoresMatrix:
//              H x L x L, what the heatmaps draw)
//   values     valueSpace (getState's: per head the tokens' points, the
//              output, explained, outputInPlane), targets and relations
//   readout    readout, targets, relations, sentence, focus, carried,
//              carriedTargets, knockout, tieQK
//   concat     concat (the query's row, 1 x D), blocks (per head its columns
//              and values), woParts (per head o_h W_O[rows of h], 1 x D: the
//              engine's output_parts, y = concat W_O taken apart by heads),
//              y (the Trace's output row), knockout, tieQK
//   steps      per head the query's q, every token's k and v (L x d_head),
//              its scores, weights and output (the step-through's numbers)
//   train      train: train.state() as it is (runs with loss histories and
//              per-head weights on each related token)
//   lesson     all of the above
// Every document starts with the view, the tokens, the query, heads, dModel,
// dHead and which weights are shown (modelWeights). JSON is one object; CSV
// is one long table, a row per number:
//   quantity,run,head,row,column,label,value
// quantity names the number as the JSON does ("weights", "valueSpace.x",
// "loss", ...); run is the training run ("h2", "h2-tied") or empty; head is
// 1-based or empty; row and column are 0-based indices (a token, a
// coordinate, a history point) or empty; label is the token at `column` (or
// the related token's name) when there is one; value the number (a non-finite
// one, like a masked score, is empty). Text is quoted as RFC 4180 says.
// Does not: compute attention (it reads the Trace and the trainer), draw, or
// make the PNG (the platform renders the card: src/platform/export_png.cpp).
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "app/state/demo.h"

namespace headroom::app {

// kExportFormats and check_export are with the other checked names in
// url_state.h.

// The view's numbers as CSV or JSON into `out`; refuses a bad view or format
// (and "png": the platform makes pictures) and leaves `out` empty.
Status export_view(Demo& demo, std::string_view view, std::string_view format, std::string& out);

// The file name a browser saves an export as: headroom-<view>-h<H>.<format>.
std::string export_file_name(const Demo& demo, std::string_view view, std::string_view format);

// Writers getState() shares with the exports (state_json.cpp): the query's
// row of each head's weights or scores (H x L), the readout per head, and
// the value-space maps.
void append_query_rows(std::string& out, const Trace& trace, int query, bool scores);
void append_readout(std::string& out, const std::vector<HeadReadout>& readout);
void append_value_space(std::string& out, const std::vector<ValueMap>& maps);

}  // namespace headroom::app
