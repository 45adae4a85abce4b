// embedding.h: the token embedding scheme the lesson's Scene and the training
// task share (src/engine/common/: what the lesson and train rooms both use).
//
// Does: name the columns of a token's D = 128 embedding, write one token's row
// (content | roles | position code | pointers) and compute the position code,
// the same bit for bit on every platform (its cos comes from random.h's
// portable cos2pi). The role columns' meaning is roles.h.
// Does not: know about words, parsing or heads (lesson/scene.h), nor what the
// task asks of a token (train/train_task.h), nor draw random numbers
// (random.h).
//
// Layout (D = 128 columns):
//   [  0, 32)  content: a unit vector, the token's "meaning"
//   [ 32, 48)  roles: one column per role bit of roles.h (bits 0..14), and
//              column 47 (kBias) the constant 1
//   [ 48, 64)  position code p(i): 8 (cos, sin) pairs, |p(i)| = 1
//   [ 64, 80)  pointer "subject":    p(subject target of this token)
//   [ 80, 96)  pointer "complement": p(complement target)
//   [ 96,112)  pointer "antecedent": p(antecedent of a pronoun)
//   [112,128)  pointer "object":     p(object of a verb)
#pragma once

namespace headroom::embed {

constexpr int kDModel = 128;
constexpr int kContent = 0, kContentDim = 32;
constexpr int kRoles = 32, kRolesDim = 16;
constexpr int kBias = kRoles + kRolesDim - 1;  // constant-1 feature, last role column
constexpr int kPos = 48, kCode = 16;           // position code block
constexpr int kFreqs = kCode / 2;
// The pointer blocks, in this order: subject, complement, antecedent, object.
constexpr int kPointers = 4;
constexpr int kPtrSubject = 64, kPtrComplement = 80, kPtrAntecedent = 96, kPtrObject = 112;
constexpr int kPointerColumn[kPointers] = {kPtrSubject, kPtrComplement, kPtrAntecedent, kPtrObject};

// Position code frequencies (radians per token). Chosen by a random search
// that maximised, over every pair of targets a < b < 32, the margin
//   1 + <p(a),p(b)> - max_{j != a,b} (<p(j),p(a)> + <p(j),p(b)>)
// so one head holding two pointers still ties its two targets and leaves the
// rest well below (tests/engine/scene_tests.cpp re-measures it).
constexpr float kFreq[kFreqs] = {0.6054f, 0.7664f, 1.0508f, 1.5833f,
                                 1.7987f, 1.9379f, 2.1468f, 2.2824f};

// p(i) into out[0..kCode): out[2k] = cos(kFreq[k] i) / sqrt(8), out[2k+1] the
// sin; |p(i)| = 1. Uses prng::cos2pi, so it is the same on every platform.
void position_code(int i, float* out);

// One token's row (kDModel floats, overwritten): content (kContentDim floats,
// copied as given), a 1 in column kRoles + b for each set bit b < 15 of
// role_bits, the constant kBias = 1, p(position), and p(pointers[r]) in
// pointer block r (order of kPointerColumn).
void embed_token(float* row, const float* content, unsigned role_bits, int position,
                 const int (&pointers)[kPointers]);

}  // namespace headroom::embed
