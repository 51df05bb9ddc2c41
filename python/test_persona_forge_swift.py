"""Tests for persona_forge_swift (stdlib only): run with ``cd python && python3 -m unittest discover -p 'test_*.py'``.

They start the real reward server (``test/support/start-reward-server.ts`` through ``npx tsx``)
on a free loopback port (its judge: the fake OpenAI-compatible server reached through the real
llm layer; a fixture memory run directory for retrieval) and inject minimal stand-ins for the
ms-swift base classes through ``sys.modules``.
"""

import asyncio
import http.server
import importlib
import json
import logging
import os
import subprocess
import sys
import threading
import time
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TOKEN = "pf-test-token"
SERVER = {}


def setUpModule():
    # Expected warnings (401, timeouts) are asserted through return values, not printed.
    logging.getLogger("persona_forge_swift").addHandler(logging.NullHandler())
    env = dict(os.environ, PF_TEST_TOKEN=TOKEN)
    process = subprocess.Popen(
        ["npx", "--no-install", "tsx", "test/support/start-reward-server.ts", "--port", "0", "--fixture-memory", "--token-env", "PF_TEST_TOKEN"],
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
    SERVER.update(json.loads(line), process=process)


def tearDownModule():
    process = SERVER.get("process")
    if process is None:
        return
    process.stdin.close()  # the server stops when its stdin closes
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# --- ms-swift stand-ins ---------------------------------------------------------------------
_SWIFT_MODULES = ["swift", "swift.rewards", "swift.rollout", "swift.rollout.multi_turn", "swift.plugin", "swift.plugin.orm", "swift.plugin.multi_turn"]


class StandInORM:
    def __init__(self, args=None, **kwargs):
        self.args = args


class StandInAsyncORM(StandInORM):
    pass


class StandInScheduler:
    def __init__(self, infer_engine=None, max_turns=None, *args, **kwargs):
        self.infer_engine = infer_engine
        self.max_turns = max_turns

    def check_finished(self, infer_request, response_choice, current_turn):
        return response_choice.finish_reason == "length" or (self.max_turns is not None and current_turn >= self.max_turns)


def load_plugin(version):
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


def client(module, **kwargs):
    options = dict(url=SERVER["url"], token=TOKEN, timeout=30, retries=2, backoff=0.05)
    options.update(kwargs)
    return module.RewardClient(**options)


GOOD = '<think>the user said painting</think><answer>(b)</answer>'


class ImportPathsTest(unittest.TestCase):
    def test_registers_with_ms_swift_4x_paths(self):
        module, registry = load_plugin("4.x")
        self.assertEqual(module.SWIFT_API, "4.x")
        for name in ["pf_format", "pf_accuracy", "pf_consistency", "pf_tree_ops", "pf_persona", "pf_personavlm", "pf_format_sync"]:
            self.assertIn(name, registry["orms"])
        self.assertIs(registry["multi_turns"]["pf_retrieval"], module.PfRetrievalScheduler)
        self.assertTrue(issubclass(module.PfFormat, StandInAsyncORM))
        self.assertTrue(asyncio.iscoroutinefunction(module.PfFormat.__call__))
        self.assertFalse(asyncio.iscoroutinefunction(registry["orms"]["pf_format_sync"].__call__))

    def test_falls_back_to_ms_swift_3x_paths(self):
        module, registry = load_plugin("3.x")
        self.assertEqual(module.SWIFT_API, "3.x")
        self.assertIn("pf_personavlm", registry["orms"])
        self.assertIn("pf_retrieval", registry["multi_turns"])

    def test_imports_without_ms_swift(self):
        module, _ = load_plugin(None)
        self.assertEqual(module.SWIFT_API, "standalone")
        self.assertIn("pf_tree_ops", module.orms)
        self.assertIn("pf_retrieval", module.multi_turns)

    def test_constructor_accepts_args_like_both_versions(self):
        module, _ = load_plugin("4.x")
        self.assertEqual(module.PfFormat(args="grpo-config").args, "grpo-config")  # 4.x: cls(args=...)
        self.assertIsNone(module.PfFormat(tokenizer=object()).args)  # 3.x: fields + tokenizer


class RewardOrmTest(unittest.TestCase):
    def setUp(self):
        self.module, _ = load_plugin("4.x")

    def test_async_format_scores_a_batch(self):
        orm = self.module.PfFormat(args=None, client=client(self.module))
        values = asyncio.run(orm([GOOD, "no tags at all"], trainer_state=object(), prompt_id=["p0", "p0"]))
        self.assertEqual(values, [1.0, 0.0])

    def test_nulls_become_none_not_zero(self):
        orm = self.module.PfAccuracy(args=None, client=client(self.module))
        choices = [["Sketching.", "Painting."], ["Sketching.", "Painting."]]
        values = asyncio.run(orm([GOOD, GOOD], solution=["(b)", None], choices=choices))
        self.assertEqual(values, [1.0, None])

    def test_personavlm_and_sync_twin(self):
        c = client(self.module)
        kwargs = dict(solution=["(b)"], choices=[["x", "y"]], messages=[[{"role": "user", "content": "Which?"}, {"role": "assistant", "content": GOOD}]])
        async_value = asyncio.run(self.module.PfPersonaVLM(client=c)([GOOD], **kwargs))
        sync_value = self.module.orms["pf_personavlm_sync"](client=c)([GOOD], **kwargs)
        # accuracy 1 + consistency 1 (stub judge) + 0.5 * format 1
        self.assertEqual(async_value, [2.5])
        self.assertEqual(sync_value, [2.5])

    def test_batches_are_split_and_kept_in_order(self):
        orm = self.module.PfFormat(client=client(self.module, batch_size=2))
        completions = [GOOD, "x", GOOD, "x", GOOD]
        self.assertEqual(asyncio.run(orm(completions)), [1.0, 0.0, 1.0, 0.0, 1.0])

    def test_wrong_token_fails_fast_and_maps_to_none(self):
        bad = client(self.module, token="wrong", retries=3, backoff=1.0)
        started = time.monotonic()
        with self.assertRaises(self.module.RewardServerError) as caught:
            bad.score("format", [{"completion": GOOD}])
        self.assertEqual(caught.exception.status, 401)
        self.assertLess(time.monotonic() - started, 2.0)  # a 4xx is not retried (one retry would sleep 1 s, three 7 s)
        self.assertEqual(asyncio.run(self.module.PfFormat(client=bad)([GOOD, GOOD])), [None, None])

    def test_bad_request_names_the_problem(self):
        with self.assertRaises(self.module.RewardServerError) as caught:
            client(self.module).score("vibes", [{"completion": GOOD}])
        self.assertEqual(caught.exception.status, 400)
        self.assertIn("unknown reward", str(caught.exception))


class FlakyHandler(http.server.BaseHTTPRequestHandler):
    failures = 2
    delay = 0.0
    seen = 0

    def do_POST(self):
        type(self).seen += 1
        self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.delay:
            time.sleep(self.delay)
        if type(self).seen <= self.failures:
            self.send_response(503)
            self.end_headers()
            self.wfile.write(b'{"error": "busy"}')
            return
        body = json.dumps({"rewards": [0.5, None], "components": {}, "errors": [], "usage": {}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class RetryTest(unittest.TestCase):
    def serve(self, failures, delay=0.0):
        handler = type("Handler", (FlakyHandler,), {"failures": failures, "delay": delay, "seen": 0})
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(thread.join, 5)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        return "http://127.0.0.1:%d" % server.server_address[1], handler

    def test_retries_5xx_with_backoff(self):
        module, _ = load_plugin("4.x")
        url, handler = self.serve(failures=2)
        c = module.RewardClient(url=url, token="", timeout=5, retries=3, backoff=0.05)
        started = time.monotonic()
        self.assertEqual(c.score("format", [{"completion": "a"}, {"completion": "b"}]), [0.5, None])
        self.assertEqual(handler.seen, 3)
        self.assertGreaterEqual(time.monotonic() - started, 0.05 + 0.1)  # backoff 0.05 then 0.1

    def test_gives_up_after_the_retries(self):
        module, _ = load_plugin("4.x")
        url, handler = self.serve(failures=100)
        c = module.RewardClient(url=url, token="", timeout=5, retries=2, backoff=0.01)
        with self.assertRaises(module.RewardServerError):
            c.score("format", [{"completion": "a"}])
        self.assertEqual(handler.seen, 3)

    def test_times_out_a_hanging_server(self):
        module, _ = load_plugin("4.x")
        url, _handler = self.serve(failures=0, delay=2.0)
        c = module.RewardClient(url=url, token="", timeout=0.2, retries=1, backoff=0.01)
        started = time.monotonic()
        values = asyncio.run(module.PfFormat(client=c)(["a", "b"]))
        self.assertEqual(values, [None, None])
        self.assertLess(time.monotonic() - started, 1.5)


class Message:
    def __init__(self, content):
        self.content = content


class Choice:
    def __init__(self, content, finish_reason="stop"):
        self.message = Message(content)
        self.finish_reason = finish_reason


class InferRequest:
    def __init__(self, data_dict):
        self.messages = [{"role": "user", "content": "What do I do on weekends lately?"}]
        self.data_dict = data_dict


class RetrievalSchedulerTest(unittest.TestCase):
    def setUp(self):
        self.module, registry = load_plugin("4.x")
        self.scheduler = registry["multi_turns"]["pf_retrieval"](max_turns=6, client=client(self.module))

    def turn(self, request, content, current_turn):
        # ms-swift appends the completion as an assistant message before check_finished/step.
        request.messages.append({"role": "assistant", "content": content})
        choice = Choice(content)
        if self.scheduler.check_finished(request, choice, current_turn):
            return None
        return self.scheduler.step(request, choice, current_turn)

    def test_retrieves_memory_into_a_new_user_turn_and_never_repeats_an_entry(self):
        request = InferRequest({"user_id": "u-1", "question_time": "2024-05-01 10:00"})
        query = '<think>look it up</think><retrieve>{"keywords": "hiking weekend", "start_time": null, "end_time": null}</retrieve>'
        result = self.turn(request, query, 1)
        self.assertIs(result["infer_request"], request)
        self.assertEqual(result["rollout_infos"], {"pf_retrievals": 1})
        memory = request.messages[-1]
        self.assertEqual(memory["role"], "user")
        self.assertTrue(memory["content"].startswith("<memory>"))
        self.assertIn("hiking", memory["content"])
        first_ids = list(request.data_dict["_pf_retrieved_ids"])
        self.assertIn("s2", first_ids)
        self.turn(request, query, 2)
        self.assertNotIn("Mara started hiking on weekends", request.messages[-1]["content"])
        self.assertIsNone(self.turn(request, "<think>ok</think><answer>You hike on Saturdays.</answer>", 3))

    def test_uses_an_inline_memory_snapshot_column(self):
        with open(os.path.join(SERVER["memoryRunDir"], "memory", "memory.jsonl"), encoding="utf-8") as handle:
            snapshot = json.loads(handle.readline())["snapshots"][-1]
        # Exported RL rows carry the snapshot as a JSON string and user_id beside it.
        request = InferRequest({"memory_snapshot": json.dumps(snapshot), "user_id": "not-in-run-dir"})
        self.turn(request, '<think>x</think><retrieve>{"keywords": "hotpot", "start_time": "2024-03-01 00:00", "end_time": "2024-03-31 23:59"}</retrieve>', 1)
        self.assertIn("Sichuan hotpot", request.messages[-1]["content"])
        self.assertNotIn("hiking", request.messages[-1]["content"])

    def test_serves_at_most_three_retrievals(self):
        request = InferRequest({"user_id": "u-1"})
        query = '<think>x</think><retrieve>{"keywords": "hotpot"}</retrieve>'
        served = [self.turn(request, query, turn) for turn in range(1, 5)]
        self.assertEqual([result is not None for result in served], [True, True, True, False])

    def test_bad_payload_or_missing_user_becomes_an_explanatory_turn(self):
        request = InferRequest({"user_id": "u-1"})
        self.turn(request, "<think>x</think><retrieve>hotpot please</retrieve>", 1)
        self.assertIn("invalid retrieve JSON", request.messages[-1]["content"])
        orphan = InferRequest({})
        self.turn(orphan, '<think>x</think><retrieve>{"keywords": "hotpot"}</retrieve>', 1)
        self.assertIn("no user_id or memory_snapshot", orphan.messages[-1]["content"])

    def test_finishes_on_answer_plain_text_or_length(self):
        request = InferRequest({"user_id": "u-1"})
        self.assertTrue(self.scheduler.check_finished(request, Choice("<answer>x</answer>"), 1))
        self.assertTrue(self.scheduler.check_finished(request, Choice("just text"), 1))
        self.assertTrue(self.scheduler.check_finished(request, Choice('<retrieve>{"keywords":"x"}</retrieve>', "length"), 1))
        self.assertFalse(self.scheduler.check_finished(request, Choice('<retrieve>{"keywords":"x"}</retrieve>'), 1))


if __name__ == "__main__":
    unittest.main()
