'use strict';
// A small stand-in for the `vscode` module, enough for the packaged extension and
// vscode-languageclient 9 to activate, talk to the real server and apply its edits. VS Code
// itself cannot be installed here; what this fake does not implement is logged (`missing`), so a
// test can tell "the extension did something unexpected" from "the fake is too small".
const { EventEmitter: NodeEmitter } = require('events');
const path = require('path');

const missing = new Set();
const log = []; // everything the extension showed the user: messages, output lines

class Disposable {
  constructor(fn) { this._fn = fn; }
  static from(...ds) { return new Disposable(() => ds.forEach((d) => d && d.dispose && d.dispose())); }
  dispose() { if (this._fn) { const f = this._fn; this._fn = undefined; f(); } }
}

class EventEmitter {
  constructor() {
    this._l = new Set();
    this.event = (listener, thisArg, disposables) => {
      const f = thisArg ? listener.bind(thisArg) : listener;
      this._l.add(f);
      const d = new Disposable(() => this._l.delete(f));
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }
  fire(e) { for (const l of [...this._l]) l(e); }
  dispose() { this._l.clear(); }
}

class CancellationTokenSource {
  constructor() {
    const em = new EventEmitter();
    this._em = em;
    this.token = { isCancellationRequested: false, onCancellationRequested: em.event };
  }
  cancel() { if (!this.token.isCancellationRequested) { this.token.isCancellationRequested = true; this._em.fire(); } }
  dispose() { this._em.dispose(); }
}
class CancellationError extends Error {}

class Position {
  constructor(line, character) { this.line = line; this.character = character; }
  isBefore(o) { return this.line < o.line || (this.line === o.line && this.character < o.character); }
  isEqual(o) { return this.line === o.line && this.character === o.character; }
  translate() { missing.add('Position.translate'); return this; }
}
class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') { this.start = new Position(a, b); this.end = new Position(c, d); } else { this.start = a; this.end = b; }
  }
  get isEmpty() { return this.start.isEqual(this.end); }
  contains() { return true; }
}
class Selection extends Range {}
class Location { constructor(uri, range) { this.uri = uri; this.range = range; } }

class Uri {
  constructor(scheme, p, str) { this.scheme = scheme; this.path = p; this._str = str; this.authority = ''; this.query = ''; this.fragment = ''; }
  static parse(s) {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/[^/]*)?(.*)$/.exec(s);
    return new Uri(m ? m[1] : 'file', decodeURIComponent(m ? m[2] : s), s);
  }
  static file(p) { return new Uri('file', p, 'file://' + p.split('/').map(encodeURIComponent).join('/')); }
  static joinPath(u, ...parts) { return Uri.file(path.join(u.path, ...parts)); }
  get fsPath() { return this.path; }
  with() { missing.add('Uri.with'); return this; }
  toString() { return this._str; }
  toJSON() { return this._str; }
}

const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
class Diagnostic {
  constructor(range, message, severity) { this.range = range; this.message = message; this.severity = severity ?? DiagnosticSeverity.Error; }
}
class DiagnosticRelatedInformation { constructor(location, message) { this.location = location; this.message = message; } }
class MarkdownString {
  constructor(value = '', supportThemeIcons) { this.value = value; this.supportThemeIcons = supportThemeIcons; }
  appendMarkdown(v) { this.value += v; return this; }
  appendText(v) { this.value += v; return this; }
  appendCodeblock(v) { this.value += v; return this; }
}
class TextEdit {
  constructor(range, newText) { this.range = range; this.newText = newText; }
  static replace(r, t) { return new TextEdit(r, t); }
  static insert(p, t) { return new TextEdit(new Range(p, p), t); }
  static delete(r) { return new TextEdit(r, ''); }
}
class WorkspaceEdit {
  constructor() { this._e = []; }
  replace(uri, range, newText, metadata) { this._e.push({ uri, edit: new TextEdit(range, newText), metadata }); }
  insert(uri, pos, newText, metadata) { this.replace(uri, new Range(pos, pos), newText, metadata); }
  delete(uri, range, metadata) { this.replace(uri, range, '', metadata); }
  set(uri, edits) { for (const e of edits) this._e.push({ uri, edit: e }); }
  get size() { return new Set(this._e.map((e) => e.uri.toString())).size; }
  entries() {
    const m = new Map();
    for (const e of this._e) {
      const k = e.uri.toString();
      if (!m.has(k)) m.set(k, [e.uri, []]);
      m.get(k)[1].push(e.edit);
    }
    return [...m.values()];
  }
}
class CodeActionKind {
  constructor(value) { this.value = value; }
  append(p) { return new CodeActionKind(this.value ? this.value + '.' + p : p); }
  contains(o) { return this.value === o.value || o.value.startsWith(this.value + '.'); }
  intersects(o) { return this.contains(o) || o.contains(this); }
}
CodeActionKind.Empty = new CodeActionKind('');
CodeActionKind.QuickFix = new CodeActionKind('quickfix');
CodeActionKind.Refactor = new CodeActionKind('refactor');
CodeActionKind.Source = new CodeActionKind('source');
CodeActionKind.SourceOrganizeImports = new CodeActionKind('source.organizeImports');
CodeActionKind.SourceFixAll = new CodeActionKind('source.fixAll');
class CodeAction { constructor(title, kind) { this.title = title; this.kind = kind; } }
class ThemeColor { constructor(id) { this.id = id; } }
class Hover { constructor(contents, range) { this.contents = Array.isArray(contents) ? contents : [contents]; this.range = range; } }
class RelativePattern { constructor(base, pattern) { this.baseUri = base; this.pattern = pattern; } }
class CallHierarchyItem {}
class CodeLens { constructor(range, command) { this.range = range; this.command = command; } }
class CompletionItem { constructor(label, kind) { this.label = label; this.kind = kind; } }
class DocumentLink { constructor(range, target) { this.range = range; this.target = target; } }
class InlayHint { constructor(position, label, kind) { this.position = position; this.label = label; this.kind = kind; } }
class SymbolInformation {}
class TypeHierarchyItem {}
class TabInputText { constructor(uri) { this.uri = uri; } }
class TabInputTextDiff {}
class TabInputCustom {}
class TabInputNotebook {}
class TabInputNotebookDiff {}

/** A text document whose edits fire onDidChangeTextDocument like VS Code's. */
class Doc {
  constructor(file, languageId, text) {
    this.uri = Uri.file(file);
    this.fileName = file;
    this.languageId = languageId;
    this.version = 1;
    this.isClosed = false;
    this.isDirty = false;
    this.isUntitled = false;
    this.eol = 1;
    this._text = text;
  }
  getText() { return this._text; }
  get lineCount() { return this._text.split('\n').length; }
  offsetAt(p) {
    const lines = this._text.split('\n');
    let o = 0;
    for (let i = 0; i < p.line && i < lines.length; i++) o += lines[i].length + 1;
    return o + Math.min(p.character, (lines[p.line] ?? '').length);
  }
  positionAt(o) {
    const before = this._text.slice(0, o).split('\n');
    return new Position(before.length - 1, before[before.length - 1].length);
  }
  lineAt(n) { const t = this._text.split('\n')[typeof n === 'number' ? n : n.line]; return { text: t, range: new Range(n, 0, n, t.length) }; }
}

/**
 * settings/workspaceSettings: flat `section.key` maps (user and workspace values); folders: paths of
 * the workspace folders; extensions: other extensions by id, as `vscode.extensions.getExtension`
 * returns them (e.g. a fake ms-python.python with its API).
 */
function createFake({ settings, workspaceSettings = {}, trusted = true, documents = [], folders, extensions = {} }) {
  const emitters = new Map(); // event name -> EventEmitter
  const ev = (name) => { if (!emitters.has(name)) emitters.set(name, new EventEmitter()); return emitters.get(name).event; };
  const fire = (name, e) => emitters.get(name) && emitters.get(name).fire(e);
  const commands = new Map();
  const collections = new Map();
  const statusItems = [];
  const outputs = new Map();
  const codeActionProviders = [];

  /** Unknown members of a namespace: onXxx events work, anything else is logged and a no-op. */
  const namespace = (name, members) => new Proxy(members, {
    get(t, k) {
      if (k in t || typeof k !== 'string') return t[k];
      if (/^on[A-Z]/.test(k)) return ev(`${name}.${k}`);
      missing.add(`${name}.${k}`);
      return () => new Disposable();
    },
  });

  const config = (section) => {
    const key = (k) => (section ? `${section}.${k}` : k);
    const user = settings || {};
    return {
      get(k, d) {
        const full = key(k);
        if (trusted && full in workspaceSettings) return workspaceSettings[full];
        if (full in user) return user[full];
        return d;
      },
      has(k) { return key(k) in user || key(k) in workspaceSettings; },
      inspect(k) {
        const full = key(k);
        return { key: full, defaultValue: undefined, globalValue: user[full], workspaceValue: workspaceSettings[full] };
      },
      update() { missing.add('WorkspaceConfiguration.update'); return Promise.resolve(); },
    };
  };

  const applyEdit = async (edit) => {
    for (const [uri, edits] of edit.entries()) {
      const doc = documents.find((d) => d.uri.toString() === uri.toString());
      if (!doc) return false;
      const sorted = [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
      const changes = [];
      for (const e of sorted) {
        const s = doc.offsetAt(e.range.start);
        const t = doc.offsetAt(e.range.end);
        changes.push({ range: e.range, rangeOffset: s, rangeLength: t - s, text: e.newText });
        doc._text = doc._text.slice(0, s) + e.newText + doc._text.slice(t);
      }
      doc.version++;
      doc.isDirty = true;
      log.push(`applyEdit: ${uri} -> version ${doc.version}`);
      fire('workspace.onDidChangeTextDocument', { document: doc, contentChanges: changes, reason: undefined });
    }
    return true;
  };

  const vscode = {
    version: '1.95.0',
    Disposable, EventEmitter, CancellationTokenSource, CancellationError, Position, Range, Selection, Location, Uri,
    Diagnostic, DiagnosticSeverity, DiagnosticRelatedInformation, DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
    MarkdownString, TextEdit, WorkspaceEdit, CodeActionKind, CodeAction, ThemeColor, Hover, RelativePattern,
    CallHierarchyItem, CodeLens, CompletionItem, DocumentLink, InlayHint, SymbolInformation, TypeHierarchyItem,
    TabInputText, TabInputTextDiff, TabInputCustom, TabInputNotebook, TabInputNotebookDiff,
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
    CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    env: namespace('env', {
      machineId: 'fake', sessionId: 'fake', language: 'en', appName: 'fake-vscode', uriScheme: 'vscode',
      openExternal: async (u) => { log.push(`openExternal: ${u}`); return true; },
    }),
    commands: namespace('commands', {
      registerCommand: (id, fn) => {
        if (commands.has(id)) throw new Error(`command '${id}' already exists`);
        commands.set(id, fn);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (id, ...args) => {
        const fn = commands.get(id);
        if (!fn) { log.push(`executeCommand (not registered): ${id}`); return undefined; }
        return fn(...args);
      },
      getCommands: async () => [...commands.keys()],
    }),
    window: namespace('window', {
      activeTextEditor: documents[0] ? { document: documents[0] } : undefined,
      visibleTextEditors: documents.map((d) => ({ document: d })),
      // every document is open in a tab of one group (vscode-languageclient pulls diagnostics for those)
      tabGroups: {
        all: [{ isActive: true, viewColumn: 1, tabs: documents.map((d) => ({ label: path.basename(d.fileName), input: new TabInputText(d.uri), isActive: d === documents[0] })) }],
        onDidChangeTabs: ev('tabs.changed'),
        onDidChangeTabGroups: ev('tabs.groups'),
      },
      createOutputChannel: (name) => {
        const lines = [];
        outputs.set(name, lines);
        return {
          name, lines,
          append: (s) => lines.push(s), appendLine: (s) => lines.push(s + '\n'), replace: (s) => lines.push(s),
          clear: () => {}, show: () => log.push(`show output: ${name}`), hide: () => {}, dispose: () => {},
          trace() {}, debug() {}, info(s) { lines.push(s + '\n'); }, warn(s) { lines.push(s + '\n'); }, error(s) { lines.push(String(s) + '\n'); },
          logLevel: 2, onDidChangeLogLevel: ev('output.logLevel'),
        };
      },
      createStatusBarItem: (id, alignment, priority) => {
        const item = { id, alignment, priority, text: '', tooltip: '', visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} };
        statusItems.push(item);
        return item;
      },
      showErrorMessage: async (m, ...items) => { log.push(`error: ${m} [${items.filter((i) => typeof i === 'string').join(', ')}]`); return undefined; },
      showWarningMessage: async (m, ...items) => { log.push(`warning: ${m} [${items.filter((i) => typeof i === 'string').join(', ')}]`); return undefined; },
      showInformationMessage: async (m, ...items) => { log.push(`info: ${m} [${items.filter((i) => typeof i === 'string').join(', ')}]`); return undefined; },
      withProgress: async (_o, task) => task({ report() {} }, new CancellationTokenSource().token),
      createWebviewPanel: () => { missing.add('window.createWebviewPanel'); },
    }),
    extensions: namespace('extensions', {
      getExtension: (id) => extensions[id],
      all: Object.values(extensions),
    }),
    workspace: namespace('workspace', {
      isTrusted: trusted,
      workspaceFolders: folders ? folders.map((f, index) => ({ uri: Uri.file(f), name: path.basename(f), index })) : undefined,
      textDocuments: documents,
      getConfiguration: (section) => config(section),
      getWorkspaceFolder: (uri) => (folders || []).map((f, index) => ({ uri: Uri.file(f), name: path.basename(f), index }))
        .find((f) => uri && uri.fsPath && (uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + '/'))),
      applyEdit,
      createFileSystemWatcher: () => ({ onDidCreate: ev('fsw.c'), onDidChange: ev('fsw.ch'), onDidDelete: ev('fsw.d'), dispose() {} }),
      fs: {},
    }),
    languages: namespace('languages', {
      match: (selector, doc) => {
        const filters = Array.isArray(selector) ? selector : [selector];
        for (const f of filters) {
          if (typeof f === 'string' ? f === doc.languageId : (!f.language || f.language === doc.languageId) && (!f.scheme || f.scheme === doc.uri.scheme)) return 10;
        }
        return 0;
      },
      createDiagnosticCollection: (name) => {
        const m = new Map();
        const c = {
          name,
          set(uri, diags) {
            if (Array.isArray(uri)) { for (const [u, d] of uri) m.set(u.toString(), d || []); } else m.set(uri.toString(), diags || []);
          },
          delete(uri) { m.delete(uri.toString()); },
          clear() { m.clear(); },
          get(uri) { return m.get(uri.toString()); },
          has(uri) { return m.has(uri.toString()); },
          forEach(cb) { for (const [k, v] of m) cb(Uri.parse(k), v, c); },
          dispose() { m.clear(); },
        };
        collections.set(name || `collection${collections.size}`, c);
        return c;
      },
      getDiagnostics: () => [],
      registerCodeActionsProvider: (selector, provider, metadata) => {
        const entry = { selector, provider, metadata };
        codeActionProviders.push(entry);
        return new Disposable(() => codeActionProviders.splice(codeActionProviders.indexOf(entry), 1));
      },
      registerHoverProvider: () => new Disposable(),
    }),
  };

  const diagnosticsOf = (uri) => {
    const out = [];
    for (const c of collections.values()) { const d = c.get(uri); if (d) out.push(...d); }
    return out;
  };
  return { vscode, commands, codeActionProviders, statusItems, outputs, collections, diagnosticsOf, fire, log, missing, Doc };
}

module.exports = { createFake, Doc, missing, log };
