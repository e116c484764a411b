"""The rules: one module per rule (its code, docs and checks), registered on import.

Adding a rule is one module here plus its import below; ``docs/rules.md`` is generated from the
registry (``evalsubmit rule --markdown``), and the engine runs whatever is registered.
"""

from evalsubmit.analysis.rules import (  # noqa: F401  (each registers itself)
    es100_invalid_syntax,
    es101_mixed_shape,
    es102_row_option_on_taskset,
    es103_no_shape,
    es104_non_runner_target,
    es105_runner_on_row_path,
    es106_unsubmittable_runner,
    es107_unserializable_config,
    es108_bad_taskset_ref,
    es109_invalid_config_value,
    es110_literal_secret,
    es111_sdk_version_mismatch,
    es190_unused_suppression,
    es191_unknown_rule_code,
)
from evalsubmit.analysis.rules.registry import RULES, Phase, Rule, rules_markdown
from evalsubmit.analysis.rules.runner import run_module_rules, run_rules

__all__ = ["RULES", "Phase", "Rule", "rules_markdown", "run_module_rules", "run_rules"]
