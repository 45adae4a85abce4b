// b.h: the other half.
#pragma once
void b();
