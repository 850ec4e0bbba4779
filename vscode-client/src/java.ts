// Finding a Java 17+ to run the GraphMend server: the `graphmend.java.home` setting, then
// JAVA_HOME, then `java` on PATH, each checked by running `java -version`. No `vscode` import:
// the process runner and the file test are injected, so the unit tests drive every branch.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export const MIN_JAVA = 17;
export const JAVA_DOWNLOAD_URL = 'https://adoptium.net/temurin/releases/?version=17';

export interface ExecResult {
  /** Exit code; null when the process could not be started or was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why the process could not run (spawn error, time-out). */
  error?: string;
}
export type Exec = (file: string, args: string[]) => Promise<ExecResult>;

export interface JavaSearch {
  /** The effective `graphmend.java.home` (already filtered for workspace trust); blank = unset. */
  settingHome?: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  exec: Exec;
  isFile: (p: string) => boolean;
  minVersion?: number;
}

export type JavaSource = 'graphmend.java.home' | 'JAVA_HOME' | 'PATH';

export interface JavaFound {
  ok: true;
  java: string;
  major: number;
  versionText: string;
  source: JavaSource;
}

export interface JavaMissing {
  ok: false;
  /** One sentence for a notification: what is wrong and what to do. */
  message: string;
  /** One line per candidate looked at and why it was not used (for the output channel). */
  tried: string[];
}

export type JavaResult = JavaFound | JavaMissing;

/**
 * The major version in `java -version` output: `openjdk version "17.0.15"` → 17,
 * `java version "1.8.0_392"` → 8, `openjdk version "22-ea"` → 22. Undefined when absent.
 */
export function parseJavaVersion(output: string): { major: number; text: string } | undefined {
  const m = /version "([^"]+)"/.exec(output);
  if (!m) return undefined;
  const text = m[1];
  const parts = /^(\d+)(?:\.(\d+))?/.exec(text);
  if (!parts) return undefined;
  let major = Number(parts[1]);
  if (major === 1 && parts[2] !== undefined) major = Number(parts[2]);
  return { major, text };
}

export function javaExecutable(home: string, platform: NodeJS.Platform): string {
  const exe = platform === 'win32' ? 'java.exe' : 'java';
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.join(home, 'bin', exe);
}

function onPathExecutable(dir: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? path.win32.join(dir, 'java.exe') : path.posix.join(dir, 'java');
}

function pathEntries(env: Record<string, string | undefined>, platform: NodeJS.Platform): string[] {
  const value = env.PATH ?? env.Path ?? env.path ?? '';
  const sep = platform === 'win32' ? ';' : ':';
  return value.split(sep).filter((d) => d.length > 0);
}

type Check = { ok: true; major: number; text: string } | { ok: false; why: string };

async function check(java: string, s: JavaSearch): Promise<Check> {
  const min = s.minVersion ?? MIN_JAVA;
  if (!s.isFile(java)) return { ok: false, why: 'no such file' };
  const r = await s.exec(java, ['-version']);
  if (r.error) return { ok: false, why: `could not run it: ${r.error}` };
  // `java -version` writes to stderr; some wrappers use stdout.
  const v = parseJavaVersion(r.stderr + '\n' + r.stdout);
  if (r.code !== 0 || !v) {
    const first = (r.stderr || r.stdout).trim().split(/\r?\n/)[0] ?? '';
    return { ok: false, why: `'java -version' failed (exit ${r.code})${first ? ': ' + first : ''}` };
  }
  if (v.major < min) return { ok: false, why: `Java ${v.text} is older than ${min}` };
  return { ok: true, major: v.major, text: v.text };
}

export async function findJava(s: JavaSearch): Promise<JavaResult> {
  const min = s.minVersion ?? MIN_JAVA;
  const tried: string[] = [];
  const setting = s.settingHome?.trim();
  if (setting) {
    // An explicit setting is the user's choice: never silently run another Java instead.
    const java = javaExecutable(setting, s.platform);
    const c = await check(java, s);
    if (c.ok) return { ok: true, java, major: c.major, versionText: c.text, source: 'graphmend.java.home' };
    tried.push(`graphmend.java.home: ${java}: ${c.why}`);
    return {
      ok: false,
      tried,
      message:
        `GraphMend: the setting graphmend.java.home (${setting}) does not point to a Java ${min} or newer ` +
        `(${java}: ${c.why}). Fix the setting or clear it to use JAVA_HOME or PATH.`,
    };
  }
  const javaHome = s.env.JAVA_HOME?.trim();
  if (javaHome) {
    const java = javaExecutable(javaHome, s.platform);
    const c = await check(java, s);
    if (c.ok) return { ok: true, java, major: c.major, versionText: c.text, source: 'JAVA_HOME' };
    tried.push(`JAVA_HOME: ${java}: ${c.why}`);
  } else {
    tried.push('JAVA_HOME: not set');
  }
  const seen = new Set<string>();
  let onPath = false;
  for (const dir of pathEntries(s.env, s.platform)) {
    const java = onPathExecutable(dir, s.platform);
    if (seen.has(java) || !s.isFile(java)) continue;
    seen.add(java);
    onPath = true;
    const c = await check(java, s);
    if (c.ok) return { ok: true, java, major: c.major, versionText: c.text, source: 'PATH' };
    tried.push(`PATH: ${java}: ${c.why}`);
  }
  if (!onPath) tried.push('PATH: no java executable');
  return {
    ok: false,
    tried,
    message:
      `GraphMend needs Java ${min} or newer to run its language server, and none was found ` +
      `(looked at graphmend.java.home, JAVA_HOME and PATH). Install a JDK or JRE ${min}+ ` +
      `(e.g. Eclipse Temurin) and set graphmend.java.home or JAVA_HOME, or put java on PATH.`,
  };
}

/** The real process runner: `execFile` with a time-out, never a shell. */
export const nodeExec: Exec = (file, args) =>
  new Promise((resolve) => {
    execFile(file, args, { timeout: 15000, windowsHide: true }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: unknown; killed?: boolean }) | null;
      if (e && typeof e.code === 'string') {
        resolve({ code: null, stdout: String(stdout), stderr: String(stderr), error: e.message });
      } else if (e && e.killed) {
        resolve({ code: null, stdout: String(stdout), stderr: String(stderr), error: 'timed out' });
      } else {
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
      }
    });
  });

export function nodeIsFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
