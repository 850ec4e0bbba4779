// The extension's own settings (not the analysis ones the server reads), as ruff-vscode users
// expect them: graphmend.enable, path, java.args, run, showNotifications, fixAll, exclude. No
// `vscode` import: extension.ts passes the values in, and the logic is unit-tested here.
import { minimatch } from 'minimatch';

/** JVM options the bundled server runs with unless graphmend.java.args says otherwise (docs/lsp.md). */
export const DEFAULT_JAVA_ARGS = ['-XX:+UseSerialGC', '-XX:FreqInlineSize=100', '-XX:InlineSmallCode=1000', '-XX:-ShrinkHeapInSteps', '-Xms192m', '-XX:NewSize=128m'];

export interface ServerCommand {
  command: string;
  args: string[];
  /** What the output channel says the server is. */
  describe: string;
}

/**
 * How to start the server. `graphmend.path` empty: the bundled jar with Java. A path ending in
 * `.jar`: that jar with Java. Anything else: a program that runs the server when given `lsp`
 * (the repository's `graphmend` launcher, say); `java.args` do not apply to it.
 */
export function serverCommand(o: { path?: string; javaArgs?: string[]; java?: string; bundledJar: string }):
  { ok: true; value: ServerCommand } | { ok: false; needsJava: true } {
  const custom = (o.path ?? '').trim();
  const jvm = o.javaArgs && o.javaArgs.length > 0 ? o.javaArgs.filter((a) => a.trim() !== '') : DEFAULT_JAVA_ARGS;
  if (custom !== '' && !custom.toLowerCase().endsWith('.jar')) {
    return { ok: true, value: { command: custom, args: ['lsp'], describe: `${custom} lsp (graphmend.path)` } };
  }
  if (!o.java) return { ok: false, needsJava: true };
  const jar = custom !== '' ? custom : o.bundledJar;
  return {
    ok: true,
    value: {
      command: o.java,
      args: [...jvm, '-jar', jar, 'lsp'],
      describe: `${custom !== '' ? jar + ' (graphmend.path)' : 'the bundled server'} with ${jvm.join(' ')}`,
    },
  };
}

/** Whether the server needs Java at all (graphmend.path may name a program of its own). */
export function needsJava(path: string | undefined): boolean {
  const custom = (path ?? '').trim();
  return custom === '' || custom.toLowerCase().endsWith('.jar');
}

export type NotifyLevel = 'off' | 'onError' | 'onWarning' | 'always';

/**
 * graphmend.showNotifications, as ruff's: which messages pop up (the output channel gets all of
 * them). A `result` answers a command the user just ran ("nothing to fix in this file"): it pops
 * up unless notifications are off.
 */
export function shouldNotify(kind: 'error' | 'warning' | 'info' | 'result', setting: string | undefined): boolean {
  const s = (['off', 'onError', 'onWarning', 'always'] as const).includes(setting as NotifyLevel)
    ? (setting as NotifyLevel) : 'onError';
  if (s === 'off') return false;
  if (kind === 'result') return true;
  if (s === 'always') return true;
  if (s === 'onWarning') return kind !== 'info';
  return kind === 'error';
}

/** graphmend.fixAll false: the server's source.fixAll action is not offered (on-save fix-all does nothing). */
export function filterFixAll<T extends { kind?: { value: string } | string }>(actions: T[], fixAll: boolean): T[] {
  if (fixAll) return actions;
  return actions.filter((a) => {
    const k = typeof a.kind === 'string' ? a.kind : a.kind?.value;
    return !(k !== undefined && k.startsWith('source.fixAll'));
  });
}

/**
 * graphmend.exclude: glob patterns (`**` for any folders) matched against a file's path relative
 * to each workspace folder and against its absolute path; an excluded file gets no diagnostics.
 */
export function isExcluded(fsPath: string, patterns: string[] | undefined, roots: string[]): boolean {
  if (!patterns || patterns.length === 0) return false;
  const p = fsPath.replace(/\\/g, '/');
  const candidates = [p];
  for (const r of roots) {
    const root = r.replace(/\\/g, '/').replace(/\/$/, '');
    if (p.startsWith(root + '/')) candidates.push(p.slice(root.length + 1));
  }
  return patterns.some((pat) => pat.trim() !== ''
    && candidates.some((c) => minimatch(c, pat.trim(), { dot: true, matchBase: !pat.includes('/') })));
}

export type RunMode = 'onType' | 'onSave';

/**
 * graphmend.run = onSave: the server still analyses every change (its code actions need the
 * current text), but what it publishes for a document with unsaved changes is held back and
 * shown when the document is saved; onType shows it at once. Fed by the client's diagnostics
 * middleware and the editor's save events.
 */
export class DiagnosticGate<D> {
  private readonly held = new Map<string, { diagnostics: D[]; show: (d: D[]) => void }>();

  constructor(private readonly mode: () => RunMode) {}

  /** A publish from the server: shown now, or held while the document is dirty in onSave mode. */
  published(uri: string, diagnostics: D[], dirty: boolean, show: (d: D[]) => void): void {
    if (this.mode() === 'onSave' && dirty) {
      this.held.set(uri, { diagnostics, show });
      return;
    }
    this.held.delete(uri);
    show(diagnostics);
  }

  /** The document was saved (or closed, or the mode changed): what was held for it is shown. */
  release(uri: string): void {
    const h = this.held.get(uri);
    if (!h) return;
    this.held.delete(uri);
    h.show(h.diagnostics);
  }

  releaseAll(): void {
    for (const uri of [...this.held.keys()]) this.release(uri);
  }

  isHolding(uri: string): boolean {
    return this.held.has(uri);
  }
}
