"""ES110 literal-secret: a credential-shaped string literal in `env_vars`."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from evalsubmit.analysis.interp.facts import ConstructionFact, ConstructionKind, SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import (
    ConstructionCheck,
    Phase,
    Rule,
    SubmitCheck,
    register,
)
from evalsubmit.analysis.target.derive import Derivation
from evalsubmit.analysis.values.domain import DictValue, Known, Value
from evalsubmit.core.findings import Finding, Severity

RULE = Rule(
    code="ES110",
    kind="literal-secret",
    title="credential written into env_vars",
    severity=Severity.WARNING,
    docs="""`env_vars` travel in plain text inside the job spec: anyone who can read the job can
read them. A string literal that looks like an API key or token (`sk-…`, `nvapi-…`, `ghp_…`,
`AKIA…`, a long random string under a `*_KEY`/`*_TOKEN`/`*_SECRET`/`*_PASSWORD` name) should be
stored as a platform secret instead. One stored into a config's `env_vars` after it was built
(`cfg.env_vars["HF_TOKEN"] = "hf_…"`) is reported when that config is submitted.

```python
env_vars={"OPENAI_API_KEY": "sk-proj-3xAmpl3..."}  # ES110
```

**Fix:** create a secret on the platform (`nemo secrets create ...`) and reference it from the
job, or read the value from the environment at run time.""",
)

KNOWN_PREFIXES = re.compile(
    r"^(sk-[A-Za-z0-9_-]{16,}|nvapi-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|"
    r"github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[abpr]-[A-Za-z0-9-]{10,}|"
    r"hf_[A-Za-z0-9]{20,}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})"
)
SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)S?$", re.IGNORECASE)


def looks_like_secret(name: str, value: str) -> bool:
    if KNOWN_PREFIXES.match(value):
        return True
    if not SECRET_NAME.search(name) or len(value) < 16 or " " in value or "/" in value:
        return False
    return _entropy(value) >= 3.5


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def check_construction(fact: ConstructionFact, ctx: RuleContext) -> list[Finding]:
    if fact.kind is not ConstructionKind.GYM_CONFIG:
        return []
    return _secrets(_entries(fact.args.keywords.get("env_vars")), ctx)


def check_submit(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    """``env_vars`` set or stored into after the config was constructed
    (``cfg.env_vars = {...}``, ``cfg.env_vars["KEY"] = "..."``), once it is sent."""
    derivation = fact.derivation
    if not isinstance(derivation, Derivation) or derivation.config is None:
        return []
    if derivation.constructed is None:
        return []
    sent = [  # the entries as the derivation found them at the submit
        (path[1], value)
        for path, value in derivation.config.values.items()
        if len(path) == 2 and path[0] == "env_vars"
    ]
    found = _secrets(sent, ctx)
    if not found:
        return []
    written = _secrets(_entries(derivation.constructed.keywords.get("env_vars")), ctx)
    return [secret for secret in found if secret not in written]  # reported at construction


def _entries(env_vars: Value | None) -> list[tuple[object, Value]]:
    if not isinstance(env_vars, DictValue):
        return []
    return [(e.key.obj, e.value) for e in env_vars.entries if isinstance(e.key, Known)]


def _secrets(entries: Sequence[tuple[object, Value]], ctx: RuleContext) -> list[Finding]:
    findings = []
    for key, value in entries:
        if not (isinstance(key, str) and isinstance(value, Known) and isinstance(value.obj, str)):
            continue
        if not looks_like_secret(key, value.obj) or not ctx.here(value.origin):
            continue
        assert value.origin is not None
        findings.append(
            finding(
                RULE,
                value.origin.span,
                f"`{key}` looks like a credential written in plain text: "
                f"env_vars travel unencrypted inside the job spec; store it as a "
                f"platform secret instead",
            )
        )
    return findings


register(
    RULE,
    ConstructionCheck(3, check_construction),
    SubmitCheck(Phase.TASKSET_CONTENT, 5, check_submit),
)
