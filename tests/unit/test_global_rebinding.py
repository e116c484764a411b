"""A module global that a function rebinds through ``global`` is not its initial value inside
functions: ``configure(8)`` may have run first. It was read as its initial 0 and reported
(idiom ``flow/ok-global-set-by-configure``)."""

from __future__ import annotations

import textwrap

from evalsubmit.analysis import analyze_source
from evalsubmit.analysis.source.parse import parse_source

PROGRAM = textwrap.dedent("""\
    from nemo_evaluator.api.schemas import TasksetRef
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    WORKERS = 0


    def configure(workers):
        {declaration}
        {binding}


    def build_runner(agent):
        config = GymRuntimeConfig(
            agent=agent, agent_config="a.yaml", resources_server="mcqa", concurrency=WORKERS
        )
        return GymAgentTaskRunner(config=config)


    configure(8)
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner("simple_agent"))
    """)


def _es109(declaration: str, binding: str) -> list[str]:
    report = analyze_source(PROGRAM.format(declaration=declaration, binding=binding))
    assert report.skipped is None, report.skipped
    return [f.message for f in report.findings if f.code == "ES109"]


def test_a_global_rebound_by_a_function_is_unknown_in_functions() -> None:
    assert _es109("global WORKERS", "WORKERS = workers") == []


def test_rebinding_by_augmented_assignment_or_loop_counts_too() -> None:
    assert _es109("global WORKERS", "WORKERS += workers") == []
    assert _es109("global WORKERS", "for WORKERS in range(workers): pass") == []


def test_a_global_only_read_through_global_stays_known() -> None:
    assert _es109("global WORKERS", "print(WORKERS)") == ["`concurrency` must be ≥ 1, got 0"]


def test_a_local_of_the_same_name_rebinds_nothing() -> None:
    assert _es109("pass", "WORKERS = workers") == ["`concurrency` must be ≥ 1, got 0"]


TOP_LEVEL = textwrap.dedent("""\
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig

    WORKERS = 0


    def configure(workers):
        global WORKERS
        WORKERS = workers


    def helper():
        return 1


    def config():
        return GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", concurrency=WORKERS
        )


    {before}
    GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m", concurrency=WORKERS)
    """)


def _top_level_es109(before: str) -> list[int]:
    report = analyze_source(TOP_LEVEL.format(before=before))
    assert report.skipped is None, report.skipped
    return [f.span.line for f in report.findings if f.code == "ES109"]


def test_at_top_level_a_rebound_global_is_unknown_after_a_call() -> None:
    """Read at top level, a global some function rebinds is its value until a call: the call
    may run the function (directly, through helpers or code not seen), so after it the value
    is unknown (idiom ``flow/ok-global-configured-top-level``: configure(8) reported)."""
    assert _top_level_es109("configure(8)") == []
    assert _top_level_es109("helper()") == []
    assert _top_level_es109("[configure(n) for n in (1, 2)]") == []
    assert _top_level_es109("if helper():\n    configure(8)") == []
    assert _top_level_es109("pass") == [22]  # no call before the read: its value is known
    # a read in a call's own arguments comes before the call; the next read, after it
    first = (
        "GymRuntimeConfig(agent='a', agent_config='a', resources_server='m', concurrency=WORKERS)"
    )
    assert _top_level_es109(first) == [21]


def test_an_edited_call_before_the_read_walks_the_read_again() -> None:
    """The incremental analysis must see that any top-level call writes a rebound global: a
    call added before the read forgets the value (the finding goes), one removed brings it
    back; each must agree with a fresh analysis."""
    from test_incremental import outcome

    from evalsubmit.analysis import DocumentAnalyzer

    analyzer = DocumentAnalyzer(None, None)
    texts = [TOP_LEVEL.format(before=before) for before in ("pass", "helper()", "x = 1")]
    for text in [*texts, texts[0]]:
        assert outcome(analyzer.analyze(text)) == outcome(analyze_source(text))
    assert [_top_level_es109(b) for b in ("pass", "helper()")] == [[22], []]


CONFIGURED = textwrap.dedent("""\
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig

    WORKERS = 4


    def configure(workers):
        \"\"\"Set the worker count for this launch.\"\"\"
        global WORKERS
    {body}


    def log(message):
        print(message)


    configure(0)
    GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m", concurrency=WORKERS)
    """)


def _configured_es109(body: str) -> list[int]:
    report = analyze_source(CONFIGURED.format(body=textwrap.indent(body, "    ")))
    assert report.skipped is None, report.skipped
    return [f.span.line for f in report.findings if f.code == "ES109"]


def test_a_call_that_surely_rebinds_a_global_leaves_its_value() -> None:
    """``configure(0)`` whose body surely reaches its one binding of ``WORKERS``, and calls
    nothing after it, leaves ``WORKERS == 0`` at top level (idiom
    ``flow/global-configured-top-level-wrong``), whatever ran before the binding."""
    assert _configured_es109("WORKERS = workers") == [17]
    assert _configured_es109("log(workers)\nWORKERS: int = workers\nresult = None") == [19]


def test_a_binding_the_call_may_skip_or_undo_leaves_the_global_unknown() -> None:
    """A binding in a branch, after a possible return or failed assertion, followed by a call
    (which may rebind it again), or one of two: unknown after the call, as before."""
    assert _configured_es109("if workers:\n    WORKERS = workers") == []
    assert _configured_es109("if workers < 0:\n    return\nWORKERS = workers") == []
    assert _configured_es109("assert workers > 0\nWORKERS = workers") == []
    assert _configured_es109("WORKERS = workers\nlog(WORKERS)") == []
    assert _configured_es109("WORKERS = workers\nWORKERS = max(WORKERS, 1)") == []
    assert _configured_es109("try:\n    WORKERS = workers\nexcept ValueError:\n    pass") == []


def test_an_edited_configure_call_agrees_with_a_fresh_analysis() -> None:
    from test_incremental import outcome

    from evalsubmit.analysis import DocumentAnalyzer

    analyzer = DocumentAnalyzer(None, None)
    text = CONFIGURED.format(body="    WORKERS = workers")
    texts = [text, text.replace("configure(0)", "configure(8)"), text.replace("= workers", "= 2")]
    for edited in [*texts, texts[0], texts[2].replace("configure(0)", "log(0)")]:
        assert outcome(analyzer.analyze(edited)) == outcome(analyze_source(edited))


NONLOCAL = textwrap.dedent("""\
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig


    def main():
        workers = 0

        def configure(n):
            {declaration}
            workers = n

        def build():
            return GymRuntimeConfig(
                agent="a", agent_config="a.yaml", resources_server="m", concurrency=workers
            )

        {before}
        GymRuntimeConfig(agent="a", agent_config="a", resources_server="m", concurrency=workers)
        build()
    """)


def _nonlocal_es109(declaration: str, before: str) -> list[int]:
    report = analyze_source(NONLOCAL.format(declaration=declaration, before=before))
    assert report.skipped is None, report.skipped
    return sorted(f.span.line for f in report.findings if f.code == "ES109")


def test_a_local_a_nested_function_rebinds_through_nonlocal() -> None:
    """As a rebound global: read from a nested function it is unknown, and in the body after
    a call made there (idiom ``flow/ok-nonlocal-configured``: configure(8) then the initial
    0 reported). A nested local of the same name rebinds nothing."""
    assert _nonlocal_es109("nonlocal workers", "configure(8)") == []
    assert _nonlocal_es109("nonlocal workers", "pass") == [17]  # no call before the read
    assert _nonlocal_es109("pass", "configure(8)") == [13, 17]
    # a call made in a comprehension of the body may run it too
    assert _nonlocal_es109("nonlocal workers", "[configure(n) for n in (8,)]") == []


def test_nested_rebinding_is_looked_for_only_in_a_text_that_spells_nonlocal() -> None:
    """A module whose text never spells ``nonlocal`` has no function rebinding an enclosing
    one's names: its bodies are not walked for them. A non-ASCII text is not guessed at."""
    texts = {
        "def f():\n    x = 1\n": False,
        NONLOCAL.format(declaration="nonlocal workers", before="pass"): True,
        "def f():\n    s = 'é'\n": True,
        "def f():\n    x = 1\ndef g(:\n": False,  # the repaired parse
    }
    for text, spelled in texts.items():
        parsed = parse_source(text)
        assert parsed is not None and parsed.spells_nonlocal is spelled, text
