#!/usr/bin/env bash
# Proves that the packed tarball is a working `basalt` for someone without a Rust toolchain:
# `npm pack` (prepack builds dist/ and this platform's prebuild), `npm install -g` into a
# temporary prefix with every directory that holds cargo or rustc taken off PATH, then
# `basalt --help`, and a devnet node started from the installed package that must answer
# system_getNodeInfo with the shipped prebuild loaded (not the TypeScript fallback).
#
#   bash scripts/check-package.sh        (npm run check:package; .ci/run runs it)
#   KEEP=1 bash scripts/check-package.sh keeps the temporary folder for a look
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/basalt-package.XXXXXX")"
node_pid=''
cleanup() {
  if [ -n "$node_pid" ] && kill -0 "$node_pid" 2>/dev/null; then
    kill -TERM "$node_pid" 2>/dev/null || true
    wait "$node_pid" 2>/dev/null || true
  fi
  if [ "${KEEP:-0}" = 1 ]; then echo "check-package: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
fail() {
  echo "check-package: FAILED: $*" >&2
  exit 1
}
started=$SECONDS

if ! command -v cargo >/dev/null; then
  echo "check-package: skipped: cargo is needed to build the prebuild that the package ships"
  exit 0
fi

echo "== check-package: npm pack (prepack: dist/ and the prebuild)"
(cd "$root" && npm pack --pack-destination "$work" --loglevel=error >"$work/pack.log") || {
  cat "$work/pack.log"
  fail 'npm pack'
}
tarball="$(ls "$work"/basalt-*.tgz)"
listing="$(tar tzf "$tarball")"
triple_prebuild="$(grep -E '^package/native/prebuilds/basalt-native\..*\.node$' <<<"$listing" || true)"
[ -n "$triple_prebuild" ] || fail "no prebuild in $tarball"
for required in package/bin/basalt.js package/dist/cli/main.js package/dist/workers/worker-entry.js \
  package/config/devnet/genesis_block.blob package/README.md; do
  grep -qx "$required" <<<"$listing" || fail "$required is not in the tarball"
done
if grep -E '^package/(test|src|bench|native/target)/' <<<"$listing" | head -3 | grep .; then
  fail 'tests, TypeScript sources or build output are in the tarball'
fi
echo "   $(basename "$tarball"): $(wc -l <<<"$listing") files, $(du -k "$tarball" | cut -f1) KiB, ${triple_prebuild#package/}"

# PATH without any directory holding a Rust toolchain, so nothing below can compile.
clean_path=''
IFS=':' read -r -a path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
  [ -x "$dir/cargo" ] || [ -x "$dir/rustc" ] || clean_path="${clean_path:+$clean_path:}$dir"
done
run_clean() { env -u CARGO -u CARGO_HOME -u RUSTUP_HOME PATH="$work/prefix/bin:$clean_path" "$@"; }
if run_clean bash -c 'command -v cargo || command -v rustc' >/dev/null; then fail 'cargo is still on the cleaned PATH'; fi

echo "== check-package: npm install -g --prefix <tmp> (no cargo on PATH)"
# Recent npm runs no install script unless allowed: allow ours, so the install hook is checked
# too (it must find the prebuild and build nothing). Older npm ignores the unknown flag.
run_clean npm install -g --prefix "$work/prefix" --no-audit --no-fund --foreground-scripts \
  --allow-scripts=basalt "$tarball" >"$work/install.log" 2>&1 || {
  cat "$work/install.log"
  fail 'npm install -g'
}
grep -h 'build:native:' "$work/install.log" | sed 's/^/   /' || true
[ -x "$work/prefix/bin/basalt" ] || fail "no basalt command in $work/prefix/bin"

echo "== check-package: basalt --help"
run_clean basalt --help >"$work/help.txt" || fail 'basalt --help exited non-zero'
grep -q 'Usage: basalt' "$work/help.txt" || fail "basalt --help printed no usage: $(head -3 "$work/help.txt")"

echo "== check-package: basalt start (devnet) and system_getNodeInfo"
free_port() { node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
api_port="$(free_port)"
p2p_port="$(free_port)"
cd "$work"
# exec: $! must be the node itself, not a subshell around it, so that SIGTERM reaches it.
(exec env -u CARGO -u CARGO_HOME -u RUSTUP_HOME PATH="$work/prefix/bin:$clean_path" basalt start --network devnet --data-path "$work/data" --api-port "$api_port" --port "$p2p_port" \
  --log debug --log-format json >"$work/node.log" 2>&1) &
node_pid=$!
answer=''
for _ in $(seq 1 60); do
  kill -0 "$node_pid" 2>/dev/null || {
    tail -20 "$work/node.log"
    fail 'the node exited'
  }
  answer="$(node -e '
    fetch(process.argv[1], { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "system_getNodeInfo" }) })
      .then((r) => r.json()).then((b) => { if (b.result) console.log(JSON.stringify(b.result)); }).catch(() => {});
  ' "http://127.0.0.1:$api_port/rpc")"
  [ -n "$answer" ] && break
  sleep 1
done
[ -n "$answer" ] || {
  tail -20 "$work/node.log"
  fail "no system_getNodeInfo answer on port $api_port within 60 s"
}
echo "   $(cut -c1-160 <<<"$answer")"
loaded="$(grep '"native":true' "$work/node.log" | head -1 || true)"
[ -n "$loaded" ] || fail "the node did not load the native addon: $(grep -m1 '"native":false' "$work/node.log")"
grep -q "$work/prefix/.*native/prebuilds/basalt-native\..*\.node (prebuild," <<<"$loaded" ||
  fail "the addon did not come from the installed prebuild: $loaded"
echo "   $(sed -E 's/.*"msg":"([^"]*)".*/\1/' <<<"$loaded")"
kill -TERM "$node_pid"
wait "$node_pid" || fail "the node did not stop cleanly (exit $?)"
grep -q '"msg":"Stopping"' "$work/node.log" || fail 'the node did not log its stop'

node_pid=''
echo "check-package: OK in $((SECONDS - started)) s"
