// VS Code glue: everything that needs the `vscode` module. The logic it calls (Java discovery,
// settings, commands, status) lives in modules without it and is unit-tested there.
import * as fs from 'fs';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { COMMANDS, CommandHost, registerCommands } from './commands';
import { findJava, JAVA_DOWNLOAD_URL, nodeExec, nodeIsFile } from './java';
import { effectiveJavaHome, Inspect, serverSettings } from './settings';
import { fromClientState, ServerState, statusLook } from './status';

const SECTION = 'graphmend';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let trace: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let context: vscode.ExtensionContext;
/** Serialises start/stop so a restart during a start does not leave two servers. */
let lifecycle: Promise<void> = Promise.resolve();

function inspectorFor(scope?: vscode.Uri): Inspect {
  const cfg = vscode.workspace.getConfiguration(SECTION, scope);
  return (key) => cfg.inspect(key);
}

function setState(state: ServerState, detail?: string): void {
  const look = statusLook(state, detail);
  status.text = look.text;
  status.tooltip = look.tooltip;
  status.backgroundColor =
    look.background === 'error'
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : look.background === 'warning'
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
  status.show();
}

async function start(): Promise<void> {
  setState('starting');
  const jar = context.asAbsolutePath('server/graphmend.jar');
  if (!fs.existsSync(jar)) {
    const msg = `GraphMend: the server jar is missing from the extension (${jar}); reinstall the extension.`;
    output.appendLine(msg);
    setState('error', msg);
    void vscode.window.showErrorMessage(msg);
    return;
  }
  const home = effectiveJavaHome(
    vscode.workspace.getConfiguration(SECTION).inspect<string>('java.home'),
    vscode.workspace.isTrusted,
  );
  if (home.ignored !== undefined) {
    output.appendLine(
      `The workspace sets graphmend.java.home to ${home.ignored}; it is ignored because the workspace is not trusted.`,
    );
  }
  const java = await findJava({
    settingHome: home.home,
    env: process.env,
    platform: process.platform,
    exec: nodeExec,
    isFile: nodeIsFile,
  });
  if (!java.ok) {
    output.appendLine(java.message);
    for (const t of java.tried) output.appendLine('  ' + t);
    setState('error', 'Java 17+ not found');
    void vscode.window.showErrorMessage(java.message, 'Download Java', 'Open Settings', 'Show Output').then((pick) => {
      if (pick === 'Download Java') void vscode.env.openExternal(vscode.Uri.parse(JAVA_DOWNLOAD_URL));
      else if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'graphmend.java.home');
      else if (pick === 'Show Output') output.show(true);
    });
    return;
  }
  output.appendLine(`Using Java ${java.versionText} from ${java.source}: ${java.java}`);

  // JVM options as docs/lsp.md recommends: a deep stack for deeply nested code, and the serial
  // collector, which measured lowest in latency and resident memory for this server
  const serverOptions: ServerOptions = { command: java.java, args: ['-Xss16m', '-XX:+UseSerialGC', '-jar', jar, 'lsp'] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ],
    initializationOptions: serverSettings(inspectorFor()),
    synchronize: { configurationSection: SECTION },
    outputChannel: output,
    traceOutputChannel: trace,
    middleware: {
      workspace: {
        // Answer section `graphmend` with exactly what initializationOptions carried: the values
        // the user set, in the names the server reads; anything else goes the default way.
        configuration: async (params, token, next) => {
          const ours = params.items.map((item) => item.section === SECTION);
          const rest = params.items.filter((_item, i) => !ours[i]);
          const others = rest.length > 0 ? await next({ items: rest }, token) : [];
          if (others instanceof Error || !Array.isArray(others)) return others;
          let k = 0;
          return params.items.map((item, i) =>
            ours[i] ? serverSettings(inspectorFor(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined)) : others[k++],
          );
        },
      },
    },
  };
  const c = new LanguageClient('graphmend', 'GraphMend', serverOptions, clientOptions);
  client = c;
  c.onDidChangeState((e) => {
    if (client === c) setState(fromClientState(e.newState));
  });
  try {
    await c.start();
    setState('running', `Java ${java.versionText} (${java.source})`);
  } catch (e) {
    const msg = `GraphMend: the server did not start: ${e instanceof Error ? e.message : String(e)}`;
    output.appendLine(msg);
    setState('error', msg);
    void vscode.window.showErrorMessage(msg, 'Show Output').then((pick) => {
      if (pick) output.show(true);
    });
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (!c) return;
  try {
    await c.dispose(5000);
  } catch (e) {
    output.appendLine(`GraphMend: stopping the server: ${e instanceof Error ? e.message : String(e)}`);
  }
  setState('stopped');
}

function restart(): Promise<void> {
  lifecycle = lifecycle.then(stop).then(start);
  return lifecycle;
}

export function activate(ctx: vscode.ExtensionContext): Promise<void> {
  context = ctx;
  output = vscode.window.createOutputChannel('GraphMend');
  trace = vscode.window.createOutputChannel('GraphMend Trace');
  status = vscode.window.createStatusBarItem('graphmend.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'GraphMend';
  status.command = COMMANDS.showOutput;
  ctx.subscriptions.push(output, trace, status);

  const host: CommandHost = {
    registerCommand: (id, run) => vscode.commands.registerCommand(id, run),
    activeDocument: () => {
      const doc = vscode.window.activeTextEditor?.document;
      if (!doc) return undefined;
      const uri = client ? client.code2ProtocolConverter.asUri(doc.uri) : doc.uri.toString();
      return { uri, version: doc.version, languageId: doc.languageId };
    },
    isRunning: () => client !== undefined && client.state === State.Running,
    executeServerCommand: (command, args) =>
      client!.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    restart,
    showOutput: () => output.show(true),
    info: (m) => void vscode.window.showInformationMessage(m),
    error: (m) => void vscode.window.showErrorMessage(m, 'Show Output').then((p) => p && output.show(true)),
  };
  ctx.subscriptions.push(...registerCommands(host));

  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Analysis settings reach the running server through workspace/didChangeConfiguration;
      // the Java to run it with needs a new process.
      if (e.affectsConfiguration('graphmend.java.home')) void restart();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      const i = vscode.workspace.getConfiguration(SECTION).inspect<string>('java.home');
      if (i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined) void restart();
    }),
  );

  lifecycle = lifecycle.then(start);
  return lifecycle;
}

export function deactivate(): Promise<void> {
  lifecycle = lifecycle.then(stop);
  return lifecycle;
}
