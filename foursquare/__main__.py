import sys

from foursquare.cli import main

sys.exit(main())
