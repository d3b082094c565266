"""What the check scripts share: counting checks and printing the closing 'N passed, N failed' line."""
import sys


class Checks:
    """Counts checks, printing `ok` or `FAIL` with the detail for each."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def __call__(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}")
        return condition

    def finish(self):
        """Prints the closing line and exits 1 when any check failed."""
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
