"""The preview of a Gym runner's target: the JSON the SDK sends when every field is known, else
the target rendered with markers where a value is unknown or refused (``<unknown: ...>``)."""

from __future__ import annotations

import functools
from typing import Any

from evalsubmit.analysis.report import TargetPreview
from evalsubmit.analysis.target.gym_config import ConfigEvaluation
from evalsubmit.analysis.target.json_form import render_json
from evalsubmit.analysis.target.stand_ins import is_stand_in
from evalsubmit.core.findings import Span
from evalsubmit.sdk import serialization
from evalsubmit.sdk.spec import WIRE_ONLY_DEFAULTS


def preview_from(evaluation: ConfigEvaluation, span: Span, name: str) -> TargetPreview:
    problems = tuple(issue.message for issue in evaluation.issues)
    problems += tuple(
        f"hydra_params holds {c.message}"
        + (": the SDK sends [] in its place" if c.kind == "iterator" else "")
        for c in evaluation.content
    )
    unknowns = tuple(evaluation.unknowns)
    if evaluation.model is not None and not problems and not unknowns:
        try:
            target = serialization.derive_target_json(evaluation.model)
        except (serialization.UnserializableConfig, ValueError) as error:
            text = str(error)
            return TargetPreview(span, name, None, render_markers({"error": text}), (text,))
        return TargetPreview(span, name, target, functools.partial(dumps, target))
    if evaluation.sent_model is not None and not unknowns:
        # one-shot iterators only: the JSON that is sent (each drained to []), the warning
        # beside it
        try:
            sent = serialization.derive_target_json(evaluation.sent_model)
        except (serialization.UnserializableConfig, ValueError):
            pass
        else:
            return TargetPreview(span, name, sent, functools.partial(dumps, sent), problems)
    # Only plain objects go into the deferred rendering: a preview cached for many edits must
    # not keep the whole interpreter of the analysis that made it alive.
    render = functools.partial(
        _render_partial,
        dict(evaluation.rendered),
        dict(evaluation.kwargs),
        star_unknown=evaluation.star_unknown,
    )
    return TargetPreview(span, name, None, render, problems, unknowns)


def dumps(target: dict[str, Any], indent: int | None = 2) -> str:
    import json  # only a preview's text needs it (a check asks for none)

    return json.dumps(target, indent=indent)


STAR_UNKNOWN = "<unknown: may be set by a ** mapping whose content is not statically known>"


def _render_partial(
    fields: dict[str, Any], kwargs: dict[str, Any], *, star_unknown: bool = False
) -> str:
    from evalsubmit.sdk import models as gym_models

    defaults = gym_models.GymRuntimeConfigModel.model_fields
    rendered: dict[str, Any] = {"kind": "gym"}
    for field_name in gym_models.GymRunnerTargetModel.model_fields:
        if field_name == "kind":
            continue
        if field_name in WIRE_ONLY_DEFAULTS:
            rendered[field_name] = WIRE_ONLY_DEFAULTS[field_name]
        elif field_name in fields:
            rendered[field_name] = _coerced(fields[field_name], kwargs.get(field_name), field_name)
        elif star_unknown and field_name in defaults:
            rendered[field_name] = STAR_UNKNOWN
        elif field_name in defaults and not defaults[field_name].is_required():
            rendered[field_name] = render_json(
                defaults[field_name].get_default(call_default_factory=True)
            )
        else:
            rendered[field_name] = "<error: missing: a required field that is not set>"
    return render_markers(rendered)


def _coerced(raw: Any, value: Any, field_name: str) -> Any:
    """A known field as the SDK would render it (``120`` -> ``120.0``), else with markers."""
    if is_stand_in(value):
        return render_json(raw)
    from evalsubmit.sdk import models as gym_models

    try:
        single = gym_models.GymRuntimeConfigModel.__pydantic_validator__.validate_assignment(
            gym_models.GymRuntimeConfigModel.model_construct(), field_name, value
        )
        return render_json(getattr(single, field_name))
    except Exception:
        return render_json(raw)


def render_markers(value: dict[str, Any]) -> str:
    import json

    return json.dumps(render_json(value), indent=2, ensure_ascii=False)
