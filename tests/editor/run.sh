#!/usr/bin/env bash
# kifu lsp driven by Neovim (headless): tests/editor/nvim-lsp.lua, on a copy of typo.psn; then
# the setup docs/editors.md gives, loaded as written (tests/editor/docs-setup.lua).
#
#   KIFU_BIN=target/release/kifu bash tests/editor/run.sh
#
# Builds nothing. Needs nvim (written for 0.7.2, Debian 12's). The editor runs with a clean
# configuration in a temporary folder (its own XDG folders too, so that nothing is read from or
# written to $HOME), under a hard `timeout 60`. Exits with nvim's status: 0 when every check
# passed; 124 on the timeout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${KIFU_BIN:?KIFU_BIN must name the kifu binary to test}"
case "$KIFU_BIN" in
  /*) ;;
  *) KIFU_BIN="$PWD/$KIFU_BIN" ;;
esac
command -v nvim >/dev/null || { echo "run.sh: nvim is not installed" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$here/typo.psn" "$tmp/typo.psn"
for d in config data cache state; do mkdir -p "$tmp/xdg/$d"; done

status=0
KIFU_BIN="$KIFU_BIN" KIFU_DIR="$tmp" \
  XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
  XDG_CACHE_HOME="$tmp/xdg/cache" XDG_STATE_HOME="$tmp/xdg/state" \
  timeout 60 nvim --headless --clean -c "luafile $here/nvim-lsp.lua" </dev/null || status=$?

# The Neovim setup of docs/editors.md (its first Lua block), with `kifu` on PATH as the page
# assumes it is.
if [ "$status" -eq 0 ]; then
  awk '/^```lua$/ { on = 1; next } on && /^```$/ { exit } on' "$here/../../docs/editors.md" >"$tmp/setup.lua"
  [ -s "$tmp/setup.lua" ] || { echo "run.sh: no Lua block in docs/editors.md" >&2; exit 1; }
  mkdir -p "$tmp/bin" && ln -s "$KIFU_BIN" "$tmp/bin/kifu"
  PATH="$tmp/bin:$PATH" KIFU_SETUP="$tmp/setup.lua" KIFU_DIR="$tmp" \
    XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
    XDG_CACHE_HOME="$tmp/xdg/cache" XDG_STATE_HOME="$tmp/xdg/state" \
    timeout 60 nvim --headless --clean -c "luafile $here/docs-setup.lua" </dev/null || status=$?
fi

if [ "$status" -ne 0 ]; then
  [ "$status" -eq 124 ] && echo "run.sh: nvim did not finish within 60 s" >&2
  # Neovim's LSP log says what the client saw (errors from the server's standard error too).
  log="$(find "$tmp/xdg" -name lsp.log 2>/dev/null | head -n 1)"
  if [ -n "$log" ] && [ -s "$log" ]; then
    echo "run.sh: the end of Neovim's LSP log:" >&2
    tail -n 20 "$log" >&2
    echo >&2
  fi
fi
exit "$status"
