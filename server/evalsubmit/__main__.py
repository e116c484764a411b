"""``python -m evalsubmit``: the CLI, as the ``evalsubmit`` command runs it."""

from evalsubmit.cli import main

raise SystemExit(main())
