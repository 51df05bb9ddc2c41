"""ms-swift's call paths replayed against the live reward server (stdlib only).

``persona_forge_swift`` driven through stand-ins of ms-swift's own code (``swift_standins.py``,
written from ms-swift 3602360a) in the real call order, with the judge up, down and flaky:

* multi-turn GRPO in server mode (``MultiTurnScheduler.run``) and colocate mode (``run_multi_turn``):
  every assistant turn trains on its own token ids;
* ``compute_rewards_per_func`` + nansum + group advantages by ``prompt_id``: a failed item's
  advantage is 0 within its own prompt group;
* 512 PersonaVLM RL rows per rank (with their ~26–50 KB memory snapshots) without a 413.
"""

import asyncio
import json
import logging
import random
import unittest
import urllib.request

from pf_test_support import TOKEN, env_var, load_plugin, start_server, stop_server
from swift_standins import (
    InferRequest,
    ScriptedEngine,
    colocate_run_multi_turn,
    replace_assistant_response_with_ids,
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
        with env_var("PERSONA_FORGE_ON_ERROR", "neutral"), self.assertRaises(self.module.RewardServerError):
            swift_rewards([self.module.PfPersona(client=big)], completions, kwargs)


if __name__ == "__main__":
    unittest.main()
