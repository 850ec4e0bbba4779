// The Python environment the editor works in, and which GraphMend server runs for it, as
// ruff-vscode's `importStrategy` does: `fromEnvironment` runs the `graphmend` installed beside
// the selected interpreter (`pip install graphmend` brings its own Java), `useBundled` the jar the
// extension carries. No `vscode` import: the file test, the platform and the Python extension's
// API object are passed in, so the unit tests drive every branch.
import * as path from 'path';
import { Inspected } from './settings';

export type ImportStrategy = 'fromEnvironment' | 'useBundled';

/** graphmend.importStrategy; anything but `useBundled` is the default, `fromEnvironment`. */
export function importStrategy(value: unknown): ImportStrategy {
  return value === 'useBundled' ? 'useBundled' : 'fromEnvironment';
}

export type InterpreterSource = 'graphmend.interpreter' | 'Python extension' | 'python.defaultInterpreterPath';

export interface Interpreter {
  /** The python executable first, as `graphmend.interpreter` and `initializationOptions.interpreter` have it. */
  command: string[];
  source: InterpreterSource;
}

type Platform = NodeJS.Platform;
const pathFor = (platform: Platform) => (platform === 'win32' ? path.win32 : path.posix);

/** Non-blank strings, trimmed; anything else (a string, a number) gives an empty list. */
function cleanList(v: unknown): string[] {
  if (typeof v === 'string') return v.trim() === '' ? [] : [v.trim()];
  if (!Array.isArray(v)) return [];
  return v.filter((s) => typeof s === 'string' && s.trim() !== '').map((s: string) => s.trim());
}

/**
 * A setting naming a program to run (`graphmend.interpreter`, `python.defaultInterpreterPath`) as
 * it may be used: a workspace (or folder) value only in a trusted workspace, like
 * graphmend.java.home. Blank strings and empty lists are "unset". `ignored` is the skipped
 * workspace value.
 */
export function effectiveProgramSetting(
  i: Inspected<unknown> | undefined,
  trusted: boolean,
): { value?: string[]; ignored?: string[] } {
  if (!i) return {};
  const folder = cleanList(i.workspaceFolderValue);
  const ws = folder.length > 0 ? folder : cleanList(i.workspaceValue);
  const user = cleanList(i.globalValue);
  if (ws.length > 0) {
    if (trusted) return { value: ws };
    return { value: user.length > 0 ? user : undefined, ignored: ws };
  }
  return { value: user.length > 0 ? user : undefined };
}

/**
 * `${workspaceFolder}` (and `${userHome}`) replaced, and a relative python path made absolute
 * against the first workspace folder, so `[".venv/bin/python"]` works in workspace settings.
 */
export function expandInterpreter(command: string[], o: { folder?: string; home?: string; platform: Platform }): string[] {
  const p = pathFor(o.platform);
  const out = command.map((c) => {
    let s = c;
    if (o.folder !== undefined) s = s.split('${workspaceFolder}').join(o.folder);
    if (o.home !== undefined) s = s.split('${userHome}').join(o.home);
    return s;
  });
  if (out.length > 0 && o.folder !== undefined && !p.isAbsolute(out[0]) && /[\\/]/.test(out[0])) {
    out[0] = p.resolve(o.folder, out[0]);
  }
  return out;
}

export interface InterpreterSearch {
  /** The effective graphmend.interpreter (already filtered for workspace trust, expanded). */
  setting?: string[];
  /** Asks the Python extension for the selected environment's python; undefined when it cannot say. */
  pythonExtension?: () => Promise<{ path?: string; why?: string }>;
  /** The effective python.defaultInterpreterPath (trust-filtered). */
  defaultInterpreterPath?: string;
  platform: Platform;
  isFile: (p: string) => boolean;
}

/**
 * Which interpreter: graphmend.interpreter when set; else the Python extension's selected
 * environment; else python.defaultInterpreterPath when it is an absolute path to a file; else
 * none. `notes` say, for the output channel, why a candidate was passed over.
 */
export async function chooseInterpreter(s: InterpreterSearch): Promise<{ interpreter?: Interpreter; notes: string[] }> {
  const notes: string[] = [];
  if (s.setting && s.setting.length > 0) {
    if (!s.isFile(s.setting[0])) notes.push(`graphmend.interpreter names ${s.setting[0]}, which is not a file.`);
    return { interpreter: { command: s.setting, source: 'graphmend.interpreter' }, notes };
  }
  if (s.pythonExtension) {
    let r: { path?: string; why?: string };
    try {
      r = await s.pythonExtension();
    } catch (e) {
      r = { why: `its API failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (r.path && r.path.trim() !== '') return { interpreter: { command: [r.path.trim()], source: 'Python extension' }, notes };
    if (r.why) notes.push(`The Python extension gave no interpreter: ${r.why}.`);
  }
  const d = s.defaultInterpreterPath?.trim();
  if (d) {
    if (pathFor(s.platform).isAbsolute(d) && s.isFile(d)) {
      return { interpreter: { command: [d], source: 'python.defaultInterpreterPath' }, notes };
    }
    notes.push(`python.defaultInterpreterPath is ${d}, not an absolute path to an existing file: not used.`);
  }
  return { notes };
}

/**
 * The python executable of the Python extension's selected environment (ms-python.python's API:
 * `environments.getActiveEnvironmentPath` then `resolveEnvironment`; older ones:
 * `settings.getExecutionDetails().execCommand[0]`). Every member is checked, since the
 * extension may be old, new or half-activated.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function pythonExtensionInterpreter(api: any, resource: unknown): Promise<{ path?: string; why?: string }> {
  if (!api || typeof api !== 'object') return { why: 'it has no API' };
  const reasons: string[] = [];
  const envs = api.environments;
  if (envs && typeof envs.getActiveEnvironmentPath === 'function') {
    try {
      const active = await envs.getActiveEnvironmentPath(resource);
      if (active && typeof envs.resolveEnvironment === 'function') {
        const resolved = await envs.resolveEnvironment(active);
        const exe = resolved?.executable?.uri?.fsPath;
        if (typeof exe === 'string' && exe !== '') return { path: exe };
        reasons.push(`the environment ${active?.path ?? active?.id ?? '?'} has no python executable`);
      } else if (active) {
        reasons.push('no resolveEnvironment in its API');
      } else {
        reasons.push('no active environment');
      }
    } catch (e) {
      reasons.push(`environments API: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const settings = api.settings;
  if (settings && typeof settings.getExecutionDetails === 'function') {
    try {
      const cmd = settings.getExecutionDetails(resource)?.execCommand;
      if (Array.isArray(cmd) && typeof cmd[0] === 'string' && cmd[0] !== '') return { path: cmd[0] };
      reasons.push('no execCommand');
    } catch (e) {
      reasons.push(`settings API: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (reasons.length === 0) reasons.push('its API has neither environments nor settings');
  return { why: reasons.join('; ') };
}

/** Where an environment keeps its `graphmend` script, next to the python executable (Scripts\ on Windows). */
export function environmentServerCandidates(python: string, platform: Platform): string[] {
  const p = pathFor(platform);
  if (!p.isAbsolute(python)) return [];
  const dir = p.dirname(python);
  if (platform === 'win32') {
    // a venv: Scripts\python.exe beside Scripts\graphmend.exe; a conda env: python.exe at its root
    const c = [p.join(dir, 'graphmend.exe')];
    if (p.basename(dir).toLowerCase() !== 'scripts') c.push(p.join(dir, 'Scripts', 'graphmend.exe'));
    return c;
  }
  return [p.join(dir, 'graphmend')];
}

export type ServerPlan =
  /** graphmend.path is set: it decides (options.ts serverCommand). */
  | { kind: 'path'; note: string }
  /** The environment's `graphmend lsp`. */
  | { kind: 'environment'; command: string; args: string[]; describe: string; note: string }
  /** The bundled jar, run on the Java found by java.ts. */
  | { kind: 'bundled'; note: string };

/**
 * Which server runs: graphmend.path over both strategies; `fromEnvironment` the selected
 * environment's `graphmend` when it has one, else the bundled jar (the note says why); `useBundled`
 * the bundled jar.
 */
export function chooseServer(o: {
  path?: string;
  strategy: ImportStrategy;
  interpreter?: Interpreter;
  platform: Platform;
  isFile: (p: string) => boolean;
}): ServerPlan {
  if ((o.path ?? '').trim() !== '') {
    return { kind: 'path', note: 'graphmend.path is set: it names the server (graphmend.importStrategy does not apply).' };
  }
  if (o.strategy === 'useBundled') {
    return { kind: 'bundled', note: 'graphmend.importStrategy is useBundled: running the bundled server.' };
  }
  if (!o.interpreter) {
    return {
      kind: 'bundled',
      note: 'No Python environment selected (graphmend.interpreter, the Python extension, python.defaultInterpreterPath): running the bundled server.',
    };
  }
  const python = o.interpreter.command[0];
  const candidates = environmentServerCandidates(python, o.platform);
  const exe = candidates.find((c) => o.isFile(c));
  if (exe) {
    return {
      kind: 'environment',
      command: exe,
      args: ['lsp'],
      describe: `graphmend from ${exe} (environment)`,
      note: `Using the graphmend of the Python environment of ${python} (${o.interpreter.source}): ${exe}`,
    };
  }
  const looked = candidates.length > 0 ? `no ${candidates.join(' or ')}` : 'not an absolute path';
  return {
    kind: 'bundled',
    note: `The Python environment of ${python} (${o.interpreter.source}) has no graphmend (${looked}): running the bundled server. ` +
      '`pip install graphmend` there to run its own.',
  };
}
