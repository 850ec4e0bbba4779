import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_JAVA_ARGS, DiagnosticGate, filterFixAll, isExcluded, needsJava, serverCommand, shouldNotify } from '../src/options';
import { manifest } from './manifest';

const props = manifest.contributes.configuration.properties;

test('graphmend.path empty: the bundled jar with Java and the default JVM options', () => {
  const c = serverCommand({ java: '/jdk/bin/java', bundledJar: '/ext/server/graphmend.jar' });
  assert.ok(c.ok);
  assert.deepEqual(c.value.args, [...DEFAULT_JAVA_ARGS, '-jar', '/ext/server/graphmend.jar', 'lsp']);
  assert.equal(c.value.command, '/jdk/bin/java');
});

test('graphmend.path a jar: that jar, with graphmend.java.args replacing the defaults', () => {
  const c = serverCommand({ path: ' /opt/gm/graphmend.jar ', javaArgs: ['-Xmx1g', ''], java: 'java', bundledJar: '/b.jar' });
  assert.ok(c.ok);
  assert.deepEqual(c.value.args, ['-Xmx1g', '-jar', '/opt/gm/graphmend.jar', 'lsp']);
  assert.ok(needsJava('/opt/gm/graphmend.JAR'));
});

test('graphmend.path a program: run with lsp, without Java or JVM options', () => {
  assert.equal(needsJava('/repo/graphmend'), false);
  const c = serverCommand({ path: '/repo/graphmend', javaArgs: ['-Xmx1g'], bundledJar: '/b.jar' });
  assert.ok(c.ok);
  assert.equal(c.value.command, '/repo/graphmend');
  assert.deepEqual(c.value.args, ['lsp']);
  assert.deepEqual(serverCommand({ bundledJar: '/b.jar' }), { ok: false, needsJava: true });
});

test('graphmend.showNotifications: off, onError (default), onWarning, always', () => {
  assert.equal(props['graphmend.showNotifications'].default, 'onError');
  const table: Array<[string | undefined, boolean, boolean, boolean]> = [
    ['off', false, false, false], ['onError', true, false, false], ['onWarning', true, true, false],
    ['always', true, true, true], [undefined, true, false, false], ['nonsense', true, false, false],
  ];
  for (const [setting, error, warning, info] of table) {
    assert.deepEqual([shouldNotify('error', setting), shouldNotify('warning', setting), shouldNotify('info', setting)],
      [error, warning, info], String(setting));
    // the answer to a command the user ran ("nothing to fix") pops up unless notifications are off
    assert.equal(shouldNotify('result', setting), setting !== 'off');
  }
});

test('graphmend.fixAll false drops only the source.fixAll action', () => {
  const actions = [{ kind: { value: 'quickfix' }, title: 'Rewrite to torch.where' },
    { kind: { value: 'source.fixAll.graphmend' }, title: 'Fix all' }, { kind: 'quickfix', title: 'Fix all GraphMend problems in this file' }];
  assert.equal(filterFixAll(actions, true).length, 3);
  assert.deepEqual(filterFixAll(actions, false).map((a) => a.title), ['Rewrite to torch.where', 'Fix all GraphMend problems in this file']);
});

test('graphmend.exclude: globs relative to the workspace folder, or a file name anywhere', () => {
  const roots = ['/ws'];
  assert.equal(isExcluded('/ws/tests/test_model.py', ['tests/**'], roots), true);
  assert.equal(isExcluded('/ws/src/tests_helper.py', ['tests/**'], roots), false);
  assert.equal(isExcluded('/ws/src/deep/legacy_attn.py', ['**/legacy_*.py'], roots), true);
  assert.equal(isExcluded('/ws/src/deep/legacy_attn.py', ['legacy_*.py'], roots), true, 'no slash: the name anywhere');
  assert.equal(isExcluded('/ws/model.py', [], roots), false);
  assert.equal(isExcluded('/ws/.hidden/m.py', ['.hidden/**'], roots), true);
  assert.equal(isExcluded('/elsewhere/m.py', ['/elsewhere/*.py'], roots), true, 'an absolute pattern');
});

test('graphmend.run onSave holds a dirty document\'s diagnostics until it is saved; onType shows them at once', () => {
  let mode: 'onType' | 'onSave' = 'onSave';
  const gate = new DiagnosticGate<string>(() => mode);
  const shown: string[][] = [];
  const show = (d: string[]): void => { shown.push(d); };
  gate.published('a', ['GM101'], true, show);
  assert.deepEqual(shown, []);
  assert.ok(gate.isHolding('a'));
  gate.published('a', ['GM101', 'GM102'], true, show); // a later publish replaces the held one
  gate.release('a');
  assert.deepEqual(shown, [['GM101', 'GM102']]);
  gate.published('a', ['GM102'], false, show); // a clean document: at once
  assert.deepEqual(shown.length, 2);
  mode = 'onType';
  gate.published('b', ['GM203'], true, show);
  assert.deepEqual(shown[2], ['GM203']);
  assert.equal(gate.isHolding('b'), false);
});

test('every extension setting is documented in the extension README', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  for (const k of Object.keys(props)) assert.ok(readme.includes('`' + k + '`'), `${k} is not in README.md`);
  for (const k of ['graphmend.path', 'graphmend.java.args']) assert.equal(props[k].scope, 'machine', `${k} names a program to run`);
  assert.deepEqual(props['graphmend.run'].enum, ['onType', 'onSave']);
});
