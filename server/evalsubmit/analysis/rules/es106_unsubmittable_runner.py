"""ES106 unsubmittable-runner: a runner with no wire form (anything but Gym)."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.target.derive import Derivation, TargetKind
from evalsubmit.core.findings import Finding, Severity

RULE = Rule(
    code="ES106",
    kind="unsubmittable-runner",
    title="runner cannot be submitted as a job",
    severity=Severity.ERROR,
    docs="""Only `GymAgentTaskRunner` (and its subclasses) has a wire form the platform can run.
Harbor, callable, Fabric, Docker-sandbox and sandboxed-Gym runners, your own runner classes (with
`run_tasks` and `runner_info`, or deriving from the `AgentTaskRunner` protocol, which defines
both), and a runner *class* passed without instantiating it all fail with
`UnsubmittableRunnerError`.

```python
harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
client.evaluator.submit(tasks=TasksetRef("qa/tb"), target=harbor)  # ES106
```

**Fix:** run such runners in-process with `AgentEvaluator()`, or use a `GymAgentTaskRunner`.""",
)


def check(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    derivation = fact.derivation
    if not isinstance(derivation, Derivation) or "target" not in fact.args.keywords:
        return []
    if derivation.kind is TargetKind.RUNNER_CLASS:
        message = (
            f"`target=` is the class {derivation.type_name}, not an instance: it has no "
            f"target spec; instantiate it (e.g. {derivation.type_name}(config=...))"
        )
    elif derivation.kind is TargetKind.UNSUBMITTABLE:
        message = (
            f"{derivation.type_name} has no target spec: only GymAgentTaskRunner can be "
            f"submitted as a job; run it in-process with AgentEvaluator() instead"
        )
    else:
        return []
    return [finding(RULE, fact.argument_span("target"), message)]


register(RULE, SubmitCheck(Phase.TASKSET_CONTENT, 1, check))
