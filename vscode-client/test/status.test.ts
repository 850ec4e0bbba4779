import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fromClientState, statusLook, torchLine, torchStatus } from '../src/status';

test('client states map to starting/running/stopped', () => {
  // the values of vscode-languageclient's State enum, read from its declaration
  const dts = fs.readFileSync(
    path.join(__dirname, '..', '..', 'node_modules', 'vscode-languageclient', 'lib', 'common', 'client.d.ts'),
    'utf8',
  );
  const value = (name: string) => Number(new RegExp(`${name} = (\\d+)`).exec(dts)![1]);
  assert.equal(fromClientState(value('Stopped')), 'stopped');
  assert.equal(fromClientState(value('Running')), 'running');
  assert.equal(fromClientState(value('Starting')), 'starting');
  assert.equal(fromClientState(42), 'error');
});

test('each state has its own text; stopped and error stand out', () => {
  const texts = (['starting', 'running', 'stopped', 'error'] as const).map((s) => statusLook(s).text);
  assert.equal(new Set(texts).size, 4);
  assert.ok(texts.every((t) => t.endsWith('GraphMend')));
  assert.equal(statusLook('running').background, undefined);
  assert.equal(statusLook('stopped').background, 'warning');
  assert.equal(statusLook('error', 'Java 17+ not found').background, 'error');
  assert.match(statusLook('error', 'Java 17+ not found').tooltip, /Java 17\+ not found/);
});

test('graphmend/status params: the torch version and its source; anything else is ignored', () => {
  assert.deepEqual(torchStatus({ torchVersion: '2.10', torchVersionSource: 'torch 2.10.0 installed in /venv' }),
    { version: '2.10', source: 'torch 2.10.0 installed in /venv' });
  assert.deepEqual(torchStatus({ torchVersion: ' 2.9 ' }), { version: '2.9', source: undefined });
  assert.equal(torchStatus({ torchVersion: '' }), undefined);
  assert.equal(torchStatus({ torchVersion: 2.1 }), undefined);
  assert.equal(torchStatus(null), undefined);
  assert.equal(torchStatus('2.10'), undefined);
  assert.equal(torchLine({ version: '2.10', source: 'pinned in pyproject.toml' }), 'torch 2.10 (pinned in pyproject.toml)');
  assert.equal(torchLine({ version: '2.10' }), 'torch 2.10');
});

test('the running item names the torch version; its tooltip the server, the interpreter and the torch', () => {
  const info = {
    server: 'graphmend from /venv/bin/graphmend (environment)',
    interpreter: '/venv/bin/python (graphmend.interpreter)',
    torch: { version: '2.10', source: 'torch 2.10.0 installed in /venv' },
  };
  const look = statusLook('running', undefined, info);
  assert.equal(look.text, '$(check) GraphMend · torch 2.10');
  assert.equal(look.tooltip, [
    'GraphMend: server running',
    'server: graphmend from /venv/bin/graphmend (environment)',
    'python: /venv/bin/python (graphmend.interpreter)',
    'torch 2.10 (torch 2.10.0 installed in /venv)',
    'Click to show the output.',
  ].join('\n'));
  // before the server says (or a server that never does): the plain text, the server in the tooltip
  const bundled = statusLook('running', undefined, { server: 'bundled jar on Java 17.0.15 (PATH)' });
  assert.equal(bundled.text, '$(check) GraphMend');
  assert.match(bundled.tooltip, /\nserver: bundled jar on Java 17\.0\.15 \(PATH\)\n/);
  // the other states keep their text; the torch shows only while running
  assert.equal(statusLook('starting', undefined, info).text, '$(sync~spin) GraphMend');
  assert.equal(statusLook('error', 'boom', info).text, '$(error) GraphMend');
  assert.match(statusLook('error', 'boom', info).tooltip, /server error\nboom\nserver: /);
});
