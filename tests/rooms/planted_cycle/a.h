// a.h: half of a planted cycle (include_cycles.mjs must refuse this folder).
#pragma once
void a();
