import sys

from spitemalice.cli import main

sys.exit(main())
