// The editor settings of docs/configuration.md as the server receives them: in `initializationOptions`
// and as the answer to `workspace/configuration` (section `graphmend`). No `vscode` import: the
// caller passes what `WorkspaceConfiguration.inspect` returns.

/** The analysis settings, named as in package.json (`graphmend.<key>`) and on the wire. */
export const ANALYSIS_SETTINGS = [
  'torchVersion',
  'select',
  'ignore',
  'severity',
  'assumeCompiled',
  'unsafeFixes',
] as const;
export type AnalysisSetting = (typeof ANALYSIS_SETTINGS)[number];

/** The `[tool.graphmend]` key each setting stands for (docs/configuration.md). */
export const PYPROJECT_KEY: Record<AnalysisSetting, string> = {
  torchVersion: 'torch-version',
  select: 'select',
  ignore: 'ignore',
  severity: 'severity',
  assumeCompiled: 'assume-compiled',
  unsafeFixes: 'unsafe-fixes',
};

/** The subset of `vscode.WorkspaceConfiguration.inspect()` used here. */
export interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export type Inspect = (key: string) => Inspected<unknown> | undefined;

/** The value the user set at the most specific level, or undefined when they set none. */
export function explicitValue<T>(i: Inspected<T> | undefined): T | undefined {
  if (!i) return undefined;
  if (i.workspaceFolderValue !== undefined) return i.workspaceFolderValue;
  if (i.workspaceValue !== undefined) return i.workspaceValue;
  return i.globalValue;
}

/**
 * The settings object sent to the server. Only values the user set are sent, so the defaults
 * shown in the settings UI never override a project's `[tool.graphmend]` table (the server puts
 * editor settings above pyproject.toml). A blank torchVersion means "not set"; null means unset.
 */
export function serverSettings(inspect: Inspect): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ANALYSIS_SETTINGS) {
    let v = explicitValue(inspect(key));
    if (v === undefined || v === null) continue;
    if (key === 'torchVersion') {
      if (typeof v !== 'string' || v.trim() === '') continue;
      v = v.trim();
    }
    if ((key === 'select' || key === 'ignore') && Array.isArray(v)) {
      v = v.filter((c) => typeof c === 'string' && c.trim() !== '').map((c: string) => c.trim().toUpperCase());
    }
    out[key] = v;
  }
  return out;
}

/**
 * `graphmend.java.home` as it may be used: a workspace (or folder) value only in a trusted
 * workspace, since it names a program to run. `ignored` is the workspace value that was skipped.
 */
export function effectiveJavaHome(
  i: Inspected<string> | undefined,
  trusted: boolean,
): { home?: string; ignored?: string } {
  if (!i) return {};
  const blank = (v: string | undefined) => v === undefined || v === null || v.trim() === '';
  const ws = !blank(i.workspaceFolderValue) ? i.workspaceFolderValue : !blank(i.workspaceValue) ? i.workspaceValue : undefined;
  if (ws !== undefined) {
    if (trusted) return { home: ws.trim() };
    return { home: blank(i.globalValue) ? undefined : i.globalValue!.trim(), ignored: ws };
  }
  return { home: blank(i.globalValue) ? undefined : i.globalValue!.trim() };
}
