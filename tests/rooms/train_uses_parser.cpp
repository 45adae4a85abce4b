// train_uses_parser.cpp: the wall between the train and lesson rooms.
// Built against headroom_engine_train only (cmake/engine.cmake): it compiles
// as it is, and with HEADROOM_CROSS_THE_WALL it must fail, because the train
// room cannot see the lesson's headers (training never parses).
#include "engine/train/trainer.h"
#ifdef HEADROOM_CROSS_THE_WALL
#include "engine/lesson/parser.h"
#endif

int rooms_train_uses_parser() { return headroom::kTrainBatch; }
