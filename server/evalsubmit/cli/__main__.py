from evalsubmit.cli.main import main

raise SystemExit(main())
