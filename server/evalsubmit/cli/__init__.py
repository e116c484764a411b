"""The command line: ``evalsubmit check | preview | rule | serve`` (:mod:`.main`) and the
output formats of ``check`` (:mod:`.output`)."""

from evalsubmit.cli.main import main

__all__ = ["main"]
