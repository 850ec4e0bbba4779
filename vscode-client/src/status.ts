// The status bar item's look for each server state. No `vscode` import.

export type ServerState = 'starting' | 'running' | 'stopped' | 'disabled' | 'error';

/** vscode-languageclient's `State` enum values (Stopped = 1, Running = 2, Starting = 3). */
export function fromClientState(state: number): ServerState {
  switch (state) {
    case 1:
      return 'stopped';
    case 2:
      return 'running';
    case 3:
      return 'starting';
    default:
      return 'error';
  }
}

export interface StatusLook {
  text: string;
  tooltip: string;
  /** Which theme background the item gets, if any. */
  background?: 'error' | 'warning';
}

/** The torch version the rules follow, from the server's `graphmend/status` notification. */
export interface TorchStatus {
  /** e.g. "2.10" */
  version: string;
  /** Where it came from, in words: "torch 2.10.0 installed in /venv". */
  source?: string;
}

/**
 * The params of `graphmend/status` (`{"torchVersion": "2.10", "torchVersionSource": "…"}`), or
 * undefined when they do not say a version: a server that sends something else is ignored.
 */
export function torchStatus(params: unknown): TorchStatus | undefined {
  if (!params || typeof params !== 'object') return undefined;
  const p = params as Record<string, unknown>;
  const v = typeof p.torchVersion === 'string' ? p.torchVersion.trim() : '';
  if (v === '') return undefined;
  const src = typeof p.torchVersionSource === 'string' && p.torchVersionSource.trim() !== '' ? p.torchVersionSource.trim() : undefined;
  return { version: v, source: src };
}

/** The torch line of the tooltip and the output channel: "torch 2.10 (torch 2.10.0 installed in /venv)". */
export function torchLine(t: TorchStatus): string {
  return `torch ${t.version}${t.source ? ` (${t.source})` : ''}`;
}

/** What the item says besides the state: which server runs, for which interpreter, and which torch. */
export interface StatusInfo {
  /** "graphmend from /venv/bin/graphmend (environment)", "bundled jar on Java 17.0.15 (PATH)" */
  server?: string;
  /** "/venv/bin/python (graphmend.interpreter)" */
  interpreter?: string;
  torch?: TorchStatus;
}

function infoLines(info: StatusInfo | undefined): string {
  if (!info) return '';
  const lines: string[] = [];
  if (info.server) lines.push(`server: ${info.server}`);
  if (info.interpreter) lines.push(`python: ${info.interpreter}`);
  if (info.torch) lines.push(torchLine(info.torch));
  return lines.map((l) => `\n${l}`).join('');
}

/**
 * The item's look. A running server that said which torch its rules follow shows it in the text
 * (`$(check) GraphMend · torch 2.10`); the tooltip lists the server, the interpreter and the torch.
 */
export function statusLook(state: ServerState, detail?: string, info?: StatusInfo): StatusLook {
  const more = (detail ? `\n${detail}` : '') + infoLines(info);
  switch (state) {
    case 'starting':
      return { text: '$(sync~spin) GraphMend', tooltip: `GraphMend: starting the server${more}\nClick to show the output.` };
    case 'running':
      return {
        text: `$(check) GraphMend${info?.torch ? ` · torch ${info.torch.version}` : ''}`,
        tooltip: `GraphMend: server running${more}\nClick to show the output.`,
      };
    case 'stopped':
      return {
        text: '$(circle-slash) GraphMend',
        tooltip: `GraphMend: server stopped${more}\nClick to show the output; run "GraphMend: Restart server" to start it.`,
        background: 'warning',
      };
    case 'disabled':
      return {
        text: '$(circle-slash) GraphMend',
        tooltip: `GraphMend: disabled (graphmend.enable is false)${more}\nClick to show the output.`,
      };
    case 'error':
      return {
        text: '$(error) GraphMend',
        tooltip: `GraphMend: server error${more}\nClick to show the output.`,
        background: 'error',
      };
  }
}
