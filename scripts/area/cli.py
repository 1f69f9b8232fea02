"""The command line of the area scripts (area.py, sweep.py, test_area.py)."""
import argparse
import sys


class ArgumentParser(argparse.ArgumentParser):
    """Bad arguments exit with 1 (argparse's own is 2, the code of a failed tool here)."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")
