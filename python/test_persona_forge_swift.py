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
    process.stdin.close()  # the server stops when its stdin closes
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def setUpModule():
    # Expected warnings (failures given the neutral value, timeouts) are asserted through values, not printed.
    logging.getLogger("persona_forge_swift").addHandler(logging.NullHandler())
    logging.getLogger("persona_forge_swift").propagate = False
    SERVER.update(start_server())


def tearDownModule():
    stop_server(SERVER)


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
BAD = '<think>the user said sketching</think><answer>(a)</answer>'


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


# --- Replays of the trainers' call paths (written from their source) -------------------------
def swift_rewards(reward_funcs, completions, reward_kwargs, weights=None):
    """ms-swift ``rl_core/grpo_algorithm.py:compute_rewards_per_func`` then ``advantage.py``'s
    ``(rewards_per_func * weights).nansum(dim=1)``: None becomes NaN, and nansum counts NaN as 0."""
    nan = float("nan")
    async_indices = [i for i, f in enumerate(reward_funcs) if asyncio.iscoroutinefunction(f) or asyncio.iscoroutinefunction(getattr(f, "__call__", None))]
    per_func = [[0.0] * len(reward_funcs) for _ in completions]
    for i, func in enumerate(reward_funcs):
        if i in async_indices:
            continue
        for row, value in enumerate(func(completions, **reward_kwargs)):
            per_func[row][i] = nan if value is None else float(value)

    async def gather():
        return await asyncio.gather(*(reward_funcs[i](completions, **reward_kwargs) for i in async_indices))

    if async_indices:
        for i, output in zip(async_indices, asyncio.run(gather())):
            for row, value in enumerate(output):
                per_func[row][i] = nan if value is None else float(value)
    weights = weights or [1.0] * len(reward_funcs)
    return [sum(w * v for w, v in zip(weights, row) if v == v) for row in per_func]


def openrlhf_tensor(values):
    """``torch.tensor([v])`` as OpenRLHF calls it on rewards, scores and every extra_logs value:
    numbers (or nested lists of numbers) only; a dict, a string or None raises TypeError."""
    def check(value):
        if isinstance(value, bool) or isinstance(value, (int, float)):
            if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
                raise ValueError("non-finite value %r" % value)
            return
        if isinstance(value, list):
            for inner in value:
                check(inner)
            return
        raise TypeError("torch.tensor cannot take %r" % (value,))

    check(values)
    return values


def openrlhf_remote_reward(url, query, prompt, label):
    """OpenRLHF v0.11 ``SingleTurnAgentExecutor._fetch_rewards_via_http`` + the experience build in
    ``samples_generator._process_response_into_experience``: one query per POST, ``raise_for_status``,
    then ``torch.tensor([...])`` on rewards, scores and each extra_logs value."""
    import urllib.request

    body = json.dumps({"query": [query], "prompts": [prompt], "labels": [label]}).encode()
    request = urllib.request.Request(url + "/get_reward", data=body, method="POST", headers={"content-type": "application/json", "authorization": "Bearer " + TOKEN})
    with urllib.request.urlopen(request, timeout=30) as response:
        info = json.loads(response.read())
    reward = info.get("rewards")
    score = info.get("scores") if info.get("scores") is not None else reward
    experience = {"reward": openrlhf_tensor([reward]), "score": openrlhf_tensor([score])}
    for key, value in (info.get("extra_logs") or {}).items():
        experience[key] = openrlhf_tensor([value])
    return experience


QWEN_PROMPT = "<|im_start|>system\nAnswer with the letter.<|im_end|>\n<|im_start|>user\nWhich hobby? (a) Sketching. (b) Painting.<|im_end|>\n<|im_start|>assistant\n"


class TrainerReplayJudgeDownTest(unittest.TestCase):
    """The judge is down: ms-swift gets an exception or neutral rewards, never zeros; OpenRLHF gets finite tensors."""

    @classmethod
    def setUpClass(cls):
        cls.down = start_server("--judge-down")
        cls.value = start_server("--judge-down", "--on-failure", json.dumps({"default": {"value": -1}}))

    @classmethod
    def tearDownClass(cls):
        stop_server(cls.down)
        stop_server(cls.value)

    def setUp(self):
        self.module, _ = load_plugin("4.x")

    def c(self, server):
        return self.module.RewardClient(url=server["url"], token=TOKEN, timeout=30, retries=0, backoff=0.01)

    def batch(self):
        mc = [{"role": "user", "content": "Which hobby? (a) Sketching. (b) Painting."}]
        open_q = [{"role": "user", "content": "What did I say about my weekends?"}]
        completions = [GOOD, BAD, "<think>x</think><answer>You hike.</answer>", "<think>x</think><answer>You swim.</answer>"]
        prompts = [mc, mc, open_q, open_q]
        kwargs = {
            "trainer_state": object(),
            "messages": [p + [{"role": "assistant", "content": c}] for p, c in zip(prompts, completions)],
            "solution": ["(b)", "(b)", "You hike on Saturdays.", "You hike on Saturdays."],
            "choices": [["Sketching.", "Painting."], ["Sketching.", "Painting."], None, None],
            "prompt_id": ["prompt_0", "prompt_0", "prompt_1", "prompt_1"],
        }
        return completions, kwargs

    def test_partial_failure_is_neutral_within_its_group(self):
        completions, kwargs = self.batch()
        accuracy = self.module.PfAccuracy(client=self.c(self.down))
        fmt = self.module.PfFormat(client=self.c(self.down))
        totals = swift_rewards([accuracy, fmt], completions, kwargs)
        # Multiple choice is scored by rule (1, 0); the open group could not be judged: both of its
        # rows get one value, so their advantage is 0 instead of a fake "wrong" 0 against a scored group.
        self.assertEqual(totals[:2], [2.0, 1.0])
        self.assertEqual(totals[2], totals[3])
        self.assertAlmostEqual(totals[2], 0.5 + 1.0)  # the batch mean of accuracy, plus format 1

    def test_a_batch_with_nothing_scored_raises(self):
        completions, kwargs = self.batch()
        personavlm = self.module.PfPersonaVLM(client=self.c(self.down))
        with self.assertRaises(self.module.RewardFailedError) as caught:
            swift_rewards([personavlm], completions, kwargs)
        self.assertIn("judge_error", str(caught.exception))
        self.assertGreater(self.module.FAILURE_COUNTS.get(("personavlm", "judge_error"), 0), 0)

    def test_a_configured_value_is_what_the_trainer_gets(self):
        completions, kwargs = self.batch()
        personavlm = self.module.PfPersonaVLM(client=self.c(self.value))
        self.assertEqual(swift_rewards([personavlm], completions, kwargs), [-1.0] * 4)

    def test_failures_are_counted_in_metrics(self):
        completions, kwargs = self.batch()
        swift_rewards([self.module.PfAccuracy(client=self.c(self.down))], completions, kwargs)
        import urllib.request

        request = urllib.request.Request(self.down["url"] + "/metrics", headers={"authorization": "Bearer " + TOKEN})
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
        self.assertRegex(text, r'pf_reward_fallback_items_total\{reward="accuracy",policy="neutral",code="judge_error"\} [1-9]')

    def test_openrlhf_gets_finite_tensors_with_the_judge_down(self):
        label = json.dumps({"solution": "(b)", "choices": ["Sketching.", "Painting."]})
        query = QWEN_PROMPT + "<think>the user said painting</think><answer>(b)</answer><|im_end|>"
        experience = openrlhf_remote_reward(self.value["url"], query, QWEN_PROMPT, label)
        self.assertEqual(experience["reward"], [[-1]])
        self.assertEqual(experience["pf_failed"], [[1]])
        # fail (nothing scored, nothing to be neutral against): a 503 that OpenRLHF's client raises on.
        import urllib.error

        with self.assertRaises(urllib.error.HTTPError) as caught:
            openrlhf_remote_reward(self.down["url"], query, QWEN_PROMPT, label)
        self.assertEqual(caught.exception.code, 503)


class OpenRlhfContractTest(unittest.TestCase):
    def test_end_tokens_are_stripped_and_every_value_is_a_finite_number(self):
        label = json.dumps({"solution": "(b)", "choices": ["Sketching.", "Painting."]})
        query = QWEN_PROMPT + "<think>the user said painting</think><answer>(b)</answer><|im_end|><|endoftext|>"
        experience = openrlhf_remote_reward(SERVER["url"], query, QWEN_PROMPT, label)
        # format 1 (the end tokens are not counted against it), accuracy 1, consistency 1 (stub judge)
        self.assertEqual(experience["reward"], [[2.5]])
        self.assertEqual(experience["format"], [[1]])
        self.assertEqual(experience["pf_failed"], [[0]])

    def test_labels_of_any_json_type_and_a_trimmed_prompt(self):
        query = QWEN_PROMPT + "<think>x</think><answer>(b)</answer><|im_end|>"
        for label in ["(b)", {"solution": "(b)", "choices": ["Sketching.", "Painting."]}, 2, None]:
            experience = openrlhf_remote_reward(SERVER["url"], query, QWEN_PROMPT.strip(), label)
            self.assertEqual(experience["format"], [[1]], label)
        # A prompt OpenRLHF truncated from the left still splits the completion off.
        truncated = QWEN_PROMPT[40:] + "<think>x</think><answer>(b)</answer><|im_end|>"
        self.assertEqual(openrlhf_remote_reward(SERVER["url"], truncated, QWEN_PROMPT, "(b)")["format"], [[1]])


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


class TokenChoice(Choice):
    def __init__(self, content, token_ids):
        super().__init__(content)
        self.token_ids = token_ids


async def swift_rollout_run(scheduler, request, completions):
    """ms-swift ``MultiTurnScheduler.run`` (server mode, 4.5+): append the completion, await
    ``on_turn_end``, then ``check_finished``, then ``step`` and keep its token ids."""
    turn_ids = []
    for turn, (content, ids) in enumerate(completions, start=1):
        await asyncio.sleep(0)  # the engine's infer_async
        choice = TokenChoice(content, ids)
        request.messages.append({"role": "assistant", "content": content})
        result = await scheduler.on_turn_end(request, choice, turn)
        done = scheduler.check_finished(request, choice, turn)
        if "done" in result:
            done = result["done"]
        if done:
            return turn_ids
        ret = scheduler.step(request, choice, turn)
        if "response_loss_mask" in ret:
            assert len(ret["response_loss_mask"]) == len(ret["response_token_ids"])
        turn_ids.append(ret.get("response_token_ids"))
    return turn_ids


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
        scheduler = registry["multi_turns"]["pf_retrieval"](max_turns=4, client=c)
        retrieve = '<think>x</think><retrieve>{"keywords": "hiking"}</retrieve>'
        answer = "<think>ok</think><answer>You hike.</answer>"

        async def main():
            requests = [InferRequest({"user_id": "u-%d" % i}) for i in range(8)]
            started = time.monotonic()
            results = await asyncio.gather(*(swift_rollout_run(scheduler, r, [(retrieve, [11, 12, 13]), (answer, [14, 15])]) for r in requests))
            return time.monotonic() - started, requests, results

        elapsed, requests, results = asyncio.run(main())
        self.assertLess(elapsed, 1.0)  # blocking step(): 8 × 0.5 s = 4 s
        self.assertEqual(results, [[[11, 12, 13]]] * 8)
        for request in requests:
            self.assertEqual(request.messages[-1]["role"], "assistant")
            self.assertIn("slow but there", request.messages[-2]["content"])


if __name__ == "__main__":
    unittest.main()
