#!/usr/bin/env bash
# The test suite under a sanitizer (docs/fuzzing.md, "Sanitizers").
#
#   Scripts/sanitized_tests.sh address|thread [--filter PATTERN]
#       Builds the tests with -sanitize=address or -sanitize=thread into .build-asan or .build-tsan
#       (kept apart from .build, so the usual build is not thrown away) and runs them, PostgreSQL
#       included when ARVIS_TEST_POSTGRES names a database. Fails on a failed test and on any
#       sanitizer report: a report is an error, never a warning. The server's tests run one at a
#       time after the others (see below).
#   Scripts/sanitized_tests.sh address|thread --server
#       Only the server's tests (ARVisServerTests), one at a time: the quick check of the server's
#       concurrency (5 min under thread after the build).
#   Scripts/sanitized_tests.sh address|thread --core
#       Only the Foundation-only modules and their suites (ARVIS_PACKAGE=core, see Package.swift),
#       built into .build-asan-core or .build-tsan-core: the code that handles memory by hand. CI
#       runs this under address (2 min to build, 5 to run); the whole suite runs there
#       un-instrumented, and whole under both sanitizers with the fuzz campaigns (docs/fuzzing.md).
#   Scripts/sanitized_tests.sh address|thread [--core] --build-only
#       Only builds.
#   … --skip PATTERN
#       Leaves out the tests PATTERN matches (swift test's --skip; may be given more than once).
#
# The build's own tools (swift-openapi-generator) are built sanitized too, and leak at exit by
# design of their one-shot run: leaks are not checked while building, only in the tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sanitizer=${1:-}
shift || true
case "$sanitizer" in
address) scratch=.build-asan ;;
thread) scratch=.build-tsan ;;
*) echo "usage: Scripts/sanitized_tests.sh address|thread [--filter PATTERN | --server | --core] [--skip PATTERN] [--build-only]" >&2; exit 2 ;;
esac
filter=() skip=() build_only=0 server_only=0 core_only=0
while [ $# -gt 0 ]; do
  case "$1" in
  --core) core_only=1; scratch=$scratch-core; export ARVIS_PACKAGE=core; shift ;;
  --filter) filter=(--filter "$2"); shift 2 ;;
  --skip) skip+=(--skip "$2"); shift 2 ;;
  --server) server_only=1; shift ;;
  --build-only) build_only=1; shift ;;
  *) echo "sanitized_tests: unknown argument $1" >&2; exit 2 ;;
  esac
done

# Under -sanitize=thread, Swift 6.3 refuses one dependency (swift-otel: "sending 'logger' risks
# causing data races") that it builds without it; the thread build is made in the Swift 5 language
# mode, where that is a warning (with the bare /regex/ literals the tests use). The usual build keeps
# checking ARVis in Swift 6 mode.
#
# Both builds keep line tables only, enough for every report's stack: full debug info costs a debug
# build time and disk, and nothing reads it here. (The index stays: on Linux the test build finds
# the tests through it.)
flags=(-Xswiftc -gline-tables-only)
[ "$sanitizer" = thread ] && flags+=(-Xswiftc -swift-version -Xswiftc 5 -Xswiftc -enable-upcoming-feature -Xswiftc BareSlashRegexLiterals)
ASAN_OPTIONS=detect_leaks=0 swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" ${flags[@]+"${flags[@]}"}
[ "$build_only" = 1 ] && exit 0

log=$scratch/sanitized-tests.log
# halt_on_error=0 keeps the run going after a report, so one run lists them all; exitcode makes a
# report fail the run even when every test passed. The suppressions each give the reason the code
# is correct (Scripts/sanitizers/).
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=0:exitcode=66:suppressions=$root/Scripts/sanitizers/asan.supp
export LSAN_OPTIONS=suppressions=$root/Scripts/sanitizers/lsan.supp:print_suppressions=0
export TSAN_OPTIONS=halt_on_error=0:exitcode=66:suppressions=$root/Scripts/sanitizers/tsan.supp:second_deadlock_stack=1
export SWIFT_BACKTRACE=enable=no
status=0
run() { swift test --sanitize="$sanitizer" --scratch-path "$scratch" --skip-build ${flags[@]+"${flags[@]}"} ${skip[@]+"${skip[@]}"} "$@" >> "$log" 2>&1 || status=$?; }
: > "$log"
if [ "$server_only" = 1 ]; then
  run --filter ARVisServerTests --no-parallel
elif [ ${#filter[@]} -eq 0 ] && [ "$core_only" = 0 ]; then
  # Under ThreadSanitizer the CPU-bound tests (renders, layouts) run ten times slower and hold both
  # threads of Swift's cooperative pool for minutes, so a live server started beside them gets no
  # turn and its client times out (the first run lost all 28 socket tests so). AddressSanitizer slows
  # them less, but with another process on one of the two cores it lost 29 server tests the same way
  # (2026-11-29). The server's tests run one at a time, after the others.
  run --skip ARVisServerTests
  run --filter ARVisServerTests --no-parallel
else
  run ${filter[@]+"${filter[@]}"}  # a filter's tests, or the core's (no server among them): one run
fi
grep -E "^(✔|✘) Test run" "$log" || true
reports=$(grep -cE "^(==[0-9]+==ERROR: |WARNING: ThreadSanitizer:|SUMMARY: (Address|Leak|Thread)Sanitizer)" "$log" || true)
if [ "$status" -ne 0 ] || [ "$reports" -gt 0 ]; then
  echo "sanitized_tests: $sanitizer: exit $status, $reports sanitizer report lines (log: $log)"
  grep -nE "^(==[0-9]+==ERROR: |WARNING: ThreadSanitizer:|SUMMARY: )|✘ Test .* (failed|recorded)" "$log" | head -40
  exit 1
fi
echo "sanitized_tests: $sanitizer: every test passed, no report"
