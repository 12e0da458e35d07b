"""`python -m companion` runs the command line."""

from companion.cli import main

raise SystemExit(main())
