import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fromClientState, statusLook } from '../src/status';

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
