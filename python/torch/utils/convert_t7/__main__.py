"""python -m torch.utils.convert_t7: the command line (cli.py; usage in __init__.py)."""

import sys

from torch.utils.convert_t7.cli import main

sys.exit(main())
