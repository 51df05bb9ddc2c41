"""OpenRLHF's call path replayed against the live reward server (stdlib only).

OpenRLHF v0.11.0's ``SingleTurnAgentExecutor`` and its reward client (``openrlhf_standins.py``)
with default flags (empty labels), with a token, with a prompt's samples scored concurrently in
separate requests, and with the judge up, down and flaky; then ``persona-forge serve`` (the
shipped binary) with ``persona-forge dev fake-llm`` as its judge.
"""

import json
import logging
import time
import unittest
import urllib.error
import urllib.request

from openrlhf_standins import openrlhf_generate_responses, openrlhf_single_turn
from pf_test_support import TOKEN, start_binary, start_server, stop_binary, stop_server

SERVERS = {}
MC_QUESTION = "Which hobby did I pick up? Options:\n(a) Sketching\n(b) Painting"


def setUpModule():
    logging.getLogger("persona_forge_swift").addHandler(logging.NullHandler())
    SERVERS["up"] = start_server()
    SERVERS["down"] = start_server("--judge-down")
    SERVERS["flaky"] = start_server("--judge-flaky", "--group-size", "4")


def tearDownModule():
    for server in SERVERS.values():
        stop_server(server)


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
