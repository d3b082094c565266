#!/usr/bin/env bash
# The fuzz targets of Fuzz/ (docs/fuzzing.md): build them, run a campaign, or replay the corpora.
#
#   Scripts/fuzz_campaign.sh [--runs N] [--seconds S] [TARGET...]
#       A campaign: each target (all by default), one after another, to N executions (10 000 000) or
#       S seconds (7 200), whichever comes first, from the committed corpus, the seeds
#       (Scripts/fuzz_seeds.py) and its dictionary; -timeout=5, -rss_limit_mb=1024, leaks detected.
#       Findings go to Fuzz/findings/TARGET/; the corpus is merged back, minimized, into
#       Fuzz/Corpus/TARGET; one line per target is added to Fuzz/campaign.tsv (date, target,
#       executions, executions/s, features, corpus files, the run's own findings).
#   Scripts/fuzz_campaign.sh --replay [TARGET...]
#       Runs every committed corpus file once, no mutation (CI): a fixed finding stays fixed.
#   Scripts/fuzz_campaign.sh --merge [TARGET...]
#       Only minimizes the committed corpora again (as after a campaign), with what the last campaign
#       found (Fuzz/.work/corpus/TARGET, when it is there), and no new mutation.
#   Scripts/fuzz_campaign.sh --build
#       Only builds the targets (release, -sanitize=fuzzer,address).
#   Scripts/fuzz_campaign.sh --sanitizers
#       The whole test suite under AddressSanitizer, then under ThreadSanitizer
#       (Scripts/sanitized_tests.sh; PostgreSQL too with ARVIS_TEST_POSTGRES). CI runs only the
#       Foundation-only modules' suites under the first (--core); both whole do not fit in its hour
#       beside the rest (docs/fuzzing.md, "In CI").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fuzz=$root/Fuzz
all=(FuzzSpecJSON FuzzSpecYAML FuzzLink FuzzPNG FuzzJPEG FuzzGLB FuzzGLTF FuzzUSDZ FuzzUSDC FuzzUSDA FuzzMeshopt FuzzDraco FuzzGeoJSON FuzzPosePacket FuzzRoomMessage FuzzHTTPBody FuzzHTTPField)
runs=10000000 seconds=7200 mode=campaign targets=()
while [ $# -gt 0 ]; do
  case "$1" in
  --runs) runs=$2; shift 2 ;;
  --seconds) seconds=$2; shift 2 ;;
  --replay) mode=replay; shift ;;
  --merge) mode=merge; shift ;;
  --build) mode=build; shift ;;
  --sanitizers) mode=sanitizers; shift ;;
  -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
  Fuzz*) targets+=("$1"); shift ;;
  *) echo "fuzz_campaign: unknown argument $1 (targets: ${all[*]})" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
if [ "$mode" = sanitizers ]; then
  "$root/Scripts/sanitized_tests.sh" address
  exec "$root/Scripts/sanitized_tests.sh" thread
fi

# What each target reads: its dictionary and its longest input. The model targets mutate the small
# seeds (fuzz_seeds.py makes them without pictures): 64 KB, as the others; only whole crates are
# larger.
dictionary() {
  case "$1" in
  FuzzSpecJSON|FuzzSpecYAML) echo "$fuzz/.work/seeds/spec.dict" ;;
  FuzzLink) echo "$fuzz/Dictionaries/link.dict" ;;
  FuzzPNG) echo "$fuzz/Dictionaries/png.dict" ;;
  FuzzJPEG) echo "$fuzz/Dictionaries/jpeg.dict" ;;
  FuzzGLB|FuzzGLTF) echo "$fuzz/Dictionaries/gltf.dict" ;;
  FuzzUSDZ) echo "$fuzz/Dictionaries/usdz.dict" ;;
  FuzzUSDC) echo "$fuzz/Dictionaries/usdc.dict" ;;
  FuzzUSDA) echo "$fuzz/Dictionaries/usda.dict" ;;
  FuzzGeoJSON) echo "$fuzz/Dictionaries/geojson.dict" ;;
  FuzzRoomMessage) echo "$fuzz/Dictionaries/room.dict" ;;
  FuzzHTTPBody) echo "$fuzz/Dictionaries/rows.dict" ;;
  FuzzHTTPField) echo "$fuzz/Dictionaries/fields.dict" ;;
  *) echo "" ;;
  esac
}
longest() {
  case "$1" in
  FuzzPosePacket) echo 128 ;;
  FuzzLink) echo 4096 ;;
  FuzzHTTPField) echo 8192 ;;
  FuzzUSDC) echo 262144 ;;
  *) echo 65536 ;;
  esac
}

# Leaks are findings; a failed allocation is an error the code must handle, not a crash.
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:handle_abort=1
export LSAN_OPTIONS=suppressions=$fuzz/lsan.supp:print_suppressions=0
# The Swift runtime's backtracer reads memory AddressSanitizer then reports on: libFuzzer reports.
export SWIFT_BACKTRACE=enable=no

echo "fuzz_campaign: building the targets (release, -sanitize=fuzzer,address)"
(cd "$fuzz" && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
bin=$(cd "$fuzz" && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing --show-bin-path)
[ "$mode" = build ] && exit 0

# Merges a target's committed corpus and the given directories into the smallest set of inputs with
# the same coverage (libFuzzer's -merge=1, which prefers the smaller input for each feature), and
# commits it to Fuzz/Corpus/TARGET. All the corpora stay under 5 MB: over 320 KB, a target keeps its
# smallest inputs up to 320 KB (the larger ones are mostly seeds, made again by fuzz_seeds.py). A
# finding's input (finding-NAME, the regression test's file) stays whatever its size or coverage.
merge_corpus() {
  local target=$1 corpus=$fuzz/Corpus/$1 log=$fuzz/.work/$1.log.merge total=0 size file
  shift
  rm -rf "$corpus.merged" "$corpus.all" && mkdir -p "$corpus.merged" "$corpus.all"
  for from in "$corpus" "$@"; do  # files are named by their SHA-1: one of each is enough
    find "$from" -type f ! -name 'finding-*' -exec cp -f -t "$corpus.all" {} + 2>/dev/null || true
  done
  "$bin/$target" -merge=1 -max_len="$(longest "$target")" "$corpus.merged" "$corpus.all" > "$log" 2>&1 || true
  rm -rf "$corpus.all"
  while read -r size file; do
    total=$((total + size))
    [ "$total" -le $((320 * 1024)) ] || rm -f "$file"
  done < <(find "$corpus.merged" -type f -printf '%s %p\n' | sort -n)
  find "$corpus" -maxdepth 1 -type f -name 'finding-*' -exec cp -f -t "$corpus.merged" {} + 2>/dev/null || true
  if [ -n "$(ls -A "$corpus.merged")" ]; then rm -rf "$corpus" && mv "$corpus.merged" "$corpus"; else rm -rf "$corpus.merged"; fi
}

if [ "$mode" = merge ]; then
  mkdir -p "$fuzz/.work"
  for target in "${targets[@]}"; do
    before=$(du -sb "$fuzz/Corpus/$target" | cut -f1)
    if [ -d "$fuzz/.work/corpus/$target" ]; then merge_corpus "$target" "$fuzz/.work/corpus/$target"; else merge_corpus "$target"; fi
    echo "$target: $before -> $(du -sb "$fuzz/Corpus/$target" | cut -f1) bytes, $(find "$fuzz/Corpus/$target" -type f | wc -l) files"
  done
  exit 0
fi

if [ "$mode" = replay ]; then
  failed=0
  for target in "${targets[@]}"; do
    corpus=$fuzz/Corpus/$target
    count=$(find "$corpus" -type f 2>/dev/null | wc -l)
    if [ "$count" -eq 0 ]; then echo "$target: no committed corpus"; failed=1; continue; fi
    if "$bin/$target" -runs=0 -timeout=5 -rss_limit_mb=1024 -max_len="$(longest "$target")" "$corpus" \
      > "$fuzz/.replay-$target.log" 2>&1; then
      echo "$target: replayed $count inputs"
    else
      echo "$target: FAILED on its corpus (log below)"; tail -40 "$fuzz/.replay-$target.log"; failed=1
    fi
  done
  exit $failed
fi

# Seeds are made again when a target has none yet (a new target, a new checkout). The model seeds
# and the spec dictionary come from a release `arvis` (`arvis scene`, `arvis schema`).
for target in "${targets[@]}"; do
  [ -d "$fuzz/.work/seeds/$target" ] && continue
  [ -x "$root/.build/release/arvis" ] || (cd "$root" && swift build -c release --product arvis)
  python3 "$root/Scripts/fuzz_seeds.py" "$fuzz/.work/seeds"
  break
done
for target in "${targets[@]}"; do
  work=$fuzz/.work/corpus/$target findings=$fuzz/findings/$target corpus=$fuzz/Corpus/$target
  mkdir -p "$work" "$findings" "$corpus" "$fuzz/.work/seeds/$target"
  dict=$(dictionary "$target")
  if [ -n "$dict" ] && [ ! -s "$dict" ]; then
    echo "fuzz_campaign: $target's dictionary $dict is missing (Scripts/fuzz_seeds.py writes it)" >&2
    exit 1
  fi
  log=$fuzz/.work/$target.log started=$fuzz/.work/$target.started
  echo "fuzz_campaign: $target to $runs executions or $seconds s"
  # Findings of earlier runs stay in the folder until someone deals with them; only this run's count.
  : > "$started"
  "$bin/$target" -runs="$runs" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 \
    -max_len="$(longest "$target")" ${dict:+-dict="$dict"} -artifact_prefix="$findings/" -print_final_stats=1 \
    "$work" "$corpus" "$fuzz/.work/seeds/$target" > "$log" 2>&1 || true
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  features=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  found=$(find "$findings" -type f -newer "$started" | wc -l)
  merge_corpus "$target" "$work"
  files=$(find "$corpus" -type f | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${executions:-?}" "${rate:-?}" \
    "${features:-?}" "$files" "$found" | tee -a "$fuzz/campaign.tsv"
  if [ "$found" -gt 0 ]; then echo "fuzz_campaign: $target found $found: see $findings and $log"; fi
done
