'use strict';
// Activates the packaged extension (dist/extension.js and server/graphmend.jar taken out of the
// .vsix) against fake-vscode.cjs with the real vscode-languageclient it bundles and the real
// server, and checks what a VS Code user would see:
//   A. no Java 17+ anywhere: error status, a message with "Download Java", the candidates tried;
//   A'. a trusted workspace's wrong graphmend.java.home is used, so reported, not bypassed;
//   A''. graphmend.enable false: no server, a "disabled" status; graphmend.path naming a program:
//      that program started with `lsp`, no Java search;
//   B. an untrusted workspace whose settings set graphmend.java.home: that value is ignored, Java
//      comes from JAVA_HOME/PATH, the status goes to running, the user's graphmend.severity reaches
//      the server (GM101 arrives as an Error), the light bulb offers "Rewrite to torch.where"
//      (preferred), the source.fixAll.graphmend action that editor.codeActionsOnSave runs gives the
//      expected text (resolved when lazy), and so does "GraphMend: Fix all in file" after an undo
//      (graphmend.fixAll + workspace/applyEdit); "Restart server" brings it back to running, and
//      deactivation stops it.
//   C. graphmend.importStrategy fromEnvironment (the default) with graphmend.interpreter naming a
//      venv's python: the venv's `graphmend lsp` runs the server, without a Java search, the
//      interpreter reaches the server in initializationOptions, GM101 arrives, and the torch
//      version of the server's graphmend/status shows in the status item; useBundled with the same
//      interpreter runs the bundled jar on Java. The venv is $GRAPHMEND_WHEEL_VENV when set (one
//      made by scripts/wheel-venv, run with no java on PATH and JAVA_HOME unset: the wheel's own
//      Java runs it), else a stand-in whose `graphmend` runs the bundled jar.
//   D. the Python extension's selected environment (a fake ms-python.python API), graphmend.interpreter
//      unset: its graphmend runs; selecting an environment without graphmend restarts the server
//      on the bundled jar, and the output says why.
// Usage: node smoke.cjs VSIX FIXTURE EXPECTED     (exit 0 when every check passes)
const { execFileSync } = require('child_process');
const fs = require('fs');
const Module = require('module');
const os = require('os');
const path = require('path');
const { createFake, missing, log } = require('./fake-vscode.cjs');

const [vsix, fixturePath, expectedPath] = process.argv.slice(2);
if (!vsix || !fixturePath || !expectedPath) {
  console.error('usage: node smoke.cjs VSIX FIXTURE EXPECTED');
  process.exit(2);
}
const LIMIT = Number(process.env.GRAPHMEND_E2E_TIMEOUT_MS || 60000);

const say = (m) => console.log('vscode-smoke: ' + m);
class Fail extends Error {}
const fail = (m) => { throw new Fail(m); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function wait(what, ms, cond) {
  const end = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) fail(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

// `require('vscode')` from the bundle resolves to the current fake
const vscodeModule = { id: 'vscode', filename: 'vscode', loaded: true, exports: {} };
require.cache.vscode = vscodeModule;
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gm-vscode-smoke-'));
execFileSync('python3', ['-m', 'zipfile', '-e', vsix, tmp]);
const extDir = path.join(tmp, 'extension');
const entry = path.join(extDir, 'dist', 'extension.js');
if (!fs.existsSync(entry) || !fs.existsSync(path.join(extDir, 'server', 'graphmend.jar'))) {
  console.error(`vscode-smoke: FAIL: ${vsix} lacks extension/dist/extension.js or extension/server/graphmend.jar`);
  process.exit(1);
}

let current; // the fake of the scenario that is running, for the failure report
function load(fake) {
  current = fake;
  vscodeModule.exports = fake.vscode;
  delete require.cache[require.resolve(entry)];
  return require(entry);
}
function context() {
  return { subscriptions: [], extensionPath: extDir, asAbsolutePath: (p) => path.join(extDir, p), extensionUri: { fsPath: extDir } };
}
const status = (fake) => fake.statusItems.find((s) => s.id === 'graphmend.status');
const outputText = (fake) => (fake.outputs.get('GraphMend') || []).join('');
const code = (d) => (d.code && typeof d.code === 'object' ? d.code.value : d.code);
const running = (s) => s && s.text.startsWith('$(check) GraphMend');

async function noJava() {
  log.length = 0;
  const saved = { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME };
  process.env.PATH = path.join(tmp, 'empty-path');
  delete process.env.JAVA_HOME;
  const fake = createFake({ settings: {} });
  const ext = load(fake);
  try {
    await ext.activate(context());
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.JAVA_HOME !== undefined) process.env.JAVA_HOME = saved.JAVA_HOME;
  }
  const s = status(fake);
  if (!s || s.text !== '$(error) GraphMend') fail(`status without Java is ${JSON.stringify(s && s.text)}, expected the error state`);
  const msg = log.find((l) => l.startsWith('error: GraphMend needs Java 17 or newer'));
  if (!msg) fail('no "needs Java 17 or newer" error message; shown: ' + JSON.stringify(log));
  if (!msg.includes('[Download Java, Open Settings, Show Output]')) fail('the message lacks its Download Java button: ' + msg);
  if (!/JAVA_HOME: not set/.test(outputText(fake))) fail('the output does not list the Java candidates tried:\n' + outputText(fake));
  await ext.deactivate();
  say('ok: no Java 17+: error status, "GraphMend needs Java 17 or newer" with Download Java, candidates in the output');
}

async function trustedBadJavaHome() {
  log.length = 0;
  const bad = path.join(tmp, 'no-jdk-here');
  const fake = createFake({ settings: {}, workspaceSettings: { 'graphmend.java.home': bad }, trusted: true });
  const ext = load(fake);
  await ext.activate(context());
  const s = status(fake);
  if (!s || s.text !== '$(error) GraphMend') fail(`status with a wrong graphmend.java.home is ${JSON.stringify(s && s.text)}`);
  if (!log.some((l) => l.includes(`the setting graphmend.java.home (${bad}) does not point to a Java 17`))) {
    fail('a trusted workspace\'s wrong graphmend.java.home was not reported as such: ' + JSON.stringify(log));
  }
  await ext.deactivate();
  say('ok: trusted workspace, wrong graphmend.java.home: used (not bypassed) and reported, error status');
}

async function disabled() {
  log.length = 0;
  const fake = createFake({ settings: { 'graphmend.enable': false } });
  const ext = load(fake);
  await ext.activate(context());
  const s = status(fake);
  if (!s || !s.tooltip.includes('disabled')) fail(`status with graphmend.enable false is ${JSON.stringify(s && [s.text, s.tooltip])}`);
  if (!/graphmend.enable is false/.test(outputText(fake))) fail('the output does not say the extension is disabled:\n' + outputText(fake));
  if (log.some((l) => l.startsWith('error:'))) fail('a disabled extension showed an error: ' + JSON.stringify(log));
  await ext.deactivate();
  say('ok: graphmend.enable false: no server, "disabled" status, no error');
}

async function customServerPath() {
  log.length = 0;
  // graphmend.path naming a program (a launcher like the repository's `graphmend`): started with
  // `lsp`, without a Java search; this one runs the jar the .vsix carries
  const script = path.join(tmp, 'custom-launcher.sh');
  fs.writeFileSync(script, `#!/bin/sh\nexec java -jar '${path.join(extDir, 'server/graphmend.jar')}' "$@"\n`, { mode: 0o755 });
  const fake = createFake({ settings: { 'graphmend.path': script } });
  const ext = load(fake);
  await ext.activate(context());
  const s = status(fake);
  await wait('the running status with graphmend.path', LIMIT, () => running(s));
  const out = outputText(fake);
  if (!out.includes(`Starting ${script} lsp (graphmend.path)`)) fail('graphmend.path was not what was started:\n' + out);
  if (/Using Java/.test(out)) fail('Java was looked for although graphmend.path names a program:\n' + out);
  await ext.deactivate();
  say('ok: graphmend.path naming a program: started as `PROGRAM lsp` without a Java search, server running');
}

async function untrustedWorkspace() {
  log.length = 0;
  const dir = fs.mkdtempSync(path.join(tmp, 'ws-'));
  const file = path.join(dir, 'gate.py');
  fs.copyFileSync(fixturePath, file);
  const expected = fs.readFileSync(expectedPath, 'utf8');
  const probe = createFake({});
  const doc = new probe.Doc(file, 'python', fs.readFileSync(file, 'utf8'));
  const fake = createFake({
    settings: { 'graphmend.severity': { GM1: 'error' }, 'graphmend.trace.server': 'messages' },
    workspaceSettings: { 'graphmend.java.home': path.join(dir, 'not-a-jdk') },
    trusted: false,
    documents: [doc],
  });
  const ext = load(fake);
  await ext.activate(context());
  const s = status(fake);
  await wait('the running status', LIMIT, () => running(s));
  const out = outputText(fake);
  if (!/ignored because the workspace is not trusted/.test(out)) fail('the untrusted workspace java.home was not reported as ignored:\n' + out);
  if (!/Using Java \S+ from (JAVA_HOME|PATH)/.test(out)) fail('the output does not say which Java runs the server:\n' + out);
  say('ok: untrusted workspace: its graphmend.java.home ignored; ' + /Using Java \S+ from [\w.]+/.exec(out)[0] + '; status running');

  for (const id of ['graphmend.fixAllInFile', 'graphmend.restartServer', 'graphmend.showOutput', 'graphmend.fixAll']) {
    if (!fake.commands.has(id)) fail(`command ${id} is not registered`);
  }
  await wait('the GM101 diagnostic', LIMIT, () => fake.diagnosticsOf(doc.uri).some((d) => code(d) === 'GM101'));
  const d = fake.diagnosticsOf(doc.uri).find((x) => code(x) === 'GM101');
  if (d.severity !== fake.vscode.DiagnosticSeverity.Error) fail(`GM101 severity ${d.severity}: the user's graphmend.severity did not reach the server`);
  if (d.range.start.line !== 5) fail(`GM101 on line ${d.range.start.line + 1}, expected 6`);
  say('ok: GM101 published on line 6 as an Error (graphmend.severity {GM1: error} reached the server)');

  // the code actions VS Code asks for: the light bulb's quick fixes, and codeActionsOnSave's fix-all
  const vs = fake.vscode;
  const token = new vs.CancellationTokenSource().token;
  const entry = fake.codeActionProviders.find((p) => fake.vscode.languages.match(p.selector, doc));
  if (!entry) fail('no code action provider registered for Python');
  const kinds = (entry.metadata && entry.metadata.providedCodeActionKinds || []).map((k) => k.value);
  if (!kinds.includes('quickfix') || !kinds.includes('source.fixAll.graphmend')) fail('provided code action kinds: ' + JSON.stringify(kinds));
  const quick = await entry.provider.provideCodeActions(doc, d.range, { diagnostics: [d], only: vs.CodeActionKind.QuickFix, triggerKind: 1 }, token);
  const where = (quick || []).find((a) => a.title === 'Rewrite to torch.where');
  if (!where) fail('no "Rewrite to torch.where" quick fix; got ' + JSON.stringify((quick || []).map((a) => a.title)));
  if (!where.isPreferred) fail('"Rewrite to torch.where" is safe but not preferred');
  say('ok: light bulb: ' + JSON.stringify(quick.map((a) => a.title)) + ', the torch.where rewrite preferred');

  const onSave = await entry.provider.provideCodeActions(doc, new vs.Range(0, 0, doc.lineCount, 0),
    { diagnostics: [], only: new vs.CodeActionKind('source.fixAll.graphmend'), triggerKind: 2 }, token);
  let fixAll = (onSave || []).find((a) => a.kind && a.kind.value === 'source.fixAll.graphmend');
  if (!fixAll) fail('no source.fixAll.graphmend action for editor.codeActionsOnSave');
  if (!fixAll.edit) fixAll = await entry.provider.resolveCodeAction(fixAll, token);
  if (!fixAll || !fixAll.edit) fail('source.fixAll.graphmend resolved without an edit');
  await vs.workspace.applyEdit(fixAll.edit);
  if (doc.getText() !== expected) fail('source.fixAll.graphmend gave:\n' + doc.getText());
  say('ok: editor.codeActionsOnSave path: source.fixAll.graphmend (resolved) gave the expected text');

  // back to the original text (an undo), then the command
  const original = fs.readFileSync(fixturePath, 'utf8');
  const undo = new vs.WorkspaceEdit();
  undo.replace(doc.uri, new vs.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), original);
  await vs.workspace.applyEdit(undo);
  await wait('GM101 after the undo', LIMIT, () => fake.diagnosticsOf(doc.uri).some((x) => code(x) === 'GM101'));
  await fake.vscode.commands.executeCommand('graphmend.fixAllInFile');
  await wait('"Fix all in file" to rewrite the document', LIMIT, () => doc.getText() === expected);
  say('ok: "GraphMend: Fix all in file" (graphmend.fixAll + workspace/applyEdit) gave the expected text');
  await wait('the diagnostics of the fixed document to clear', LIMIT, () => fake.diagnosticsOf(doc.uri).length === 0);
  await fake.vscode.commands.executeCommand('graphmend.fixAllInFile');
  await wait('"nothing to fix"', 10000, () => log.some((l) => l.startsWith('info: GraphMend: nothing to fix')));
  say('ok: diagnostics cleared; a second fix-all says "nothing to fix in this file"');

  await fake.vscode.commands.executeCommand('graphmend.restartServer');
  if (!running(s)) fail(`after "Restart server" the status is ${s.text}`);
  await wait('diagnostics after the restart', LIMIT, () => fake.diagnosticsOf(doc.uri).length === 0 && fake.collections.size > 0);
  await ext.deactivate();
  if (s.text !== '$(circle-slash) GraphMend') fail(`after deactivation the status is ${s.text}`);
  say('ok: "Restart server" back to running; deactivation stops the server (status stopped)');
}

// ---- C and D: the Python environment's server
const python3 = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
const wheelVenv = process.env.GRAPHMEND_WHEEL_VENV ? path.resolve(process.env.GRAPHMEND_WHEEL_VENV) : undefined;
/** A Python environment with a graphmend: the wheel's venv, or a stand-in that runs the bundled jar. */
function environment() {
  if (wheelVenv) {
    const env = { dir: wheelVenv, python: path.join(wheelVenv, 'bin', 'python'), graphmend: path.join(wheelVenv, 'bin', 'graphmend'), wheel: true };
    if (!fs.existsSync(env.graphmend)) fail(`GRAPHMEND_WHEEL_VENV=${wheelVenv} has no bin/graphmend (make it with scripts/wheel-venv)`);
    return env;
  }
  const dir = path.join(tmp, 'venv');
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    fs.symlinkSync(python3, path.join(dir, 'bin', 'python'));
    fs.writeFileSync(path.join(dir, 'bin', 'graphmend'),
      `#!/bin/sh\necho "$@" >> '${path.join(dir, 'graphmend-ran')}'\nexec java -jar '${path.join(extDir, 'server/graphmend.jar')}' "$@"\n`, { mode: 0o755 });
  }
  return { dir, python: path.join(dir, 'bin', 'python'), graphmend: path.join(dir, 'bin', 'graphmend'), wheel: false };
}
/** An environment without graphmend (a python alone). */
function bareEnvironment() {
  const dir = path.join(tmp, 'bare-env');
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    fs.symlinkSync(python3, path.join(dir, 'bin', 'python'));
  }
  return { dir, python: path.join(dir, 'bin', 'python') };
}
/** PATH without the folders that hold a `java`. */
function pathWithoutJava() {
  return (process.env.PATH || '').split(':').filter((d) => d && !fs.existsSync(path.join(d, 'java'))).join(':');
}
/** The command lines of this process's children (the servers the client started). */
function childCommandLines() {
  const out = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      out.push(fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean));
    } catch { /* gone */ }
  }
  return out;
}
const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function fromEnvironment() {
  log.length = 0;
  const env = environment();
  const dir = fs.mkdtempSync(path.join(tmp, 'ws-env-'));
  const file = path.join(dir, 'gate.py');
  fs.copyFileSync(fixturePath, file);
  const probe = createFake({});
  const doc = new probe.Doc(file, 'python', fs.readFileSync(file, 'utf8'));
  const fake = createFake({
    settings: { 'graphmend.interpreter': [env.python], 'graphmend.trace.server': 'verbose' },
    documents: [doc],
    folders: [dir],
  });
  const ext = load(fake);
  const saved = { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME };
  if (env.wheel) { // the wheel needs no Java of the machine's: the server starts without any
    process.env.PATH = pathWithoutJava();
    delete process.env.JAVA_HOME;
  }
  try {
    await ext.activate(context());
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.JAVA_HOME !== undefined) process.env.JAVA_HOME = saved.JAVA_HOME;
  }
  const s = status(fake);
  await wait('the running status with the environment\'s graphmend', LIMIT, () => running(s));
  const out = outputText(fake);
  if (!out.includes(`Python interpreter: ${env.python} (graphmend.interpreter)`)) fail('graphmend.interpreter was not the interpreter:\n' + out);
  if (!out.includes(`Starting graphmend from ${env.graphmend} (environment): ${env.graphmend} lsp`)) fail('the environment\'s graphmend was not started:\n' + out);
  if (/Using Java/.test(out)) fail('Java was looked for although the environment\'s graphmend runs the server:\n' + out);
  if (env.wheel) {
    const java = childCommandLines().find((c) => c.includes('lsp') && c.some((a) => a.endsWith('graphmend.jar')));
    if (!java || !java[0].startsWith(env.dir + '/')) fail(`the server process is not the venv's Java: ${JSON.stringify(childCommandLines())}`);
    say(`ok: the server process is the wheel's: ${java[0]} … ${java.find((a) => a.endsWith('graphmend.jar'))} lsp`);
  } else if (!fs.readFileSync(path.join(env.dir, 'graphmend-ran'), 'utf8').includes('lsp')) {
    fail('the stand-in environment\'s graphmend did not run with lsp');
  }
  const trace = (fake.outputs.get('GraphMend Trace') || []).join('');
  if (!new RegExp(`"interpreter":\\s*\\[\\s*"${escapeRe(env.python)}"`).test(trace)) {
    fail('initializationOptions.interpreter did not carry the interpreter; the trace:\n' + trace.slice(0, 3000));
  }
  await wait('the GM101 diagnostic from the environment\'s server', LIMIT, () => fake.diagnosticsOf(doc.uri).some((d) => code(d) === 'GM101'));
  say(`ok: fromEnvironment, graphmend.interpreter ${env.python}${env.wheel ? ' (scripts/wheel-venv, no java on PATH, JAVA_HOME unset)' : ''}: `
    + `${env.graphmend} lsp runs the server, no Java search, initializationOptions.interpreter sent, GM101 published`);
  await wait('the torch version from graphmend/status in the status item', LIMIT, () => / · torch \d+\.\d+/.test(s.text));
  if (!s.tooltip.includes(`server: graphmend from ${env.graphmend} (environment)`)) fail('the tooltip does not name the server:\n' + s.tooltip);
  if (!/\ntorch \d+\.\d+/.test(s.tooltip) || !/The rules follow torch \d+\.\d+/.test(outputText(fake))) {
    fail(`the torch version is not in the tooltip and the output:\n${s.tooltip}\n${outputText(fake)}`);
  }
  say(`ok: status "${s.text}", tooltip ${JSON.stringify(s.tooltip)}`);
  await ext.deactivate();

  // useBundled: the same interpreter, the bundled jar on Java
  log.length = 0;
  const bundled = createFake({
    settings: { 'graphmend.interpreter': [env.python], 'graphmend.importStrategy': 'useBundled', 'graphmend.trace.server': 'verbose' },
    folders: [dir],
  });
  const ext2 = load(bundled);
  await ext2.activate(context());
  const s2 = status(bundled);
  await wait('the running status with useBundled', LIMIT, () => running(s2));
  const out2 = outputText(bundled);
  if (!out2.includes('graphmend.importStrategy is useBundled') || !/Using Java \S+ from/.test(out2) || !out2.includes('Starting the bundled server')) {
    fail('useBundled did not run the bundled jar on Java:\n' + out2);
  }
  if (!/\nserver: bundled jar on Java \S+ \((JAVA_HOME|PATH)\)/.test(s2.tooltip)) fail('the tooltip does not name the bundled jar:\n' + s2.tooltip);
  if (!(bundled.outputs.get('GraphMend Trace') || []).join('').includes(JSON.stringify(env.python))) fail('useBundled did not send the interpreter');
  await ext2.deactivate();
  say('ok: useBundled with the same interpreter: the bundled jar on Java, the interpreter still sent; tooltip ' + JSON.stringify(s2.tooltip.split('\n')[1]));
}

async function pythonExtension() {
  log.length = 0;
  const env = environment();
  const bare = bareEnvironment();
  let active = env.python;
  const listeners = new Set();
  const api = {
    environments: {
      getActiveEnvironmentPath: () => ({ id: active, path: active }),
      resolveEnvironment: async (e) => ({ executable: { uri: { fsPath: e.path } } }),
      onDidChangeActiveEnvironmentPath: (l) => { listeners.add(l); return { dispose: () => listeners.delete(l) }; },
    },
  };
  const pyext = { id: 'ms-python.python', isActive: false, exports: undefined, activate: async () => api };
  const dir = fs.mkdtempSync(path.join(tmp, 'ws-pyext-'));
  const fake = createFake({ settings: {}, extensions: { 'ms-python.python': pyext }, folders: [dir] });
  const ext = load(fake);
  await ext.activate(context());
  const s = status(fake);
  await wait('the running status with the Python extension\'s environment', LIMIT, () => running(s));
  let out = outputText(fake);
  if (!out.includes(`Python interpreter: ${env.python} (Python extension)`) || !out.includes(`Starting graphmend from ${env.graphmend} (environment)`)) {
    fail('the Python extension\'s environment was not used:\n' + out);
  }
  if (listeners.size !== 1) fail(`the extension listens to onDidChangeActiveEnvironmentPath ${listeners.size} times`);
  say('ok: graphmend.interpreter unset: the Python extension\'s selected environment, its graphmend runs the server');
  active = bare.python;
  for (const l of listeners) l({ id: active, path: active });
  await wait('the restart on the bundled jar', LIMIT, () => outputText(fake).includes('Starting the bundled server') && running(s));
  out = outputText(fake);
  if (!out.includes(`The Python environment of ${bare.python} (Python extension) has no graphmend (no ${path.join(bare.dir, 'bin', 'graphmend')}): running the bundled server`)) {
    fail('the fallback to the bundled server was not explained:\n' + out);
  }
  await ext.deactivate();
  say('ok: another environment selected (no graphmend in it): restarted on the bundled jar, the output says why');
}

(async () => {
  let code = 0;
  try {
    await noJava();
    await trustedBadJavaHome();
    await disabled();
    await customServerPath();
    await untrustedWorkspace();
    await fromEnvironment();
    await pythonExtension();
    say('PASS');
  } catch (e) {
    code = 1;
    console.log('vscode-smoke: FAIL: ' + (e instanceof Fail ? e.message : e && e.stack ? e.stack : String(e)));
    console.log('vscode-smoke: shown to the user: ' + JSON.stringify(log, null, 1));
    for (const name of ['GraphMend', 'GraphMend Trace']) {
      const lines = ((current && current.outputs.get(name)) || []).join('').split('\n');
      console.log(`vscode-smoke: last lines of the output channel "${name}":\n  ` + lines.slice(-40).join('\n  '));
    }
  }
  if (missing.size) say('(fake vscode API members the extension touched but the fake lacks: ' + [...missing].sort().join(', ') + ')');
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(code);
})();
