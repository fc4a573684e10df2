"""`si-lint eio MODULE INPUT...` (SPEC §6, §7): JSON shape, argument order, error objects,
exit status, and the Q axis printed with the pinned rounding."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from conftest import run_cli, write_files

REPO = Path(__file__).resolve().parents[1]
EIO = REPO / "fixtures" / "corpus" / "eio"
MODULE = "eio.context.criteria.yaml"


def corpus(tmp_path) -> Path:
    shutil.copytree(EIO, tmp_path / "eio")
    return tmp_path / "eio"


def eio_json(cwd, *args):
    code, out, err = run_cli(["eio", "--format", "json", *args], cwd)
    return code, json.loads(out) if out else None, err


def test_json_is_a_list_in_argument_order_with_criteria_in_module_order(tmp_path):
    d = corpus(tmp_path)
    code, out, _ = eio_json(d, MODULE, "inputs/guardrail-free.yaml", "inputs/governed.yaml")
    assert code == 0
    assert [r["input"] for r in out] == ["inputs/guardrail-free.yaml", "inputs/governed.yaml"]
    assert [list(r) for r in out] == [["input", "criteria", "q_axis", "q_display"]] * 2
    assert list(out[1]["criteria"]) == [
        "eio.context.role-clarity",
        "eio.context.guardrail-coverage",
        "eio.context.instruction-consistency",
        "eio.context.tool-schema-quality",
        "eio.context.grounding-sufficiency",
        "eio.context.injection-hardening",
        "eio.context.token-efficiency",
    ]
    assert (out[0]["q_axis"], out[0]["q_display"]) == (4.5333, "4.5")
    assert (out[1]["q_axis"], out[1]["q_display"]) == (7.3667, "7.4")


def test_json_criterion_objects_are_whole(tmp_path):
    d = corpus(tmp_path)
    _, out, _ = eio_json(d, MODULE, "inputs/no-tool-schema.yaml")
    c = out[0]["criteria"]
    from si_lint.loader import load_bytes

    inp = load_bytes((d / "inputs" / "no-tool-schema.yaml").read_bytes()).data
    prompt = inp["context_artifacts"][0]["text"]
    digest = "sha256:" + hashlib.sha256(prompt.encode("utf-8")).hexdigest()
    assert c["eio.context.injection-hardening"] == {
        "scoring": "checklist",
        "status": "SCORED",
        "score": 3 / 4,
        "controls_present": [
            "data-instruction-separation",
            "forbids-embedded-instructions",
            "names-untrusted-channels",
        ],
        "controls_required": 4,
        "searched_text_sha256": digest,
    }
    assert c["eio.context.tool-schema-quality"] == {
        "scoring": "assessor",
        "status": "NOT_APPLICABLE",
        "score": None,
        "controls_present": [],
        "controls_required": 0,
        "searched_text_sha256": None,
    }
    assert (out[0]["q_axis"], out[0]["q_display"]) == (6.7917, "6.8")


def test_text_prints_the_q_axis_with_the_pinned_rounding(tmp_path):
    d = corpus(tmp_path)
    code, out, _ = run_cli(["eio", MODULE, "inputs/governed.yaml", "inputs/no-tool-schema.yaml"], d)
    assert code == 0
    q_lines = [l.strip() for l in out.splitlines() if l.strip().startswith("Q axis:")]
    assert q_lines == [
        "Q axis: 7.4  (7.3667: mean of 5 scored criteria x 10; lexical presence of the "
        "controls was measured, not their sufficiency)",
        "Q axis: 6.8  (6.7917: mean of 4 scored criteria x 10; lexical presence of the "
        "controls was measured, not their sufficiency)",
    ]
    assert out.splitlines()[0] == (
        "inputs/governed.yaml: eio.context.criteria 0.2.2, profile eio.profile.context-scoring"
    )
    assert "(5/6 controls present; missing: verification-duty)" in out


def test_a_directory_expands_to_its_eio_inputs_in_sorted_order(tmp_path):
    d = corpus(tmp_path)
    code, out, _ = eio_json(d, MODULE, ".")
    assert code == 0
    assert [(r["input"], r["q_display"]) for r in out] == [
        ("./inputs/blank-prompt.yaml", "0.0"),
        ("./inputs/governed.yaml", "7.4"),
        ("./inputs/guardrail-free.yaml", "4.5"),
        ("./inputs/no-tool-schema.yaml", "6.8"),
    ]


def test_inputs_that_cannot_be_evaluated_get_error_objects_and_exit_1(tmp_path):
    d = corpus(tmp_path)
    write_files(
        d,
        {
            "other.yaml": "module: eio.other\ncontext_artifacts: []\n",
            "bad.yaml": "module: eio.context.criteria\ncontext_artifacts: [1]\n",
            "broken.yaml": "module: [\n",
        },
    )
    code, out, _ = eio_json(
        d, MODULE, "other.yaml", "inputs/governed.yaml", "bad.yaml", "broken.yaml", "missing.yaml"
    )
    assert code == 1
    assert [r["input"] for r in out] == [
        "other.yaml",
        "inputs/governed.yaml",
        "bad.yaml",
        "broken.yaml",
        "missing.yaml",
    ]
    assert out[0] == {
        "input": "other.yaml",
        "error": "input is for module 'eio.other', not `eio.context.criteria`",
    }
    assert out[1]["q_axis"] == 7.3667
    assert out[2] == {"input": "bad.yaml", "error": "context_artifacts[0] is not a mapping"}
    assert set(out[3]) == {"input", "error"} and out[3]["error"]
    assert out[4]["error"].startswith("cannot read")


def test_a_bad_rating_makes_exit_1_but_the_input_is_still_evaluated(tmp_path):
    d = corpus(tmp_path)
    write_files(
        d,
        {
            "r.yaml": (
                "module: eio.context.criteria\n"
                "context_artifacts:\n"
                "  - {name: p, kind: eio.artifact.system-prompt, text: 'You must not. Escalate.'}\n"
                "assessor_ratings: {eio.context.role-clarity: 11}\n"
            )
        },
    )
    code, out, _ = eio_json(d, MODULE, "r.yaml")
    assert code == 1
    c = out[0]["criteria"]
    assert (c["eio.context.role-clarity"]["status"], c["eio.context.role-clarity"]["score"]) == (
        "ERROR",
        None,
    )
    # refusal ("must not"), escalation ("escalat"), prohibited ("must not"): 3/6;
    # injection hardening 0/4 -> Q = (1/2 + 0) / 2 * 10 = 2.5 -> "2.5"
    assert c["eio.context.guardrail-coverage"]["score"] == 3 / 6
    assert (out[0]["q_axis"], out[0]["q_display"]) == (2.5, "2.5")


def test_an_unusable_module_is_exit_2(tmp_path):
    d = corpus(tmp_path)
    code, _, err = run_cli(["eio", "inputs/governed.yaml", "inputs/governed.yaml"], d)
    assert code == 2 and "not an EIO module" in err
    code, _, err = run_cli(["eio", "nope.yaml", "inputs/governed.yaml"], d)
    assert code == 2 and "cannot read" in err


def test_output_is_byte_identical_across_runs(tmp_path):
    d = corpus(tmp_path)
    a = run_cli(["eio", "--format", "json", MODULE, "inputs"], d)
    b = run_cli(["eio", "--format", "json", MODULE, "inputs"], d)
    assert a == b
