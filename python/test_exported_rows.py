"""RL rows as ``persona-forge run pipelines/quickstart.yaml`` exports them — image-bearing ones
included — through ms-swift's GRPO reward path and the ``pf_retrieval`` environment (stdlib only).
"""

import asyncio
import logging
import os
import shutil
import subprocess
import tempfile
import json
import unittest

from pf_test_support import REPO, TOKEN, load_plugin, start_server, stop_server
from swift_standins import InferRequest, ScriptedEngine, swift_advantages, swift_rewards

SERVER = {}
RETRIEVE = '<think>I should look it up</think><retrieve>{"keywords": "%s", "start_time": null, "end_time": null}</retrieve>'


def setUpModule():
    logging.getLogger("persona_forge_swift").addHandler(logging.NullHandler())
    logging.getLogger("persona_forge_swift").propagate = False
    SERVER.update(start_server())


def tearDownModule():
    stop_server(SERVER)


def client(module, **kwargs):
    options = dict(url=SERVER["url"], token=TOKEN, timeout=60, retries=0, backoff=0.01)
    options.update(kwargs)
    return module.RewardClient(**options)


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


if __name__ == "__main__":
    unittest.main()
