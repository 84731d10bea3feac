"""find_hookd: HOOKD_PATH, then the binary the wheel carries, then PATH."""

import os
import tempfile
import unittest
from unittest import mock

from hookd import _binary, find_hookd


class FindHookdTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="hookd-find-")
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def executable(self, *parts):
        path = os.path.join(self.dir, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(path, 0o755)
        return path

    def test_hookd_path_wins(self):
        mine = self.executable("mine", "hookd")
        on_path = self.executable("bin", _binary.EXE)
        self.assertEqual(find_hookd({"HOOKD_PATH": mine, "PATH": os.path.dirname(on_path)}), mine)

    def test_a_hookd_path_that_is_not_a_file_is_an_error(self):
        with self.assertRaisesRegex(FileNotFoundError, "HOOKD_PATH is .*nope, which is not a file"):
            find_hookd({"HOOKD_PATH": os.path.join(self.dir, "nope")})

    def test_the_bundled_binary_comes_before_path(self):
        bundled = self.executable("pkg", "bin", _binary.EXE)
        on_path = self.executable("bin", _binary.EXE)
        with mock.patch.object(_binary, "bundled_hookd", return_value=bundled):
            self.assertEqual(find_hookd({"PATH": os.path.dirname(on_path)}), bundled)

    def test_path_is_the_last_resort(self):
        on_path = self.executable("bin", _binary.EXE)
        with mock.patch.object(_binary, "bundled_hookd", return_value=os.path.join(self.dir, "none")):
            self.assertEqual(find_hookd({"PATH": os.path.dirname(on_path)}), on_path)

    def test_security_an_empty_or_relative_path_entry_does_not_pick_up_hookd_from_the_working_folder(self):
        # A repository that ships ./hookd must not be run because PATH holds
        # an empty entry ("::", a leading or trailing ":") or a relative one.
        planted = self.executable("repo", _binary.EXE)
        on_path = self.executable("bin", _binary.EXE)
        cwd = os.getcwd()
        os.chdir(os.path.dirname(planted))
        self.addCleanup(os.chdir, cwd)
        with mock.patch.object(_binary, "bundled_hookd", return_value=os.path.join(self.dir, "none")):
            for path in ("", os.pathsep, os.pathsep + os.path.dirname(on_path), ".", "." + os.pathsep + os.path.dirname(on_path)):
                try:
                    found = find_hookd({"PATH": path})
                except FileNotFoundError:
                    found = None
                self.assertNotEqual(found and os.path.realpath(found), os.path.realpath(planted), f"PATH={path!r}")
                if os.path.dirname(on_path) in path:
                    self.assertEqual(found, on_path, f"PATH={path!r}")

    def test_nothing_found_names_every_place_looked(self):
        with mock.patch.object(_binary, "bundled_hookd", return_value="/wheel/hookd/bin/hookd"):
            with self.assertRaises(FileNotFoundError) as cm:
                find_hookd({"PATH": self.dir})
        msg = str(cm.exception)
        for part in ("HOOKD_PATH is not set", "/wheel/hookd/bin/hookd does not exist", "no hookd on PATH"):
            self.assertIn(part, msg)


if __name__ == "__main__":
    unittest.main()
