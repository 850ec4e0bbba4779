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

export function statusLook(state: ServerState, detail?: string): StatusLook {
  const more = detail ? `\n${detail}` : '';
  switch (state) {
    case 'starting':
      return { text: '$(sync~spin) GraphMend', tooltip: `GraphMend: starting the server${more}\nClick to show the output.` };
    case 'running':
      return { text: '$(check) GraphMend', tooltip: `GraphMend: server running${more}\nClick to show the output.` };
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
