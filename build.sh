#!/usr/bin/env bash
# build.sh: install what is missing, build Headroom, serve or test it.
# The commands: usage() below (./build.sh --help prints it).
#
# Does: apt-get install only the Debian packages that are missing, `npm ci`
# only when node_modules is missing or older than package-lock.json, fetch Dear
# ImGui 1.90.1 once (Debian source package through a private apt configuration
# under build/, sha256 checked; IMGUI_DIR overrides), and let CMake decide what
# to rebuild, so a second run is fast. Every suite is a CTest project; the
# counts are CTest's (its JUnit report), summed over the suites.
# Does not: change the system's apt sources, download toolchains or browsers
# (never `npx playwright install`), or write anything outside build/ and
# node_modules/ (apart from the apt packages it installs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
BUILD="$ROOT/build"
export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs node-acorn from here

IMGUI_VERSION=1.90.1
IMGUI_TARBALL="imgui_${IMGUI_VERSION}+ds.orig.tar.xz"
IMGUI_SHA256=ecce377df0f90b292f15dcbd83d438bddc162b2388c881132bde18c787572a1c
DEBIAN_PACKAGES=(emscripten libeigen3-dev doctest-dev cmake clang libclang-rt-14-dev fonts-liberation fonttools
                 chromium-headless-shell  # the browser suites (tests/browser/harness.mjs)
                 chromium  # the benches: the browser a student runs
                 mkdocs python3-sphinx  # course pages for tests/browser/course_hosts.test.mjs
                 fonts-droid-fallback fonts-noto-color-emoji)  # CJK and emoji for tests/browser/text.test.mjs

usage() {
  cat <<'EOF'
usage: ./build.sh [build|test|fuzz|soak|bench|--help]

  ./build.sh          install + build the site into build/web/ + serve it on
                      http://127.0.0.1:${PORT:-8000}
  ./build.sh build    install + build, no server
  ./build.sh test     install + build + run every suite, each a CTest project:
                      native doctest (build/native), the engine and app suites
                      as wasm under node (built in build/wasm-web beside the
                      site, from the same objects), the browser suites
                      against build/web/ (build/browser-tests: page + theme,
                      embed, course pages, text, training API, training
                      views, postMessage properties, short soak, injected
                      faults, the training program in a Worker, the text
                      task (train_text), guided
                      tour), and the
                      native suites again
                      under ASan + UBSan with a short run of each libFuzzer
                      target (clang, build/native-asan); the site first
                      (the native suites start beside it), then the browser
                      suites, with the native, wasm and ASan suites beside
                      them at idle priority, the browser cases that time
                      on the wall clock (CTest label alone) last; each
                      suite's time
                      and the total; ends with "N passed, N failed"
                      (CTest tests), non-zero on any failure
  ./build.sh fuzz     build the libFuzzer targets (tests/fuzz/) and run each
                      for FUZZ_SECONDS (default 60); corpus and crash files
                      go to build/native-asan/fuzz-corpus|fuzz-artifacts/
  ./build.sh soak     the long runs: the app under ASan for SOAK_NATIVE_STEPS
                      (default 5000) training steps with random calls (no
                      leak, flat heap), then the page in Chromium for
                      SOAK_STEPS (20000) steps and SOAK_CALLS (2000) random
                      API calls (flat wasm memory and JS heap, no error,
                      no frames when paused); the test suite runs short ones
  ./build.sh bench    build + run the forward benchmark, then the training-step
                      benchmark, then the text model's training step
                      (tests/bench/bench_text.cpp: tokens/s, with the CPU
                      and load), each wasm under node and
                      native -march=native: JSON lines, then a table (also
                      in build/bench/); then the page load in headless
                      Chromium, in phases, the bytes fetched before ready,
                      the training program's fetch and start, and training
                      played in the Worker and on the main thread (split
                      time, steps/s, longest task: tests/bench/page_load.mjs),
                      the text task's corpus fetch, then the text task played
                      in the Worker (tests/bench/text_play.mjs)

Environment: PORT (serve), IMGUI_DIR (ImGui checkout of 1.90.1), SOAK_STEPS,
SOAK_CALLS, SOAK_NATIVE_STEPS (soak),
HEADROOM_APT_MIRROR (Debian mirror for the ImGui source package; default:
the first one in the system's own apt sources), FUZZ_SECONDS (fuzz).
EOF
}

step() { printf '\n==> %s\n' "$*"; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root (or sudo) to run: $*"; fi
}

# CMake generator and parallelism: ninja only if it is there.
CMAKE_GEN=()
if command -v ninja >/dev/null; then CMAKE_GEN=(-G Ninja); fi
JOBS=2

#-----------------------------------------------------------------------------
# install
#-----------------------------------------------------------------------------
install_debian_packages() {
  step "checking Debian packages: ${DEBIAN_PACKAGES[*]}"
  local missing=() p
  for p in "${DEBIAN_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    missing+=(nodejs npm)
  fi
  if ((${#missing[@]} == 0)); then
    echo "all present"
    return
  fi
  step "apt-get install ${missing[*]}"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

install_npm_packages() {
  local stamp="$ROOT/node_modules/.headroom-lock.sha256"
  local want
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    step "npm packages up to date with package-lock.json"
    return
  fi
  step "npm ci (node_modules missing or older than package-lock.json)"
  npm ci --no-audit --no-fund
  echo "$want" >"$stamp"
}

# Prints the Debian mirror to fetch source packages from: HEADROOM_APT_MIRROR,
# else the first non-security URI in the system's apt sources.
apt_mirror() {
  if [[ -n "${HEADROOM_APT_MIRROR:-}" ]]; then echo "$HEADROOM_APT_MIRROR"; return; fi
  local uris=()
  if compgen -G '/etc/apt/sources.list.d/*.sources' >/dev/null; then
    mapfile -t -O "${#uris[@]}" uris < <(awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' /etc/apt/sources.list.d/*.sources)
  fi
  local lists=()
  [[ -f /etc/apt/sources.list ]] && lists+=(/etc/apt/sources.list)
  if compgen -G '/etc/apt/sources.list.d/*.list' >/dev/null; then lists+=(/etc/apt/sources.list.d/*.list); fi
  if ((${#lists[@]})); then
    # "deb [options] URI suite components": the URI is the first field with "://".
    mapfile -t -O "${#uris[@]}" uris < <(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' "${lists[@]}")
  fi
  local u
  for u in "${uris[@]}"; do
    [[ "$u" == *security* ]] && continue
    echo "${u%/}"
    return
  done
  die "no Debian mirror found in /etc/apt sources; set HEADROOM_APT_MIRROR or IMGUI_DIR"
}

# Sets IMGUI_DIR to a folder with imgui.cpp and backends/ of ImGui 1.90.1.
fetch_imgui() {
  if [[ -n "${IMGUI_DIR:-}" ]]; then
    [[ -f "$IMGUI_DIR/imgui.cpp" ]] || die "IMGUI_DIR=$IMGUI_DIR has no imgui.cpp"
    step "Dear ImGui from IMGUI_DIR=$IMGUI_DIR"
    return
  fi
  IMGUI_DIR="$BUILD/deps/imgui-$IMGUI_VERSION"
  if [[ -f "$IMGUI_DIR/imgui.cpp" && -f "$IMGUI_DIR/backends/imgui_impl_opengl3.cpp" ]]; then
    step "Dear ImGui $IMGUI_VERSION already in ${IMGUI_DIR#"$ROOT"/}"
    return
  fi
  local apt_dir="$BUILD/deps/apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  if [[ ! -f "$apt_dir/$IMGUI_TARBALL" ]]; then
    local mirror
    mirror="$(apt_mirror)"
    step "fetching the Debian source package imgui/trixie from $mirror (private apt configuration in ${apt_dir#"$ROOT"/})"
    printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s trixie main\n' "$mirror" >"$apt_dir/sources.list"
    local aptopt=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=-
                  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
                  -o APT::Sandbox::User=root)
    (cd "$apt_dir" && apt-get "${aptopt[@]}" update && apt-get "${aptopt[@]}" source --download-only imgui/trixie)
  fi
  step "checking sha256 of $IMGUI_TARBALL"
  echo "$IMGUI_SHA256  $apt_dir/$IMGUI_TARBALL" | sha256sum -c - || die "sha256 mismatch for $IMGUI_TARBALL"
  step "extracting to ${IMGUI_DIR#"$ROOT"/}"
  rm -rf "$IMGUI_DIR" "$IMGUI_DIR.tmp"
  mkdir -p "$IMGUI_DIR.tmp"
  tar -xJf "$apt_dir/$IMGUI_TARBALL" -C "$IMGUI_DIR.tmp" --strip-components=1
  mv "$IMGUI_DIR.tmp" "$IMGUI_DIR"
}

install_all() {
  install_debian_packages
  install_npm_packages
  fetch_imgui
}

#-----------------------------------------------------------------------------
# build
#-----------------------------------------------------------------------------
# configured DIR: a configure step finished there (it wrote a build file).
configured() { [[ -f "$1/build.ninja" || -f "$1/Makefile" ]]; }

# configure [--em] [--src DIR] BUILD-DIR [cmake args...]: configure once, with
# emcmake under --em, the project in --src (default: the repository root);
# later runs only pass the cache values (cheap), and the build re-runs CMake
# itself when a CMakeLists.txt changes.
configure() {
  local wrap=() src="$ROOT"
  while [[ "$1" == --* ]]; do
    case "$1" in
      --em) wrap=(emcmake); shift ;;
      --src) src="$2"; shift 2 ;;
      *) die "configure: unknown option $1" ;;
    esac
  done
  local dir="$1"; shift
  if configured "$dir"; then
    cmake "$dir" "$@" >/dev/null
  else
    "${wrap[@]}" cmake "${CMAKE_GEN[@]}" -S "$src" -B "$dir" "$@"
  fi
}

build_web() {
  step "building the site into build/web/ (emcmake, HEADROOM_TARGET=web)"
  # && chains: callers use this in `if`, where set -e does not apply
  configure --em "$BUILD/wasm-web" -DHEADROOM_TARGET=web -DIMGUI_DIR="$IMGUI_DIR" \
      -DHEADROOM_WEB_DIR="$BUILD/web" &&
    cmake --build "$BUILD/wasm-web" -j "$JOBS" &&
    ls -l "$BUILD/web"
}

#-----------------------------------------------------------------------------
# test
#-----------------------------------------------------------------------------
TOTAL_PASSED=0
TOTAL_FAILED=0
SUMMARY=()

# record NAME PASSED FAILED [DETAIL]: one suite's counts. The per-suite lines
# avoid the "N passed, N failed" shape so only the last line reads as the verdict.
# Each line also says how long the suite took, its build included: the
# seconds since suite_start.
SUITE_T0=$SECONDS
suite_start() { SUITE_T0=$SECONDS; }
record() {
  TOTAL_PASSED=$((TOTAL_PASSED + $2))
  TOTAL_FAILED=$((TOTAL_FAILED + $3))
  local t=$((SECONDS - SUITE_T0))
  SUMMARY+=("$(printf '  %-8s %s of %s passed in %dm%02ds%s' "$1" "$2" $(($2 + $3)) $((t / 60)) $((t % 60)) "${4:+ ($4)}")")
}

# run_ctest NAME DIR [CTEST-ARGS...]: ctest in DIR, JOBS tests at a time (the
# browser suites' RUN_SERIAL keeps them one at a time); the counts come from CTest's JUnit report
# (build/test-logs/NAME.xml): a test passed when CTest ran it and it passed
# (status="run"); failed, timed out or not run (missing executable) counts as
# failed, and so does a report that is missing or lists no test.
run_ctest() {
  local name="$1" dir="$2" xml="$BUILD/test-logs/$1.xml" rc=0
  shift 2
  rm -f "$xml"
  (cd "$dir" && ctest --verbose --output-on-failure --no-tests=error --parallel "$JOBS" --output-junit "$xml" "$@") 2>&1 |
    tee "$BUILD/test-logs/$name.log" || rc=$?
  count_ctest "$name" "$rc"
}

# count_ctest NAME CTEST-EXIT: records NAME's counts from its JUnit report
# (build/test-logs/NAME.xml), as run_ctest describes.
count_ctest() {
  local name="$1" rc="$2" xml="$BUILD/test-logs/$1.xml"
  local total=0 passed=0 names=""
  if [[ -f "$xml" ]]; then
    total="$(grep -c '<testcase ' "$xml" || true)"
    passed="$(grep -c '<testcase .*status="run"' "$xml" || true)"
    names="$(grep '<testcase ' "$xml" | grep -v 'status="run"' | sed -E 's/.*name="([^"]*)".*/\1/' | paste -sd, - || true)"
  fi
  local failed=$((total - passed))
  if ((total == 0)); then
    failed=1 names="no test ran (ctest exit $rc)"
  elif ((rc != 0 && failed == 0)); then
    failed=1 names="ctest exit $rc"
  fi
  record "$name" "$passed" "$failed" "${names:+failed: $names}"
}

# suite_build NAME BUILD-COMMAND...: runs the build; on failure counts one failure.
suite_build() {
  local name="$1"; shift
  if "$@"; then return 0; fi
  echo "build.sh: building the $name suite failed" >&2
  record "$name" 0 1
  return 1
}

build_native() {
  configure "$BUILD/native" && cmake --build "$BUILD/native" -j "$JOBS"
}

# The wasm suites live in the site's configuration (CMakeLists.txt: out of
# `all` there), so they link the engine and app objects the site was built from.
build_wasm_tests() {
  cmake --build "$BUILD/wasm-web" -j "$JOBS" --target headroom_suite_programs
}

# ASan + UBSan (and libFuzzer coverage) build of the native suites, with clang:
# only the programs its tests run (CMakeLists.txt headroom_test_programs).
# Line tables only (-gline-tables-only): a report still names file and line,
# and the build spends a quarter less than with full debug info (-g).
build_native_asan() {
  local san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  CXX=clang++ configure "$BUILD/native-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHEADROOM_FUZZ=ON \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
      "-DCMAKE_CXX_FLAGS=$san -fsanitize=fuzzer-no-link" "-DCMAKE_EXE_LINKER_FLAGS=$san" &&
    cmake --build "$BUILD/native-asan" -j "$JOBS" --target headroom_test_programs
}

# run_fuzzers SECONDS: each libFuzzer target for SECONDS, seeded from
# tests/fuzz/corpus/<name>/ and the corpus kept in build/native-asan/fuzz-corpus/
# from earlier runs. The targets are fuzz.cmake's list (HEADROOM_FUZZ_TARGETS),
# read back from CTest's fuzz_<name> tests.
run_fuzzers() {
  local secs="$1" name dir="$BUILD/native-asan" rc=0 names
  mkdir -p "$dir/fuzz-artifacts"
  names=$(cd "$dir" && ctest -N -R '^fuzz_' | sed -n 's/^ *Test *#[0-9]*: fuzz_//p')
  [[ -n "$names" ]] || die "no fuzz targets found in $dir (ctest -N -R ^fuzz_)"
  for name in $names; do
    step "fuzz_$name for ${secs}s"
    local dict=()
    [[ -f "tests/fuzz/$name.dict" ]] && dict=("-dict=tests/fuzz/$name.dict")
    mkdir -p "$dir/fuzz-corpus/$name"
    local log="$dir/fuzz-artifacts/$name.log"
    "$dir/fuzz_$name" -max_total_time="$secs" -print_final_stats=1 "${dict[@]}" \
      -artifact_prefix="$dir/fuzz-artifacts/$name-" "$dir/fuzz-corpus/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1 || {
      rc=1; grep -E 'ERROR|SUMMARY|Test unit written' "$log" || tail -20 "$log"; }
    printf 'fuzz_%s: %s executions\n' "$name" "$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz-artifacts/$name.log")"
  done
  return "$rc"
}

# The browser suites (tests/browser/CMakeLists.txt) against the built site.
build_browser_tests() {
  configure --src "$ROOT/tests/browser" "$BUILD/browser-tests" -DHEADROOM_SITE="$BUILD/web"
}

# failure_lines: the lines that say what failed (a browser check's FAIL, a
# doctest ERROR, a fuzzer's crash) and the line after each, from every
# suite's log, so a CI log's end
# names the failure without a search through the whole run.
failure_lines() {
  local logs=("$BUILD"/test-logs/*.log)
  [[ -f "${logs[0]}" ]] || return 0
  grep -HE -A1 --no-group-separator '(^|[[:space:]])FAIL([: ]|$)|: ERROR: |ERROR: (AddressSanitizer|libFuzzer)|runtime error:' \
      "${logs[@]}" | sed "s|^$BUILD/||" | head -60 | sed 's/^/  /' || true
}

# The suites that need no browser (native, wasm, ASan) run in one background
# chain beside the browser suites labelled `beside` (see run_tests), at the
# lowest CPU priority: a browser suite waits on the page much of the time,
# and the chain takes that idle CPU without slowing the browser suites
# (SCHED_IDLE, nice 19) instead of running before and after them. Each writes build/test-logs/NAME.log (printed, and counted,
# once the browser suites are done) and NAME.rc: "build" when its build
# failed, else ctest's exit code.
# bg_suite NAME BUILD-FUNCTION DIR [CTEST-ARGS...]: in the chain's subshell.
bg_suite() {
  local name="$1" build="$2" dir="$3" rc=build
  shift 3
  echo "$SECONDS" >"$BUILD/test-logs/$name.t0"
  {
    step "$name suite (beside the browser suites, idle priority)"
    if "$build"; then
      rc=0
      (cd "$dir" && ctest --verbose --output-on-failure --no-tests=error --parallel "$JOBS" \
        --output-junit "$BUILD/test-logs/$name.xml" "$@") || rc=$?
    fi
  } >"$BUILD/test-logs/$name.log" 2>&1
  echo "$rc" >"$BUILD/test-logs/$name.rc"
  echo "$SECONDS" >"$BUILD/test-logs/$name.t1"
}

# bg_collect NAME: prints NAME's log and records its counts and its time
# (its own, from its start to its end in the chain).
bg_collect() {
  local name="$1" rc t0 t1
  cat "$BUILD/test-logs/$name.log" 2>/dev/null || true
  rc="$(cat "$BUILD/test-logs/$name.rc" 2>/dev/null || echo missing)"
  t0="$(cat "$BUILD/test-logs/$name.t0" 2>/dev/null || echo "$SECONDS")"
  t1="$(cat "$BUILD/test-logs/$name.t1" 2>/dev/null || echo "$SECONDS")"
  SUITE_T0=$((SECONDS - (t1 - t0)))
  if [[ "$rc" == build ]]; then
    echo "build.sh: building the $name suite failed" >&2
    record "$name" 0 1
  elif [[ "$rc" == missing ]]; then
    record "$name" 0 1 "the suite did not finish"
  else
    count_ctest "$name" "$rc"
  fi
}

run_tests() {
  mkdir -p "$BUILD/test-logs"
  local name
  for name in native wasm asan; do
    rm -f "$BUILD/test-logs/$name".{xml,rc,t0,t1}
  done

  # The chain starts with the site's build: its native suites at idle
  # priority take the CPU the site's build leaves (its configure, its
  # single-threaded links and wasm-opt); its wasm suites wait for the site.
  local site_done="$BUILD/test-logs/site.done"
  rm -f "$site_done"
  step "native, wasm and ASan + UBSan suites: one after another at idle priority, beside the site's build and the browser suites labelled 'beside'; their logs follow the browser suites'"
  ( renice -n 19 -p "$BASHPID" >/dev/null || true  # this subshell and all it starts
    # SCHED_IDLE where chrt is there: the chain takes only CPU the browser
    # suites leave (nice 19 alone still took a share from them).
    chrt -i -p 0 "$BASHPID" >/dev/null 2>&1 || true
    bg_suite native build_native "$BUILD/native"
    until [[ -f "$site_done" ]] || ! kill -0 $$ 2>/dev/null; do sleep 1; done
    # The wasm suites live in the site's configuration (out of `all` there).
    if [[ "$(cat "$site_done")" == 1 ]]; then bg_suite wasm build_wasm_tests "$BUILD/wasm-web" -R '_wasm$'; fi
    bg_suite asan build_native_asan "$BUILD/native-asan"
  ) &
  local chain=$!

  suite_start
  step "the site (build/wasm-web -> build/web/)"
  local site=0 site_seconds
  if build_web; then site=1; fi
  echo "$site" >"$site_done"
  site_seconds=$((SECONDS - SUITE_T0))

  # The browser suites in two parts (tests/browser/CMakeLists.txt labels):
  # those labelled `beside` run while the chain builds and tests (a browser
  # suite waits on its page much of the time, and the chain fills that);
  # those labelled `alone` time something on the wall clock (a refusal
  # within 2 s, no layout shift as the page loads, a tap's effect 500 ms
  # later) and run after them, with no other browser suite and the chain
  # still going: it yields the CPU to them (SCHED_IDLE). They used to wait
  # for the chain's end, 78 s at the end of every run on two cores; they
  # pass with far less room: at load 12-14, beside two other builds at
  # normal priority, the 1 MB paste was refused in 1.83 s of its 2 s (115-
  # 170 ms with the machine to itself).
  suite_start
  step "browser suites beside the chain: cmake -S tests/browser -B build/browser-tests against build/web/, ctest -L beside"
  local browser=0
  if ((site)) && suite_build browser build_browser_tests; then
    browser=1
    run_ctest browser "$BUILD/browser-tests" -L beside
  elif ((!site)); then
    record browser 0 1 "the site did not build"
  fi

  suite_start
  step "browser cases that time on the wall clock, with no other browser suite: ctest -L alone"
  if ((browser)); then
    run_ctest browser-alone "$BUILD/browser-tests" -L alone
  else
    record browser-alone 0 1 "the site or the browser suites did not build"
  fi

  step "waiting for the native, wasm and ASan suites"
  wait "$chain" || true

  step "the native, wasm and ASan suites' logs"
  bg_collect native
  if ((site)); then bg_collect wasm; else SUITE_T0=$SECONDS; record wasm 0 1 "the site did not build"; fi
  bg_collect asan

  step "summary"
  printf '%s\n' "${SUMMARY[@]}"
  # The site's build (before all of them), and the run's own time (the
  # suites ran side by side):
  printf '  %-8s built in %dm%02ds\n' site $((site_seconds / 60)) $((site_seconds % 60))
  printf '  %-8s %dm%02ds, installs and builds included\n' total $((SECONDS / 60)) $((SECONDS % 60))
  failure_lines
  echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
  ((TOTAL_FAILED == 0))
}

#-----------------------------------------------------------------------------
# bench
#-----------------------------------------------------------------------------
# The forward benchmark natively (build/bench-native, -O3 -march=native: our
# kernels against Eigen with AVX) and as wasm under node (build/bench-wasm):
# JSON lines on stdout and in build/bench/*.jsonl, then tests/bench/table.mjs;
# then the training step (bench_train) the same two ways, and table_train.mjs.
# The CPU and the load the figures were taken under, in one line.
machine_line() {
  printf 'CPU: %s, %s cores; load average %s' "$(lscpu | sed -n 's/^Model name: *//p' | head -1)" "$(nproc)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
}

run_bench() {
  local out="$BUILD/bench"
  mkdir -p "$out"
  step "benchmark, native -O3 -march=native: build/bench-native"
  { configure "$BUILD/bench-native" -DHEADROOM_MARCH_NATIVE=ON &&
    cmake --build "$BUILD/bench-native" -j "$JOBS" --target bench_forward bench_train bench_text; } || die "native benchmark build failed"
  step "benchmark, wasm SIMD128 (emcmake, HEADROOM_TARGET=bench): build/bench-wasm"
  { configure --em "$BUILD/bench-wasm" -DHEADROOM_TARGET=bench &&
    cmake --build "$BUILD/bench-wasm" -j "$JOBS"; } || die "wasm benchmark build failed"
  step "running: one core, warm-up + medians of repeated samples (the machine varies +-30%)"
  node --no-experimental-fetch "$BUILD/bench-wasm/bench_forward.js" --platform wasm | tee "$out/wasm.jsonl"
  "$BUILD/bench-native/bench_forward" --platform native | tee "$out/native.jsonl"
  step "table (ratios inside this run)"
  node tests/bench/table.mjs "$out/wasm.jsonl" "$out/native.jsonl"
  step "training step: forward + backward + Adam (DESIGN.md training benchmark model)"
  node --no-experimental-fetch "$BUILD/bench-wasm/bench_train.js" --platform wasm | tee "$out/train-wasm.jsonl"
  "$BUILD/bench-native/bench_train" --platform native | tee "$out/train-native.jsonl"
  step "training table (ratios against the training issue's reference figures)"
  node tests/bench/table_train.mjs "$out/train-wasm.jsonl" "$out/train-native.jsonl"
  step "text model training step: B 32 x L 32 tokens, D 64, V 3002, H 1/2/4/8, 1 and 2 layers; $(machine_line)"
  node --no-experimental-fetch "$BUILD/bench-wasm/bench_text.js" --platform wasm | tee "$out/text-wasm.jsonl"
  "$BUILD/bench-native/bench_text" --platform native | tee "$out/text-native.jsonl"
  step "page load: build/web in headless Chromium, median of 5 fresh loads, per phase; then the training program's start and training played (Worker and main thread)"
  build_web >/dev/null || die "site build failed"
  node tests/bench/page_load.mjs "$BUILD/web" 5 | tee "$out/page-load.jsonl"
  step "text task played in the Worker: seeds 1-3, held-out nats per word after 60 s and 2 min; $(machine_line)"
  node tests/bench/text_play.mjs "$BUILD/web" | tee "$out/text-play.jsonl"
}

#-----------------------------------------------------------------------------
# soak
#-----------------------------------------------------------------------------
# The long runs: the app natively under ASan + UBSan for SOAK_NATIVE_STEPS
# training steps with random calls (LeakSanitizer at exit, heap curve), then
# the full page in Chromium for SOAK_STEPS steps and SOAK_CALLS random API
# calls (wasm memory and JS heap curves, build/test-artifacts/soak-memory.json).
run_soak() {
  local rc=0
  step "native soak under ASan + UBSan: ${SOAK_NATIVE_STEPS:-5000} steps (build/native-asan/soak_native)"
  "$BUILD/native-asan/soak_native" "${SOAK_NATIVE_STEPS:-5000}" || rc=1
  step "browser soak: ${SOAK_STEPS:-20000} steps, ${SOAK_CALLS:-2000} calls (tests/browser/soak.test.mjs)"
  SOAK_STEPS="${SOAK_STEPS:-20000}" SOAK_CALLS="${SOAK_CALLS:-2000}" HEADROOM_SITE="$BUILD/web" \
    node tests/browser/soak.test.mjs || rc=1
  return "$rc"
}

#-----------------------------------------------------------------------------
# serve
#-----------------------------------------------------------------------------
serve() {
  local port="${PORT:-8000}"
  step "serving build/web/ with node tools/serve.mjs (Ctrl-C stops)"
  echo "open http://127.0.0.1:$port/"
  exec node "$ROOT/tools/serve.mjs" "$BUILD/web" "$port"
}

#-----------------------------------------------------------------------------
# main
#-----------------------------------------------------------------------------
case "${1:-}" in
  "")    install_all; build_web; serve ;;
  build) install_all; build_web ;;
  test)  install_all; run_tests ;;
  fuzz)  install_debian_packages; build_native_asan; run_fuzzers "${FUZZ_SECONDS:-60}" ;;
  soak)  install_all; build_native_asan; build_web; run_soak ;;
  bench) install_all; run_bench ;;
  -h|--help|help) usage ;;
  *) usage >&2; die "unknown command '$1'" ;;
esac
