"""Test support for the persona_forge_swift tests (standard library only).

``start_server`` runs the real reward server (``test/support/start-reward-server.ts`` through
``npx tsx``: the real llm layer against the fake OpenAI-compatible judge) on a free loopback port;
``start_binary`` runs the shipped ``bin/persona-forge.js serve`` against ``persona-forge dev
fake-llm``; ``load_plugin`` imports the plugin under ms-swift stand-ins. The trainers' call paths
are in ``swift_standins.py`` and ``openrlhf_standins.py``.
"""

import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
import types

from swift_standins import StandInAsyncORM, StandInORM, StandInScheduler

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TOKEN = "pf-test-token"


# --- servers ----------------------------------------------------------------------------------
def start_server(*extra):
    """The real reward server in a child process; returns its ``{"url", "memoryRunDir", "process"}``."""
    env = dict(os.environ, PF_TEST_TOKEN=TOKEN)
    process = subprocess.Popen(
        ["npx", "--no-install", "tsx", "test/support/start-reward-server.ts", "--port", "0", "--fixture-memory", "--token-env", "PF_TEST_TOKEN", *extra],
        cwd=REPO,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    line = process.stdout.readline().decode("utf-8")
    if not line:
        process.kill()
        raise RuntimeError("reward server did not start (is `npm ci` done?)")
    return dict(json.loads(line), process=process)


def stop_server(server):
    process = server.get("process")
    if process is None:
        return
    if process.stdin is not None:
        process.stdin.close()  # start-reward-server stops when its stdin closes
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _started(process, pattern, what):
    """Reads the child's stdout until ``pattern`` matches (its URL), or fails with its output."""
    seen = []
    for raw in iter(process.stdout.readline, b""):
        line = raw.decode("utf-8", "replace")
        seen.append(line)
        match = re.search(pattern, line)
        if match:
            return match.group(1), "".join(seen)
    process.kill()
    raise RuntimeError("%s did not start: %s" % (what, "".join(seen)[-2000:]))


def start_binary(token_env="PF_BIN_TOKEN"):
    """``persona-forge dev fake-llm --port 0`` as the judge and ``persona-forge serve --port 0``
    with a rewards.yaml naming it: the shipped binary as the README runs it."""
    binary = os.path.join(REPO, "bin", "persona-forge.js")
    judge = subprocess.Popen(["node", binary, "dev", "fake-llm", "--port", "0", "--model", "fake-judge"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    judge_url, _ = _started(judge, r"server on (http://\S+?)[ ;(]", "persona-forge dev fake-llm")
    folder = tempfile.mkdtemp(prefix="pf-python-serve-")
    config = os.path.join(folder, "rewards.yaml")
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(
            "llm:\n  endpoints:\n    judge:\n      baseUrl: %s\n      model: fake-judge\n      maxRetries: 0\n"
            "  roles:\n    judge: judge\n  cache:\n    enabled: false\ncache:\n  enabled: false\n"
            "openrlhf:\n  reward: personavlm\n" % judge_url
        )
    env = dict(os.environ, **{token_env: TOKEN})
    serve = subprocess.Popen(["node", binary, "serve", "--config", config, "--port", "0", "--token-env", token_env], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url, printed = _started(serve, r"reward server on (http://\S+?) ", "persona-forge serve")
    return {"url": url, "process": serve, "judge": judge, "judge_url": judge_url, "folder": folder, "printed": printed}


def stop_binary(server):
    for name in ("process", "judge"):
        process = server[name]
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
    for entry in os.listdir(server["folder"]):
        os.remove(os.path.join(server["folder"], entry))
    os.rmdir(server["folder"])


class env_var:
    """Sets an environment variable for a ``with`` block."""

    def __init__(self, name, value):
        self.name, self.value = name, value

    def __enter__(self):
        self.saved = os.environ.get(self.name)
        os.environ[self.name] = self.value

    def __exit__(self, *exc):
        if self.saved is None:
            os.environ.pop(self.name, None)
        else:
            os.environ[self.name] = self.saved


# --- the plugin under ms-swift stand-ins ------------------------------------------------------
_SWIFT_MODULES = ["swift", "swift.rewards", "swift.rollout", "swift.rollout.multi_turn", "swift.plugin", "swift.plugin.orm", "swift.plugin.multi_turn"]


def load_plugin(version="4.x"):
    """Imports the plugin fresh with ms-swift stand-ins of ``version`` ('4.x', '3.x' or None)."""
    for name in _SWIFT_MODULES + ["persona_forge_swift"]:
        sys.modules.pop(name, None)
    registry = {"orms": {}, "multi_turns": {}}
    if version is not None:
        reward_path, turn_path = ("swift.rewards", "swift.rollout.multi_turn") if version == "4.x" else ("swift.plugin.orm", "swift.plugin.multi_turn")
        for name in _SWIFT_MODULES:
            sys.modules[name] = types.ModuleType(name)
        rewards = sys.modules[reward_path]
        rewards.ORM, rewards.AsyncORM, rewards.orms = StandInORM, StandInAsyncORM, registry["orms"]
        turns = sys.modules[turn_path]
        turns.MultiTurnScheduler, turns.multi_turns = StandInScheduler, registry["multi_turns"]
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    module = importlib.import_module("persona_forge_swift")
    for name in _SWIFT_MODULES:
        sys.modules.pop(name, None)
    return module, registry
