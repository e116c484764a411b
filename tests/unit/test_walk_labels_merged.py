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
