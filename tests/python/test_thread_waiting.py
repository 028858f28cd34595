"""Importing crawlq makes OpenMP's threads wait without spinning, unless the user chose a policy."""
import os
import subprocess
import sys


def policy_after_import(given):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given:
        env["OMP_WAIT_POLICY"] = given
    done = subprocess.run([sys.executable, "-c", "import os, crawlq; print(os.environ['OMP_WAIT_POLICY'])"],
                          capture_output=True, text=True, env=env, check=True)
    return done.stdout.strip()


def test_passive_by_default():
    assert policy_after_import(None) == "PASSIVE"


def test_the_users_choice_stays():
    assert policy_after_import("ACTIVE") == "ACTIVE"
