#!/usr/bin/env node
// End-to-end check of `graphmend lsp` as VS Code drives it: vscode-jsonrpc (the library
// vscode-languageclient is built on) over the server's stdio.
//   node e2e.js REPO_ROOT SERVER_COMMAND...
// Exits 0 when every step passed, 1 with a message naming the failed step otherwise.
'use strict';
const path = require('path');
const fs = require('fs');
const cp = require('child_process');
const url = require('url');
const rpc = require('vscode-jsonrpc/node');

const [repo, ...command] = process.argv.slice(2);
if (!repo || command.length === 0) {
  console.error('usage: node e2e.js REPO_ROOT SERVER_COMMAND...');
  process.exit(2);
}
const examples = path.join(repo, 'examples');
const file = path.join(examples, 'modeling_tiny_bert.py');
const uri = url.pathToFileURL(file).toString();
let step = 'start';
const deadline = setTimeout(() => fail(`timed out in step "${step}"`), 90000);

function fail(msg) {
  console.error(`e2e FAILED (${step}): ${msg}`);
  try { server.kill(); } catch (e) { /* gone */ }
  process.exit(1);
}
function check(cond, msg) { if (!cond) fail(msg); }
function log(msg) { console.log(`e2e: ${msg}`); }

const server = cp.spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
server.stderr.on('data', (d) => { stderr += d.toString(); });
server.on('error', (e) => fail(`cannot start the server: ${e.message}`));
const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));

const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));

// ---- the editor's side: one document, settings, applied edits
let text = fs.readFileSync(file, 'utf8');
let version = 1;
let settings = {};
const published = [];
const waiters = [];
const requests = { configuration: 0, registerCapability: 0, progressCreate: 0 };
const progress = [];

conn.onNotification('textDocument/publishDiagnostics', (p) => {
  if (p.uri !== uri) return;
  published.push(p);
  for (const w of [...waiters]) if (w.pred(p)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(p); }
});
conn.onNotification('window/logMessage', () => {});
conn.onNotification('$/progress', (p) => progress.push(p.value.kind));
conn.onRequest('workspace/configuration', (p) => { requests.configuration++; return p.items.map(() => settings); });
conn.onRequest('client/registerCapability', () => { requests.registerCapability++; return null; });
conn.onRequest('window/workDoneProgress/create', () => { requests.progressCreate++; return null; });
conn.onRequest('workspace/applyEdit', (p) => { applyWorkspaceEdit(p.edit); return { applied: true }; });
conn.onRequest('workspace/diagnostic/refresh', () => null);
conn.listen();

function waitPublished(pred, what) {
  const hit = published.find(pred);
  if (hit) return Promise.resolve(hit);
  return new Promise((resolve) => waiters.push({ pred, resolve })).then((p) => p, () => fail(what));
}

function offsetAt(t, pos) {
  let line = 0; let i = 0;
  while (line < pos.line && i < t.length) {
    const c = t[i++];
    if (c === '\n' || (c === '\r' && t[i] !== '\n')) line++;
  }
  let end = i;
  while (end < t.length && t[end] !== '\n' && t[end] !== '\r') end++;
  return Math.min(i + pos.character, end);
}

// applies a WorkspaceEdit as VS Code does and tells the server (incremental didChange)
function applyWorkspaceEdit(edit) {
  check(edit.documentChanges && edit.documentChanges.length === 1, `expected one documentChange: ${JSON.stringify(edit)}`);
  const dc = edit.documentChanges[0];
  check(dc.textDocument.uri === uri, 'edit for another document');
  check(dc.textDocument.version === version, `edit for version ${dc.textDocument.version}, the document is at ${version}`);
  for (const e of dc.edits) {
    check(e.annotationId && edit.changeAnnotations[e.annotationId], 'edit without a change annotation');
    const ann = edit.changeAnnotations[e.annotationId];
    // a safe fix applies when chosen (VS Code opens its refactor preview for one that asks); an unsafe one asks
    if (e.annotationId === 'graphmend.fix.safe') check(ann.needsConfirmation === false, 'a safe fix asks for confirmation');
    else if (e.annotationId === 'graphmend.fix.unsafe') check(ann.needsConfirmation === true, 'an unsafe fix does not ask for confirmation');
    else check(typeof ann.needsConfirmation === 'boolean', `annotation ${e.annotationId} says nothing of confirmation`);
  }
  const edits = [...dc.edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  const changes = [];
  for (const e of edits) {
    const s = offsetAt(text, e.range.start); const t = offsetAt(text, e.range.end);
    text = text.slice(0, s) + e.newText + text.slice(t);
    changes.push({ range: e.range, text: e.newText });
  }
  version++;
  conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
}

const codes = (p) => p.diagnostics.map((d) => d.code);
const count = (p, code) => codes(p).filter((c) => c === code).length;

async function main() {
  step = 'initialize';
  const init = await conn.sendRequest('initialize', {
    processId: process.pid,
    clientInfo: { name: 'graphmend-e2e (vscode-jsonrpc)' },
    rootUri: url.pathToFileURL(examples).toString(),
    workspaceFolders: [{ uri: url.pathToFileURL(examples).toString(), name: 'examples' }],
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: {
        applyEdit: true, configuration: true, workspaceFolders: true,
        workspaceEdit: { documentChanges: true, changeAnnotationSupport: { groupsOnLabel: true } },
        didChangeConfiguration: { dynamicRegistration: true },
        didChangeWatchedFiles: { dynamicRegistration: true },
      },
      textDocument: {
        synchronization: { dynamicRegistration: true, didSave: true },
        publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
        codeAction: {
          codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll'] } },
          isPreferredSupport: true, dataSupport: true, resolveSupport: { properties: ['edit'] }, honorsChangeAnnotations: true,
        },
        hover: { contentFormat: ['markdown', 'plaintext'] },
      },
      window: { workDoneProgress: true },
    },
  });
  check(init.capabilities.positionEncoding === 'utf-16', 'position encoding');
  check(init.capabilities.textDocumentSync.change === 2, 'incremental sync');
  check(init.capabilities.executeCommandProvider.commands.includes('graphmend.fixAll'), 'graphmend.fixAll command');
  conn.sendNotification('initialized', {});

  step = 'open → diagnostics';
  conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version, text } });
  let p = await waitPublished((x) => x.version === 1 && x.diagnostics.length > 0, 'no diagnostics');
  log(`opened: ${p.diagnostics.length} diagnostics ${JSON.stringify(codes(p))}`);
  for (const d of p.diagnostics) {
    check(d.source === 'graphmend' && /^GM\d{3}$/.test(d.code), `bad diagnostic ${JSON.stringify(d)}`);
    if (d.code !== 'GM000') check(d.codeDescription && d.codeDescription.href.includes(d.code), 'codeDescription');
  }
  check(count(p, 'GM102') > 0, 'modeling_tiny_bert.py should have a GM102');

  step = 'hover';
  const d0 = p.diagnostics[0];
  const hover = await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: d0.range.start });
  check(hover && hover.contents.value.includes(d0.code), 'hover names the rule');

  step = 'code action → apply → diagnostic gone';
  const withFix = p.diagnostics.find((d) => d.data && d.data.fixes && d.data.fixes.length > 0);
  const target = withFix || p.diagnostics.find((d) => d.code !== 'GM000');
  const actions = await conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri }, range: target.range, context: { diagnostics: [target], only: ['quickfix'] },
  });
  let action = actions.find((a) => !a.title.startsWith('Disable ') && a.diagnostics && a.diagnostics[0].code === target.code);
  if (!action) action = actions.find((a) => a.title === `Disable ${target.code} for this line`);
  check(action, `no quick fix for ${target.code}: ${JSON.stringify(actions.map((a) => a.title))}`);
  log(`applying "${action.title}" for ${target.code} at line ${target.range.start.line + 1}`);
  if (!action.edit) action = await conn.sendRequest('codeAction/resolve', action);
  check(action.edit, 'resolved action has an edit');
  const before = count(p, target.code);
  applyWorkspaceEdit(action.edit);
  p = await waitPublished((x) => x.version === version, 'no diagnostics after the edit');
  check(count(p, target.code) === before - 1, `${target.code} still there: ${JSON.stringify(codes(p))}`);

  step = 'stale fix-all rejected';
  let stale = null;
  try { await conn.sendRequest('workspace/executeCommand', { command: 'graphmend.fixAll', arguments: [{ uri, version: version - 1 }] }); } catch (e) { stale = e; }
  check(stale && stale.code === -32801, `stale version not rejected: ${stale && stale.code}`);

  step = 'fix-all';
  const source = await conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ['source.fixAll'] },
  });
  const res = await conn.sendRequest('workspace/executeCommand', { command: 'graphmend.fixAll', arguments: [{ uri, version }] });
  log(`fix-all: ${source.length} source action(s), command result ${JSON.stringify(res)}`);
  check(res && typeof res.applied === 'boolean', 'fix-all result');
  if (res.applied) p = await waitPublished((x) => x.version === version, 'no diagnostics after fix-all');

  step = 'configuration change → re-publish';
  // fix-all applied the safe fixes; the GM103 guard (unsafe fix only) is left to ignore
  const gm103 = count(p, 'GM103');
  check(gm103 > 0, 'GM103 expected before ignoring it');
  settings = { ignore: ['GM103'] };
  conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  p = await waitPublished((x) => x.version === version && count(x, 'GM103') === 0 && x !== p, 'no re-publish without GM103');
  check(requests.configuration >= 2, 'workspace/configuration asked again');

  step = 'pull diagnostics';
  const report = await conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  check(report.kind === 'full' && report.items.length === p.diagnostics.length, `pull report ${JSON.stringify(report.kind)}`);

  step = 'shutdown/exit';
  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  const code = await exited;
  check(code === 0, `exit code ${code}`);
  log(`ok (${requests.registerCapability} registration(s), progress ${JSON.stringify(progress)})`);
  clearTimeout(deadline);
  process.exit(0);
}

main().catch((e) => fail(`${e && e.stack ? e.stack : e}\n--- server stderr ---\n${stderr.slice(-4000)}`));
