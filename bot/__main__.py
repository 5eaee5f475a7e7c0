"""`python -m bot`: the same entry point as the `gpu-advisor` console script."""

import sys

from bot.console.cli import main

sys.exit(main())
