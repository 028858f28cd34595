"""`cpack -G DEB`: crawlq_<version>_amd64.deb (and python3-crawlq's when the build has the Python
package), read with dpkg-deb (the fields, the dependencies dpkg-shlibdeps found, the files) and
unpacked into a scratch root, where the program answers from another directory by a scenario's name."""
import os
import re
import subprocess

import pytest

from conftest import ARTEFACTS, BINARY, BUILD_DIR, SHIPPED, SOURCE_DIR, json_of, run, without_timing


@pytest.fixture(scope="module")
def packages():
    out = ARTEFACTS / "packages"
    for old in out.glob("*.deb"):
        old.unlink()
    done = subprocess.run(["cpack", "-G", "DEB", "-B", str(out), "--config", str(BUILD_DIR / "CPackConfig.cmake")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return {p.name.split("_")[0]: p for p in out.glob("*.deb")}


def fields_of(deb):
    info = run("dpkg-deb", "--field", deb)
    assert info.returncode == 0, info.stderr
    return dict(re.findall(r"^([\w-]+): (.*(?:\n .*)*)", info.stdout, re.MULTILINE))


def contents_of(deb):
    listed = run("dpkg-deb", "--contents", deb)
    assert listed.returncode == 0, listed.stderr
    return {line.split()[-1] for line in listed.stdout.splitlines()}


def test_the_package_is_named_as_debian_names_packages(packages):
    version = fields_of(packages["crawlq"])["Version"]
    assert packages["crawlq"].name == f"crawlq_{version}_amd64.deb"
    assert version == os.environ["CRAWLQ_VERSION"]
    if "python3-crawlq" in packages:
        assert packages["python3-crawlq"].name == f"python3-crawlq_{version}_amd64.deb"


def test_its_dependencies_are_the_libraries_the_program_links(packages):
    fields = fields_of(packages["crawlq"])
    assert fields["Package"] == "crawlq" and fields["Architecture"] == "amd64"
    depends = [d.strip().split()[0] for d in fields["Depends"].split(",")]
    # Every shared library crawlq loads is in a package the .deb depends on.
    linked = run("ldd", BINARY).stdout
    for library, package in (("libyaml-cpp", "libyaml-cpp"), ("libfmt", "libfmt"), ("libstdc++", "libstdc++6"),
                             ("libgomp", "libgomp1"), ("libc.so", "libc6")):
        if library in linked:
            assert any(d.startswith(package) for d in depends), (library, fields["Depends"])
    info = run("dpkg-deb", "--info", packages["crawlq"])
    assert info.returncode == 0 and "Depends:" in info.stdout and "Description:" in info.stdout


def test_it_holds_the_program_the_scenarios_the_man_page_and_the_completion(packages):
    files = contents_of(packages["crawlq"])
    for path in ["./usr/bin/crawlq", "./usr/share/man/man1/crawlq.1", "./usr/share/bash-completion/completions/crawlq",
                 "./usr/share/doc/crawlq/README.md", "./usr/share/doc/crawlq/interface.md",
                 "./usr/share/crawlq/logs/synthetic-crawler.log"] + [
                     f"./usr/share/crawlq/scenarios/{name}.yaml" for name in SHIPPED]:
        assert path in files, path
    assert not any("/usr/local" in f or str(BUILD_DIR) in f for f in files)


def test_unpacked_anywhere_it_optimizes_a_shipped_scenario_by_name(packages, tmp_path):
    root = tmp_path / "root"
    for deb in packages.values():
        assert run("dpkg-deb", "-x", deb, root).returncode == 0
    home = tmp_path / "home"
    home.mkdir()
    answer = json_of(run(root / "usr" / "bin" / "crawlq", "optimize", "paper-example-1", "--json", cwd=home))
    built = json_of(run(BINARY, "optimize", SOURCE_DIR / "scenarios" / "data" / "paper-example-1.yaml", "--json"))
    assert without_timing(answer) == without_timing(built)
    assert "63.54" in run(root / "usr" / "bin" / "crawlq", "optimize", "paper-example-1", cwd=home).stdout


def test_the_python_package_depends_on_crawlq_and_imports_unpacked(packages, tmp_path):
    if "python3-crawlq" not in packages:
        assert not (BUILD_DIR / "python" / "crawlq").exists(), "the build has the Python package but no package of it"
        return
    fields = fields_of(packages["python3-crawlq"])
    depends = fields["Depends"]
    assert f"crawlq (= {fields['Version']})" in depends and "python3-numpy" in depends and "python3 (>=" in depends
    files = contents_of(packages["python3-crawlq"])
    assert "./usr/lib/python3/dist-packages/crawlq/__init__.py" in files
    assert any(re.fullmatch(r"\./usr/lib/python3/dist-packages/crawlq/_crawlq\..*\.so", f) for f in files)
    root = tmp_path / "root"
    for deb in packages.values():
        assert run("dpkg-deb", "-x", deb, root).returncode == 0
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {
        "PYTHONPATH": str(root / "usr" / "lib" / "python3" / "dist-packages")}
    script = "import crawlq; print(crawlq.scenarios().directory); print(crawlq.load('paper-example-1').optimize().best['cost'])"
    ran = subprocess.run(["/usr/bin/python3", "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert ran.returncode == 0, ran.stderr
    directory, cost = ran.stdout.split()
    assert directory == str(root / "usr" / "share" / "crawlq") and cost.startswith("63.54")
