// catalogues.cpp: the compiled-in catalogues (see catalogues.h), from the
// header cmake/embed.cmake generates: every text, or English's alone,
// whichever library this copy is built into (cmake/app.cmake).
// Does not: choose which (the program's link does).
#include "app/lang/catalogues/catalogues.h"

#include <iterator>

#include "lang_catalogues.h"  // generated: generated_app/every/ or generated_app/english/

namespace headroom::lang_files {

Table compiled_in() { return {kFiles, std::size(kFiles)}; }

}  // namespace headroom::lang_files
