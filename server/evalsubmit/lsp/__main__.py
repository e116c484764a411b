from evalsubmit.lsp import run_server

raise SystemExit(run_server())
