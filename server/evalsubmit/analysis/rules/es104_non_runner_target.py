"""ES104 non-runner-target: a taskset run whose `target=` is not an agent runner."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.target.derive import Derivation, TargetKind
from evalsubmit.core.findings import Finding, Severity

RULE = Rule(
    code="ES104",
    kind="non-runner-target",
    title="taskset target is not an agent runner",
    severity=Severity.ERROR,
    docs="""A taskset run needs a live agent runner as `target=`: an object with `run_tasks` and
`runner_info`, such as `GymAgentTaskRunner(config=...)`. A missing target, `None`, a `Model`, the
`GymRuntimeConfig` itself, or the wire model `GymRunnerTarget` make the SDK raise `TypeError`.

```python
spec = GymRunnerTarget(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=spec)  # ES104
```

**Fix:** wrap the config in a runner: `target=GymAgentTaskRunner(config=cfg)`.""",
)


def check(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    if "target" not in fact.args.keywords:
        if fact.args.star_unknown:
            return []
        return [
            finding(
                RULE,
                fact.name_span,
                "a taskset run needs `target=` set to an agent "
                "runner such as GymAgentTaskRunner(config=...); none was given",
            )
        ]
    derivation = fact.derivation
    if not isinstance(derivation, Derivation):
        return []
    if derivation.kind not in {TargetKind.NOT_RUNNER, TargetKind.NONE}:
        return []
    hint = (
        "wrap the config: `target=GymAgentTaskRunner(config=...)`"
        if derivation.type_name in {"GymRuntimeConfig", "GymRunnerTarget"}
        else "pass an agent runner such as `GymAgentTaskRunner(config=...)`"
    )
    return [
        finding(
            RULE,
            fact.argument_span("target"),
            f"`target=` must be an agent runner for a taskset run, got "
            f"{derivation.type_name}: {hint}",
        )
    ]


register(RULE, SubmitCheck(Phase.TASKSET_SHAPE, 2, check))
