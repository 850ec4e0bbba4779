// The extension's commands and what they do, against a small host interface so the unit tests
// can wire them to a fake. No `vscode` import.

export const COMMANDS = {
  fixAllInFile: 'graphmend.fixAllInFile',
  restartServer: 'graphmend.restartServer',
  showOutput: 'graphmend.showOutput',
} as const;

/** The server's command (`workspace/executeCommand`), argument `[{uri, version}]`. */
export const SERVER_FIX_ALL = 'graphmend.fixAll';
/** The server's fix-all code action kind, usable in `editor.codeActionsOnSave`. */
export const FIX_ALL_KIND = 'source.fixAll.graphmend';

export interface Disposable {
  dispose(): unknown;
}

export interface DocumentRef {
  /** The URI as the language client sends it to the server. */
  uri: string;
  version: number;
  languageId: string;
}

export interface CommandHost {
  registerCommand(id: string, run: () => unknown): Disposable;
  activeDocument(): DocumentRef | undefined;
  isRunning(): boolean;
  executeServerCommand(command: string, args: unknown[]): Promise<unknown>;
  restart(): Promise<void>;
  showOutput(): void;
  info(message: string): void;
  error(message: string): void;
}

/** What `graphmend.fixAll` answers: `{fixes, applied, reason?}`. */
interface FixAllResult {
  fixes?: number;
  applied?: boolean;
  reason?: string;
}

/** LSP's ContentModified: the document changed between the request and the fix. */
const CONTENT_MODIFIED = -32801;

export async function fixAllInFile(host: CommandHost): Promise<void> {
  const doc = host.activeDocument();
  if (!doc || doc.languageId !== 'python') {
    host.info('GraphMend: open a Python file to fix.');
    return;
  }
  if (!host.isRunning()) {
    host.error('GraphMend: the server is not running; run "GraphMend: Restart server" or see "GraphMend: Show output".');
    return;
  }
  let result: FixAllResult | undefined;
  try {
    result = (await host.executeServerCommand(SERVER_FIX_ALL, [{ uri: doc.uri, version: doc.version }])) as FixAllResult;
  } catch (e) {
    const err = e as { code?: number; message?: string };
    if (err && err.code === CONTENT_MODIFIED) {
      host.info('GraphMend: the file changed while fixing; run "Fix all in file" again.');
    } else {
      host.error(`GraphMend: fix all failed: ${err?.message ?? String(e)}`);
    }
    return;
  }
  if (!result || !result.fixes) {
    host.info('GraphMend: nothing to fix in this file.');
  } else if (result.applied === false) {
    host.info(`GraphMend: ${result.fixes} fix(es) not applied${result.reason ? ': ' + result.reason : ''}.`);
  }
}

export function registerCommands(host: CommandHost): Disposable[] {
  return [
    host.registerCommand(COMMANDS.fixAllInFile, () => fixAllInFile(host)),
    host.registerCommand(COMMANDS.restartServer, () => host.restart()),
    host.registerCommand(COMMANDS.showOutput, () => host.showOutput()),
  ];
}
