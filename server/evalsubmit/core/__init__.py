"""The facts every layer shares, standard library only: LSP-correct line splitting
(:mod:`evalsubmit.core.lines`) and reading Python source files from disk the way Python does
(:mod:`evalsubmit.core.sourcefile`). Imports nothing else of evalsubmit."""
