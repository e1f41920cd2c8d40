#!/bin/sh
# Builds a libFuzzer + AddressSanitizer binary for BridgeCore's parsers and, with arguments, runs it:
#   Tests/BridgeCoreTests/Fuzz/LibFuzzer/build.sh [libFuzzer options, e.g. -max_total_time=600]
# From the repository root. Uses its own scratch path (.build-fuzz); the normal build is untouched.
set -eu
root=$(pwd)
scratch="$root/.build-fuzz"
here="$root/Tests/BridgeCoreTests/Fuzz/LibFuzzer"
swift build --scratch-path "$scratch" --target BridgeCore -Xswiftc -sanitize=fuzzer,address
bin="$scratch/debug"
objects=$(find "$bin/BridgeCore.build" "$bin/Logging.build" "$bin/TOMLKit.build" "$bin/CTOML.build" -name '*.o' 2>/dev/null)
swiftc -sanitize=fuzzer,address -parse-as-library -I "$bin/Modules" -I "$bin/CTOML.build" \
    "$here/Harness.swift" $objects -lstdc++ -o "$scratch/fuzz-bridgecore"
echo "built $scratch/fuzz-bridgecore"
if [ $# -gt 0 ]; then
    work="$scratch/fuzz-corpus"
    mkdir -p "$work"
    # Seed from the committed corpus, each file prefixed with its target selector byte.
    i=0
    for pair in topics:0 payloads:1 json:2 config:3; do
        dir=${pair%%:*}; sel=${pair##*:}
        for f in "$root/Tests/BridgeCoreTests/Fuzz/Corpus/$dir"/*; do
            { printf "\\$(printf %o "$sel")"; cat "$f"; } > "$work/seed-$i"; i=$((i+1))
        done
    done
    # TOMLKit leaks a few hundred bytes per parse (its C++ table wrappers): leak detection off.
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$scratch/fuzz-bridgecore" -detect_leaks=0 "$work" "$@"
fi
