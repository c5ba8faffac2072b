-- Headless Neovim (0.7+) as an LSP client of `ongrid-skill lsp`: opens the skill.json given in
-- ONGRID_LSP_FILE, waits for the diagnostics, applies the preferred quick fix of the first
-- practice/class-unset one, saves, and writes what it saw to ONGRID_LSP_OUT. Exits 0 when done.
local file = os.getenv('ONGRID_LSP_FILE')
local out = os.getenv('ONGRID_LSP_OUT')
local cmd = vim.split(os.getenv('ONGRID_LSP_CMD'), '\t', { plain = true })
local lines = {}
local function say(s) table.insert(lines, s) end
local function finish(code)
  vim.fn.writefile(lines, out)
  vim.cmd((code == 0 and 'qall!' or 'cquit! ' .. code))
end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = 'ongrid-skill',
  cmd = cmd,
  root_dir = vim.fn.fnamemodify(file, ':h:h'),
})
if not id then say('no client') return finish(3) end
vim.lsp.buf_attach_client(buf, id)
local client = vim.lsp.get_client_by_id(id)

local got = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
if not got then say('no diagnostics') return finish(4) end
local target
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  say('diagnostic ' .. tostring(code) .. ' ' .. d.lnum .. ':' .. d.col)
  if code == 'practice/class-unset' and not target then target = d end
end
if not target then return finish(5) end

-- Neovim 0.7 keeps only code, codeDescription and data of the server's diagnostic (user_data.lsp).
local kept = target.user_data and target.user_data.lsp or {}
local lsp_diag = {
  range = { start = { line = target.lnum, character = target.col }, ['end'] = { line = target.end_lnum, character = target.end_col } },
  message = target.message, severity = target.severity, code = kept.code or target.code, data = kept.data,
}
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = lsp_diag.range,
  context = { diagnostics = { lsp_diag } },
}
local res = client.request_sync('textDocument/codeAction', params, 10000, buf)
if not res or res.err or not res.result then say('no code actions') return finish(6) end
local applied = false
for _, a in ipairs(res.result) do
  say('action ' .. a.title .. (a.isPreferred and ' (preferred)' or ''))
  if a.isPreferred and a.edit and not applied then
    vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding or 'utf-16')
    applied = true
  end
end
if not applied then return finish(7) end
vim.cmd('write')
-- The server checks the buffer again: class-unset is gone.
local cleared = vim.wait(20000, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code == 'practice/class-unset' then return false end
  end
  return true
end, 50)
say(cleared and 'cleared' or 'not cleared')
client.stop()
finish(cleared and 0 or 8)
