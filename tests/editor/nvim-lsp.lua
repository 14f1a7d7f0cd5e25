-- kifu lsp driven by a real editor: Neovim, headless.
--
-- Run it through tests/editor/run.sh (KIFU_BIN=target/release/kifu bash tests/editor/run.sh),
-- which copies typo.psn into a temporary folder and runs, under `timeout 60`:
--
--   KIFU_BIN=... KIFU_DIR=<folder> nvim --headless --clean -c "luafile tests/editor/nvim-lsp.lua"
--
-- Written for Debian 12's Neovim 0.7.2: no `nvim -l`, no `vim.lsp.start` (0.8), so
-- `vim.lsp.start_client` and `vim.lsp.buf_attach_client`; a client's capabilities are in
-- `client.resolved_capabilities`; `vim.diagnostic` (0.6) keeps the LSP code as `code`.
--
-- typo.psn has two faults: two spaces after `Sente` (a warning, `psn::header-space`) and `Q8d`
-- for `P8d` (an error, `psn::unknown-piece`, whose one fix is `P8d`). The script opens it with
-- kifu as its language server, waits for both findings, asks for the code actions at `Q`,
-- applies the first one's edit in the buffer (Neovim itself sends kifu the change, as an
-- incremental didChange), waits for the findings without the error, and hovers on the
-- repaired move for the position after it. One line per check; it quits with status 0 when
-- every check passes, 1 at the first that fails (or times out).

local TIMEOUT = 20000 -- ms, for each thing waited for

local function say(line)
  io.stdout:write(line .. "\n")
  io.stdout:flush()
end

local function quit(status)
  io.stdout:flush()
  vim.cmd((status == 0 and "qall!") or ("cquit " .. status))
end

-- A failed check: raised, caught at the bottom, printed, and the editor quits with status 1.
local Failure = {}
local function fail(why)
  error(setmetatable({ why = why }, Failure), 0)
end

local function check(ok, what, detail)
  if not ok then
    fail(what .. (detail and (": " .. detail) or ""))
  end
  say("ok - " .. what)
end

local function show(v)
  return vim.inspect(v, { newline = " ", indent = "" })
end

local exited = nil -- { code, signal } once the server process ends

-- Waits until `cond()` gives a value, and returns it; fails if the server ends first or
-- `TIMEOUT` passes.
local function wait_for(what, cond)
  local got
  local ok = vim.wait(TIMEOUT, function()
    got = cond()
    return got ~= nil or exited ~= nil
  end, 20)
  if got ~= nil then
    return got
  end
  if exited then
    fail(what .. ": kifu lsp exited first (code " .. tostring(exited.code) .. ", signal " .. tostring(exited.signal) .. ")")
  end
  if not ok then
    fail(what .. ": timed out after " .. TIMEOUT / 1000 .. " s")
  end
end

local function codes(diagnostics)
  local out = {}
  for _, d in ipairs(diagnostics) do
    table.insert(out, d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code))
  end
  table.sort(out)
  return out
end

local function find_code(diagnostics, code)
  for _, d in ipairs(diagnostics) do
    if d.code == code then
      return d
    end
  end
end

-- The one result of the one client of a `buf_request_sync`.
local function request(buf, client_id, method, params)
  local answers, err = vim.lsp.buf_request_sync(buf, method, params, TIMEOUT)
  if not answers then
    fail(method .. ": no answer (" .. tostring(err) .. ")")
  end
  local answer = answers[client_id]
  if not answer then
    fail(method .. ": no answer from kifu")
  end
  if answer.err or answer.error then
    fail(method .. ": " .. show(answer.err or answer.error))
  end
  return answer.result
end

local function main()
  local bin = os.getenv("KIFU_BIN")
  local dir = os.getenv("KIFU_DIR")
  if not bin or bin == "" or not dir or dir == "" then
    fail("KIFU_BIN (the kifu binary) and KIFU_DIR (a folder holding typo.psn) must be set")
  end
  local v = vim.version()
  say(string.format("# Neovim %d.%d.%d, kifu %s, in %s", v.major, v.minor, v.patch, bin, dir))

  local path = dir .. "/typo.psn"
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.api.nvim_buf_line_count(buf) == 4, "typo.psn is open (4 lines)")

  local init_result
  local client_id = vim.lsp.start_client({
    name = "kifu",
    cmd = { bin, "lsp" },
    root_dir = dir,
    on_init = function(_, result)
      init_result = result
    end,
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  })
  check(client_id ~= nil, "kifu lsp starts")
  vim.lsp.buf_attach_client(buf, client_id)

  wait_for("initialize", function()
    return init_result
  end)
  local client = vim.lsp.get_client_by_id(client_id)
  local info = init_result.serverInfo or {}
  check(info.name == "kifu", "the server is kifu " .. tostring(info.version), show(info))
  local sync = init_result.capabilities.textDocumentSync
  check(type(sync) == "table" and sync.change == 2, "it asks for incremental changes", show(sync))
  check(client.offset_encoding == "utf-16", "positions in UTF-16", tostring(client.offset_encoding))

  -- Every didChange Neovim sends, as sent.
  local changes = {}
  local notify = client.notify
  client.notify = function(method, params)
    if method == "textDocument/didChange" then
      table.insert(changes, params)
    end
    return notify(method, params)
  end

  -- The findings of the file as opened.
  local found = wait_for("the findings of typo.psn", function()
    local d = vim.diagnostic.get(buf)
    if #d > 0 then
      return d
    end
  end)
  local got = codes(found)
  check(
    #got == 2 and got[1] == "psn::header-space" and got[2] == "psn::unknown-piece",
    "two findings: psn::header-space, psn::unknown-piece",
    show(got)
  )
  for _, d in ipairs(found) do
    if d.source ~= "kifu" then
      fail("a finding's source is not kifu: " .. show(d))
    end
  end
  say("ok - their source is kifu")
  local warning = find_code(found, "psn::header-space")
  check(
    warning.severity == vim.diagnostic.severity.WARN and warning.lnum == 1 and warning.col == 6,
    "psn::header-space is a warning at line 2, column 7",
    show(warning)
  )
  local typo = find_code(found, "psn::unknown-piece")
  check(
    typo.severity == vim.diagnostic.severity.ERROR
      and typo.lnum == 3
      and typo.col == 18
      and typo.end_lnum == 3
      and typo.end_col == 19,
    "psn::unknown-piece is an error on the `Q` of `Q8d`, line 4, columns 19-20",
    show({ typo.lnum, typo.col, typo.end_lnum, typo.end_col })
  )
  check(typo.message:find("did you mean `P8d`", 1, true) ~= nil, "its message says: did you mean `P8d`?", typo.message)

  -- The code actions at the error, asked for as `vim.lsp.buf.code_action()` asks for them.
  local actions = request(buf, client_id, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = {
      start = { line = typo.lnum, character = typo.col },
      ["end"] = { line = typo.end_lnum, character = typo.end_col },
    },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, typo.lnum) },
  })
  check(type(actions) == "table" and #actions >= 1, "kifu offers a code action at the error", show(actions))
  local action = actions[1]
  check(action.title == "Replace `Q8d` with `P8d`", "its title: " .. tostring(action.title), show(action))
  check(
    action.kind == "quickfix" and action.isPreferred ~= true,
    "a quick fix, not preferred (it changes the move written, so it is not safe)",
    show(action)
  )
  check(action.edit ~= nil, "it carries its edit", show(action))

  -- Applied as an editor applies it: the buffer changes, and Neovim tells kifu.
  local version = vim.lsp.util.buf_versions[buf]
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  local line = vim.api.nvim_buf_get_lines(buf, 3, 4, true)[1]
  check(line == "1. P7f P3d 2. P2f P8d 3. P2e P8e", "the buffer reads: " .. line)
  local after = wait_for("the findings after the fix", function()
    local d = vim.diagnostic.get(buf)
    if not find_code(d, "psn::unknown-piece") then
      return d
    end
  end)
  got = codes(after)
  check(#got == 1 and got[1] == "psn::header-space", "republished without the error: psn::header-space alone", show(got))
  local sent = changes[#changes]
  check(sent ~= nil, "Neovim sent kifu a didChange (" .. #changes .. " in all)")
  local change = sent.contentChanges[1]
  check(
    #sent.contentChanges >= 1 and change.range ~= nil and sent.textDocument.version > version,
    string.format(
      "it was incremental: version %d, lines %d-%d changed to %q",
      sent.textDocument.version,
      change.range and change.range.start.line or -1,
      change.range and change.range["end"].line or -1,
      change.text or "?"
    ),
    show(sent)
  )

  -- A hover on the repaired move shows the position after it: Gote's pawns on 8d and 3d.
  local col = line:find("P8d", 1, true) - 1
  local hover = request(buf, client_id, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = 3, character = col + 1 },
  })
  check(hover ~= nil and hover.contents ~= nil, "a hover on P8d", show(hover))
  local shown = hover.contents.value or ""
  local row_d = "│ ·  p  ·  ·  ·  ·  p  ·  · │ d"
  check(shown:find(row_d, 1, true) ~= nil, "it shows the board after P8d: " .. row_d, shown)
  local r = hover.range or {}
  check(
    r.start and r.start.line == 3 and r.start.character == col and r["end"].character == col + 3,
    "its range is the move",
    show(r)
  )

  -- Stopped as Neovim stops a server: shutdown, exit; kifu ends with status 0.
  vim.lsp.stop_client(client_id)
  wait_for("kifu lsp to exit", function()
    return exited
  end)
  check(exited.code == 0 and exited.signal == 0, "kifu lsp exits with status 0", show(exited))
end

local ok, err = xpcall(main, function(e)
  if getmetatable(e) == Failure then
    return e
  end
  return debug.traceback(tostring(e), 2)
end)
if ok then
  say("PASS")
  quit(0)
else
  say("FAIL - " .. (type(err) == "table" and err.why or tostring(err)))
  quit(1)
end
