"""The real SDK's ``GymRuntimeConfig`` on every generated input, printed as JSON.

Usage (with the SDK venv's interpreter, never the project's), from the repository root::

    .cache/sdk-venv/bin/python tests/contract/constraint_oracle.py CASES

where ``CASES`` is ``tests/contract/constraint_cases.py``.

Records the model's fields (type, required, default, bounds, ``extra``) and, for each case of
``constraint_cases.py``, either pydantic's errors (``loc``, ``type``, ``ctx``, ``repr`` of the
input) or the validated values (type name and ``repr``) and the wire target JSON of a runner
built from them (``runner_to_target(runner).model_dump(mode="json")``, or the exception's type).
"""

from __future__ import annotations

import json
import runpy
import sys
from importlib import metadata
from typing import Any

import pydantic
from nemo_evaluator.jobs.runner_targets import runner_to_target
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


def fields() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, info in GymRuntimeConfig.model_fields.items():
        bounds = {
            key: getattr(meta, key)
            for meta in info.metadata
            for key in ("ge", "gt", "le", "lt")
            if getattr(meta, key, None) is not None
        }
        factory = info.default_factory
        out[name] = {
            "annotation": repr(info.annotation),
            "required": info.is_required(),
            "default": None
            if info.is_required()
            else repr(info.get_default(call_default_factory=True)),
            "factory": factory is not None,
            "bounds": bounds,
            "metadata": len(info.metadata),
        }
    return out


def run_case(source: str, namespace: dict[str, Any]) -> dict[str, Any]:
    data = eval(source, namespace)
    try:
        config = GymRuntimeConfig.model_validate(data)
    except pydantic.ValidationError as exc:
        errors = [
            {
                "loc": list(e["loc"]),
                "type": e["type"],
                "ctx": e.get("ctx"),
                "input": repr(e["input"]),
            }
            for e in exc.errors(include_url=False)
        ]
        return {"errors": errors}
    values = {
        name: [type(getattr(config, name)).__name__, repr(getattr(config, name))]
        for name in fields_order
    }
    try:
        target: Any = runner_to_target(GymAgentTaskRunner(config=config)).model_dump(mode="json")
    except Exception as exc:
        target = {"error": type(exc).__name__}
    return {"values": values, "target": target}


fields_order = list(GymRuntimeConfig.model_fields)


def main() -> None:
    module = runpy.run_path(sys.argv[1])
    namespace: dict[str, Any] = {}
    exec(module["PREAMBLE"], namespace)
    report = {
        "sdk": {"nemo_platform": metadata.version("nemo-platform"), "pydantic": pydantic.VERSION},
        "extra": GymRuntimeConfig.model_config.get("extra"),
        "fields": fields(),
        "cases": {case_id: run_case(source, namespace) for case_id, source in module["cases"]()},
    }
    json.dump(report, sys.stdout, default=repr, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
