"""`cmake --install` puts the package where the system's python3 finds it under the prefix, and the
installed package runs from any directory."""
import os
import subprocess
import sys

from conftest import PAPER


def test_the_installed_package_imports_and_solves_from_elsewhere(tmp_path):
    prefix = tmp_path / "prefix"
    build = os.environ["CRAWLQ_BUILD_DIR"]
    done = subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = sorted(prefix.rglob("crawlq/__init__.py"))
    assert len(found) == 1
    site = found[0].parent.parent
    assert site.name == "dist-packages"  # where Debian's python3 looks under a prefix
    for name in ("_results.py", "_crawlq.pyi", "py.typed"):
        assert (site / "crawlq" / name).exists(), name
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    script = f"import crawlq; print(crawlq.__file__); print(crawlq.load({str(PAPER)!r}).solve().cost)"
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert ran.returncode == 0, ran.stderr
    where, cost = ran.stdout.split()
    assert where.startswith(str(site)) and cost.startswith("63.54")
