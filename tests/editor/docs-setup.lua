-- The Neovim setup of docs/editors.md, as the page writes it, attaches kifu to a PSN file.
--
-- Run by tests/editor/run.sh after nvim-lsp.lua, with KIFU_SETUP naming a file that holds the
-- page's Lua block and a `kifu` on PATH: it loads the setup, opens typo.psn, and waits for
-- kifu's two findings. Quits with status 0 when they come, 1 otherwise.

local function say(line)
  io.stdout:write(line .. "\n")
  io.stdout:flush()
end

local ok, why = pcall(function()
  dofile(os.getenv("KIFU_SETUP"))
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("KIFU_DIR") .. "/typo.psn"))
  local buf = vim.api.nvim_get_current_buf()
  local found = vim.wait(20000, function()
    return #vim.diagnostic.get(buf) >= 2
  end, 50)
  if not found then
    error("the documented setup gave no findings within 20 s", 0)
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source ~= "kifu" then
      error("a finding not from kifu: " .. vim.inspect(d), 0)
    end
  end
  say("ok - the setup of docs/editors.md attaches kifu to typo.psn: 2 findings")
end)
if ok then
  vim.cmd("qall!")
else
  say("not ok - " .. tostring(why))
  vim.cmd("cquit 1")
end
