"""``python -m drill``."""

import sys

from drill.cli.main import main

sys.exit(main())
