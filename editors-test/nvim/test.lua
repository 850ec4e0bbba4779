-- Headless Neovim end-to-end test of docs/editors/graphmend.lua against the GraphMend server.
--
--   GRAPHMEND_JAR=server/target/graphmend.jar \
--     nvim --headless -u NONE -i NONE -c "luafile editors-test/nvim/test.lua"
--
-- Checks, in order: the Neovim doc shows docs/editors/graphmend.lua verbatim; the server starts
-- through that file's setup() and publishes GM101 (with the severity the settings ask for, so
-- the settings reach the server); the "Rewrite to torch.where" quick fix (resolved when it comes
-- without an edit) rewrites the branch; fix-all through the buffer's mapping (graphmend.fixAll,
-- applied through workspace/applyEdit) fixes the rest; the saved file equals the expected text.
-- Then, in a second copy, fix-on-save (source.fixAll.graphmend, resolved) does it all on :write.
-- Exits 0 when every check passes, 1 with a "FAIL:" line otherwise; every wait has a limit.
-- With GRAPHMEND_JAR unset, setup() gets no jar and must find the pip-installed `graphmend` on
-- PATH (scripts/test-wheel runs it so, with no Java on PATH); the client's command must be it.

local script = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p')
local here = vim.fn.fnamemodify(script, ':h')
local root = vim.fn.fnamemodify(here, ':h:h')
local LIMIT = tonumber(vim.env.GRAPHMEND_E2E_TIMEOUT_MS or '') or 60000

local function say(msg)
  io.stdout:write('nvim-e2e: ' .. msg .. '\n')
  io.stdout:flush()
end

local function fail(msg)
  error({ gm_fail = msg }, 0)
end

local function read(path)
  local f, err = io.open(path, 'rb')
  if not f then fail('cannot read ' .. path .. ': ' .. tostring(err)) end
  local s = f:read('*a')
  f:close()
  return s
end

local function write(path, s)
  local f = assert(io.open(path, 'wb'))
  f:write(s)
  f:close()
end

local function wait(what, ms, cond)
  if not vim.wait(ms, cond, 50) then fail('timed out after ' .. ms .. ' ms waiting for ' .. what) end
end

local function buffer_text(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local text = table.concat(lines, '\n')
  if vim.bo[bufnr].eol then text = text .. '\n' end
  return text
end

local function diff_message(label, want, got)
  return label .. '\n--- expected ---\n' .. want .. '--- got ---\n' .. got .. '--- end ---'
end

local function diagnostics(bufnr, code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local c = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code == nil or c == code then table.insert(out, d) end
  end
  return out
end

-- vim.diagnostic entry -> LSP Diagnostic (for the code action context)
local function to_lsp(d)
  local lsp = (d.user_data and d.user_data.lsp) or {}
  return {
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = d.code or lsp.code,
    codeDescription = lsp.codeDescription,
    data = lsp.data,
  }
end

local function run()
  -- 1. the doc's configuration is this file, verbatim
  local lua_path = root .. '/docs/editors/graphmend.lua'
  local lua_src = read(lua_path)
  local doc = read(root .. '/docs/editors/neovim.md')
  local begin_marker = '<!-- BEGIN docs/editors/graphmend.lua -->\n```lua\n'
  local end_marker = '```\n<!-- END docs/editors/graphmend.lua -->'
  local b = doc:find(begin_marker, 1, true)
  local e = b and doc:find(end_marker, b, true)
  if not b or not e then fail('docs/editors/neovim.md lacks the BEGIN/END docs/editors/graphmend.lua block') end
  local block = doc:sub(b + #begin_marker, e - 1)
  if block ~= lua_src then
    fail(diff_message('the lua block in docs/editors/neovim.md differs from docs/editors/graphmend.lua '
      .. '(copy the file into the block)', lua_src, block))
  end
  say('ok: docs/editors/neovim.md shows docs/editors/graphmend.lua verbatim')

  -- 2. a project with a copy of the fixture
  local jar = vim.env.GRAPHMEND_JAR
  if jar == '' then jar = nil end
  if jar and vim.fn.filereadable(jar) ~= 1 then fail('GRAPHMEND_JAR (' .. jar .. ') is not a readable file') end
  if not jar and vim.fn.executable('graphmend') ~= 1 then fail('neither GRAPHMEND_JAR nor graphmend on PATH') end
  local server = jar and 'the jar' or 'graphmend on PATH'
  if not jar then vim.env.GRAPHMEND_JAR = nil end
  local fixture = read(here .. '/fixtures/gate.py')
  local expected = read(here .. '/fixtures/gate.expected.py')
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. '/pkg', 'p')
  write(dir .. '/pyproject.toml', '[project]\nname = "gate"\nversion = "0"\n')
  local file = dir .. '/pkg/gate.py'
  local file2 = dir .. '/pkg/gate_on_save.py'
  write(file, fixture)
  write(file2, fixture)

  local gm = dofile(lua_path)
  gm.setup({ jar = jar, settings = { severity = { GM1 = 'error' } }, fix_on_save = true })
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].filetype ~= 'python' then fail('filetype of ' .. file .. ' is ' .. vim.bo[bufnr].filetype) end

  -- 3. the server starts and publishes GM101
  wait('the graphmend client to attach', 10000, function() return gm.client(bufnr) ~= nil end)
  local client = gm.client(bufnr)
  if client.config.root_dir ~= dir then fail('root_dir is ' .. tostring(client.config.root_dir) .. ', expected ' .. dir) end
  if not jar and client.config.cmd[1] ~= 'graphmend' then
    fail('with no jar the server command is ' .. table.concat(client.config.cmd, ' ') .. ', not graphmend lsp')
  end
  wait('the GM101 diagnostic', LIMIT, function() return #diagnostics(bufnr, 'GM101') > 0 end)
  local d = diagnostics(bufnr, 'GM101')[1]
  if d.lnum ~= 5 then fail('GM101 on line ' .. (d.lnum + 1) .. ', expected line 6') end
  if d.source ~= 'graphmend' then fail('GM101 source is ' .. tostring(d.source)) end
  if d.severity ~= vim.diagnostic.severity.ERROR then
    fail('GM101 severity is ' .. tostring(d.severity) .. '; settings.severity GM1 = error did not reach the server')
  end
  if #diagnostics(bufnr, 'GM102') ~= 1 then fail('expected one GM102 (print) diagnostic') end
  say('ok: server started from ' .. server .. '; GM101 at line 6 with the configured severity (error), GM102 at line 8')

  -- 4. the "Rewrite to torch.where" quick fix
  local lsp_d = to_lsp(d)
  local resp = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = lsp_d.range,
    context = { diagnostics = { lsp_d }, only = { 'quickfix' } },
  }, 10000, bufnr)
  if not resp or resp.err then fail('textDocument/codeAction failed: ' .. vim.inspect(resp)) end
  local action
  local titles = {}
  for _, a in ipairs(resp.result or {}) do
    table.insert(titles, a.title)
    if a.title == 'Rewrite to torch.where' then action = a end
  end
  if not action then fail('no "Rewrite to torch.where" action; got: ' .. vim.inspect(titles)) end
  if action.kind ~= 'quickfix' then fail('the action kind is ' .. tostring(action.kind)) end
  -- the same menu as VS Code's: fix-all of the file among the quick fixes
  if not vim.tbl_contains(titles, 'Fix all GraphMend problems in this file') then
    fail('no "Fix all GraphMend problems in this file" quick fix; got: ' .. vim.inspect(titles))
  end
  local resolved = false
  if not action.edit then
    local r = client.request_sync('codeAction/resolve', action, 10000, bufnr)
    if not r or r.err or not r.result or not r.result.edit then fail('codeAction/resolve gave no edit: ' .. vim.inspect(r)) end
    action = r.result
    resolved = true
  end
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  local text = buffer_text(bufnr)
  if not text:find('        x = torch.where(x.max() > 0, x * 2, x)\n', 1, true) or text:find('if x.max() > 0:', 1, true) then
    fail('after "Rewrite to torch.where" the buffer is:\n' .. text)
  end
  say('ok: "Rewrite to torch.where" applied' .. (resolved and ' (after codeAction/resolve)' or ' (edit sent with the action)'))

  -- 5. the server re-analyses the edited text: GM101 gone, GM102 left
  wait('GM101 to go away after the quick fix', LIMIT, function()
    return #diagnostics(bufnr, 'GM101') == 0 and #diagnostics(bufnr, 'GM102') == 1
  end)
  say('ok: diagnostics updated after the edit (GM101 gone, GM102 left)')

  -- 6. fix-all through the buffer's mapping (graphmend.fixAll -> workspace/applyEdit)
  local map = vim.fn.maparg('<leader>gf', 'n', false, true)
  if vim.tbl_isempty(map) or map.buffer ~= 1 then fail('no buffer-local <leader>gf mapping after attach') end
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<leader>gf', true, false, true), 'x', false)
  wait('fix-all (graphmend.fixAll) to change the buffer', LIMIT, function() return buffer_text(bufnr) == expected end)
  say('ok: fix-all (<leader>gf -> graphmend.fixAll -> workspace/applyEdit) gave the expected text')

  -- 7. save and compare the file
  vim.cmd('silent write')
  local saved = read(file)
  if saved ~= expected then fail(diff_message('the saved file differs from gate.expected.py', expected, saved)) end
  wait('the diagnostics of the fixed file to clear', LIMIT, function() return #diagnostics(bufnr) == 0 end)
  say('ok: saved file equals editors-test/nvim/fixtures/gate.expected.py; no diagnostics left')

  -- 8. a second copy: fix on save (source.fixAll.graphmend, resolved when lazy) on :write
  vim.cmd('edit ' .. vim.fn.fnameescape(file2))
  local bufnr2 = vim.api.nvim_get_current_buf()
  wait('the server to analyse the second file', LIMIT, function()
    return #diagnostics(bufnr2, 'GM101') == 1 and #diagnostics(bufnr2, 'GM102') == 1
  end)
  if gm.client(bufnr2).id ~= client.id then fail('the second file got its own server instead of sharing the project one') end
  vim.cmd('silent write')
  local saved2 = read(file2)
  if saved2 ~= expected then fail(diff_message('fix on save (source.fixAll.graphmend) wrote', expected, saved2)) end
  say('ok: fix on save (source.fixAll.graphmend code action) wrote the expected text; one server for both files')

  vim.fn.delete(dir, 'rf')
end

local function stop_all()
  local clients = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  vim.lsp.stop_client(clients)
  vim.wait(5000, function()
    local left = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
    return #left == 0
  end, 50)
end

local ok, err = xpcall(run, function(e)
  if type(e) == 'table' and e.gm_fail then return e.gm_fail end
  return 'Lua error: ' .. tostring(e) .. '\n' .. debug.traceback()
end)
if ok then
  say('PASS')
  stop_all()
  vim.cmd('qall!')
else
  io.stdout:write('nvim-e2e: FAIL: ' .. err .. '\n')
  local log = vim.lsp.get_log_path()
  if vim.fn.filereadable(log) == 1 then
    local lines = vim.fn.readfile(log)
    io.stdout:write('nvim-e2e: last lines of ' .. log .. ':\n')
    for i = math.max(1, #lines - 30), #lines do io.stdout:write('  ' .. lines[i] .. '\n') end
  end
  io.stdout:flush()
  stop_all()
  vim.cmd('cquit')
end
