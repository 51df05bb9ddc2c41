"""The trainers' call paths replayed against the live reward server (stdlib only).

Each test drives ``persona_forge_swift`` (or the HTTP contract) through a stand-in of the
upstream code written from its source (``pf_test_support``: ms-swift 3602360a, OpenRLHF v0.11.0)
in the real call order, with the judge up, down and flaky:

* multi-turn GRPO in server mode (``MultiTurnScheduler.run``) and colocate mode (``run_multi_turn``):
  every assistant turn trains on its own token ids;
* ``compute_rewards_per_func`` + nansum + group advantages by ``prompt_id``: a failed item's
  advantage is 0 within its own prompt group;
* OpenRLHF's remote reward client with default flags (empty labels), with a token, and with a
  prompt's samples scored concurrently in separate requests;
* 512 PersonaVLM RL rows per rank (with their ~26–50 KB memory snapshots) without a 413.
"""

import asyncio
import json
import logging
import os
import random
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from pf_test_support import (
    REPO,
    TOKEN,
    Choice,
    InferRequest,
    ScriptedEngine,
    colocate_run_multi_turn,
    load_plugin,
    openrlhf_generate_responses,
    openrlhf_post,
    openrlhf_single_turn,
    replace_assistant_response_with_ids,
    start_binary,
    start_server,
    stop_binary,
    stop_server,
    swift_advantages,
    swift_rewards,
    swift_rewards_per_func,
)

SERVERS = {}


def setUpModule():
    logging.getLogger("persona_forge_swift").addHandler(logging.NullHandler())
    logging.getLogger("persona_forge_swift").propagate = False
    SERVERS["up"] = start_server()
    SERVERS["down"] = start_server("--judge-down")
    SERVERS["flaky"] = start_server("--judge-flaky", "--group-size", "4")


def tearDownModule():
    for server in SERVERS.values():
        stop_server(server)


def client(module, server="up", **kwargs):
    options = dict(url=SERVERS[server]["url"], token=TOKEN, timeout=60, retries=0, backoff=0.01)
    options.update(kwargs)
    return module.RewardClient(**options)


RETRIEVE = '<think>I should look it up</think><retrieve>{"keywords": "%s", "start_time": null, "end_time": null}</retrieve>'
SYSTEM = {"role": "system", "content": "You are a personal assistant with a memory."}
MC_QUESTION = "Which hobby did I pick up? Options:\n(a) Sketching\n(b) Painting"


def snapshot(size, seed):
    """A memory_snapshot column of about ``size`` bytes (a JSON string, as the export writes it)."""
    rng = random.Random(seed)
    words = ["hiking", "hotpot", "painting", "Mara", "Saturday", "weekend", "trail", "spicy", "brush", "canvas"]
    entries = []
    while sum(len(e) for e in entries) < size:
        entries.append(" ".join(rng.choice(words) for _ in range(12)))
    return json.dumps({"semantic": entries[: len(entries) // 2], "episodic": entries[len(entries) // 2 :]})


class MultiTurnTokenIdsTest(unittest.TestCase):
    """``pf_retrieval`` with 12 trajectories of 0–3 retrievals, both of ms-swift's modes."""

    def scripts(self, count=12):
        requests, scripts = [], []
        for t in range(count):
            row = {"user_id": "u-1", "question_time": "2024-05-01 10:00"}
            if t % 4 == 3:
                row["images"] = ["images/u-1/cat.jpg"]  # an image-bearing row: retrieval is the same
            request = InferRequest(row)
            retrievals = t % 4
            script = [(RETRIEVE % ("hiking weekend %d" % k), [1000 * t + 10 * k + j for j in range(3 + k)]) for k in range(retrievals)]
            script.append(("<think>ok</think><answer>You hike on Saturdays.</answer>", [1000 * t + 900 + j for j in range(5)]))
            requests.append(request)
            scripts.append(script)
        return requests, scripts

    def assert_aligned(self, request, script, output):
        trained = replace_assistant_response_with_ids(request.messages, output.response_token_ids)
        turns = [m for m in trained if m["role"] == "assistant"]
        self.assertEqual(len(turns), len(script))
        for turn, (content, ids) in zip(turns, script):
            self.assertEqual(turn["content"], ids, "turn %r trained on the wrong token ids" % content[:40])
        self.assertEqual(output.response_loss_mask, [[1] * len(ids) for _content, ids in script])

    def test_server_mode_every_turn_trains_on_its_own_ids(self):
        module, registry = load_plugin("4.x")
        engine = ScriptedEngine()
        scheduler = registry["multi_turns"]["pf_retrieval"](engine, max_turns=4, client=client(module))
        requests, scripts = self.scripts()
        for request, script in zip(requests, scripts):
            engine.add(request, script)

        async def main():
            return await asyncio.gather(*(scheduler.run(request, None) for request in requests))

        outputs = asyncio.run(main())
        for request, script, output in zip(requests, scripts, outputs):
            self.assert_aligned(request, script, output)
            # Log-probs: one list per turn, each as long as its ids (importance sampling stays on).
            self.assertEqual([len(lp) for lp in output.rollout_logprobs], [len(ids) for _c, ids in script])
            memory_turns = [m for m in request.messages if m["role"] == "user" and m["content"].startswith("<memory>")]
            self.assertEqual(len(memory_turns), len(script) - 1)

    def test_ms_swift_server_mode_alone_drops_the_last_turn(self):
        """What the plugin's ``run`` repairs: the stand-in's own ``run`` (ms-swift's) lays a
        retrieve turn's ids on the answer for every trajectory with a retrieval (9 of 12 here)."""
        module, registry = load_plugin("4.x")
        engine = ScriptedEngine()
        scheduler = registry["multi_turns"]["pf_retrieval"](engine, max_turns=4, client=client(module))
        requests, scripts = self.scripts()
        for request, script in zip(requests, scripts):
            engine.add(request, script)
        base_run = type(scheduler).__mro__[1].run  # MultiTurnScheduler.run, without the plugin's repair

        async def main():
            return await asyncio.gather(*(base_run(scheduler, request, None) for request in requests))

        misaligned = 0
        for request, script, output in zip(requests, scripts, asyncio.run(main())):
            trained = replace_assistant_response_with_ids(request.messages, output.response_token_ids)
            answer = [m for m in trained if m["role"] == "assistant"][-1]
            misaligned += answer["content"] != script[-1][1]
        self.assertEqual(misaligned, 9)

    def test_colocate_mode_every_turn_trains_on_its_own_ids(self):
        module, registry = load_plugin("4.x")
        engine = ScriptedEngine()
        scheduler = registry["multi_turns"]["pf_retrieval"](None, max_turns=4, client=client(module))
        requests, scripts = self.scripts()
        for request, script in zip(requests, scripts):
            engine.add(request, script)
        first = engine.rollout(requests)
        outputs = colocate_run_multi_turn(scheduler, list(requests), first, engine.rollout, max_turns=4)
        for request, script, output in zip(requests, scripts, outputs):
            self.assert_aligned(request, script, output)


def grpo_batch(flaky_prompt=None, images=False):
    """Two prompts × 4 generations as ms-swift's reward kwargs carry them: full multi-turn
    ``messages`` (retrieval turns differ per trajectory), ``prompt_id``, ``request_id`` and the
    RL row's columns (``memory_snapshot`` of ~26 KB included)."""
    completions, kwargs = [], {"trainer_state": object(), "messages": [], "solution": [], "choices": [], "prompt_id": [], "request_id": [], "memory_snapshot": [], "images": [], "answer_type": []}
    answers = {
        "prompt_0": ["(b)", "(b)", "(a)", "(b)"],
        "prompt_1": ["You hike on Saturdays.", "You paint.", "You hike on Saturdays.", "You swim."],
    }
    for p, (pid, outs) in enumerate(answers.items()):
        question = MC_QUESTION if p == 0 else "What do I do on weekends lately?"
        for g, answer in enumerate(outs):
            think = "the memory says so" if not (pid == flaky_prompt and g == 1) else "FLAKY reasoning"
            completion = "<think>%s</think><answer>%s</answer>" % (think, answer)
            if g == 3:
                completion = answer  # no tags: format 0
            messages = [SYSTEM, {"role": "user", "content": question}]
            for k in range(g % 3):
                messages += [{"role": "assistant", "content": RETRIEVE % ("weekend %d" % k)}, {"role": "user", "content": "<memory>\nMara hikes on Saturdays.\n</memory>"}]
            messages.append({"role": "assistant", "content": completion})
            completions.append(completion)
            kwargs["messages"].append(messages)
            kwargs["solution"].append("(b)" if p == 0 else "You hike on Saturdays.")
            kwargs["choices"].append(["(a) Sketching", "(b) Painting"] if p == 0 else [])
            kwargs["answer_type"].append("mc" if p == 0 else "open")
            kwargs["prompt_id"].append(pid)
            kwargs["request_id"].append("chatcmpl-%d-%d" % (p, g))
            kwargs["memory_snapshot"].append(snapshot(26_000, p))
            kwargs["images"].append([{"path": "images/u-1/cat.jpg"}] if images and p == 1 else [])
    return completions, kwargs


class GrpoAdvantageTest(unittest.TestCase):
    """``compute_rewards_per_func`` + nansum + group advantages by ``prompt_id``."""

    def setUp(self):
        self.module, _ = load_plugin("4.x")

    def test_judge_up_every_row_scored_and_groups_spread(self):
        completions, kwargs = grpo_batch(images=True)
        rewards = swift_rewards([self.module.PfPersonaVLM(client=client(self.module))], completions, kwargs)
        advantages = swift_advantages(rewards, kwargs["prompt_id"])
        self.assertEqual(rewards[:4], [2.5, 2.5, 1.5, 2.0])  # acc + cons (fake judge 1) + 0.5·format
        self.assertTrue(all(a == a for a in advantages))
        self.assertGreater(max(advantages[:4]) - min(advantages[:4]), 1)

    def test_judge_flaky_the_failed_item_sits_at_its_own_groups_mean(self):
        completions, kwargs = grpo_batch(flaky_prompt="prompt_1")
        personavlm = self.module.PfPersonaVLM(client=client(self.module, "flaky"))
        fmt = self.module.PfFormat(client=client(self.module, "flaky"))
        per_func = swift_rewards_per_func([personavlm, fmt], completions, kwargs)
        failed = 5  # prompt_1, generation 1: every judge call holding its reasoning fails
        siblings = [per_func[i][0] for i in (4, 6, 7)]
        # Its personavlm value is its own group's mean — not the batch's, not another request's —
        # and its format reward (a rule) is its own.
        self.assertAlmostEqual(per_func[failed][0], sum(siblings) / 3, places=3)
        self.assertNotAlmostEqual(per_func[failed][0], sum(row[0] for i, row in enumerate(per_func) if i != failed) / 7, places=3)
        self.assertEqual(per_func[failed][1], 1.0)
        self.assertGreater(self.module.FAILURE_COUNTS.get(("personavlm", "judge_error"), 0), 0)

    def test_judge_flaky_single_reward_advantage_is_exactly_zero(self):
        completions, kwargs = grpo_batch(flaky_prompt="prompt_1")
        rewards = swift_rewards([self.module.PfPersonaVLM(client=client(self.module, "flaky"))], completions, kwargs)
        advantages = swift_advantages(rewards, kwargs["prompt_id"])
        self.assertAlmostEqual(advantages[5], 0.0, places=6)
        self.assertTrue(any(abs(a) > 0.1 for a in advantages[4:]))  # its siblings still spread

    def test_judge_down_the_batch_is_refused_not_trained_on_rule_scores(self):
        completions, kwargs = grpo_batch()
        with self.assertRaises(self.module.RewardFailedError) as caught:
            swift_rewards([self.module.PfAccuracy(client=client(self.module, "down"))], completions, kwargs)
        self.assertIn("judge answered none", str(caught.exception))


def rl_rows(count, snapshot_bytes=(26_000, 50_000)):
    """PersonaVLM RL rows as ms-swift hands them to a reward function (8 generations per prompt)."""
    rng = random.Random(7)
    completions, kwargs = [], {"trainer_state": object(), "messages": [], "solution": [], "choices": [], "answer_type": [], "prompt_id": [], "memory_snapshot": [], "user_id": [], "question_time": [], "task": [], "gt_ops": [], "images": []}
    snapshots = {}
    for index in range(count):
        prompt = index // 8
        snapshots.setdefault(prompt, snapshot(rng.randint(*snapshot_bytes), prompt))
        answer = "(b)" if index % 3 else "(a)"
        completion = "<think>from memory</think><answer>%s</answer>" % answer
        completions.append(completion)
        kwargs["messages"].append([SYSTEM, {"role": "user", "content": MC_QUESTION + " #%d" % prompt}, {"role": "assistant", "content": completion}])
        kwargs["solution"].append("(b)")
        kwargs["choices"].append(["(a) Sketching", "(b) Painting"])
        kwargs["answer_type"].append("mc")
        kwargs["prompt_id"].append("prompt_%d" % prompt)
        kwargs["memory_snapshot"].append(snapshots[prompt])
        kwargs["user_id"].append("u-%d" % prompt)
        kwargs["question_time"].append("2024-05-01 10:00")
        kwargs["task"].append("mc")
        kwargs["gt_ops"].append("")
        kwargs["images"].append([])
    return completions, kwargs


def requests_total(server):
    request = urllib.request.Request(server["url"] + "/metrics", headers={"authorization": "Bearer " + TOKEN})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return {status: int(n) for status, n in __import__("re").findall(r'pf_reward_requests_total\{endpoint="/v1/rewards",status="(\d+)"\} (\d+)', text)}


class LargeBatchTest(unittest.TestCase):
    def setUp(self):
        self.module, _ = load_plugin("4.x")

    def test_512_personavlm_rows_go_through_without_a_413(self):
        completions, kwargs = rl_rows(512)
        raw = len(json.dumps({k: v for k, v in kwargs.items() if k != "trainer_state"}))
        self.assertGreater(raw, 8 * 1024 * 1024)  # every column together is over the server's 8 MiB
        before = requests_total(SERVERS["up"])
        rewards = swift_rewards([self.module.PfPersonaVLM(client=client(self.module, batch_size=4096))], completions, kwargs)
        after = requests_total(SERVERS["up"])
        self.assertEqual(len(rewards), 512)
        self.assertEqual(rewards[:3], [1.5, 2.5, 2.5])  # (a) wrong: 0 + consistency 1 + 0.5·format
        self.assertEqual(after.get("413", 0), before.get("413", 0))

    def test_a_reward_that_reads_the_snapshot_is_cut_by_bytes_groups_whole(self):
        completions, kwargs = rl_rows(512)
        before = requests_total(SERVERS["up"])
        rewards = swift_rewards([self.module.PfPersona(client=client(self.module, batch_size=4096))], completions, kwargs)
        after = requests_total(SERVERS["up"])
        self.assertEqual(len(rewards), 512)
        self.assertTrue(all(r == r for r in rewards))
        sent = after.get("200", 0) - before.get("200", 0)
        self.assertGreaterEqual(sent, 2)  # ~19 MB of snapshots: several requests under 8 MiB
        self.assertEqual(after.get("413", 0), before.get("413", 0))

    def test_a_forced_413_is_reported_as_request_too_large_with_the_size(self):
        completions, kwargs = rl_rows(512)
        big = client(self.module, batch_size=4096, max_bytes=64 * 1024 * 1024)
        with self.assertRaises(self.module.RewardServerError) as caught:
            swift_rewards([self.module.PfPersona(client=big)], completions, kwargs)
        self.assertEqual(caught.exception.status, 413)
        self.assertRegex(str(caught.exception), r"request too large: \d{8} bytes")
        self.assertIn("8388608", str(caught.exception))
        # Even with PERSONA_FORGE_ON_ERROR=neutral a 413 is not turned into zeros.
        from pf_test_support import env_var

        with env_var("PERSONA_FORGE_ON_ERROR", "neutral"), self.assertRaises(self.module.RewardServerError):
            swift_rewards([self.module.PfPersona(client=big)], completions, kwargs)


class ExportedRlRowsTest(unittest.TestCase):
    """RL rows as ``persona-forge run pipelines/quickstart.yaml`` exports them — image-bearing
    ones included — through the GRPO reward path and the retrieval environment."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="pf-python-export-")
        out = os.path.join(cls.work, "run")
        subprocess.run(["node", os.path.join(REPO, "bin", "persona-forge.js"), "run", os.path.join(REPO, "pipelines", "quickstart.yaml"), "--out", out, "--quiet"], cwd=cls.work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
        cls.rows = []
        for split in ("train", "test"):
            with open(os.path.join(out, "export", "rl", split + ".jsonl"), encoding="utf-8") as handle:
                cls.rows.extend(json.loads(line) for line in handle if line.strip())
        cls.export = os.path.join(out, "export")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def setUp(self):
        self.module, self.registry = load_plugin("4.x")

    def image_rows(self):
        rows = [row for row in self.rows if row["images"]]
        self.assertGreater(len(rows), 0, "the quickstart export has no image-bearing RL row")
        return rows

    def test_image_rows_score_in_grpo_groups(self):
        rows = [row for row in self.rows if row["answer_type"] == "mc"][:6] + self.image_rows()
        completions, kwargs = [], {"trainer_state": object()}
        prompt_ids = []
        for p, row in enumerate(rows):
            wrong = next(c.split(" ")[0] for c in row["choices"] if not c.startswith(row["solution"])) if row["choices"] else "I do not know."
            for g, answer in enumerate([row["solution"], row["solution"], wrong, row["solution"]]):
                completion = "<think>memory says so</think><answer>%s</answer>" % answer if g < 3 else answer
                completions.append(completion)
                # ms-swift's reward row: the rollout's messages, the standard image field, the dataset columns.
                sample = dict(row, messages=row["messages"] + [{"role": "assistant", "content": completion}], images=[{"path": path} for path in row["images"]], prompt_id="prompt_%d" % p, request_id="chatcmpl-%d-%d" % (p, g))
                for key, value in sample.items():
                    kwargs.setdefault(key, []).append(value)
                prompt_ids.append("prompt_%d" % p)
        for path in self.image_rows()[0]["images"]:
            self.assertTrue(os.path.exists(os.path.join(self.export, path)), path)
        rewards = swift_rewards([self.module.PfPersonaVLM(client=client(self.module, batch_size=4096))], completions, kwargs)
        advantages = swift_advantages(rewards, prompt_ids)
        first_image = len(rows) - len(self.image_rows())
        self.assertTrue(all(r == r for r in rewards))
        for p in range(len(rows)):
            group = rewards[4 * p : 4 * p + 4]
            self.assertEqual(group[0], group[1])
            self.assertGreater(group[0], group[3], rows[p]["id"])  # the untagged answer loses format credit
            if rows[p]["answer_type"] == "mc":  # (open answers: this test's judge calls every one correct)
                self.assertGreater(group[0], group[2], rows[p]["id"])  # the right letter beats a wrong one
        self.assertTrue(any(abs(a) > 0.5 for a in advantages[4 * first_image :]))

    def test_retrieval_serves_an_image_rows_own_memory_snapshot(self):
        row = self.image_rows()[0]
        engine = ScriptedEngine()
        scheduler = self.registry["multi_turns"]["pf_retrieval"](engine, max_turns=4, client=client(self.module))
        request = InferRequest(dict(row))
        request.messages = [dict(m) for m in row["messages"]]
        keywords = row["messages"][-1]["content"].split("] ", 1)[-1].split("\n")[0].replace('"', "")  # the question itself
        engine.add(request, [(RETRIEVE % keywords, [1, 2, 3]), ("<think>it is in memory</think><answer>%s</answer>" % row["solution"], [4, 5])])
        output = asyncio.run(scheduler.run(request, None))
        memory = [m["content"] for m in request.messages if m["role"] == "user" and m["content"].startswith("<memory>")]
        self.assertEqual(len(memory), 1)
        self.assertNotIn("failed", memory[0])
        self.assertGreater(len(memory[0]), len("<memory>\n\n</memory>"))
        self.assertEqual(output.response_token_ids, [[1, 2, 3], [4, 5]])


QWEN = "<|im_start|>system\nAnswer with the letter.<|im_end|>\n<|im_start|>user\n" + MC_QUESTION + "<|im_end|>\n<|im_start|>assistant\n"
LABEL = json.dumps({"solution": "(b)", "choices": ["(a) Sketching", "(b) Painting"]})


class OpenRlhfReplayTest(unittest.TestCase):
    """OpenRLHF v0.11 ``SingleTurnAgentExecutor`` + its ``_post_request`` client."""

    def url(self, server, suffix="/t/%s/get_reward" % TOKEN):
        return SERVERS[server]["url"] + suffix

    def test_default_flags_get_a_400_naming_the_label_flag(self):
        # --data.label_key unset: every label is "" (prompts_dataset.preprocess_data).
        result = openrlhf_single_turn(self.url("up"), QWEN + "<think>x</think><answer>(b)</answer><|im_end|>", QWEN, "")
        self.assertIsNone(result["reward"])
        seen = result["error"].seen
        self.assertEqual(len(seen), 5)
        self.assertTrue(all(line.startswith("400, message=") and "--data.label_key solution" in line for line in seen), seen)

    def test_a_token_in_the_path_or_query_works_and_headers_are_not_needed(self):
        query = QWEN + "<think>the user said painting</think><answer>(b)</answer><|im_end|>"
        for suffix in ("/t/%s/get_reward" % TOKEN, "/get_reward?token=%s" % TOKEN):
            experience = openrlhf_single_turn(self.url("up", suffix), query, QWEN, LABEL)
            self.assertEqual(experience["reward"], [[2.5]])
            self.assertEqual(experience["score"], [[1]])  # scores in [0, 1]: 2.5 over personavlm's 0–2.5
        refused = openrlhf_single_turn(self.url("up", "/get_reward"), query, QWEN, LABEL)
        self.assertTrue(refused["error"].seen[0].startswith("401"))

    def test_scores_stay_in_zero_one_for_dynamic_filtering(self):
        for completion in ["<think>x</think><answer>(b)</answer>", "<think>x</think><answer>(a)</answer>", "(a)"]:
            experience = openrlhf_single_turn(self.url("up"), QWEN + completion + "<|im_end|>", QWEN, LABEL)
            self.assertGreaterEqual(experience["score"][0][0], 0)
            self.assertLessEqual(experience["score"][0][0], 1)

    def test_a_failed_sample_is_neutral_among_its_prompts_samples(self):
        # n_samples_per_prompt = 4 (the flaky server is told group_size 4); one sample's judge call fails.
        completions = [
            "<think>the user said painting</think><answer>(b)</answer><|im_end|>",
            "<think>FLAKY</think><answer>(b)</answer><|im_end|>",
            "<think>hm</think><answer>(a)</answer><|im_end|>",
            "(a)<|im_end|>",
        ]
        experiences = openrlhf_generate_responses(self.url("flaky"), QWEN, LABEL, completions)
        rewards = [e["reward"][0][0] for e in experiences]
        self.assertEqual([e["pf_failed"][0][0] for e in experiences], [0, 1, 0, 0])
        # OpenRLHF's group baseline (reward − group mean): the failed sample's advantage is 0.
        mean = sum(rewards) / 4
        self.assertAlmostEqual(rewards[1] - mean, 0.0, places=3)

    def test_judge_down_is_a_503_with_its_reason(self):
        started = time.monotonic()
        result = openrlhf_single_turn(self.url("down"), QWEN + "<think>x</think><answer>(b)</answer>", QWEN, LABEL)
        self.assertIsNone(result["reward"])
        self.assertTrue(all(line.startswith("503, message='reward failed:") for line in result["error"].seen), result["error"].seen)
        self.assertLess(time.monotonic() - started, 60)


class BinaryServeTest(unittest.TestCase):
    """``persona-forge serve`` (the shipped binary) with ``persona-forge dev fake-llm`` as judge."""

    @classmethod
    def setUpClass(cls):
        cls.server = start_binary()

    @classmethod
    def tearDownClass(cls):
        stop_binary(cls.server)

    def health(self):
        with urllib.request.urlopen(self.server["url"] + "/health", timeout=30) as response:
            return json.loads(response.read())

    def test_openrlhf_with_a_token_in_the_url_and_health_follows_the_judge(self):
        query = QWEN + "<think>the user said painting</think><answer>(b)</answer><|im_end|>"
        experience = openrlhf_single_turn(self.server["url"] + "/t/%s/get_reward" % TOKEN, query, QWEN, LABEL)
        # The dev fake judge grades by rule: accuracy 1, format 1; scores are the reward over 0–2.5.
        reward = experience["reward"][0][0]
        self.assertGreaterEqual(reward, 1.5)
        self.assertAlmostEqual(experience["score"][0][0], reward / 2.5, places=4)
        self.assertEqual(self.health()["judge"]["available"], True)
        # Wrong tokens in the path and the query, and a path with the token that does not exist.
        for path in ("/t/not-it/get_reward", "/get_reward?token=not-it", "/t/%s/nowhere" % TOKEN):
            request = urllib.request.Request(self.server["url"] + path, data=b'{"query": ["x"]}', method="POST")
            with self.assertRaises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(request, timeout=10)
            self.assertNotIn(TOKEN, caught.exception.read().decode())
        # The judge goes away: /health says so (after its 5 s cache) with the error.
        self.server["judge"].terminate()
        self.server["judge"].wait(timeout=15)
        time.sleep(5.5)
        health = self.health()
        self.assertEqual(health["status"], "degraded")
        self.assertFalse(health["judge"]["available"])
        self.assertIn("judge probe failed", health["judge"]["error"])
        # Nothing the server printed holds the token.
        self.server["process"].terminate()
        output = self.server["printed"] + self.server["process"].stdout.read().decode()
        self.assertIn("reward server on", output)
        self.assertNotIn(TOKEN, output)


if __name__ == "__main__":
    unittest.main()
