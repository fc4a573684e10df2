"""End to end over stdio (pytest-lsp): settings taken live, rule links, pull diagnostics,
files changed on disk without the client's watchers, and hover, definition, completion and
end columns that agree with `si-lint check`.

Two clients, each with a server of its own on copies of fixtures/corpus and of a small
safety/capability corpus (companions, SI613): Neovim 0.11's capabilities (no file
watchers, no diagnostic refresh: diagnostics pushed) and a client that pulls
(``textDocument.diagnostic`` with ``workspace.diagnostics.refreshSupport``) and answers
``workspace/configuration`` (pytest-lsp's client: its ``set_configuration``)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the server extra is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp")

from conftest import REPO, run_cli
from lsprotocol import types as T
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from test_scenario_rules import D, S
from test_scenario_rules import corpus as safety_corpus

from si_lint import model, rule_url
from si_lint.profile import builtin_profile

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCENARIO = "scenarios/mail-relay-smtp-port.yaml"
TABLE = "scenarios/storefront-tls-key.yaml"
SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "si_lint.cli", "server", "--no-cache"]
)
SEVERITY = {"error": 1, "warning": 2, "info": 3}
COUNTS: dict[tuple[int, str], int] = {}  # (client, uri) -> publications
INIT: dict[int, T.InitializeResult] = {}  # client -> the server's answer to initialize


def _roots(tmp_path_factory, name: str) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp(name)
    main = base / "corpus"
    shutil.copytree(
        REPO / "fixtures" / "corpus", main, ignore=shutil.ignore_patterns(".si-lint-cache")
    )
    (base / "safety").mkdir()
    return main, safety_corpus(base / "safety")


def _count(client: LanguageClient) -> None:
    features = client.protocol.fm.features
    original = features[T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def counted(*args):
        key = (id(client), args[-1].uri)
        COUNTS[key] = COUNTS.get(key, 0) + 1
        return original(*args)

    features[T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = counted


def _folders(*roots: Path) -> list[T.WorkspaceFolder]:
    return [T.WorkspaceFolder(uri=from_fs_path(str(r)), name=r.name) for r in roots]


@pytest.fixture(scope="module")
def nvim_roots(tmp_path_factory):
    return _roots(tmp_path_factory, "nvim")


@pytest.fixture(scope="module")
def pull_roots(tmp_path_factory):
    return _roots(tmp_path_factory, "pull")


@pytest_lsp.fixture(config=SERVER, scope="module")
async def nvim(lsp_client: LanguageClient, nvim_roots):
    """Neovim 0.11: pulls diagnostics but takes no refresh, registers no file watchers,
    offers utf-8, utf-16 and utf-32 positions."""
    caps = client_capabilities("neovim@v0.11.0")
    caps.workspace.configuration = False  # settings in the notification only
    INIT[id(lsp_client)] = await lsp_client.initialize_session(
        T.InitializeParams(
            capabilities=caps,
            workspace_folders=_folders(*nvim_roots),
            initialization_options={"debounce": 10, "ignore": ["SI113"], "colour": 1},
        )
    )
    _count(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def puller(lsp_client: LanguageClient, pull_roots):
    caps = client_capabilities("visual-studio-code")
    caps.workspace.did_change_watched_files = None
    caps.text_document.diagnostic = T.DiagnosticClientCapabilities(related_document_support=False)
    caps.workspace.diagnostics = T.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    caps.workspace.configuration = True
    caps.general = T.GeneralClientCapabilities(position_encodings=["utf-16"])

    INIT[id(lsp_client)] = await lsp_client.initialize_session(
        T.InitializeParams(
            capabilities=caps,
            workspace_folders=_folders(*pull_roots),
            initialization_options={"debounce": 10},
        )
    )
    _count(lsp_client)
    yield
    await lsp_client.shutdown_session()


# --------------------------------------------------------------------------------------
# helpers


async def until(pred, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


def count(client, uri: str) -> int:
    return COUNTS.get((id(client), uri), 0)


async def next_push(client: LanguageClient, uri: str, before: int):
    await until(lambda: count(client, uri) != before)
    return client.diagnostics[uri]


def uri_of(root: Path, rel: str) -> str:
    return from_fs_path(str(root / rel))


async def open_doc(client, root: Path, rel: str, text: str | None = None, push=True):
    uri = uri_of(root, rel)
    text = (root / rel).read_text() if text is None else text
    before = count(client, uri)
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "yaml", 1, text))
    )
    return uri, (await next_push(client, uri, before) if push else None)


async def close_doc(client, uri: str) -> None:
    client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri)))
    await asyncio.sleep(0.05)


def lsp_shape(diags) -> list[tuple]:
    """A diagnostic whole: code, 0-based range, severity, message, rule page, source."""
    return sorted(
        (
            d.code,
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
            int(d.severity),
            d.message,
            d.code_description.href if d.code_description else None,
            d.source,
        )
        for d in diags
    )


def check_json(root: Path, rel: str, *args: str) -> list[dict]:
    code, out, err = run_cli(["check", "--format", "json", "--no-cache", *args, rel], root)
    assert code in (0, 1), (code, out, err)
    return [d for d in json.loads(out)["diagnostics"] if d["path"] == rel]


def expected(root: Path, rel: str, *args: str, text: str | None = None, tmp: Path) -> list:
    """What `si-lint check --format json` reports for ``rel`` (with ``text`` on disk), as
    the editor must show it (columns in code points: the server took utf-32)."""
    if text is not None:
        twin = tmp / f"twin{len(list(tmp.iterdir()))}"
        shutil.copytree(root, twin)
        (twin / rel).write_text(text)
        root = twin
    return sorted(
        (
            d["code"],
            d["line"] - 1,
            d["column"] - 1,
            d["end_line"] - 1,
            d["end_column"] - 1,
            SEVERITY[d["severity"]],
            d["message"] + (f"\nhelp: {d['help']}" if d.get("help") else ""),
            rule_url(d["code"]),
            "si-lint",
        )
        for d in check_json(root, rel, *args)
    )


def bad(text: str) -> str:
    out = text.replace("channels: [agent_response]", "channels: [agent_response, reasoning_trace]")
    out = out.replace("exclude_tool_echo: true", "exclude_tool_echo: false")
    assert out != text
    return out


# --------------------------------------------------------------------------------------
# 1, 2: settings taken live; every diagnostic links to its rule page


async def test_settings_from_initialization_and_notification(
    nvim: LanguageClient, nvim_roots, tmp_path
):
    root = nvim_roots[0]
    text = bad((root / SCENARIO).read_text())
    uri, diags = await open_doc(nvim, root, SCENARIO, text)
    # initializationOptions: ignore SI113
    want = expected(root, SCENARIO, "--ignore", "SI113", text=text, tmp=tmp_path)
    assert {w[0] for w in want} >= {"SI105", "SI404"} and "SI113" not in {w[0] for w in want}
    assert lsp_shape(diags) == want

    # the settings in the notification (nested under "si-lint"): select SI1 on top of the
    # initializationOptions' ignore; the open document is checked again
    before = count(nvim, uri)
    nvim.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(settings={"si-lint": {"select": ["SI1"]}})
    )
    diags = await next_push(nvim, uri, before)
    want = expected(root, SCENARIO, "--select", "SI1", "--ignore", "SI113", text=text, tmp=tmp_path)
    assert [w[0] for w in want] == ["SI105"]
    assert lsp_shape(diags) == want

    # flat keys, ignore replaced: SI113 back
    before = count(nvim, uri)
    nvim.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(settings={"select": ["SI1"], "ignore": []})
    )
    diags = await next_push(nvim, uri, before)
    want = expected(root, SCENARIO, "--select", "SI1", text=text, tmp=tmp_path)
    assert sorted(w[0] for w in want) == ["SI105", "SI113"]
    assert lsp_shape(diags) == want
    await close_doc(nvim, uri)


async def test_initialization_options_warnings_once_initialized(nvim: LanguageClient):
    await until(lambda: nvim.messages)
    assert [(m.type, m.message) for m in nvim.messages[:1]] == [
        (
            T.MessageType.Warning,
            "si-lint: unknown setting 'colour' (known: select, ignore, profile, debounce)",
        )
    ]


async def test_invalid_settings_are_warnings_and_the_rest_applies(
    nvim: LanguageClient, nvim_roots, tmp_path
):
    root = nvim_roots[0]
    text = bad((root / SCENARIO).read_text())
    uri, _ = await open_doc(nvim, root, SCENARIO, text)
    shown = len(nvim.messages)
    before = count(nvim, uri)
    nvim.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(
            settings={
                "si-lint": {
                    "select": ["SI10l"],
                    "ignore": "SI113, SI404",
                    "profile": "no-such-profile",
                    "debounce": "soon",
                    "colour": True,
                }
            }
        )
    )
    diags = await next_push(nvim, uri, before)
    await until(lambda: len(nvim.messages) >= shown + 4)
    got = [(m.type, m.message) for m in nvim.messages[shown:]]
    folders = ", ".join(str(r) for r in nvim_roots)
    warn = T.MessageType.Warning
    assert got == [
        (warn, "si-lint: unknown setting 'colour' (known: select, ignore, profile, debounce)"),
        (warn, "si-lint.debounce must be a number of milliseconds from 0 to 10000"),
        (
            warn,
            "si-lint.select: 'SI10l' matches no rule (`si-lint rule` lists them; codes are case-sensitive)",
        ),
        (
            warn,
            "si-lint.profile no-such-profile: not a shipped profile (builtin, builtin:oasisctl)"
            f" nor a profile directory (with registry.yaml) inside {folders}",
        ),
    ]
    # the valid value applied: ignore SI113 and SI404 (a string of codes), every rule else
    assert lsp_shape(diags) == expected(
        root, SCENARIO, "--ignore", "SI113,SI404", text=text, tmp=tmp_path
    )
    # and back to the initializationOptions alone
    before = count(nvim, uri)
    nvim.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings={}))
    diags = await next_push(nvim, uri, before)
    assert lsp_shape(diags) == expected(
        root, SCENARIO, "--ignore", "SI113", text=text, tmp=tmp_path
    )
    await close_doc(nvim, uri)


async def test_profile_setting_stays_inside_the_folder(nvim: LanguageClient, nvim_roots, tmp_path):
    root = nvim_roots[0]
    outside = root.parent / "prof"  # a profile directory beside the workspace folders
    shutil.copytree(Path(builtin_profile("builtin").root), outside)
    assert (outside / "registry.yaml").is_file()
    shown = len(nvim.messages)
    nvim.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(settings={"si-lint": {"profile": "../prof"}})
    )
    await until(lambda: len(nvim.messages) > shown)
    folders = ", ".join(str(r) for r in nvim_roots)
    assert [(m.type, m.message) for m in nvim.messages[shown:]] == [
        (
            T.MessageType.Warning,
            "si-lint.profile ../prof: not a shipped profile (builtin, builtin:oasisctl)"
            f" nor a profile directory (with registry.yaml) inside {folders}",
        )
    ]
    # a shipped profile is taken: the open document is checked under it
    text = bad((root / SCENARIO).read_text())
    uri, _ = await open_doc(nvim, root, SCENARIO, text)
    before = count(nvim, uri)
    nvim.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(settings={"si-lint": {"profile": "builtin:oasisctl"}})
    )
    diags = await next_push(nvim, uri, before)
    assert lsp_shape(diags) == expected(
        root,
        SCENARIO,
        "--profile",
        "builtin:oasisctl",
        "--ignore",
        "SI113",
        text=text,
        tmp=tmp_path,
    )
    before = count(nvim, uri)
    nvim.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings={}))
    await next_push(nvim, uri, before)
    await close_doc(nvim, uri)


async def test_neovim_gets_pushes_code_points_and_no_diagnostic_provider(
    nvim: LanguageClient,
):
    caps = INIT[id(nvim)].capabilities
    assert caps.diagnostic_provider is None  # pulls, but takes no refresh: pushed
    assert caps.position_encoding == T.PositionEncodingKind.Utf32


# --------------------------------------------------------------------------------------
# 3: pull diagnostics, settings asked with workspace/configuration


async def pull(client: LanguageClient, uri: str):
    report = await client.text_document_diagnostic_async(
        T.DocumentDiagnosticParams(text_document=T.TextDocumentIdentifier(uri))
    )
    assert report.kind == "full"
    return report.items


async def test_pull_answers_what_check_reports_and_nothing_is_pushed(
    puller: LanguageClient, pull_roots, tmp_path
):
    assert INIT[id(puller)].capabilities.diagnostic_provider == T.DiagnosticOptions(
        inter_file_dependencies=True, workspace_diagnostics=False, identifier="si-lint"
    )
    root = pull_roots[0]
    text = bad((root / SCENARIO).read_text())
    uri, _ = await open_doc(puller, root, SCENARIO, text, push=False)
    items = await pull(puller, uri)
    assert lsp_shape(items) == expected(root, SCENARIO, text=text, tmp=tmp_path)
    await asyncio.sleep(0.2)
    assert count(puller, uri) == 0  # an open document of a pulling client: never pushed

    # settings: the notification carries none, the server asks (workspace/configuration)
    # and the client is told to pull again
    puller.set_configuration({"ignore": ["SI113"]}, section="si-lint")
    refreshed = puller.diagnostic_refresh_count
    puller.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings=None))
    await until(lambda: puller.diagnostic_refresh_count > refreshed)
    items = await pull(puller, uri)
    assert lsp_shape(items) == expected(
        root, SCENARIO, "--ignore", "SI113", text=text, tmp=tmp_path
    )
    puller.set_configuration(None, section="si-lint")
    puller.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings=None))
    await until(lambda: puller.diagnostic_refresh_count > refreshed + 1)
    await close_doc(puller, uri)


# --------------------------------------------------------------------------------------
# 5: files changed on disk, no watchers


def _lose_companion(root: Path) -> str:
    """The capability scenario's id changed with a plain write (the safety scenario's
    companion is gone: SI613); the old text returned."""
    da = root / D
    old = da.read_text()
    da.write_text(old.replace("diagnosis-001", "diagnosis-002"))
    return old


def _put_back(root: Path, text: str) -> None:
    """As `sed -i` does: a new file renamed over the old one (a new inode)."""
    tmp = root / (D + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, root / D)


def _save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(T.DidSaveTextDocumentParams(T.TextDocumentIdentifier(uri)))


async def test_disk_change_seen_on_save_without_watchers(
    nvim: LanguageClient, nvim_roots, tmp_path
):
    root = nvim_roots[1]
    uri, diags = await open_doc(nvim, root, S)
    clean = expected(root, S, "--ignore", "SI113", tmp=tmp_path)
    assert "SI613" not in [w[0] for w in clean]
    assert lsp_shape(diags) == clean

    old = _lose_companion(root)
    before = count(nvim, uri)
    _save(nvim, uri)
    diags = await next_push(nvim, uri, before)
    want = expected(root, S, "--ignore", "SI113", tmp=tmp_path)
    assert [w[:3] for w in want if w[0] == "SI613"] == [("SI613", 13, 22)]
    assert lsp_shape(diags) == want

    _put_back(root, old)
    before = count(nvim, uri)
    _save(nvim, uri)
    assert lsp_shape(await next_push(nvim, uri, before)) == clean
    await close_doc(nvim, uri)


async def test_disk_change_reaches_a_pulling_client(puller: LanguageClient, pull_roots, tmp_path):
    root = pull_roots[1]
    uri, _ = await open_doc(puller, root, S, push=False)
    clean = expected(root, S, tmp=tmp_path)
    assert lsp_shape(await pull(puller, uri)) == clean
    old = _lose_companion(root)
    refreshed = puller.diagnostic_refresh_count
    _save(puller, uri)
    await until(lambda: puller.diagnostic_refresh_count > refreshed)
    want = expected(root, S, tmp=tmp_path)
    assert "SI613" in [w[0] for w in want]
    assert lsp_shape(await pull(puller, uri)) == want
    _put_back(root, old)
    assert lsp_shape(await pull(puller, uri)) == clean  # a pull looks at the disk too
    await close_doc(puller, uri)


# --------------------------------------------------------------------------------------
# 4: block-style primitives, per-document completion, end columns


def _at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    hits = [(i, ln.index(needle)) for i, ln in enumerate(text.split("\n")) if needle in ln]
    return hits[nth]


async def test_hover_and_definition_on_a_block_style_primitive(nvim: LanguageClient, nvim_roots):
    root = nvim_roots[0]
    text = (root / TABLE).read_text()
    uri, _ = await open_doc(nvim, root, TABLE)
    line, col = _at(text, "factor_identified:")
    assert text.split("\n")[line - 1].strip() == "- when:"  # block style
    pos = T.Position(line, col + 3)
    hover = await nvim.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), pos))
    prim = builtin_profile("builtin").primitives["factor_identified"]
    body = json.dumps(prim, indent=2, ensure_ascii=False, default=str)
    assert hover.contents == T.MarkupContent(
        kind=T.MarkupKind.Markdown,
        value=f"**primitive** `factor_identified` (registry)\n\n```json\n{body}\n```",
    )
    loc = await nvim.text_document_definition_async(
        T.DefinitionParams(T.TextDocumentIdentifier(uri), pos)
    )
    registry = Path(builtin_profile("builtin").root) / "registry.yaml"
    rline, rcol = _at(registry.read_text(), "name: factor_identified")
    target = T.Position(rline, rcol + len("name: "))
    assert loc == T.Location(uri=from_fs_path(str(registry)), range=T.Range(target, target))
    await close_doc(nvim, uri)


async def test_role_completion_is_per_document(nvim: LanguageClient, nvim_roots):
    root = nvim_roots[0]
    one = (root / SCENARIO).read_text()
    two = one.replace("diagnosis-001", "diagnosis-077")
    lines = two.split("\n")
    i = next(k for k, ln in enumerate(lines) if ln.strip().startswith("exclude_tool_echo"))
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    two = "\n".join(lines[:i] + [indent] + lines[i + 1 :])
    text = "---\n" + one + "---\n" + two  # the first scenario binds every role
    rel = "scenarios/two.yaml"
    uri, _ = await open_doc(nvim, root, rel, text)
    cursor = T.Position(2 + len(one.split("\n")) - 1 + i, len(indent))
    assert text.split("\n")[cursor.line] == indent
    res = await nvim.text_document_completion_async(
        T.CompletionParams(T.TextDocumentIdentifier(uri), cursor)
    )
    roles = model.template_roles(model.find_template(builtin_profile("builtin"), "C-DA-001"))
    assert (res.is_incomplete, list(res.items)) == (
        False,
        [
            T.CompletionItem(
                label="exclude_tool_echo",
                detail=f"C-DA-001 role ({roles['exclude_tool_echo']['type']})",
                kind=T.CompletionItemKind.Property,
                insert_text="exclude_tool_echo: ",
            )
        ],
    )
    await close_doc(nvim, uri)


async def test_si117_end_column_is_checks(nvim: LanguageClient, puller, nvim_roots, tmp_path):
    """An identifier after a non-ASCII character: the editor's range ends where JSON's
    (and SARIF's) does — in code points where the client offers them (Neovim: utf-32),
    converted to the client's units otherwise (utf-16: the emoji counts twice)."""
    root = nvim_roots[0]
    text = (root / SCENARIO).read_text()
    line = "  subsystem_set: [mail-relay, SMTP_PORT]"
    assert line in text
    text = text.replace(line, '  subsystem_set: ["é🙂 mail-relay ", SMTP_PORT]  # é')
    uri, diags = await open_doc(nvim, root, SCENARIO, text)
    want = expected(root, SCENARIO, "--ignore", "SI113", text=text, tmp=tmp_path)
    si117 = [w for w in want if w[0] == "SI117"]
    assert [w[1:5] for w in si117] == [(si117[0][1], 18, si117[0][1], 34)]
    assert lsp_shape(diags) == want
    twin = sorted(tmp_path.iterdir())[-1]
    code, out, _ = run_cli(["check", "--format", "sarif", "--no-cache", SCENARIO], twin)
    regions = [
        r["locations"][0]["physicalLocation"]["region"]
        for r in json.loads(out)["runs"][0]["results"]
        if r["ruleId"] == "SI117"
    ]
    assert [(g["startColumn"], g["endColumn"]) for g in regions] == [(19, 35)]
    await close_doc(nvim, uri)
    # a utf-16 client: one more unit for the emoji, at the start and the end alike
    proot = tmp_path / "p"
    shutil.copytree(root, proot)
    puller.workspace_did_change_workspace_folders(
        T.DidChangeWorkspaceFoldersParams(
            T.WorkspaceFoldersChangeEvent(added=_folders(proot), removed=[])
        )
    )
    puri, _ = await open_doc(puller, proot, SCENARIO, text, push=False)
    (d,) = [d for d in await pull(puller, puri) if d.code == "SI117"]
    assert (d.range.start.character, d.range.end.character) == (18, 35)
    await close_doc(puller, puri)
