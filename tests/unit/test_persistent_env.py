"""Environments are persistent: a fork costs O(1) (it shares its parent's bindings until one
side binds a name), a store on one side is never seen by the other, and a join of branches
that bound nothing keeps the one table."""

from __future__ import annotations

from evalsubmit.analysis import analyze_source
from evalsubmit.analysis.values.domain import Known, Unknown
from evalsubmit.analysis.values.env import Env

# values compare by identity: each test binds these and checks which one a name holds
ONE, TWO, THREE, FIVE, X = Known(1), Known(2), Known(3), Known(5), Known("x")

HEADER = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")


def submit_with(params):
    cfg = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                           hydra_params=params)
    client.evaluator.submit(tasks=TasksetRef("qa/x"), target=GymAgentTaskRunner(config=cfg))
"""


def test_a_fork_shares_the_bindings_until_a_store() -> None:
    start = Env({"seed": ONE})
    fork = start.copy()
    assert fork.bindings is start.bindings
    fork.names["seed"] = TWO
    assert fork.bindings is not start.bindings


def test_a_store_in_a_fork_is_invisible_to_its_sibling_and_its_start() -> None:
    start = Env({"seed": ONE})
    left, right = start.copy(), start.copy()
    left.names["seed"] = TWO
    left.names["extra"] = THREE
    assert right.lookup("seed") is ONE
    assert right.lookup("extra") is None
    assert start.lookup("seed") is ONE
    assert left.lookup("seed") is TWO


def test_a_store_in_the_start_is_invisible_to_a_fork_made_before_it() -> None:
    start = Env({"seed": ONE})
    fork = start.copy()
    start.names["seed"] = TWO
    assert fork.lookup("seed") is ONE


def test_an_env_that_took_anothers_bindings_stores_apart_from_it() -> None:
    before = Env({"seed": ONE})
    after = Env({"seed": FIVE})
    after.share(before)
    after.names["seed"] = TWO
    assert before.lookup("seed") is ONE
    before.names["other"] = THREE
    assert after.lookup("other") is None


def test_a_join_of_branches_that_bound_nothing_keeps_the_table() -> None:
    start = Env({"seed": ONE})
    start.join_paths(start.copy(), start.copy())
    assert dict(start.bindings) == {"seed": ONE}  # the same value object
    start.names["seed"] = TWO  # the start's store after the join is its own
    assert start.lookup("seed") is TWO


def test_a_join_makes_a_name_bound_differently_unknown() -> None:
    start = Env({"seed": ONE, "kept": X})
    left, right = start.copy(), start.copy()
    left.names["seed"] = TWO
    start.join_paths(left, right)
    assert isinstance(start.lookup("seed"), Unknown)
    assert start.lookup("kept") is X


def test_a_branch_binding_does_not_reach_the_other_branch() -> None:
    text = HEADER + (
        "\n\ndef nightly(debug):\n"
        "    params = {'seed': 1}\n"
        "    if debug:\n"
        "        params = {'seed': 1, 'callback': lambda rollout: print(rollout)}\n"
        "    else:\n"
        "        submit_with(params)\n"
    )
    assert [f.code for f in analyze_source(text).findings] == []
    in_the_branch = text.replace("    else:\n        submit_with(params)\n", "")
    in_the_branch += "        submit_with(params)\n"
    assert [f.code for f in analyze_source(in_the_branch).findings] == ["ES107"]
