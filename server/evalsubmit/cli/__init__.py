"""The command line: ``evalsubmit`` (:mod:`.main`) and one module per command (:mod:`.check`,
:mod:`.preview`, :mod:`.rule`), their shared pieces (:mod:`.common`) and the output formats of
``check`` (:mod:`.output`)."""

from evalsubmit.cli.main import main

__all__ = ["main"]
