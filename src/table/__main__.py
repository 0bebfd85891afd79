"""``python -m table`` runs the command line."""

import sys

from table.cli import main

sys.exit(main())
