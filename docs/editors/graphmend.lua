-- GraphMend language server for Neovim 0.7+ (save as ~/.config/nvim/lua/graphmend.lua).
-- This file is the one editors-test/nvim/test.lua runs against; docs/editors/neovim.md shows it
-- verbatim.
local M = {}

M.defaults = {
  cmd = nil, -- the server command, e.g. { '/path/venv/bin/graphmend', 'lsp' }; default below (server_cmd)
  jar = nil, -- path to graphmend.jar; default: $GRAPHMEND_JAR, else the pip-installed graphmend on PATH
  java = nil, -- a Java 17+ executable; default: $JAVA_HOME/bin/java, else java on PATH
  settings = {}, -- docs/configuration.md: torchVersion, select, ignore, severity, assumeCompiled, unsafeFixes
  root_markers = { 'pyproject.toml', 'setup.py', 'setup.cfg', '.git' },
  fix_all_key = '<leader>gf', -- buffer-local normal-mode mapping for fix-all; false for none
  fix_on_save = false, -- apply source.fixAll.graphmend before each :write
}

local FIX_ALL_COMMAND = 'graphmend.fixAll'
local FIX_ALL_KIND = 'source.fixAll.graphmend'

local function notify(msg, level)
  vim.notify('GraphMend: ' .. msg, level or vim.log.levels.ERROR)
end

local function options(opts)
  return vim.tbl_deep_extend('force', {}, M.defaults, opts or {})
end

-- Neovim 0.11 made client methods colon calls; 0.7-0.10 use dot calls.
local colon = vim.fn.has('nvim-0.11') == 1
local function request(client, method, params, handler, bufnr)
  if colon then return client:request(method, params, handler, bufnr) end
  return client.request(method, params, handler, bufnr)
end
local function request_sync(client, method, params, timeout_ms, bufnr)
  if colon then return client:request_sync(method, params, timeout_ms, bufnr) end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

local function is_stopped(client)
  if colon then return client:is_stopped() end
  return client.is_stopped()
end

local java_checked = {}
-- The Java to run the server with, or nil after telling the user what is wrong.
function M.java(opts)
  local java = opts.java
  if not java and vim.env.JAVA_HOME and vim.env.JAVA_HOME ~= '' then java = vim.env.JAVA_HOME .. '/bin/java' end
  java = java or 'java'
  if java_checked[java] then return java end
  if vim.fn.executable(java) ~= 1 then
    notify('no Java found (' .. java .. '); install Java 17+ (https://adoptium.net) or set java / JAVA_HOME')
    return nil
  end
  local out = vim.fn.system({ java, '-version' })
  local v = out:match('version "([^"]+)"') or ''
  local major = tonumber(v:match('^1%.(%d+)') or v:match('^(%d+)') or '0')
  if major < 17 then
    notify(java .. ' is Java ' .. (v ~= '' and v or '?') .. '; the server needs Java 17+ (https://adoptium.net)')
    return nil
  end
  java_checked[java] = true
  return java
end

-- The server's settings; an empty table must go out as {} (JSON object), not [].
local function settings_of(opts)
  if vim.tbl_isempty(opts.settings) then return vim.empty_dict() end
  return opts.settings
end

-- The command that runs the server: opts.cmd; else the jar (opts.jar, $GRAPHMEND_JAR) on Java;
-- else the `graphmend` that pip installed, when it is on PATH (it brings its own Java).
local function server_cmd(opts)
  if opts.cmd then return opts.cmd end
  local jar = opts.jar or vim.env.GRAPHMEND_JAR
  if not jar and vim.fn.executable('graphmend') == 1 then return { 'graphmend', 'lsp' } end
  if not jar or vim.fn.filereadable(jar) ~= 1 then
    notify('server not found (jar: ' .. tostring(jar) .. '); pip install graphmend, or set jar or $GRAPHMEND_JAR')
    return nil
  end
  local java = M.java(opts)
  if not java then return nil end
  return { java, '-XX:+UseSerialGC', '-XX:FreqInlineSize=100', '-XX:InlineSmallCode=1000', '-XX:-ShrinkHeapInSteps', '-Xms192m', '-XX:NewSize=128m', '-jar', jar, 'lsp' }
end

-- The client configuration: usable with vim.lsp.start_client (0.7+), vim.lsp.config (0.11+)
-- and nvim-lspconfig. Returns nil when no server can be found.
function M.config(opts)
  opts = options(opts)
  local cmd = server_cmd(opts)
  if not cmd then return nil end
  return {
    name = 'graphmend',
    cmd = cmd,
    filetypes = { 'python' },
    root_markers = opts.root_markers,
    init_options = settings_of(opts),
    settings = { graphmend = settings_of(opts) }, -- answers workspace/configuration, section graphmend
    on_attach = function(_, bufnr) M.on_attach(bufnr, opts) end,
  }
end

function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(clients) do
    if c.name == 'graphmend' then return c end
  end
end

local function version_of(bufnr)
  return vim.lsp.util.buf_versions[bufnr] or vim.api.nvim_buf_get_changedtick(bufnr)
end

-- Fix all: runs the server's graphmend.fixAll command, which applies its edit through
-- workspace/applyEdit (Neovim's default handler).
function M.fix_all(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.client(bufnr)
  if not client then return notify('no GraphMend server attached to this buffer') end
  local params = { command = FIX_ALL_COMMAND, arguments = { { uri = vim.uri_from_bufnr(bufnr), version = version_of(bufnr) } } }
  request(client, 'workspace/executeCommand', params, function(err, result)
    if err then
      notify('fix all failed: ' .. (err.message or vim.inspect(err)))
    elseif result and result.fixes == 0 then
      notify('nothing to fix', vim.log.levels.INFO)
    end
  end, bufnr)
end

-- Fix all, synchronously, through the source.fixAll.graphmend code action (resolved when the
-- server sends it without its edit). For BufWritePre. Returns true when an edit was applied.
function M.fix_all_sync(bufnr, timeout_ms)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  timeout_ms = timeout_ms or 3000
  local client = M.client(bufnr)
  if not client then return false end
  local last = math.max(vim.api.nvim_buf_line_count(bufnr) - 1, 0)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
    context = { diagnostics = {}, only = { FIX_ALL_KIND } },
  }
  local resp, err = request_sync(client, 'textDocument/codeAction', params, timeout_ms, bufnr)
  if not resp or resp.err then
    notify('fix all: ' .. tostring(err or (resp and resp.err and resp.err.message)), vim.log.levels.WARN)
    return false
  end
  for _, action in ipairs(resp.result or {}) do
    if action.kind == FIX_ALL_KIND then
      if not action.edit and action.data then
        local r = request_sync(client, 'codeAction/resolve', action, timeout_ms, bufnr)
        action = r and r.result or action
      end
      if action.edit then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
        return true
      end
    end
  end
  return false
end

function M.on_attach(bufnr, opts)
  opts = options(opts)
  if opts.fix_all_key then
    vim.keymap.set('n', opts.fix_all_key, function() M.fix_all(bufnr) end,
      { buffer = bufnr, desc = 'GraphMend: fix all in file' })
  end
  if opts.fix_on_save then
    vim.api.nvim_create_autocmd('BufWritePre', {
      buffer = bufnr,
      callback = function() M.fix_all_sync(bufnr) end,
    })
  end
end

local function find_root(file, markers)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  while true do
    for _, m in ipairs(markers) do
      if vim.loop.fs_stat(dir .. '/' .. m) then return dir end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then return nil end
    dir = parent
  end
end

local started = {} -- root folder -> client id
-- Starts (or reuses) the server for the buffer's project and attaches the buffer (0.7+).
function M.start(bufnr, opts)
  opts = options(opts)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = vim.api.nvim_buf_get_name(bufnr)
  if vim.bo[bufnr].buftype ~= '' then return end
  local root = find_root(file, opts.root_markers) or vim.fn.fnamemodify(file, ':p:h')
  local id = started[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or is_stopped(client) then
    local config = M.config(opts)
    if not config then return end
    config.root_dir = root
    config.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
    config.filetypes, config.root_markers = nil, nil
    id = vim.lsp.start_client(config)
    if not id then return notify('could not start the server') end
    started[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- Neovim 0.7+: start the server for every Python buffer, and :GraphmendFixAll.
function M.setup(opts)
  opts = options(opts)
  local group = vim.api.nvim_create_augroup('graphmend', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'python',
    callback = function(args) M.start(args.buf, opts) end,
  })
  vim.api.nvim_create_user_command('GraphmendFixAll', function() M.fix_all(0) end,
    { desc = 'GraphMend: fix all in file' })
end

return M
