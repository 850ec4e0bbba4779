import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { ANALYSIS_SETTINGS, effectiveJavaHome, Inspected, PYPROJECT_KEY, serverSettings } from '../src/settings';
import { manifest } from './manifest';

function inspector(values: Record<string, Inspected<unknown>>) {
  return (key: string) => values[key] ?? { defaultValue: manifest.contributes.configuration.properties[`graphmend.${key}`]?.default };
}

test('nothing set: nothing sent, so pyproject.toml decides', () => {
  assert.deepEqual(serverSettings(inspector({})), {});
});

test('set values are sent under the names the server reads, the most specific level winning', () => {
  const s = serverSettings(
    inspector({
      torchVersion: { defaultValue: '', globalValue: ' 2.11 ' },
      select: { defaultValue: [], workspaceValue: ['gm1', ' GM201 ', ''] },
      ignore: { defaultValue: [], globalValue: ['GM102'], workspaceFolderValue: [] },
      severity: { defaultValue: {}, globalValue: { GM2: 'warning' } },
      assumeCompiled: { defaultValue: 'module-forward', workspaceValue: 'explicit' },
      unsafeFixes: { defaultValue: false, globalValue: true, workspaceValue: false },
    }),
  );
  assert.deepEqual(s, {
    torchVersion: '2.11',
    select: ['GM1', 'GM201'],
    ignore: [],
    severity: { GM2: 'warning' },
    assumeCompiled: 'explicit',
    unsafeFixes: false,
  });
});

test('a blank torchVersion or a null value counts as not set', () => {
  assert.deepEqual(
    serverSettings(inspector({ torchVersion: { globalValue: '  ' }, assumeCompiled: { globalValue: null } })),
    {},
  );
});

test('package.json contributes exactly the analysis settings plus the extension\'s own', () => {
  const props = Object.keys(manifest.contributes.configuration.properties).sort();
  const own = ['java.home', 'java.args', 'path', 'importStrategy', 'interpreter', 'enable', 'run', 'showNotifications', 'fixAll',
    'exclude', 'trace.server'];
  const expected = [...ANALYSIS_SETTINGS.map((k) => `graphmend.${k}`), ...own.map((k) => `graphmend.${k}`)].sort();
  assert.deepEqual(props, expected);
  assert.deepEqual(Object.values(PYPROJECT_KEY).sort(), ['assume-compiled', 'ignore', 'select', 'severity', 'torch-version', 'unsafe-fixes']);
  for (const k of ANALYSIS_SETTINGS) {
    const desc = manifest.contributes.configuration.properties[`graphmend.${k}`].markdownDescription;
    assert.ok(desc.includes(PYPROJECT_KEY[k]), `graphmend.${k} names its [tool.graphmend] key ${PYPROJECT_KEY[k]}`);
  }
});

test('package.json defaults are the documented defaults (docs/configuration.md) (shown in the UI, never sent)', () => {
  const p = manifest.contributes.configuration.properties;
  assert.equal(p['graphmend.assumeCompiled'].default, 'module-forward');
  assert.deepEqual(p['graphmend.assumeCompiled'].enum, ['module-forward', 'explicit']);
  assert.equal(p['graphmend.unsafeFixes'].default, false);
  assert.equal(p['graphmend.torchVersion'].default, '');
  assert.deepEqual(p['graphmend.select'].default, []);
  assert.deepEqual(p['graphmend.ignore'].default, []);
  assert.deepEqual(p['graphmend.severity'].default, {});
  assert.deepEqual(p['graphmend.severity'].additionalProperties.enum, ['error', 'warning', 'information', 'hint']);
  assert.deepEqual(p['graphmend.trace.server'].enum, ['off', 'messages', 'verbose']);
});

test('workspace trust: java.home is a restricted setting; untrusted workspaces ignore the workspace value', () => {
  // both name a program to run: Java, or the python whose environment's graphmend runs
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['graphmend.java.home', 'graphmend.interpreter']);
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  const i = { defaultValue: '', globalValue: '/user/jdk', workspaceValue: '/repo/evil' };
  assert.deepEqual(effectiveJavaHome(i, true), { home: '/repo/evil' });
  assert.deepEqual(effectiveJavaHome(i, false), { home: '/user/jdk', ignored: '/repo/evil' });
  assert.deepEqual(effectiveJavaHome({ defaultValue: '', workspaceFolderValue: '/f' }, false), { home: undefined, ignored: '/f' });
  assert.deepEqual(effectiveJavaHome({ defaultValue: '', globalValue: ' /user/jdk ' }, false), { home: '/user/jdk' });
  assert.deepEqual(effectiveJavaHome({ defaultValue: '' }, true), { home: undefined });
  assert.deepEqual(effectiveJavaHome(undefined, true), {});
});
