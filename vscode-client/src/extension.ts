// VS Code glue: everything that needs the `vscode` module. The logic it calls (Java discovery,
// the Python environment and which server runs, settings, commands, status) lives in modules
// without it and is unit-tested there.
import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  DiagnosticPullMode,
  DocumentDiagnosticRequest,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  vsdiag,
} from 'vscode-languageclient/node';
import { COMMANDS, CommandHost, registerCommands } from './commands';
import {
  chooseInterpreter,
  chooseServer,
  effectiveProgramSetting,
  expandInterpreter,
  importStrategy,
  Interpreter,
  pythonExtensionInterpreter,
} from './environment';
import { findJava, JAVA_DOWNLOAD_URL, nodeExec, nodeIsFile } from './java';
import { DiagnosticGate, filterFixAll, isExcluded, needsJava, RunMode, serverCommand, shouldNotify } from './options';
import { effectiveJavaHome, Inspect, serverSettings } from './settings';
import { fromClientState, ServerState, StatusInfo, statusLook, torchLine, torchStatus } from './status';

const SECTION = 'graphmend';
const PYTHON_EXTENSION = 'ms-python.python';
/** The server's notification of the torch version its rules follow (docs/lsp.md). */
const STATUS_NOTIFICATION = 'graphmend/status';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let trace: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let context: vscode.ExtensionContext;
/** Serialises start/stop so a restart during a start does not leave two servers. */
let lifecycle: Promise<void> = Promise.resolve();
/** What the status item says besides the state: the server, the interpreter, the torch version. */
let info: StatusInfo = {};
/** What the Python extension said at the last start, to restart only when its choice changes. */
let pythonChoiceAtStart: string | undefined;
/** The last start passed over something because the workspace is not trusted: trusting it restarts. */
let trustMatters = false;
/** graphmend.run = onSave holds back diagnostics of documents with unsaved changes. */
const gate = new DiagnosticGate<vscode.Diagnostic>(() => setting<RunMode>('run', 'onType'));

/** What the server last published per document, and how to show it. */
const lastPublished = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[]; show: (d: vscode.Diagnostic[]) => void }>();

function excluded(uri: vscode.Uri): boolean {
  const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  return uri.scheme === 'file' && isExcluded(uri.fsPath, setting<string[]>('exclude', []), roots);
}

/**
 * The server pushes diagnostics to a client that cannot pull them, and VS Code pulls: both ways
 * go through graphmend.exclude and graphmend.run. After a change of either, the open documents'
 * diagnostics are shown again (pushed ones from what was last published, pulled ones pulled anew).
 */
function refilter(): void {
  for (const key of lastPublished.keys()) showFiltered(key);
  const pulls = client?.getFeature(DocumentDiagnosticRequest.method);
  for (const doc of vscode.workspace.textDocuments) {
    const p = pulls?.getProvider(doc);
    if (p) { p.onDidChangeDiagnosticsEmitter.fire(); return; } // re-pulls every open document
  }
}

/** Shows a document's last published diagnostics as graphmend.exclude and graphmend.run say. */
function showFiltered(key: string): void {
  const p = lastPublished.get(key);
  if (!p) return;
  if (excluded(p.uri)) {
    p.show([]);
    return;
  }
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  gate.published(key, p.diagnostics, doc?.isDirty ?? false, p.show);
}

function setting<T>(key: string, fallback: T): T {
  return vscode.workspace.getConfiguration(SECTION).get<T>(key, fallback);
}

/** A message that pops up only as graphmend.showNotifications allows; the output channel always has it. */
function notify(kind: 'error' | 'warning' | 'info' | 'result', msg: string, ...items: string[]): Thenable<string | undefined> {
  output.appendLine(msg);
  if (!shouldNotify(kind, setting<string>('showNotifications', 'onError'))) return Promise.resolve(undefined);
  const show = kind === 'error' ? vscode.window.showErrorMessage : kind === 'warning'
    ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  return show(msg, ...items);
}

function inspectorFor(scope?: vscode.Uri): Inspect {
  const cfg = vscode.workspace.getConfiguration(SECTION, scope);
  return (key) => cfg.inspect(key);
}

function setState(state: ServerState, detail?: string): void {
  const look = statusLook(state, detail, info);
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

/** The Python extension's API, activated once; undefined when it is not installed or fails. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pythonApi: Promise<any | undefined> | undefined;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function pythonExtensionApi(): Promise<any | undefined> {
  if (pythonApi) return pythonApi;
  const ext = vscode.extensions?.getExtension(PYTHON_EXTENSION);
  if (!ext) return Promise.resolve(undefined);
  pythonApi = (async () => {
    try {
      const activation = ext.isActive ? Promise.resolve(ext.exports) : Promise.resolve(ext.activate());
      let timer: NodeJS.Timeout | undefined;
      const api = await Promise.race([activation, new Promise((r) => { timer = setTimeout(() => r(undefined), 30000); })]);
      clearTimeout(timer);
      if (!api) {
        output.appendLine('The Python extension did not activate within 30 s: its environment is not used this time.');
        pythonApi = undefined; // asked again at the next start
        return undefined;
      }
      // a new environment selected in the Python extension: a new server for it
      const onChange = (api as { environments?: { onDidChangeActiveEnvironmentPath?: unknown } } | undefined)
        ?.environments?.onDidChangeActiveEnvironmentPath;
      if (typeof onChange === 'function') {
        context.subscriptions.push(onChange(() => void pythonEnvironmentChanged()));
      }
      return api;
    } catch (e) {
      output.appendLine(`The Python extension did not activate: ${e instanceof Error ? e.message : String(e)}`);
      pythonApi = undefined;
      return undefined;
    }
  })();
  return pythonApi;
}

function firstFolder(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

async function askPythonExtension(): Promise<{ path?: string; why?: string }> {
  const api = await pythonExtensionApi();
  if (!api) return {};
  return pythonExtensionInterpreter(api, firstFolder());
}

/** The selected environment changed in the Python extension: restart when it changes the interpreter. */
async function pythonEnvironmentChanged(): Promise<void> {
  if (effectiveProgramSetting(vscode.workspace.getConfiguration(SECTION).inspect('interpreter'), vscode.workspace.isTrusted).value) return;
  if (!vscode.workspace.isTrusted) return;
  const now = (await askPythonExtension()).path;
  if (now !== pythonChoiceAtStart) {
    output.appendLine(`The Python extension selected ${now ?? 'no environment'}: restarting the server.`);
    void restart();
  }
}

/**
 * graphmend.interpreter, else the Python extension's environment, else python.defaultInterpreterPath
 * (environment.ts). In an untrusted workspace, workspace values are ignored and the Python
 * extension (which may have picked the workspace's own .venv) is not asked.
 */
async function selectInterpreter(): Promise<Interpreter | undefined> {
  const trusted = vscode.workspace.isTrusted;
  const own = effectiveProgramSetting(vscode.workspace.getConfiguration(SECTION).inspect('interpreter'), trusted);
  const dip = effectiveProgramSetting(vscode.workspace.getConfiguration('python').inspect('defaultInterpreterPath'), trusted);
  for (const [name, s] of [['graphmend.interpreter', own], ['python.defaultInterpreterPath', dip]] as const) {
    if (s.ignored !== undefined) {
      trustMatters = true;
      output.appendLine(`The workspace sets ${name} to ${JSON.stringify(s.ignored)}; it is ignored because the workspace is not trusted.`);
    }
  }
  const hasPython = vscode.extensions?.getExtension(PYTHON_EXTENSION) !== undefined;
  if (!trusted && hasPython && !own.value) {
    trustMatters = true;
    output.appendLine('The workspace is not trusted: the Python extension\'s selected environment is not used.');
  }
  pythonChoiceAtStart = undefined;
  const chosen = await chooseInterpreter({
    setting: own.value ? expandInterpreter(own.value, { folder: firstFolder()?.fsPath, home: os.homedir(), platform: process.platform }) : undefined,
    pythonExtension: trusted && hasPython ? async () => {
      const r = await askPythonExtension();
      pythonChoiceAtStart = r.path;
      return r;
    } : undefined,
    defaultInterpreterPath: dip.value?.[0],
    platform: process.platform,
    isFile: nodeIsFile,
  });
  for (const n of chosen.notes) output.appendLine(n);
  if (chosen.interpreter) {
    output.appendLine(`Python interpreter: ${chosen.interpreter.command.join(' ')} (${chosen.interpreter.source})`);
  }
  return chosen.interpreter;
}

async function start(): Promise<void> {
  if (!setting<boolean>('enable', true)) {
    output.appendLine('GraphMend is disabled (graphmend.enable is false): no server is started.');
    setState('disabled');
    return;
  }
  info = {};
  trustMatters = false;
  setState('starting');
  const customPath = setting<string>('path', '').trim();
  const jar = context.asAbsolutePath('server/graphmend.jar');

  // the Python environment: its graphmend may run the server, and the server reads its torch
  const interpreter = await selectInterpreter();
  if (interpreter) info.interpreter = `${interpreter.command[0]} (${interpreter.source})`;
  const plan = chooseServer({
    path: customPath,
    strategy: importStrategy(setting<string>('importStrategy', 'fromEnvironment')),
    interpreter,
    platform: process.platform,
    isFile: nodeIsFile,
  });
  output.appendLine(plan.note);

  if (plan.kind === 'bundled' && !fs.existsSync(jar)) {
    const msg = `GraphMend: the server jar is missing from the extension (${jar}); reinstall the extension.`;
    setState('error', msg);
    void notify('error', msg);
    return;
  }
  if (customPath !== '' && !fs.existsSync(customPath)) {
    const msg = `GraphMend: graphmend.path names ${customPath}, which does not exist.`;
    setState('error', msg);
    void notify('error', msg, 'Open Settings').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'graphmend.path');
    });
    return;
  }
  let javaPath: string | undefined;
  let javaNote = '';
  if (plan.kind !== 'environment' && needsJava(customPath)) {
    const home = effectiveJavaHome(
      vscode.workspace.getConfiguration(SECTION).inspect<string>('java.home'),
      vscode.workspace.isTrusted,
    );
    if (home.ignored !== undefined) {
      trustMatters = true;
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
      for (const t of java.tried) output.appendLine('  ' + t);
      setState('error', 'Java 17+ not found');
      void notify('error', java.message, 'Download Java', 'Open Settings', 'Show Output').then((pick) => {
        if (pick === 'Download Java') void vscode.env.openExternal(vscode.Uri.parse(JAVA_DOWNLOAD_URL));
        else if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'graphmend.java.home');
        else if (pick === 'Show Output') output.show(true);
      });
      return;
    }
    output.appendLine(`Using Java ${java.versionText} from ${java.source}: ${java.java}`);
    javaPath = java.java;
    javaNote = `Java ${java.versionText} (${java.source})`;
  }

  // JVM options as docs/lsp.md recommends unless graphmend.java.args says otherwise: a deep stack
  // for deeply nested code, and the serial collector, which measured lowest in latency and memory
  const cmd = plan.kind === 'environment'
    ? { ok: true as const, value: { command: plan.command, args: plan.args, describe: plan.describe } }
    : serverCommand({ path: customPath, javaArgs: setting<string[]>('java.args', []), java: javaPath, bundledJar: jar });
  if (!cmd.ok) return; // (needsJava said Java was found)
  info.server = plan.kind === 'environment' ? plan.describe
    : customPath === '' ? `bundled jar on ${javaNote}`
      : javaNote !== '' ? `${customPath} (graphmend.path) on ${javaNote}` : `${customPath} lsp (graphmend.path)`;
  output.appendLine(`Starting ${cmd.value.describe}: ${cmd.value.command} ${cmd.value.args.join(' ')}`);
  output.appendLine(`Server: ${info.server}`);
  const serverOptions: ServerOptions = { command: cmd.value.command, args: cmd.value.args };
  // the interpreter goes to the server whatever runs it, as ruff-vscode sends it: the server reads
  // the torch version installed there
  const withInterpreter = (s: Record<string, unknown>) => (interpreter ? { ...s, interpreter: interpreter.command } : s);
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ],
    initializationOptions: withInterpreter(serverSettings(inspectorFor())),
    synchronize: { configurationSection: SECTION },
    outputChannel: output,
    traceOutputChannel: trace,
    // graphmend.run = onSave: VS Code pulls a document's diagnostics when it is saved, not as it changes
    diagnosticPullOptions: {
      onChange: true,
      onSave: true,
      filter: (_doc, mode) => mode === DiagnosticPullMode.onType && setting<RunMode>('run', 'onType') === 'onSave',
    },
    middleware: {
      // graphmend.exclude: no diagnostics for excluded files; graphmend.run = onSave: held until saved
      handleDiagnostics: (uri, diagnostics, next) => {
        // kept, so that a change of graphmend.exclude can show or hide them without a new publish
        lastPublished.set(uri.toString(), { uri, diagnostics, show: (d) => next(uri, d) });
        showFiltered(uri.toString());
      },
      provideDiagnostics: async (document, previousResultId, token, next) => {
        const uri = document instanceof vscode.Uri ? document : document.uri;
        if (excluded(uri)) return { kind: vsdiag.DocumentDiagnosticReportKind.full, items: [] };
        return next(document, previousResultId, token);
      },
      // graphmend.fixAll false: the server's source.fixAll action is left out (on-save fix-all does nothing)
      provideCodeActions: async (document, range, ctx, token, next) => {
        const actions = await next(document, range, ctx, token);
        if (!actions) return actions;
        return filterFixAll(actions as vscode.CodeAction[], setting<boolean>('fixAll', true));
      },
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
            ours[i] ? withInterpreter(serverSettings(inspectorFor(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined))) : others[k++],
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
  // which torch the rules follow; a server without it never sends this, and the item does without
  c.onNotification(STATUS_NOTIFICATION, (params: unknown) => {
    const t = torchStatus(params);
    if (client !== c || !t) return;
    info.torch = t;
    output.appendLine(`The rules follow ${torchLine(t)}`);
    if (c.state === State.Running) setState('running');
  });
  try {
    await c.start();
    setState('running');
  } catch (e) {
    const msg = `GraphMend: the server did not start: ${e instanceof Error ? e.message : String(e)}`;
    setState('error', msg);
    void notify('error', msg, 'Show Output').then((pick) => {
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
    info: (m) => void notify('result', m),
    error: (m) => void notify('error', m, 'Show Output').then((p) => p && output.show(true)),
  };
  ctx.subscriptions.push(...registerCommands(host));

  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Analysis settings reach the running server through workspace/didChangeConfiguration;
      // what it runs with (Java, its options, another server, on or off) needs a new process.
      if (['graphmend.java.home', 'graphmend.java.args', 'graphmend.path', 'graphmend.enable',
        'graphmend.importStrategy', 'graphmend.interpreter', 'python.defaultInterpreterPath']
        .some((k) => e.affectsConfiguration(k))) void restart();
      if (e.affectsConfiguration('graphmend.run')) gate.releaseAll();
      if (e.affectsConfiguration('graphmend.exclude') || e.affectsConfiguration('graphmend.run')) refilter();
    }),
    vscode.workspace.onDidSaveTextDocument((d) => gate.release(d.uri.toString())),
    vscode.workspace.onDidCloseTextDocument((d) => {
      gate.release(d.uri.toString());
      lastPublished.delete(d.uri.toString());
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      // a workspace's graphmend.java.home or interpreter, or the Python extension's environment, now count
      if (trustMatters) void restart();
    }),
  );

  lifecycle = lifecycle.then(start);
  return lifecycle;
}

export function deactivate(): Promise<void> {
  lifecycle = lifecycle.then(stop);
  return lifecycle;
}
