#!/usr/bin/env bash
# Builds the playground into web/dist/: kifu for WebAssembly (wasm-bindgen), its JavaScript API
# (kifu.js) and the page. Open web/dist/index.html from a local web server, or load kifu.js
# from Node; nothing in it fetches anything from the network.
#
# Needs the Rust toolchain: it adds the wasm32-unknown-unknown target and installs
# wasm-bindgen-cli at the version Cargo.lock pins when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  echo "installing wasm-bindgen-cli $version (the version Cargo.lock pins)" >&2
  cargo install -q wasm-bindgen-cli --version "$version"
fi
if command -v rustup >/dev/null 2>&1; then
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1
fi

cargo build -q -p kifu-web --target wasm32-unknown-unknown --release
target="${CARGO_TARGET_DIR:-target}"
out=web/dist
rm -rf "$out"
mkdir -p "$out"
wasm="$target/wasm32-unknown-unknown/release/kifu_web.wasm"

# The ES module: kifu_web.js (wasm-bindgen's glue, able to start a fresh instance after a trap),
# kifu_web_bg.wasm, and kifu.js, the API (web/kifu.js, then web/api.js and its exports).
wasm-bindgen --target web --experimental-reset-state-function --no-typescript --out-dir "$out" "$wasm"
{
  cat web/kifu.js web/api.js
  echo 'export const { check, parse, grammarDiff, toSvg, grammarSource, defaultRule, offsetOf, KifuStopped } = kifuApi(glue);'
} >"$out/kifu.js"

# The page: classic scripts, so that it opens from the folder (file://) with no server, where
# browsers load no module and fetch no file: wasm-bindgen's glue for pages without modules,
# the WebAssembly as base64 in a script, the API, the page's own script.
page=$(mktemp -d)
trap 'rm -rf "$page"' EXIT
wasm-bindgen --target no-modules --no-typescript --out-dir "$page" "$wasm"
mkdir -p "$out/page"
cp "$page/kifu_web.js" "$out/page/glue.js"
{
  printf 'const KIFU_WASM = "'
  base64 -w0 "$page/kifu_web_bg.wasm"
  printf '";\n'
} >"$out/page/wasm.js"
cp web/api.js web/app.js "$out/page/"
cp web/index.html web/style.css "$out/"
echo "built $out/ ($(du -sh "$out" | cut -f1))" >&2
