"""`python -m stubgen` runs the command-line generator."""

import sys

from stubgen.cli import main

sys.exit(main())
