"""``python -m graphmend …`` runs the same command as the ``graphmend`` script."""

import sys

from graphmend._launcher import main

if __name__ == "__main__":
    sys.exit(main())
