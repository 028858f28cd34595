"""The Python package as `cmake --install` puts it under a prefix: importable from there, and finding the
shipped scenarios installed beside it (registered only when the build has the package)."""
import os
import re
import subprocess


def test_the_installed_python_package_finds_the_shipped_scenarios(prefix, tmp_path):
    found = sorted(prefix.rglob("crawlq/__init__.py"))
    assert len(found) == 1 and re.search(r"lib/python3\.\d+/dist-packages/crawlq$", str(found[0].parent))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(found[0].parent.parent)}
    script = ("import crawlq; s = crawlq.scenarios(); print(s.directory); "
              "print(crawlq.load('paper-example-1').solve().cost)")
    ran = subprocess.run(["/usr/bin/python3", "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert ran.returncode == 0, ran.stderr
    directory, cost = ran.stdout.split()
    assert directory == str(prefix / "share" / "crawlq") and cost.startswith("63.54")
