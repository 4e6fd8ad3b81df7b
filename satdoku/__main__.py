"""`python -m satdoku` runs the command line."""
import sys

from satdoku.cli import main

sys.exit(main())
