import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import {
  chooseInterpreter,
  chooseServer,
  effectiveProgramSetting,
  environmentServerCandidates,
  expandInterpreter,
  importStrategy,
  pythonExtensionInterpreter,
} from '../src/environment';
import { manifest } from './manifest';

const files = (...fs: string[]) => (p: string) => fs.includes(p);

test('importStrategy: fromEnvironment unless useBundled, as package.json says', () => {
  const p = manifest.contributes.configuration.properties['graphmend.importStrategy'];
  assert.equal(p.default, 'fromEnvironment');
  assert.deepEqual(p.enum, ['fromEnvironment', 'useBundled']);
  assert.equal(importStrategy('useBundled'), 'useBundled');
  assert.equal(importStrategy('fromEnvironment'), 'fromEnvironment');
  assert.equal(importStrategy(undefined), 'fromEnvironment');
  assert.equal(importStrategy('bogus'), 'fromEnvironment');
  const i = manifest.contributes.configuration.properties['graphmend.interpreter'];
  assert.equal(i.type, 'array');
  assert.deepEqual(i.default, []);
});

test('graphmend.interpreter from a workspace counts only when the workspace is trusted', () => {
  const i = { defaultValue: [], globalValue: ['/user/py'], workspaceValue: ['/repo/.venv/bin/python'] };
  assert.deepEqual(effectiveProgramSetting(i, true), { value: ['/repo/.venv/bin/python'] });
  assert.deepEqual(effectiveProgramSetting(i, false), { value: ['/user/py'], ignored: ['/repo/.venv/bin/python'] });
  assert.deepEqual(effectiveProgramSetting({ workspaceFolderValue: ['/f/python'], workspaceValue: ['/w/python'] }, true), { value: ['/f/python'] });
  assert.deepEqual(effectiveProgramSetting({ workspaceValue: ['/w/python'] }, false), { value: undefined, ignored: ['/w/python'] });
  // blank entries and empty lists are unset; a plain string (python.defaultInterpreterPath) is a list of one
  assert.deepEqual(effectiveProgramSetting({ defaultValue: [], globalValue: [' ', ''], workspaceValue: [] }, false), { value: undefined });
  assert.deepEqual(effectiveProgramSetting({ defaultValue: 'python', globalValue: ' /usr/bin/python3 ' }, true), { value: ['/usr/bin/python3'] });
  assert.deepEqual(effectiveProgramSetting(undefined, true), {});
});

test('${workspaceFolder} and relative interpreter paths resolve against the first folder', () => {
  const o = { folder: '/ws', home: '/home/me', platform: 'linux' as const };
  assert.deepEqual(expandInterpreter(['${workspaceFolder}/.venv/bin/python', '-X', 'utf8'], o), ['/ws/.venv/bin/python', '-X', 'utf8']);
  assert.deepEqual(expandInterpreter(['.venv/bin/python'], o), ['/ws/.venv/bin/python']);
  assert.deepEqual(expandInterpreter(['${userHome}/venv/bin/python'], o), ['/home/me/venv/bin/python']);
  assert.deepEqual(expandInterpreter(['python3'], o), ['python3'], 'a bare command name stays (not a path)');
  assert.deepEqual(expandInterpreter(['.venv/bin/python'], { platform: 'linux' }), ['.venv/bin/python'], 'no folder: as written');
  assert.deepEqual(expandInterpreter(['.venv\\Scripts\\python.exe'], { folder: 'C:\\ws', platform: 'win32' }), ['C:\\ws\\.venv\\Scripts\\python.exe']);
});

test('which interpreter: graphmend.interpreter, then the Python extension, then python.defaultInterpreterPath', async () => {
  const asked: string[] = [];
  const ext = (path?: string, why?: string) => async () => { asked.push('ext'); return { path, why }; };
  const isFile = files('/venv/bin/python', '/usr/bin/python3');

  const own = await chooseInterpreter({ setting: ['/venv/bin/python'], pythonExtension: ext('/other/python'), defaultInterpreterPath: '/usr/bin/python3', platform: 'linux', isFile });
  assert.deepEqual(own.interpreter, { command: ['/venv/bin/python'], source: 'graphmend.interpreter' });
  assert.deepEqual(asked, [], 'the Python extension is not asked when the setting says');

  const fromExt = await chooseInterpreter({ pythonExtension: ext('/conda/envs/t/bin/python'), defaultInterpreterPath: '/usr/bin/python3', platform: 'linux', isFile });
  assert.deepEqual(fromExt.interpreter, { command: ['/conda/envs/t/bin/python'], source: 'Python extension' });

  const dflt = await chooseInterpreter({ pythonExtension: ext(undefined, 'no active environment'), defaultInterpreterPath: '/usr/bin/python3', platform: 'linux', isFile });
  assert.deepEqual(dflt.interpreter, { command: ['/usr/bin/python3'], source: 'python.defaultInterpreterPath' });
  assert.deepEqual(dflt.notes, ['The Python extension gave no interpreter: no active environment.']);

  // python.defaultInterpreterPath's default is "python": not a path, so not used
  const bare = await chooseInterpreter({ defaultInterpreterPath: 'python', platform: 'linux', isFile });
  assert.equal(bare.interpreter, undefined);
  assert.match(bare.notes.join('\n'), /python\.defaultInterpreterPath is python, not an absolute path/);
  const missing = await chooseInterpreter({ defaultInterpreterPath: '/gone/python', platform: 'linux', isFile });
  assert.equal(missing.interpreter, undefined);

  const throws = await chooseInterpreter({ pythonExtension: async () => { throw new Error('boom'); }, platform: 'linux', isFile });
  assert.equal(throws.interpreter, undefined);
  assert.match(throws.notes[0], /its API failed: boom/);

  // an explicit setting is the user's choice, even when the file is not there (said in the notes)
  const wrong = await chooseInterpreter({ setting: ['/nowhere/python'], platform: 'linux', isFile });
  assert.deepEqual(wrong.interpreter, { command: ['/nowhere/python'], source: 'graphmend.interpreter' });
  assert.match(wrong.notes[0], /not a file/);
});

test('the Python extension API: environments first, getExecutionDetails for old ones, anything absent tolerated', async () => {
  const resource = { fsPath: '/ws' };
  const seen: unknown[] = [];
  const modern = {
    environments: {
      getActiveEnvironmentPath: (r: unknown) => { seen.push(r); return { id: 'x', path: '/venv/bin/python' }; },
      resolveEnvironment: async (e: { path: string }) => ({ executable: { uri: { fsPath: e.path } } }),
    },
    settings: { getExecutionDetails: () => ({ execCommand: ['/old/python'] }) },
  };
  assert.deepEqual(await pythonExtensionInterpreter(modern, resource), { path: '/venv/bin/python' });
  assert.deepEqual(seen, [resource]);

  const unresolved = { ...modern, environments: { ...modern.environments, resolveEnvironment: async () => undefined } };
  assert.deepEqual(await pythonExtensionInterpreter(unresolved, resource), { path: '/old/python' });

  const old = { settings: { getExecutionDetails: () => ({ execCommand: ['/old/python', '-X'] }) } };
  assert.deepEqual(await pythonExtensionInterpreter(old, resource), { path: '/old/python' });

  const broken = {
    environments: { getActiveEnvironmentPath: () => { throw new Error('not ready'); } },
    settings: { getExecutionDetails: () => ({ execCommand: undefined }) },
  };
  const r = await pythonExtensionInterpreter(broken, resource);
  assert.equal(r.path, undefined);
  assert.match(r.why!, /not ready/);
  assert.match(r.why!, /no execCommand/);

  assert.deepEqual(await pythonExtensionInterpreter(undefined, resource), { why: 'it has no API' });
  assert.match((await pythonExtensionInterpreter({}, resource)).why!, /neither environments nor settings/);
  const noExe = { environments: { getActiveEnvironmentPath: () => ({ id: 'c', path: '/conda/env' }), resolveEnvironment: async () => ({ executable: { uri: undefined } }) } };
  assert.match((await pythonExtensionInterpreter(noExe, resource)).why!, /\/conda\/env has no python executable/);
});

test('the environment\'s graphmend sits beside its python (Scripts\\graphmend.exe on Windows)', () => {
  assert.deepEqual(environmentServerCandidates('/venv/bin/python', 'linux'), ['/venv/bin/graphmend']);
  assert.deepEqual(environmentServerCandidates('/venv/bin/python3.12', 'darwin'), ['/venv/bin/graphmend']);
  assert.deepEqual(environmentServerCandidates('C:\\p\\.venv\\Scripts\\python.exe', 'win32'), ['C:\\p\\.venv\\Scripts\\graphmend.exe']);
  // a conda environment on Windows: python.exe at its root, the scripts in Scripts\
  assert.deepEqual(environmentServerCandidates('C:\\conda\\envs\\t\\python.exe', 'win32'),
    ['C:\\conda\\envs\\t\\graphmend.exe', 'C:\\conda\\envs\\t\\Scripts\\graphmend.exe']);
  assert.deepEqual(environmentServerCandidates('python', 'linux'), []);
});

test('which server: graphmend.path, else the environment\'s graphmend (fromEnvironment), else the bundled jar', () => {
  const interpreter = { command: ['/venv/bin/python'], source: 'graphmend.interpreter' as const };
  const isFile = files('/venv/bin/python', '/venv/bin/graphmend');

  const env = chooseServer({ strategy: 'fromEnvironment', interpreter, platform: 'linux', isFile });
  assert.equal(env.kind, 'environment');
  if (env.kind !== 'environment') return;
  assert.equal(env.command, '/venv/bin/graphmend');
  assert.deepEqual(env.args, ['lsp']);
  assert.equal(env.describe, 'graphmend from /venv/bin/graphmend (environment)');
  assert.match(env.note, /graphmend of the Python environment of \/venv\/bin\/python \(graphmend\.interpreter\)/);

  const bundled = chooseServer({ strategy: 'useBundled', interpreter, platform: 'linux', isFile });
  assert.equal(bundled.kind, 'bundled');
  assert.match(bundled.note, /useBundled/);

  const path = chooseServer({ path: '/opt/graphmend', strategy: 'fromEnvironment', interpreter, platform: 'linux', isFile });
  assert.equal(path.kind, 'path');
  assert.equal(chooseServer({ path: ' ', strategy: 'fromEnvironment', interpreter, platform: 'linux', isFile }).kind, 'environment');

  // the fallbacks say why in the output channel
  const noGraphmend = chooseServer({ strategy: 'fromEnvironment', interpreter, platform: 'linux', isFile: files('/venv/bin/python') });
  assert.equal(noGraphmend.kind, 'bundled');
  assert.match(noGraphmend.note, /has no graphmend \(no \/venv\/bin\/graphmend\): running the bundled server/);
  assert.match(noGraphmend.note, /pip install graphmend/);
  const none = chooseServer({ strategy: 'fromEnvironment', platform: 'linux', isFile });
  assert.equal(none.kind, 'bundled');
  assert.match(none.note, /No Python environment selected/);
  const relative = chooseServer({ strategy: 'fromEnvironment', interpreter: { command: ['python'], source: 'Python extension' }, platform: 'linux', isFile: () => true });
  assert.equal(relative.kind, 'bundled');
  assert.match(relative.note, /not an absolute path/);

  const win = chooseServer({
    strategy: 'fromEnvironment',
    interpreter: { command: ['C:\\v\\Scripts\\python.exe'], source: 'Python extension' },
    platform: 'win32',
    isFile: files('C:\\v\\Scripts\\graphmend.exe'),
  });
  assert.ok(win.kind === 'environment' && win.command === 'C:\\v\\Scripts\\graphmend.exe');
});
