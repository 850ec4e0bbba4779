import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Exec, findJava, javaExecutable, JAVA_DOWNLOAD_URL, nodeExec, nodeIsFile, parseJavaVersion } from '../src/java';

test('parseJavaVersion reads the major version of old and new version strings', () => {
  assert.deepEqual(parseJavaVersion('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime'), { major: 17, text: '17.0.15' });
  assert.deepEqual(parseJavaVersion('java version "1.8.0_392"'), { major: 8, text: '1.8.0_392' });
  assert.deepEqual(parseJavaVersion('openjdk version "21" 2023-09-19'), { major: 21, text: '21' });
  assert.deepEqual(parseJavaVersion('openjdk version "22-ea" 2024-03-19'), { major: 22, text: '22-ea' });
  assert.deepEqual(parseJavaVersion('Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version "11.0.2"'), { major: 11, text: '11.0.2' });
  assert.equal(parseJavaVersion('bash: java: command not found'), undefined);
});

test('javaExecutable follows the platform', () => {
  assert.equal(javaExecutable('/opt/jdk', 'linux'), '/opt/jdk/bin/java');
  assert.equal(javaExecutable('C:\\jdk', 'win32'), 'C:\\jdk\\bin\\java.exe');
});

/** A fake machine: executables and what `-version` prints. */
function machine(javas: Record<string, string | null>): { exec: Exec; isFile: (p: string) => boolean; ran: string[] } {
  const ran: string[] = [];
  return {
    ran,
    isFile: (p) => p in javas,
    exec: async (file, args) => {
      ran.push(`${file} ${args.join(' ')}`);
      const out = javas[file];
      if (out === null) return { code: null, stdout: '', stderr: '', error: 'spawn EACCES' };
      return { code: 0, stdout: '', stderr: out ?? '' };
    },
  };
}

const J17 = 'openjdk version "17.0.15" 2025-04-15';
const J21 = 'openjdk version "21.0.2" 2024-01-16';
const J11 = 'openjdk version "11.0.22" 2024-01-16';

test('the graphmend.java.home setting comes first', async () => {
  const m = machine({ '/set/bin/java': J21, '/env/bin/java': J17, '/usr/bin/java': J17 });
  const r = await findJava({ settingHome: '/set', env: { JAVA_HOME: '/env', PATH: '/usr/bin' }, platform: 'linux', ...m });
  assert.ok(r.ok);
  assert.equal(r.java, '/set/bin/java');
  assert.equal(r.source, 'graphmend.java.home');
  assert.equal(r.major, 21);
  assert.deepEqual(m.ran, ['/set/bin/java -version']);
});

test('a bad graphmend.java.home is an error naming the setting, not a silent fallback', async () => {
  const m = machine({ '/set/bin/java': J11, '/usr/bin/java': J17 });
  const r = await findJava({ settingHome: '/set', env: { PATH: '/usr/bin' }, platform: 'linux', ...m });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.message, /graphmend\.java\.home \(\/set\)/);
  assert.match(r.message, /older than 17/);
  const missing = await findJava({ settingHome: '/nowhere', env: { PATH: '/usr/bin' }, platform: 'linux', ...m });
  assert.equal(missing.ok, false);
  if (!missing.ok) assert.match(missing.message, /no such file/);
});

test('JAVA_HOME comes before PATH; a too-old JAVA_HOME falls through to PATH', async () => {
  const m = machine({ '/env/bin/java': J17, '/usr/bin/java': J21 });
  const r = await findJava({ settingHome: '  ', env: { JAVA_HOME: '/env', PATH: '/usr/bin' }, platform: 'linux', ...m });
  assert.ok(r.ok && r.source === 'JAVA_HOME' && r.java === '/env/bin/java');

  const old = machine({ '/env/bin/java': J11, '/usr/bin/java': J21 });
  const r2 = await findJava({ env: { JAVA_HOME: '/env', PATH: '/usr/bin' }, platform: 'linux', ...old });
  assert.ok(r2.ok && r2.source === 'PATH' && r2.java === '/usr/bin/java' && r2.major === 21);
});

test('PATH is searched in order, skipping old and broken javas', async () => {
  const m = machine({ '/a/java': J11, '/b/java': null, '/c/java': J17, '/d/java': J21 });
  const r = await findJava({ env: { PATH: '/x:/a:/b::/c:/d' }, platform: 'linux', ...m });
  assert.ok(r.ok);
  assert.equal(r.java, '/c/java');
  assert.deepEqual(m.ran, ['/a/java -version', '/b/java -version', '/c/java -version']);
});

test('Windows: java.exe, ; separated Path', async () => {
  const m = machine({ 'C:\\jdk17\\bin\\java.exe': J17 });
  const r = await findJava({ env: { Path: 'C:\\Windows;C:\\jdk17\\bin' }, platform: 'win32', ...m });
  assert.ok(r.ok && r.java === 'C:\\jdk17\\bin\\java.exe');
});

test('no usable Java: a message saying what to install, and every candidate with its reason', async () => {
  const m = machine({ '/env/bin/java': J11, '/usr/bin/java': 'java version "1.8.0_392"' });
  const r = await findJava({ env: { JAVA_HOME: '/env', PATH: '/usr/bin:/bin' }, platform: 'linux', ...m });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.message, /needs Java 17 or newer/);
  assert.match(r.message, /graphmend\.java\.home/);
  assert.match(r.message, /JAVA_HOME/);
  assert.deepEqual(r.tried, [
    'JAVA_HOME: /env/bin/java: Java 11.0.22 is older than 17',
    'PATH: /usr/bin/java: Java 1.8.0_392 is older than 17',
  ]);
  const none = await findJava({ env: {}, platform: 'linux', ...machine({}) });
  assert.ok(!none.ok && none.tried.join('\n') === 'JAVA_HOME: not set\nPATH: no java executable');
  assert.match(JAVA_DOWNLOAD_URL, /^https:\/\//);
});

test('a java that fails to run -version is reported with its exit code', async () => {
  const exec: Exec = async () => ({ code: 1, stdout: '', stderr: 'Error: could not find libjava.so' });
  const r = await findJava({ env: { PATH: '/usr/bin' }, platform: 'linux', exec, isFile: () => true });
  assert.ok(!r.ok && /exit 1\): Error: could not find libjava\.so/.test(r.tried[1]));
});

test('the real process runner reads a java -version written to stderr', { skip: process.platform === 'win32' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gm-java-'));
  try {
    for (const [name, version] of [['new', '21.0.1'], ['old', '1.8.0_392']]) {
      fs.mkdirSync(path.join(dir, name, 'bin'), { recursive: true });
      const java = path.join(dir, name, 'bin', 'java');
      fs.writeFileSync(java, `#!/bin/sh\necho 'openjdk version "${version}" 2023-10-17' >&2\n`, { mode: 0o755 });
    }
    const r = await findJava({
      env: { JAVA_HOME: path.join(dir, 'old'), PATH: path.join(dir, 'new', 'bin') },
      platform: process.platform,
      exec: nodeExec,
      isFile: nodeIsFile,
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.source, 'PATH');
    assert.equal(r.major, 21);
    const gone = await nodeExec(path.join(dir, 'missing'), ['-version']);
    assert.equal(gone.code, null);
    assert.ok(gone.error);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
