// lang_mark.h: N_, the mark of a catalogue key (app/lang/lang.h).
//
// Does: mark an English source string for the catalogues without
// translating it where it is written (gettext's N_): tables of labels stay
// constexpr; the code translates the value later with app::tr.
// Does not: translate (lang.h does), or include anything.
#pragma once

#define N_(english) english
