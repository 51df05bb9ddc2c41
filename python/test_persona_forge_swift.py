"""Tests for persona_forge_swift (stdlib only): run with ``cd python && python3 -m unittest discover -p 'test_*.py'``.

They start the real reward server (``test/support/start-reward-server.ts`` through ``npx tsx``)
on a free loopback port (its judge: the fake OpenAI-compatible server reached through the real
llm layer; a fixture memory run directory for retrieval) and inject minimal stand-ins for the
ms-swift base classes through ``sys.modules``.
"""

import asyncio
import http.server
import json
import logging
import os
import threading
import time
import unittest

from pf_test_support import TOKEN, env_var, load_plugin, start_server, stop_server
from swift_standins import Choice, InferRequest, ScriptedEngine, StandInAsyncORM

SERVER = {}


def setUpModule():
    # Expected warnings (failures given the neutral value, timeouts) are asserted through values, not printed.
    logging.getLogger("persona_forge_swift").addHandler(logging.NullHandler())
    logging.getLogger("persona_forge_swift").propagate = False
    SERVER.update(start_server())


def tearDownModule():
    stop_server(SERVER)


def client(module, **kwargs):
    options = dict(url=SERVER["url"], token=TOKEN, timeout=30, retries=2, backoff=0.05)
    options.update(kwargs)
    return module.RewardClient(**options)


GOOD = '<think>the user said painting</think><answer>(b)</answer>'
BAD = '<think>the user said sketching</think><answer>(a)</answer>'


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

    def test_a_failed_item_gets_its_groups_mean_never_none_or_zero(self):
        orm = self.module.PfAccuracy(args=None, client=client(self.module))
        choices = [["Sketching.", "Painting."]] * 4
        prompt = [{"role": "user", "content": "Which hobby? (a) Sketching. (b) Painting."}]
        messages = [prompt + [{"role": "assistant", "content": c}] for c in (GOOD, GOOD, BAD, GOOD)]
        # The last row lacks its solution (not applicable): it takes the mean of its group (1, 1, 0).
        values = asyncio.run(orm([GOOD, GOOD, BAD, GOOD], solution=["(b)", "(b)", "(b)", None], choices=choices, messages=messages))
        self.assertEqual(values[:3], [1.0, 1.0, 0.0])
        self.assertAlmostEqual(values[3], 2 / 3, places=3)
        self.assertNotIn(None, values)

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
        # A bad request is a bug, not an outage: it raises even with PERSONA_FORGE_ON_ERROR=neutral.
        with env_var("PERSONA_FORGE_ON_ERROR", "neutral"), self.assertRaises(self.module.RewardServerError):
            asyncio.run(self.module.PfFormat(client=bad)([GOOD, GOOD]))

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
        trainer = {"rewards": [0.5, 0.5], "policy": "neutral", "filled": 1, "codes": {"timeout": 1}}
        body = json.dumps({"rewards": [0.5, None], "components": {}, "errors": [], "usage": {}, "trainer": trainer}).encode()
        try:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out first (the hanging-server test)

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
        self.assertEqual(c.score("format", [{"completion": "a"}, {"completion": "b"}]), [0.5, 0.5])
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
        with self.assertRaises(module.RewardServerError):
            asyncio.run(module.PfFormat(client=c)(["a", "b"]))
        self.assertLess(time.monotonic() - started, 1.5)
        # Asked for, an unreachable server gives the whole batch one constant: no advantage moves.
        with env_var("PERSONA_FORGE_ON_ERROR", "neutral"):
            self.assertEqual(asyncio.run(module.PfFormat(client=c)(["a", "b"])), [0.0, 0.0])


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
        self.assertTrue(self.scheduler.check_finished(request, Choice('<retrieve>{"keywords":"x"}</retrieve>', finish_reason="length"), 1))
        self.assertFalse(self.scheduler.check_finished(request, Choice('<retrieve>{"keywords":"x"}</retrieve>'), 1))


class SlowRetrieveHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", "0")))
        time.sleep(0.5)
        body = json.dumps({"block": "<memory>\nslow but there\n</memory>", "results": [{"id": "m1"}]}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class RetrievalConcurrencyTest(unittest.TestCase):
    def test_eight_trajectories_with_a_half_second_retrieval_finish_in_under_a_second(self):
        module, registry = load_plugin("4.x")
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowRetrieveHandler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(thread.join, 5)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        c = module.RewardClient(url="http://127.0.0.1:%d" % server.server_address[1], token="", timeout=5, retries=0)
        engine = ScriptedEngine()
        scheduler = registry["multi_turns"]["pf_retrieval"](engine, max_turns=4, client=c)
        retrieve = '<think>x</think><retrieve>{"keywords": "hiking"}</retrieve>'
        answer = "<think>ok</think><answer>You hike.</answer>"

        async def main():
            requests = [InferRequest({"user_id": "u-%d" % i}) for i in range(8)]
            for request in requests:
                engine.add(request, [(retrieve, [11, 12, 13]), (answer, [14, 15])])
            started = time.monotonic()
            # ms-swift server mode: MultiTurnScheduler.run per trajectory, all at once.
            outputs = await asyncio.gather(*(scheduler.run(request, None) for request in requests))
            return time.monotonic() - started, requests, outputs

        elapsed, requests, outputs = asyncio.run(main())
        self.assertLess(elapsed, 1.0)  # blocking step(): 8 × 0.5 s = 4 s
        for request, output in zip(requests, outputs):
            self.assertEqual(output.response_token_ids, [[11, 12, 13], [14, 15]])
            self.assertEqual(request.messages[-1]["role"], "assistant")
            self.assertIn("slow but there", request.messages[-2]["content"])


if __name__ == "__main__":
    unittest.main()
