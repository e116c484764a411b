"""A finding made in every element of a loop is not named element by element: the loop's walks
fold away wherever they stand among the walks that found it, also when a call site walked
inside the loop comes after them. It was said twice over ("for the 1st agent of (...), when
runner() is called at line 17; for the 2nd agent of (...), when runner() is called at line
17")."""

from __future__ import annotations

import textwrap

from evalsubmit.analysis import analyze_source

PROGRAM = textwrap.dedent("""\
    from nemo_evaluator.api.schemas import TasksetRef
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    client = NeMoPlatform(workspace="qa")


    def runner(agent, repeats):
        config = GymRuntimeConfig(
            agent=agent, agent_config="a.yaml", resources_server="mcqa", num_repeats=repeats
        )
        return GymAgentTaskRunner(config=config)


    class Nightly:
        def launch(self, agent, repeats):
            target = runner(agent, repeats)
            return client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=target)


    for agent in ("simple_agent", "tool_agent"):
        Nightly().launch(agent, repeats=-1)
    for agent, repeats in (("simple_agent", 2), ("tool_agent", 0)):
        Nightly().launch(agent, repeats)
    """)


def test_every_element_of_a_loop_is_said_once_as_the_call_site() -> None:
    messages = sorted(f.message for f in analyze_source(PROGRAM).findings if f.code == "ES109")
    assert messages == [
        "`num_repeats` must be ≥ 1, got -1 (when runner() is called at line 17)",
        "`num_repeats` must be ≥ 1, got 0 (for the 2nd element of "
        "(('simple_agent', 2), ('tool_agent', 0)), when runner() is called at line 17)",
    ]


TWO_ON_ONE_LINE = textwrap.dedent("""\
    from nemo_evaluator_sdk import ExactMatchMetric
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    AGENT = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="mcqa")
    )
    METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


    def grade(client, rows):
        return client.evaluator.submit(metric=METRIC, dataset=rows, target=AGENT)


    def nightly(client):
        return [grade(client, [{"a": 1}]), grade(client, [{"a": 2}])]


    nightly(NeMoPlatform(workspace="qa"))
    """)


def test_two_calls_on_one_line_are_named_once() -> None:
    """Two walks that read alike (two call sites on one line) were named twice over ("when
    nightly() is called at line 19, when grade() is called at line 16; when nightly() is called
    at line 19, when grade() is called at line 16")."""
    messages = [f.message for f in analyze_source(TWO_ON_ONE_LINE).findings if f.code == "ES105"]
    assert len(messages) == 1
    assert messages[0].endswith(
        "(when nightly() is called at line 19, when grade() is called at line 16)"
    )
