"""End to end: `si-lint server` driven by a real LSP client (pytest-lsp) over stdio.

One server for the module, on a copy of fixtures/corpus; each test leaves the buffers it
opened as it found them (closed, or back to the file's text)."""

from __future__ import annotations

import asyncio
import json
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

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCENARIO = "scenarios/mail-relay-smtp-port.yaml"
AT_BUDGET = "fixtures/mail-relay-smtp-port/at-budget.yaml"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp") / "corpus"
    shutil.copytree(
        REPO / "fixtures" / "corpus", root, ignore=shutil.ignore_patterns(".si-lint-cache")
    )
    return root


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "si_lint.cli", "server", "--no-cache"]
    ),
    scope="module",
)
async def client(lsp_client: LanguageClient, corpus: Path):
    caps = client_capabilities("visual-studio-code")
    caps.workspace.did_change_watched_files = None  # the test client does not take registrations
    caps.text_document.diagnostic = None  # a client that does not pull: diagnostics pushed
    await lsp_client.initialize_session(
        T.InitializeParams(
            capabilities=caps,
            workspace_folders=[T.WorkspaceFolder(uri=from_fs_path(str(corpus)), name="corpus")],
            initialization_options={"debounce": 10},
        )
    )
    features = lsp_client.protocol.fm.features
    original = features[T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def counted(*args):  # count publications: an empty list is a publication too
        params = args[-1]
        COUNTS[params.uri] = COUNTS.get(params.uri, 0) + 1
        return original(*args)

    features[T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = counted
    yield
    await lsp_client.shutdown_session()


COUNTS: dict[str, int] = {}


# --------------------------------------------------------------------------------------
# helpers


def uri_of(corpus: Path, rel: str) -> str:
    return from_fs_path(str(corpus / rel))


async def published(client: LanguageClient, uri: str, before, timeout: float = 30.0):
    """The next diagnostics published for ``uri`` after ``before`` (its publication count
    when the request was made)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if COUNTS.get(uri, 0) != before:
            return client.diagnostics.get(uri)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for {uri}")


async def until(pred, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met in time")


async def open_doc(client, corpus, rel, text=None):
    uri = uri_of(corpus, rel)
    text = (corpus / rel).read_text() if text is None else text
    before = COUNTS.get(uri, 0)
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    return uri, await published(client, uri, before)


_versions: dict[str, int] = {}


async def replace_all(client, uri, text):
    before = COUNTS.get(uri, 0)
    _versions[uri] = _versions.get(uri, 1) + 1
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=_versions[uri]),
            [T.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    return await published(client, uri, before)


async def close_doc(client, uri):
    client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri=uri)))
    await asyncio.sleep(0.05)


def shape(diags):
    return sorted(
        (
            d.code,
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
            int(d.severity),
        )
        for d in diags
    )


SEV = {"error": 1, "warning": 2, "note": 3}


def sarif_shape(root: Path, rel: str) -> list[tuple]:
    """What `si-lint check --format sarif FILE` reports for ``rel``: code, 0-based range,
    LSP severity."""
    code, out, err = run_cli(["check", "--format", "sarif", "--no-cache", rel], root)
    assert code in (0, 1), (code, out, err)
    run = json.loads(out)["runs"][0]
    res = []
    for r in run["results"]:
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] != rel:
            continue  # a finding elsewhere that concerns the named file (e.g. a fixture's SI401)
        reg = r["locations"][0]["physicalLocation"]["region"]
        res.append(
            (
                r["ruleId"],
                reg["startLine"] - 1,
                reg["startColumn"] - 1,
                reg.get("endLine", reg["startLine"]) - 1,
                reg["endColumn"] - 1,
                SEV[r["level"]],
            )
        )
    return sorted(res)


def mistakes(text: str) -> str:
    """The classic mistakes: a widened channel list, the tool echo let in, a Form A key."""
    out = text.replace("channels: [agent_response]", "channels: [agent_response, reasoning_trace]")
    out = out.replace("exclude_tool_echo: true", "exclude_tool_echo: false")
    out = out.replace("\nscoring:\n", "\nscoring:\n  type: weighted\n")
    assert out != text
    return out


# --------------------------------------------------------------------------------------
# diagnostics


async def test_open_gives_exactly_checks_diagnostics(
    client: LanguageClient, corpus: Path, tmp_path: Path
):
    text = (corpus / SCENARIO).read_text()
    bad = mistakes(text)
    # `check` of the same text on disk (a second copy of the corpus)
    twin = tmp_path / "twin"
    shutil.copytree(corpus, twin)
    (twin / SCENARIO).write_text(bad)
    expected = sarif_shape(twin, SCENARIO)
    assert {e[0] for e in expected} >= {"SI101", "SI105", "SI113"}, expected

    uri, diags = await open_doc(
        client, corpus, SCENARIO, bad
    )  # unsaved: the disk holds the good text
    assert shape(diags) == expected
    assert all(d.source == "si-lint" for d in diags)

    # fix one mistake in the buffer: its diagnostics (SI113 and the echo probe's SI404)
    # are withdrawn, the others stay
    better = bad.replace("exclude_tool_echo: false", "exclude_tool_echo: true")
    (twin / SCENARIO).write_text(better)
    expected_now = sarif_shape(twin, SCENARIO)
    assert [e for e in expected if e[0] not in ("SI113", "SI404")] == expected_now
    diags = await replace_all(client, uri, better)
    assert shape(diags) == expected_now
    diags = await replace_all(client, uri, text)
    assert list(diags) == []
    await close_doc(client, uri)


async def test_fixture_in_another_file_gets_its_si401(client: LanguageClient, corpus: Path):
    text = (corpus / SCENARIO).read_text()
    assert "step_budget: 15" in text
    fixture_uri = uri_of(corpus, AT_BUDGET)
    uri, diags = await open_doc(client, corpus, SCENARIO)
    assert list(diags) == []
    before = COUNTS.get(fixture_uri, 0)
    await replace_all(client, uri, text.replace("step_budget: 15", "step_budget: 14"))
    fixture_diags = await published(client, fixture_uri, before)
    assert [d.code for d in fixture_diags] == ["SI401", "SI402"]  # the score and the row
    d = fixture_diags[0]
    assert d.severity == T.DiagnosticSeverity.Error
    assert "1.0" in d.message and "0.0" in d.message
    line = (corpus / AT_BUDGET).read_text().split("\n")[d.range.start.line]
    assert line.startswith("expect:")
    # back to 15: withdrawn
    before = COUNTS.get(fixture_uri, 0)
    await replace_all(client, uri, text)
    assert list(await published(client, fixture_uri, before)) == []
    await close_doc(client, uri)


async def test_unparsable_buffer_is_one_si001(client: LanguageClient, corpus: Path):
    uri, diags = await open_doc(client, corpus, SCENARIO, "id: x\nscoring: [\n")
    assert [d.code for d in diags] == ["SI001"]
    await replace_all(client, uri, (corpus / SCENARIO).read_text())
    await close_doc(client, uri)


# --------------------------------------------------------------------------------------
# code actions


def apply_edits(text: str, edits: list[T.TextEdit]) -> str:
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln))

    def off(p: T.Position) -> int:
        return offsets[min(p.line, len(lines))] + p.character

    for e in sorted(
        edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
    ):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end) :]
    return text


async def test_code_action_text_is_what_fix_writes(
    client: LanguageClient, corpus: Path, tmp_path: Path
):
    text = (corpus / SCENARIO).read_text()
    bad = text.replace("exclude_tool_echo: true", "exclude_tool_echo: false")
    twin = tmp_path / "twin"
    shutil.copytree(corpus, twin)
    (twin / SCENARIO).write_text(bad)
    fix_args = ["check", "--no-cache", "--fix", SCENARIO]
    code, out, err = run_cli(["check", "--help"], twin)
    if "--unsafe-fixes" in out:
        fix_args.insert(3, "--unsafe-fixes")  # SI113 is an unsafe fix (SPEC §9)
    run_cli(fix_args, twin)
    fixed = (twin / SCENARIO).read_text()
    assert fixed != bad

    uri, diags = await open_doc(client, corpus, SCENARIO, bad)
    (d,) = [d for d in diags if d.code == "SI113"]
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            text_document=T.TextDocumentIdentifier(uri=uri),
            range=d.range,
            context=T.CodeActionContext(diagnostics=[d]),
        )
    )
    titles = [a.title for a in actions]
    (fix,) = [a for a in actions if a.title.startswith("Fix SI113")]
    assert fix.kind == T.CodeActionKind.QuickFix
    assert apply_edits(bad, fix.edit.changes[uri]) == fixed
    (disable,) = [a for a in actions if a.title == "Disable SI113 for this line"]
    suppressed = apply_edits(bad, disable.edit.changes[uri])
    assert "exclude_tool_echo: false  # si-lint: disable=SI113" in suppressed
    diags = await replace_all(client, uri, suppressed)
    assert "SI113" not in [d.code for d in diags], titles
    await replace_all(client, uri, text)
    await close_doc(client, uri)


# --------------------------------------------------------------------------------------
# hover, definition, completion


async def test_hover_and_definition(client: LanguageClient, corpus: Path):
    text = (corpus / SCENARIO).read_text()
    text = text.replace(
        "exclude_tool_echo: true", "exclude_tool_echo: true  # si-lint: disable=SI105"
    )
    uri, _ = await open_doc(client, corpus, SCENARIO, text)
    lines = text.split("\n")

    def at(needle: str, offset: int = 0) -> T.Position:
        for i, ln in enumerate(lines):
            if needle in ln:
                return T.Position(i, ln.index(needle) + offset)
        raise AssertionError(needle)

    async def hover(pos):
        h = await client.text_document_hover_async(
            T.HoverParams(T.TextDocumentIdentifier(uri), pos)
        )
        return h.contents.value if h else None

    # a code in a suppression comment: the rule's doc
    md = await hover(at("SI105", 2))
    assert md.startswith("**SI105**") and "channel" in md
    # a role: its template entry
    md = await hover(at("subsystem_set", 1))
    assert "role" in md and "identifier_set" in md
    # factor.ref: the deviation it resolves to
    md = await hover(at("ref: smtp-port-removed", 6))
    assert "deviation" in md and "absent_key" in md and "SMTP_PORT" in md

    async def definition(pos):
        return await client.text_document_definition_async(
            T.DefinitionParams(T.TextDocumentIdentifier(uri), pos)
        )

    loc = await definition(at("ref: smtp-port-removed", 6))
    assert loc.uri == uri and lines[loc.range.start.line].strip() == "- id: smtp-port-removed"
    loc = await definition(at("subsystem_set", 1))
    target = Path(loc.uri.removeprefix("file://")).read_text().split("\n")[loc.range.start.line]
    assert target.lstrip().startswith("subsystem_set:")
    await replace_all(client, uri, (corpus / SCENARIO).read_text())
    await close_doc(client, uri)


async def test_completion_of_roles_and_templates(client: LanguageClient, corpus: Path):
    text = (corpus / SCENARIO).read_text()
    lines = text.split("\n")
    i = next(i for i, ln in enumerate(lines) if ln.strip().startswith("exclude_tool_echo"))
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    half = "\n".join(
        lines[:i] + [indent] + lines[i + 1 :]
    )  # a role removed, the cursor on its line
    uri, _ = await open_doc(client, corpus, SCENARIO, half)
    res = await client.text_document_completion_async(
        T.CompletionParams(T.TextDocumentIdentifier(uri), T.Position(i, len(indent)))
    )
    assert [item.label for item in res.items][:1] == ["exclude_tool_echo"]
    j = next(k for k, ln in enumerate(lines) if "template: C-DA-001" in ln)
    col = lines[j].index("C-DA-001")
    res = await client.text_document_completion_async(
        T.CompletionParams(T.TextDocumentIdentifier(uri), T.Position(j, col))
    )
    assert "C-DA-001" in [item.label for item in res.items]
    await replace_all(client, uri, text)
    await close_doc(client, uri)


# --------------------------------------------------------------------------------------
# multi-root, and half-typed documents


async def test_each_workspace_folder_is_its_own_root(
    client: LanguageClient, corpus: Path, tmp_path: Path
):
    other = tmp_path / "other"
    shutil.copytree(corpus, other)
    cfg = other / "si-lint.toml"
    cfg.write_text('ignore = ["SI113"]\n' + cfg.read_text())  # top level: before any [table]
    client.workspace_did_change_workspace_folders(
        T.DidChangeWorkspaceFoldersParams(
            T.WorkspaceFoldersChangeEvent(
                added=[T.WorkspaceFolder(uri=from_fs_path(str(other)), name="other")], removed=[]
            )
        )
    )
    bad = (
        (corpus / SCENARIO)
        .read_text()
        .replace("exclude_tool_echo: true", "exclude_tool_echo: false")
    )
    uri_a, diags_a = await open_doc(client, corpus, SCENARIO, bad)
    uri_b, diags_b = await open_doc(client, other, SCENARIO, bad)
    assert "SI113" in [d.code for d in diags_a]
    assert "SI113" not in [d.code for d in diags_b]
    assert sorted(d.code for d in diags_b) == sorted(d.code for d in diags_a if d.code != "SI113")
    for uri, root in ((uri_a, corpus), (uri_b, other)):
        await replace_all(client, uri, (root / SCENARIO).read_text())
        await close_doc(client, uri)
    client.workspace_did_change_workspace_folders(
        T.DidChangeWorkspaceFoldersParams(
            T.WorkspaceFoldersChangeEvent(
                added=[], removed=[T.WorkspaceFolder(uri=from_fs_path(str(other)), name="other")]
            )
        )
    )


async def test_half_typed_documents_never_reach_the_client_as_errors(
    client: LanguageClient, corpus: Path
):
    """Truncations of a scenario, a fixture and an EIO module typed into one buffer each:
    every change is answered with diagnostics, an unparsable buffer is one SI001, nothing
    is logged as an error, and the server still answers afterwards."""
    from si_lint.loader import load_bytes

    rels = [SCENARIO, AT_BUDGET, "eio/eio.context.criteria.yaml"]
    for rel in rels:
        text = (corpus / rel).read_text()
        uri, _ = await open_doc(client, corpus, rel, "")
        for k in range(1, 10):
            cut = text[: len(text) * k // 10]
            diags = await replace_all(client, uri, cut)
            loaded = load_bytes(cut.encode())
            if loaded.failed or any(d.code == "SI001" for d in loaded.findings):
                assert [d.code for d in diags] == ["SI001"], (rel, k)
            assert "SI000" not in [d.code for d in diags], (rel, k)
        await replace_all(client, uri, text)
        await close_doc(client, uri)
    errors = [m for m in client.log_messages if m.type == T.MessageType.Error]
    assert errors == []
    h = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri_of(corpus, SCENARIO)), T.Position(0, 0))
    )
    assert h is None or h.contents
