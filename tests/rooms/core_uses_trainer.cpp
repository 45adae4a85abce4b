// core_uses_trainer.cpp: the wall around the core room. Built against
// headroom_engine_core only (cmake/engine.cmake): it compiles as it is, and
// with HEADROOM_CROSS_THE_WALL it must fail, because core sees neither the
// train nor the lesson room.
#include "engine/core/attention.h"
#ifdef HEADROOM_CROSS_THE_WALL
#include "engine/train/trainer.h"
#endif

int rooms_core_uses_trainer() { return static_cast<int>(sizeof(headroom::Trace)); }
