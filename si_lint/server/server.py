"""The language server object: the corpus roots it keeps resident, the diagnostics it has
published, and the one worker thread all work on a root's state runs in."""

from __future__ import annotations

import asyncio
import os
import traceback
from collections.abc import Set as AbstractSet
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__, rule_url
from ..catalogue import codes
from ..discovery import inside
from ..findings import Finding
from ..fix import fixes_of
from ..pipeline import Options
from ..profile import is_builtin_name
from ..source import finding_end
from .disk import Snapshot
from .settings import Settings
from .state import CorpusState

SEVERITY = {
    "error": T.DiagnosticSeverity.Error,
    "warning": T.DiagnosticSeverity.Warning,
    "info": T.DiagnosticSeverity.Information,
}


def lsp_range(codec, lines: list[str], line: int, col: int, end_line=None, end_col=None) -> T.Range:
    """A finding's range (1-based code points) in the client's position encoding; the end
    is the reports' own (:func:`si_lint.source.finding_end`)."""

    def text(n: int) -> str:
        return (lines[n - 1] if 1 <= n <= len(lines) else "").rstrip("\r")

    line, col = max(line, 1), max(col, 1)
    src = text(line)
    end_line, end_col = finding_end(src, line, col, end_line, end_col)
    start = codec.position_to_client_units([src], T.Position(0, col - 1))
    end = codec.position_to_client_units([text(end_line)], T.Position(0, end_col - 1))
    return T.Range(T.Position(line - 1, start.character), T.Position(end_line - 1, end.character))


class Protocol(LanguageServerProtocol):
    """pygls' protocol, less a leak: pygls forgets the futures in ``_request_futures`` of
    answered requests only, so each notification's would stay for the session. The finished
    ones go when a handler starts (not in a done-callback: ``shutdown`` walks the table)."""

    @lsp_method(T.INITIALIZE)
    def lsp_initialize(self, params: T.InitializeParams):
        """Columns in code points (``utf-32``) whenever the client offers them, the unit of
        ``check``'s reports; else the client's own choice."""
        general = params.capabilities.general
        offered = list(general.position_encodings or []) if general is not None else []
        if general is not None and T.PositionEncodingKind.Utf32 in offered:
            general.position_encodings = [T.PositionEncodingKind.Utf32] + [
                e for e in offered if e != T.PositionEncodingKind.Utf32
            ]
        return (yield from super().lsp_initialize(params))

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        table = self._request_futures
        for done in [k for k, f in table.items() if f.done()]:
            del table[done]
        super()._execute_handler(msg_id, handler, callback, args, kwargs)


def path_of(uri: str) -> str:
    return os.path.abspath(to_fs_path(uri) or "")


class SiLintServer(LanguageServer):
    def __init__(self, options: Options | None = None, debounce: float = 0.05):
        super().__init__(
            "si-lint",
            __version__,
            text_document_sync_kind=T.TextDocumentSyncKind.Incremental,
            protocol_cls=Protocol,
        )
        self.options = options or Options()
        self.debounce = debounce
        #: the command line's options and debounce, under the client's settings (settings.py)
        self.cli_options, self.cli_debounce = Options(**vars(self.options)), debounce
        self.init_settings = Settings()  # initializationOptions
        self.client_settings = Settings()  # the latest workspace configuration
        self.pull = False  # the client pulls an open document's diagnostics (sync.py)
        self.disk: dict[str, Snapshot] = {}  # folder -> the stat of its corpus files
        self.roots: dict[str, CorpusState] = {}  # folder (absolute) -> state
        self.baseline: dict[str, dict[str, list[Finding]]] = {}  # folder -> relpath -> findings
        self.published: dict[str, tuple] = {}  # uri -> last published diagnostics (as a key)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="si-lint")
        self.generation: dict[str, int] = {}  # uri -> number of its latest change
        self.shut_down = False  # a `shutdown` request came: the exit status will be 0

    @property
    def folders(self) -> list[str]:
        """The workspace folders (pygls keeps them as the client adds and removes them)."""
        paths = (to_fs_path(wf.uri) for wf in self.workspace.folders.values())
        return [os.path.abspath(p) for p in paths if p]

    def folder_of(self, abspath: str) -> str:
        """The innermost workspace folder that holds the file, else a root made earlier
        for it, else its directory."""
        under = [f for f in self.folders if inside(abspath, f)]
        owner = (f for f, st in self.roots.items() if st.owns(abspath))
        return max(under, key=len) if under else next(owner, os.path.dirname(abspath))

    def state_for(self, abspath: str) -> CorpusState:
        folder = self.folder_of(abspath)
        st = self.roots.get(folder)
        if st is None:
            st = CorpusState(folder, Options(**vars(self.options)))
            for uri, doc in self.workspace.text_documents.items():
                path = to_fs_path(uri)  # (the state keeps the buffers of its own files)
                if path:
                    st.overrides[os.path.abspath(path)] = doc.source.encode("utf-8")
            st.load()
            self.roots[folder] = st
            self.disk[folder] = Snapshot.of(st)
            self.baseline[folder] = {r: list(v) for r, v in st.findings.items()}
        return st

    def reload(self, folder: str) -> list[tuple[str, list]]:
        """The root loaded again: what to publish (what was published in it withdrawn)."""
        stale = list(self.published) if self.roots.pop(folder, None) is not None else []
        new = self.state_for(folder)
        return [
            (u, []) for u in stale if self.folder_of(to_fs_path(u) or "") == folder
        ] + self.publishable(new, set(new.findings))

    def apply_settings(self) -> tuple[list[tuple[str, list]], list[str]]:
        """The client's settings (the latest configuration over ``initializationOptions``, over
        the command line) made the server's: (what to publish, warnings for the user)."""
        s = self.client_settings.over(self.init_settings)
        warnings = []
        if s.profile is not None and not self._profile_ok(s.profile):
            warnings.append(
                f"si-lint.profile {s.profile}: not a shipped profile (builtin, "
                "builtin:oasisctl) nor a profile directory (with registry.yaml) inside "
                + (", ".join(self.folders) or "the current directory")
            )
            s = Settings(s.select, s.ignore, None, s.debounce)
        self.debounce = s.debounce if s.debounce is not None else self.cli_debounce
        taken = ("select", "ignore", "profile")
        given = {k: getattr(s, k) for k in taken if getattr(s, k) is not None}
        new = Options(**{**vars(self.cli_options), **given})
        if all(getattr(new, k) == getattr(self.options, k) for k in taken):
            return [], warnings
        self.options = new
        items = [item for folder in sorted(self.roots) for item in self.reload(folder)]
        return list(dict(items).items()), warnings  # the latest per file

    def _profile_ok(self, spec: str) -> bool:
        if is_builtin_name(spec):
            return True
        # settings may come from a file of the workspace (.vscode/settings.json, .helix/):
        # like a configured profile (SPEC §9), the directory stays inside each folder
        for base in self.folders or [os.getcwd()]:
            real = os.path.realpath(base)
            pdir = os.path.realpath(os.path.join(real, spec))
            if not inside(pdir, real) or not os.path.isfile(os.path.join(pdir, "registry.yaml")):
                return False
        return True

    def lines_of(self, st: CorpusState, abspath: str) -> list[str]:
        uri = from_fs_path(abspath)
        doc = self.workspace.text_documents.get(uri) if uri else None
        text = doc.source if doc is not None else (st.text_of(abspath) or "")
        return text.split("\n")

    def publishable(self, st: CorpusState, rels) -> list[tuple[str, list]]:
        """(uri, findings) to publish: open documents always, other files when their findings
        differ from the root's baseline, or to withdraw what was published for them."""
        base = self.baseline.get(str(st.folder), {})
        out = []
        for rel in sorted(rels):
            abspath = st.selection.absolute(rel)
            uri = from_fs_path(abspath)
            if uri is None or os.path.isdir(abspath):
                continue
            current = st.findings.get(rel, [])
            if uri in self.workspace.text_documents or current != base.get(rel, []):
                out.append((uri, current))
            elif uri in self.published:
                out.append((uri, []))
        return out

    def diagnostics(self, uri: str, findings: list[Finding]) -> list[T.Diagnostic] | None:
        """None: the file is in no resident root."""
        path = to_fs_path(uri) or ""
        st = self.roots.get(self.folder_of(path))
        if st is None:
            return None
        codec, lines = self.workspace.position_codec, self.lines_of(st, path)
        out = []
        for f in findings:
            related = [
                T.DiagnosticRelatedInformation(
                    T.Location(ruri, lsp_range(codec, self.lines_of(st, rpath), r.line, r.column)),
                    r.message or f.code,
                )
                for r in f.related
                if (ruri := from_fs_path(rpath := st.selection.absolute(r.path))) is not None
            ]
            out.append(
                T.Diagnostic(
                    range=lsp_range(codec, lines, f.line, f.column, f.end_line, f.end_column),
                    message=f.message + (f"\nhelp: {f.help}" if f.help else ""),
                    severity=SEVERITY.get(f.severity, T.DiagnosticSeverity.Error),
                    code=f.code,
                    code_description=T.CodeDescription(href=rule_url(f.code))
                    if f.code in codes()
                    else None,
                    source="si-lint",
                    related_information=related or None,
                    data={"fixable": bool(fixes_of(f.fix))},
                )
            )
        return out

    def publish(self, items: list[tuple[str, list]], force: AbstractSet[str] = frozenset()) -> None:
        """Push these files' diagnostics (for a client that pulls: closed files only)."""
        for uri, findings in items:
            if self.pull and uri in self.workspace.text_documents:
                continue  # answered when the client asks (textDocument/diagnostic)
            diags = self.diagnostics(uri, findings)
            if diags is None:
                continue
            key = tuple(
                (d.code, d.range.start.line, d.range.start.character, d.message) for d in diags
            )
            if (
                uri not in force
                and self.published.get(uri, ()) == key
                and (key or uri not in self.published)
            ):
                continue
            if diags or uri in self.workspace.text_documents:
                self.published[uri] = key
            else:
                self.published.pop(uri, None)
            doc = self.workspace.text_documents.get(uri)
            self.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(
                    uri=uri, diagnostics=diags, version=doc.version if doc else None
                )
            )

    async def run(self, fn, *args):
        """``fn(*args)`` in the worker; whatever it raises is logged to the client, never sent
        as a crash (a crashing check is already an SI000 finding)."""

        def guarded():
            try:
                return fn(*args)
            except Exception:
                message = "si-lint: " + traceback.format_exc()
                self.window_log_message(T.LogMessageParams(T.MessageType.Error, message))
                return None

        return await asyncio.get_running_loop().run_in_executor(self.worker, guarded)

    def check_buffer(self, uri: str, text: str | None) -> list[tuple[str, list]]:
        """Check a buffer (None: its file again) after the files changed on disk: what to
        publish, the buffer's own findings always among it."""
        path = path_of(uri)
        if not path.endswith((".yaml", ".yml", ".json")):
            return []
        items = self.sync_disk(self.folder_of(path))
        st = self.state_for(path)
        if not st.owns(path):
            return items
        outcome = st.set_buffer(path, text)
        if text is None:
            self.disk[self.folder_of(path)].refresh(st, [path])
        if path in st.files:
            outcome.touched.add(st.files[path].relpath)
        return list(dict(items + self.after_update(st, outcome)).items())

    def sync_disk(self, folder: str) -> list[tuple[str, list]]:
        """Re-check what changed on disk in a resident root (``disk.py``): what to publish."""
        st, snap = self.roots.get(folder), self.disk.get(folder)
        if st is None or snap is None:
            return []
        change = snap.compare(st)
        if change.config:
            return self.reload(folder)
        if not change.files:
            return []
        outcome = st.update(change.files)
        snap.refresh(st, change.files)
        return self.after_update(st, outcome)

    def after_update(self, st: CorpusState, outcome) -> list[tuple[str, list]]:
        """The files an update touched; after a whole-corpus one also what was published for
        files no longer in it (withdrawn)."""
        rels = set(outcome.touched)
        if outcome.full:
            paths = [to_fs_path(u) or "" for u in self.published]
            rels |= {st.selection.relpath(p) for p in paths if self.folder_of(p) == str(st.folder)}
        return self.publishable(st, rels)

    async def schedule(self, uri: str, delay: float) -> None:
        gen = self.generation[uri] = self.generation.get(uri, 0) + 1
        if delay:
            await asyncio.sleep(delay)
            if self.generation.get(uri) != gen:
                return  # a newer change is on its way
        doc = self.workspace.text_documents.get(uri)
        text = doc.source if doc is not None else None
        items = await self.run(self.check_buffer, uri, text)
        if items is not None and self.generation.get(uri) == gen:
            self.publish(items, force={uri})
        elif items:
            self.publish([i for i in items if i[0] != uri])
