"""The hookd package's tests. Run from python/ (go test's TestPythonHost does):
python3 -m unittest discover -s tests -t . ; they import the package from src/
unless HOOKD_TEST_INSTALLED=1 asks for the installed one."""

import os
import sys

if os.environ.get("HOOKD_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
