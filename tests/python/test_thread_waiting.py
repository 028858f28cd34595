"""Importing crawlq makes OpenMP's threads spin briefly and then sleep while they wait, unless the
user chose a policy or a spin count."""
import os
import subprocess
import sys

SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


def settings_after_import(**given):
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(given)
    script = "import os, crawlq; print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('GOMP_SPINCOUNT'))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          check=True)
    return tuple(done.stdout.split())


def test_a_short_spin_then_sleep_by_default():
    assert settings_after_import() == ("PASSIVE", "10000")


def test_the_users_choice_stays():
    assert settings_after_import(OMP_WAIT_POLICY="ACTIVE") == ("ACTIVE", "None")
    assert settings_after_import(GOMP_SPINCOUNT="0") == ("None", "0")
