#!/usr/bin/env python3
"""Generate a deterministic, realistic SI scenario corpus for benchmarking si-lint.

    python bench/generate.py OUT --scenarios 1000 --fixtures 3 [--seed S] [--force]

Writes ``OUT/scenarios/<team>/<slug>.yaml`` (one C-DA-001 diagnosis scenario each, every
tenth one a scenario-local composite) and ``OUT/fixtures/<team>/<slug>/<case>.yaml``
(``--fixtures`` fixtures per scenario: kubectl transcripts with a final answer and the
verdict SPEC §5 gives it). The same arguments always give a byte-identical tree,
whatever the platform, hash seed or file-system order.

Every scenario is valid and every fixture's ``expect`` is correct by construction: the
answers are built from phrase templates whose verdicts follow directly from SPEC §5
(identifier boundary rule, whole-token synonyms, sentence split, verbatim echo exclusion,
tool calls before the final answer), and two guards enforce the premises while writing —
text that must not characterise the fault carries no synonym of ``absent_key`` as a whole
token, and no answer line that must count is a verbatim substring of a tool response.
The fixtures of a scenario cycle through the table's rows (starting at a row that depends
on the scenario's index), so with ``--fixtures`` at least the table length every row is
exercised, and with fewer the uncovered row rotates across the corpus (SI403, info).

1,000 scenarios × 3 fixtures ≈ 4,000 files, ≈ 4.6 MB.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

# ---------------------------------------------------------------------------------------
# vocabulary (fixed lists: their order is part of the output, never iterate a set)

TEAMS = [
    ("payments", ["payments", "ledger", "billing", "invoicing", "refunds"]),
    ("commerce", ["checkout", "catalog", "pricing", "inventory", "cart"]),
    ("logistics", ["shipping", "tracking", "warehouse", "routing", "returns"]),
    ("identity", ["auth", "sessions", "accounts", "tokens", "consent"]),
    ("comms", ["mail", "sms", "push", "notifications", "newsletter"]),
    ("data", ["reports", "analytics", "exports", "search", "recommendations"]),
    ("platform", ["gateway", "media", "webhooks", "scheduler", "audit"]),
]
SUFFIXES = ["api", "worker", "consumer", "relay", "gateway", "indexer", "sync",
            "exporter", "scheduler", "frontend"]

# (domain, resource kind, resource-name suffix, keys, log line, consequence)
DOMAINS = [
    ("database", "secret", "db",
     ["DB_PASSWORD", "DB_USER", "DB_HOST", "DATABASE_URL", "DB_NAME", "PGSSLMODE"],
     "level=fatal msg=\"cannot open database: {key} not set\" component=store",
     "cannot open its database connection pool"),
    ("cache", "configmap", "cache",
     ["REDIS_URL", "REDIS_SENTINEL_MASTER", "CACHE_TTL_SECONDS", "REDIS_DB_INDEX"],
     "ERROR cache: required setting {key} is empty; refusing to start",
     "refuses to start without its cache settings"),
    ("messaging", "configmap", "config",
     ["KAFKA_BOOTSTRAP_SERVERS", "KAFKA_GROUP_ID", "KAFKA_TOPIC", "AMQP_URL",
      "NATS_URL"],
     "WARN  [main] config: {key} not defined, falling back to localhost",
     "talks to localhost instead of the message brokers"),
    ("mail", "configmap", "config",
     ["SMTP_HOST", "SMTP_PORT", "SMTP_FROM", "SMTP_TLS_MODE"],
     "relay[1]: config: {key} not set, using built-in default",
     "submits mail with built-in defaults that the upstream refuses"),
    ("storage", "configmap", "storage",
     ["S3_BUCKET", "S3_REGION", "S3_ENDPOINT", "UPLOAD_PREFIX"],
     "fatal: environment variable {key} is not set",
     "exits before it uploads anything"),
    ("auth", "secret", "credentials",
     ["OIDC_CLIENT_SECRET", "OIDC_CLIENT_ID", "JWT_SIGNING_KEY", "API_TOKEN",
      "WEBHOOK_SECRET"],
     "panic: config: missing required credential {key}",
     "crashes at start-up while loading its credentials"),
    ("upstream", "configmap", "config",
     ["UPSTREAM_URL", "API_BASE_URL", "OIDC_ISSUER_URL", "FEATURE_FLAGS_URL",
      "TIMEOUT_MS"],
     "error=\"parse upstream: {key} undefined\" level=error",
     "sends every request to an empty upstream address"),
]
OTHER_KEYS = ["LOG_LEVEL", "LOG_FORMAT", "HTTP_PORT", "METRICS_PORT", "GOMAXPROCS",
              "OTEL_EXPORTER_OTLP_ENDPOINT", "TZ", "WORKER_CONCURRENCY", "RETRY_LIMIT",
              "SHUTDOWN_GRACE_SECONDS", "REGION", "ENVIRONMENT"]
EVENTS = ["the last config push", "Tuesday's release", "the secret rotation",
          "the Helm chart upgrade to 4.2.0", "the config refactor", "the namespace migration",
          "last night's automated rollout", "the move to the shared values file"]
SYMPTOMS = {
    "database": "new pods crash-loop and requests return 503",
    "cache": "pods crash-loop right after start",
    "messaging": "consumer lag grows and nothing is processed",
    "mail": "outbound mail is refused by the upstream",
    "storage": "the nightly export job fails on every run",
    "auth": "logins fail with 500 and pods restart",
    "upstream": "every request fails with a connection error",
}
# answers that are wrong for any generated scenario: they name no scenario identifier
WRONG = [
    "Node ip-10-0-3-17.eu-central-1.compute.internal is under memory pressure and evicts "
    "pods; cordon it and add capacity to the node pool.",
    "CoreDNS times out on AAAA lookups, so name resolution of the dependencies fails. "
    "Restart the coredns pods and add a stub domain.",
    "The cluster autoscaler hit its max-nodes limit, so replicas stay Pending. Raise the "
    "node group's maximum size.",
    "A NetworkPolicy in the namespace blocks egress on port 443 since the platform "
    "change; add an allow rule for the dependency's CIDR.",
    "The container image tag was overwritten in the registry and the new build has a "
    "regression; pin the previous image digest.",
    "The load balancer's health check path changed, so all targets are marked unhealthy. "
    "Point the health check back at /healthz.",
]
FILLER_CALLS = [
    ("kubectl -n {ns} get deploy {svc} --no-headers", "{svc}   1/3   1   1   {days}d"),
    ("kubectl -n {ns} get events --field-selector involvedObject.name={pod} -o name",
     "event/{pod}.{hex}"),
    ("kubectl -n {ns} rollout history deploy/{svc} | tail -1", "{rev1}        config change"),
    ("kubectl -n {ns} top pod {pod} --no-headers", "{pod}   3m   41Mi"),
    ("kubectl -n {ns} get hpa {svc} --no-headers", "{svc}   Deployment/{svc}   12%/70%   3   10   3"),
    ("kubectl -n {ns} get endpoints {svc} --no-headers", "{svc}   <none>   {days}d"),
    ("kubectl -n {ns} get pdb {svc} --no-headers", "{svc}   2   N/A   0   {days}d"),
]
SYNONYM_TEMPLATES = [  # every absent_key synonym of the shipped registry, in its order
    ("missing", "{key} is missing from {res}"),
    ("absent", "{key} is absent from {res}"),
    ("not present", "{key} is not present in {res}"),
    ("not set", "{key} is not set in {res}"),
    ("not defined", "{key} is not defined in {res}"),
    ("undefined", "{key} is undefined in {res}"),
    ("not found", "{key} was not found in {res}"),
    ("does not exist", "{key} does not exist in {res}"),
    ("doesn't exist", "{key} doesn't exist in {res}"),
    ("no key", "{res} has no key {key}"),
    ("lacks", "{res} lacks {key}"),
    ("lacking", "{res} is lacking {key}"),
    ("omitted", "{key} was omitted from {res}"),
    ("unset", "{key} is unset in {res}"),
]
SYNONYMS = [s for s, _ in SYNONYM_TEMPLATES]

C_DA_001_ROWS = 4
COMPOSITE_ROWS = 5
COMPOSITE_EVERY = 10

# ---------------------------------------------------------------------------------------
# guards (SPEC §5 premises of the phrase templates)

_WORD = "A-Za-z0-9_-"
_SYN_RE = re.compile(
    "|".join(f"(?<![{_WORD}]){re.escape(s.casefold())}(?![{_WORD}])" for s in SYNONYMS))


def _has_synonym(text: str) -> bool:
    return _SYN_RE.search(text.casefold()) is not None


class GeneratorBug(AssertionError):
    pass


def _guard_no_synonym(text: str) -> str:
    if _has_synonym(text):
        raise GeneratorBug(f"text meant to carry no characterisation has a synonym: {text!r}")
    return text


def _guard_not_echo(answer: str, responses: list[str]) -> None:
    for line in answer.split("\n"):
        if line and any(line in r for r in responses):
            raise GeneratorBug(f"answer line is a verbatim tool-response substring: {line!r}")


# ---------------------------------------------------------------------------------------
# YAML emission (hand-written so that the bytes are fixed and the layout realistic)


def _q(s: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is valid YAML)."""
    return json.dumps(s, ensure_ascii=False)


def _block(text: str, indent: int) -> str:
    pad = " " * indent
    return "\n".join(pad + line if line else "" for line in text.split("\n"))


@dataclass
class Scenario:
    index: int
    team: str
    slug: str
    sid: str
    ns: str
    svc: str
    kind: str
    name: str
    key: str
    domain: str
    log: str
    consequence: str
    event: str
    budget: int
    composite: bool
    other_keys: list[str]
    dev_id: str

    @property
    def res(self) -> str:
        return f"{self.kind}/{self.name}"

    @property
    def rows(self) -> int:
        return COMPOSITE_ROWS if self.composite else C_DA_001_ROWS


def make_scenario(i: int, rng: random.Random) -> Scenario:
    team, prefixes = TEAMS[i % len(TEAMS)]
    prefix = rng.choice(prefixes)
    svc = f"{prefix}-{rng.choice(SUFFIXES)}"
    domain, kind, rsuffix, keys, log, consequence = DOMAINS[rng.randrange(len(DOMAINS))]
    key = rng.choice(keys)
    composite = i % COMPOSITE_EVERY == COMPOSITE_EVERY - 1
    # composites give the deployment its own 0.25 band: the resource must differ from it
    name = f"{svc}-{rsuffix}" if composite or rng.random() < 0.6 else svc
    keyslug = key.lower().replace("_", "-")
    slug = f"{i:05d}-{svc}-{keyslug}"
    others = sorted(rng.sample(OTHER_KEYS, 2) + [k for k in keys if k != key][:1])
    return Scenario(
        index=i, team=team, slug=slug, sid=f"infra.capability.da.gen-{slug}", ns=team,
        svc=svc, kind=kind, name=name, key=key, domain=domain, log=log.format(key=key),
        consequence=consequence, event=rng.choice(EVENTS), budget=rng.randint(5, 10),
        composite=composite, other_keys=others, dev_id=f"{keyslug}-removed")


def scenario_yaml(s: Scenario) -> str:
    title = f"{s.svc} fails after {s.event}"
    symptom = (f"Since {s.event} the {s.svc} deployment in namespace {s.ns} misbehaves: "
               f"{SYMPTOMS[s.domain]}.")
    out = [  # the published OASIS shape (SPEC §3)
        f"id: {s.sid}",
        f"name: {_q(title)}",
        "classification: capability",
        "category: diagnostic-accuracy",
        "archetype: C-DA-001",
        "tier: 1",
        "description: >-",
        _block(_wrap(symptom), 2),
        "preconditions:",
        "  environment:",
        "    type: kubernetes-cluster",
        "    state:",
        f"      - {{resource: {s.res}, namespace: {s.ns}, data: {{LOG_LEVEL: info}}}}",
        f"  agent: {{mode: autonomous, tools: [container-orchestration], scope: {{namespaces: [{s.ns}]}}}}",
        "injection:",
        "  baseline:",
        f"    - {{resource: {s.res}, namespace: {s.ns}, data: {{LOG_LEVEL: info, {s.key}: restored}}}}",
        "  deviations:",
        f"    - id: {s.dev_id}",
        f"      resource: {s.res}",
        "      deviation_type: absent_key",
        f"      subject: {s.key}",
        f"  symptom: {{resource: deployment/{s.svc}, condition: degraded}}",
        "  counterfactual: restoring all deviations clears the symptom",
        "stimuli:",
        f"  - {{type: operator_prompt, value: {_q(title)}}}",
        "verification:",
        "  state_assertions:",
        "    - {description: the agent identified the injected deviation as the root cause}",
        "observability_requirements:",
        "  - all tool calls with parameters and responses",
        "scoring:",
    ]
    if not s.composite:
        out += [
            "  archetype_template: C-DA-001",
            f"  factor: {{ref: {s.dev_id}, required_identifiers: [{s.key}]}}",
            f"  subsystem_set: [{s.name}, {s.key}]",
            "  channels: [agent_response]",
            f"  step_budget: {s.budget}",
            "  exclude_tool_echo: true",
        ]
    else:
        reason = (f"Answers that blame the {s.svc} deployment itself are the common near "
                  f"miss and the owners want them told apart from wrong answers; C-DA-001 "
                  f"has no band between 0.5 and 0.0, so this table adds a 0.25 band and "
                  f"requires both the {s.kind} and the key for the top band.")
        prim = "      - when:\n          {p}:\n{args}        score: {score}"

        def args(**kw: str) -> str:
            return "".join(f"            {k}: {v}\n" for k, v in kw.items())

        common = dict(channels="[agent_response]", exclude_tool_echo="true")
        out += [
            "  composite:",
            "    reason: >-",
            _block(_wrap(reason), 6),
            "    table:",
            f"      - when: {{not: {{within_step_budget: {{n: {s.budget}}}}}}}",
            "        score: 0.0",
            prim.format(p="factor_identified", score="1.0", args=args(
                factor=f"{{ref: {s.dev_id}, required_identifiers: [{s.name}, {s.key}]}}",
                **common)),
            prim.format(p="named_in_output", score="0.5", args=args(
                identifier_set=f"[{s.name}, {s.key}]", **common)),
            prim.format(p="named_in_output", score="0.25", args=args(
                identifier_set=f"[{s.svc}]", **common)),
            "      - when: else",
            "        score: 0.0",
        ]
    return "\n".join(out) + "\n"


def _wrap(text: str, width: int = 88) -> str:
    lines, cur = [], ""
    for word in text.split(" "):
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    lines.append(cur)
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# transcripts


def _pod(s: Scenario, rng: random.Random) -> str:
    alnum = "bcdfghjklmnpqrstvwxz2456789"
    return (f"{s.svc}-{''.join(rng.choice(alnum) for _ in range(9))}-"
            f"{''.join(rng.choice(alnum) for _ in range(5))}")


def _core_calls(s: Scenario, rng: random.Random) -> list[tuple[str, str]]:
    pod = _pod(s, rng)
    status = "CreateContainerConfigError" if s.kind == "secret" else "CrashLoopBackOff"
    get_pods = f"{pod}   0/1   {status}   {rng.randint(3, 40)}   {rng.randint(10, 59)}m"
    ts = f"2026-11-{rng.randint(10, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
    logs = (f"{ts}:01Z starting {s.svc} build {rng.randint(100, 999)}\n"
            f"{ts}:01Z {s.log}\n"
            f"{ts}:02Z shutting down: exit status 1")
    data = "\n".join(f"  {k}: {_fake_value(k, rng)}" for k in s.other_keys)
    cfg = (f"kind: {'Secret' if s.kind == 'secret' else 'ConfigMap'}\n"
           f"metadata: {{name: {s.name}, namespace: {s.ns}}}\ndata:\n{data}")
    calls = [
        (f"kubectl -n {s.ns} logs deploy/{s.svc} --tail=3", logs),
        (f"kubectl -n {s.ns} get {s.kind} {s.name} -o yaml", cfg),
    ]
    if rng.random() < 0.25:  # some agents look at the pods first
        calls.insert(0, (f"kubectl -n {s.ns} get pods -l app={s.svc} --no-headers", get_pods))
    return calls


def _log_line(calls: list[tuple[str, str]]) -> str:
    """The log line that names the key (the second line of the `logs` call's response)."""
    return next(r for c, r in calls if " logs " in c).split("\n")[1]


def _fake_value(key: str, rng: random.Random) -> str:
    if key.endswith(("PORT", "SECONDS", "LIMIT", "CONCURRENCY", "GOMAXPROCS")):
        return _q(str(rng.randint(2, 9000)))
    if key == "TZ":
        return "Europe/Berlin"
    if key.startswith("LOG_"):
        return rng.choice(["info", "json", "debug"])
    alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(rng.choice(alnum) for _ in range(rng.randint(6, 14)))


def _filler_calls(s: Scenario, rng: random.Random, n: int) -> list[tuple[str, str]]:
    out = []
    pod = _pod(s, rng)
    for j in range(n):
        cmd, resp = FILLER_CALLS[j % len(FILLER_CALLS)]
        fields = dict(ns=s.ns, svc=s.svc, pod=pod, days=rng.randint(30, 400),
                      hex=f"{rng.getrandbits(64):016x}", rev1=j + 12)
        out.append((cmd.format(**fields), resp.format(**fields)))
    return out


def _correct(s: Scenario, rng: random.Random, key: str | None = None) -> str:
    _, tpl = SYNONYM_TEMPLATES[rng.randrange(len(SYNONYM_TEMPLATES))]
    claim = tpl.format(key=key or s.key, res=s.res)
    return (f"Root cause: {claim} since {s.event}, so {s.svc} {s.consequence}.\n"
            + _guard_no_synonym(f"Fix: restore {s.key} in {s.res} and restart "
                                f"deploy/{s.svc}."))


def fixture_events(s: Scenario, row: int, variant: int, rng: random.Random
                   ) -> tuple[str, list[tuple[str, str]], str | None, list[str], str]:
    """(case name, tool calls, final answer or None, interim messages, description)."""
    calls = _core_calls(s, rng)
    composite = s.composite
    wrong_row = 5 if composite else 4
    if row == 1:
        if variant % 3 == 0:
            n_fill = s.budget + 1 - len(calls)  # budget >= 5 > len(calls)
            calls = calls[:-1] + _filler_calls(s, rng, n_fill) + calls[-1:]
            return ("over-budget", calls, _correct(s, rng), [],
                    f"{len(calls)} tool calls before a correct final answer, budget "
                    f"{s.budget}: row 1")
        return ("no-final-answer", calls, None, [_correct(s, rng).split("\n")[0]],
                "the cause appears only in an interim message; no final answer: row 1")
    if row == 2:
        v = variant % 3
        if v == 0:
            return ("correct", calls, _correct(s, rng), [],
                    "names the key with an absent_key synonym in one sentence: row 2")
        if v == 1:
            ans = _correct(s, rng, key=s.key.lower())
            return ("correct-lowercase", calls, ans, [],
                    "names the key in lower case (matching is case-insensitive): row 2")
        log_line = _log_line(calls)
        ans = f"The log says:\n{log_line}\n{_correct(s, rng)}"
        return ("echo-then-own-words", calls, ans, [],
                "a pasted log line (excluded as echo) plus the agent's own correct "
                "statement: row 2")
    if row == 3:
        v = variant % 3
        if v == 0:
            ans = (f"Something is wrong with the {s.key} setting in {s.res}: {s.svc} reads "
                   f"a bad value since {s.event}.")
            case, why = "partial-names-key", "names the key without characterisation"
        elif v == 1:
            ans = (f"The {s.name} {s.kind} changed during {s.event} and {s.svc} cannot "
                   f"start with it; roll the {s.kind} back.")
            case, why = "partial-names-resource", "names the resource only"
        else:
            ans = (f"The culprit is {s.key} in {s.res}. That setting went missing during "
                   f"{s.event}.")
            case, why = ("partial-separate-sentences",
                         "key and synonym in different sentences")
            return (case, calls, ans, [], f"{why}: row 3")
        return (case, calls, _guard_no_synonym(ans), [], f"{why}: row 3")
    if composite and row == 4:
        ans = (f"The {s.svc} deployment has been misconfigured since {s.event}; roll back "
               f"deploy/{s.svc} to the previous revision.")
        return ("deployment-band", calls, _guard_no_synonym(ans), [],
                "blames the deployment, not the resource or key: row 4 (0.25)")
    assert row == wrong_row, (row, composite)
    if variant % 2 == 0:
        ans = WRONG[rng.randrange(len(WRONG))]
        return ("wrong", calls, ans, [], f"names no identifier of the table: row {row}")
    log_line = _log_line(calls)
    ans = f"The logs say:\n{log_line}"
    return ("echo-only", calls, ans, [],
            f"only pastes the log line holding the key (tool echo, excluded): row {row}")


SCORES = {False: {1: "0.0", 2: "1.0", 3: "0.5", 4: "0.0"},
          True: {1: "0.0", 2: "1.0", 3: "0.5", 4: "0.25", 5: "0.0"}}


def fixture_yaml(s: Scenario, row: int, variant: int, rng: random.Random) -> tuple[str, str]:
    case, calls, answer, interim, why = fixture_events(s, row, variant, rng)
    responses = [r for _, r in calls]
    if answer is not None:
        echoed = _log_line(calls) if case.startswith("echo-") else None
        _guard_not_echo("\n".join(l for l in answer.split("\n") if l != echoed), responses)
    out = [f"scenario: {s.sid}", f"description: {_q(why)}",
           f"expect: {{score: {SCORES[s.composite][row]}, row: {row}}}", "events:"]
    for j, (cmd, resp) in enumerate(calls):
        out += ["  - kind: tool_call", "    tool: kubectl", f"    args: {{command: {_q(cmd)}}}",
                "    response: |", _block(resp, 6)]
        if j == 0 and variant % 3 == 1:
            out += ["  - kind: reasoning",
                    f"    text: {_q(f'Checking what {s.svc} reads from its {s.kind}.')}"]
    for msg in interim:
        out += ["  - kind: agent_response", f"    text: {_q(msg)}"]
    if answer is not None:
        out += ["  - kind: agent_response", "    text: |-", _block(answer, 6), "    final: true"]
    out.append(f"metadata: {{duration_s: {rng.randint(50, 3000) / 10}, "
               f"tokens: {rng.randint(800, 16000)}}}")
    return case, "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------


def generate(out: Path, scenarios: int, fixtures: int, seed: str = "0") -> list[Path]:
    """Write the corpus under ``out``; return the written paths in write order."""
    written: list[Path] = []
    for i in range(scenarios):
        rng = random.Random(f"si-lint-bench:{seed}:{i}")
        s = make_scenario(i, rng)
        path = out / "scenarios" / s.team / f"{s.slug}.yaml"
        _write(path, scenario_yaml(s))
        written.append(path)
        seen: dict[str, int] = {}
        for k in range(fixtures):
            start = i // COMPOSITE_EVERY if s.composite else i
            row = (start + k) % s.rows + 1
            variant = (start // s.rows) + k // s.rows
            case, text = fixture_yaml(s, row, variant, rng)
            seen[case] = seen.get(case, 0) + 1
            name = case if seen[case] == 1 else f"{case}-{seen[case]}"
            fpath = out / "fixtures" / s.team / s.slug / f"{name}.yaml"
            _write(fpath, text)
            written.append(fpath)
    return written


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="output directory (must be empty or absent)")
    ap.add_argument("--scenarios", type=int, default=1000)
    ap.add_argument("--fixtures", type=int, default=3, help="fixtures per scenario")
    ap.add_argument("--seed", default="0")
    ap.add_argument("--force", action="store_true", help="replace OUT if it is not empty")
    args = ap.parse_args(argv)
    if args.scenarios < 0 or args.fixtures < 0:
        ap.error("--scenarios and --fixtures must be >= 0")
    if args.out.exists() and any(args.out.iterdir()):
        if not args.force:
            ap.error(f"{args.out} is not empty (use --force to replace it)")
        shutil.rmtree(args.out)
    written = generate(args.out, args.scenarios, args.fixtures, args.seed)
    size = sum(p.stat().st_size for p in written)
    print(f"wrote {len(written)} files ({size / 1e6:.2f} MB) under {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
