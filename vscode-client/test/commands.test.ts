import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { COMMANDS, CommandHost, DocumentRef, FIX_ALL_KIND, fixAllInFile, registerCommands, SERVER_FIX_ALL } from '../src/commands';
import { manifest } from './manifest';

/** A fake host that records what the commands do. */
function fakeHost(opts: { doc?: DocumentRef; running?: boolean; answer?: () => Promise<unknown> } = {}) {
  const log: string[] = [];
  const registered = new Map<string, () => unknown>();
  const sent: { command: string; args: unknown[] }[] = [];
  const host: CommandHost = {
    registerCommand: (id, run) => {
      assert.ok(!registered.has(id), `${id} registered twice`);
      registered.set(id, run);
      return { dispose: () => registered.delete(id) };
    },
    activeDocument: () => opts.doc,
    isRunning: () => opts.running ?? true,
    executeServerCommand: (command, args) => {
      sent.push({ command, args });
      return opts.answer ? opts.answer() : Promise.resolve({ fixes: 2, applied: true });
    },
    restart: async () => void log.push('restart'),
    showOutput: () => void log.push('showOutput'),
    info: (m) => void log.push('info: ' + m),
    error: (m) => void log.push('error: ' + m),
  };
  return { host, log, registered, sent };
}

const doc: DocumentRef = { uri: 'file:///w/model.py', version: 7, languageId: 'python' };

test('the registered commands are exactly the ones package.json contributes', () => {
  const f = fakeHost();
  const disposables = registerCommands(f.host);
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual([...f.registered.keys()].sort(), contributed);
  assert.deepEqual(Object.values(COMMANDS).sort(), contributed);
  // the server's own command is registered by vscode-languageclient; ours must not collide with it
  assert.ok(!contributed.includes(SERVER_FIX_ALL));
  const titles = manifest.contributes.commands.map((c: { category: string; title: string }) => `${c.category}: ${c.title}`);
  assert.deepEqual(titles.sort(), ['GraphMend: Fix all in file', 'GraphMend: Restart server', 'GraphMend: Show output']);
  for (const d of disposables) d.dispose();
  assert.equal(f.registered.size, 0);
});

test('Fix all in file sends graphmend.fixAll with [{uri, version}] of the active document', async () => {
  const f = fakeHost({ doc });
  registerCommands(f.host);
  await f.registered.get(COMMANDS.fixAllInFile)!();
  assert.deepEqual(f.sent, [{ command: 'graphmend.fixAll', args: [{ uri: 'file:///w/model.py', version: 7 }] }]);
  assert.deepEqual(f.log, []);
});

test('Fix all in file: nothing to fix, not applied, stale version, failure', async () => {
  let f = fakeHost({ doc, answer: async () => ({ fixes: 0, applied: false, reason: 'nothing to fix' }) });
  await fixAllInFile(f.host);
  assert.deepEqual(f.log, ['info: GraphMend: nothing to fix in this file.']);

  f = fakeHost({ doc, answer: async () => ({ fixes: 3, applied: false, reason: 'user cancelled' }) });
  await fixAllInFile(f.host);
  assert.deepEqual(f.log, ['info: GraphMend: 3 fix(es) not applied: user cancelled.']);

  f = fakeHost({ doc, answer: () => Promise.reject({ code: -32801, message: 'stale version 6' }) });
  await fixAllInFile(f.host);
  assert.match(f.log[0], /changed while fixing/);

  f = fakeHost({ doc, answer: () => Promise.reject(new Error('boom')) });
  await fixAllInFile(f.host);
  assert.deepEqual(f.log, ['error: GraphMend: fix all failed: boom']);
});

test('Fix all in file needs a Python editor and a running server', async () => {
  let f = fakeHost({});
  await fixAllInFile(f.host);
  assert.deepEqual(f.sent, []);
  assert.match(f.log[0], /open a Python file/);

  f = fakeHost({ doc: { ...doc, languageId: 'markdown' } });
  await fixAllInFile(f.host);
  assert.deepEqual(f.sent, []);

  f = fakeHost({ doc, running: false });
  await fixAllInFile(f.host);
  assert.deepEqual(f.sent, []);
  assert.match(f.log[0], /^error: .*not running/);
});

test('Restart server and Show output call the host', async () => {
  const f = fakeHost();
  registerCommands(f.host);
  await f.registered.get(COMMANDS.restartServer)!();
  f.registered.get(COMMANDS.showOutput)!();
  assert.deepEqual(f.log, ['restart', 'showOutput']);
});

test('package.json: activation on Python, the bundled entry point, the fix-all code action kind', () => {
  assert.deepEqual(manifest.activationEvents, ['onLanguage:python']);
  assert.equal(manifest.main, './dist/extension.js');
  const kinds = manifest.contributes.codeActions.flatMap((c: { actions: { kind: string }[] }) => c.actions.map((a) => a.kind));
  assert.deepEqual(kinds, ['quickfix', FIX_ALL_KIND]);
  assert.equal(FIX_ALL_KIND, 'source.fixAll.graphmend');
  assert.deepEqual(manifest.contributes.codeActions[0].languages, ['python']);
  assert.equal(manifest.dependencies['vscode-languageclient'].split('.')[0], '9');
});
