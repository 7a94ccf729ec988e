from websearch_mcp.cli import main

raise SystemExit(main())
