// tour_read.h: what a tour step reads off the live Scene, shared by the
// verbs (tour.cpp) and the reveals (tour_measure.cpp): a token's word, a
// number in the reader's language, the relationships step
// more-heads matches, and one head's plane, cosines and weights.
//
// Does: read; every value comes from the Scene it is given at the moment it
// is asked.
// Does not: keep anything, mark an answer (tour_measure.cpp), or belong to
// the tour's interface: only the tour's own files include it (tour.h is the
// room's door).
#pragma once
#include <array>
#include <string>

#include "app/lang/lang.h"
#include "engine/lesson/relation.h"
#include "engine/lesson/scene.h"

namespace headroom::app::tour_read {

// A number, written in the language the reveal is read in (Phrase).
Phrase fmt(float v, int digits = 2);

// Token `token`'s text, or "-" when there is no such token.
const std::string& word(const Scene& s, int token);

// The relationships step more-heads asks about, in the order predict takes.
constexpr std::array<Relation, 4> kMatchRelations = {Relation::Subject, Relation::Complement, Relation::Previous,
                                                     Relation::Antecedent};

// The query each matched relationship is asked from: the lesson's query, but
// coreference from the complement's pronoun (it -> paper) or else the first
// token that refers back to another.
int match_query(const Scene& s, Relation r);

float dist(float x0, float y0, float x1, float y1);
float clamp01(float v);

// Head h's value plane: the two anchors' points and the output's.
struct Plane {
  float ax, ay, bx, by, ox, oy;
};
Plane plane(const Scene& s, int h);

// Cosine of head h's output for the query and token's value vector.
float cos_to(const Scene& s, int h, int token);
// Head h's weight from `query` on `token`.
float weight_on(const Scene& s, int h, int query, int token);

}  // namespace headroom::app::tour_read
