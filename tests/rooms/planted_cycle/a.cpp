// a.cpp
#include "a.h"
#include "b.h"
void a() { b(); }
