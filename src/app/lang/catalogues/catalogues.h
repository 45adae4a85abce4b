// catalogues.h: the catalogues a program has compiled in, as a table.
//
// Does: declare the table of the interface's languages (src/app/lang/<code>.po)
// that app/lang/lang.cpp reads: every language's code, each with its
// catalogue's text, or with none where the program's page fetches it when
// it is chosen (lang.h add_catalogue). catalogues.cpp defines it, built
// twice (cmake/app.cmake): headroom_app_lang_every (every text) and
// headroom_app_lang_english (English's text only: the site's wasm).
// Does not: parse anything (lang.cpp does), or fetch (the page does).
#pragma once
#include <cstddef>

namespace headroom::lang_files {

struct File {
  const char* code;  // "en", "de", ...: the file's name
  const char* text;  // the .po file's text; nullptr: not compiled in, fetched by the page
};

struct Table {
  const File* files;
  size_t size;
};

// Every language the site has, in the order of the files; English's text
// is always there.
Table compiled_in();

}  // namespace headroom::lang_files
