"""The shipped recipes through the pure-Python parts of ms-swift's path (stdlib only).

Run with ``cd python && python3 -m unittest discover -v -p 'test_*.py'``.

For every recipe in ``recipes/``, the command ``persona-forge train <recipe> --dry-run`` prints is
replayed, on the rows of a real offline export (the quickstart pipeline), through the stand-ins
in ``swift_path_standins.py`` (argument post-init, template matching, ``datasets``' JSON typing,
the validation-split save), and the typed rows go through the plugin's retrieval call and reward
items. Run against the memlistener-dapo.yaml of before the fix, it fails with the GPU node's
``AttributeError: 'datetime.datetime' object has no attribute '__dict__'``.
"""

import datetime
import glob
import importlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
EXPORT = {}
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from swift_path_standins import (  # noqa: E402
    MODEL_TYPES,
    as_list,
    get_template_type,
    load_and_maybe_save,
    load_json_dataset,
    parse_argv,
    post_init,
)

# --- the plugin, with ms-swift stand-ins ----------------------------------------------------
def load_plugin():
    names = ["swift", "swift.rewards", "swift.rollout", "swift.rollout.multi_turn"]
    for name in names + ["persona_forge_swift"]:
        sys.modules.pop(name, None)
    for name in names:
        sys.modules[name] = types.ModuleType(name)

    class ORM:
        def __init__(self, args=None, **kwargs):
            self.args = args

    class Scheduler:
        def __init__(self, infer_engine=None, max_turns=None, *args, **kwargs):
            self.infer_engine, self.max_turns = infer_engine, max_turns

    sys.modules["swift.rewards"].ORM = ORM
    sys.modules["swift.rewards"].AsyncORM = ORM
    sys.modules["swift.rewards"].orms = {}
    sys.modules["swift.rollout.multi_turn"].MultiTurnScheduler = Scheduler
    sys.modules["swift.rollout.multi_turn"].multi_turns = {}
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    try:
        return importlib.import_module("persona_forge_swift")
    finally:
        for name in names:
            sys.modules.pop(name, None)


# --- fixtures -------------------------------------------------------------------------------
def setUpModule():
    root = tempfile.mkdtemp(prefix="pf-recipes-swift-")
    EXPORT["root"] = root
    run = subprocess.run(
        ["npx", "--no-install", "persona-forge", "run", "pipelines/quickstart.yaml", "--out", os.path.join(root, "q")],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    if run.returncode != 0:
        raise RuntimeError("quickstart export failed:\n%s" % run.stdout.decode("utf-8", "replace")[-2000:])
    EXPORT["dir"] = os.path.join(root, "q", "export")


def tearDownModule():
    shutil.rmtree(EXPORT.get("root", ""), ignore_errors=True)


def dry_run_argv(recipe):
    """The node-0 command `persona-forge train <recipe> --dry-run` prints (its preflight may fail
    here: no ms-swift, no GPUs; the command is printed all the same)."""
    env = dict(os.environ, PF_EXPORT_DIR=EXPORT["dir"], PF_OUTPUT_ROOT=os.path.join(EXPORT["root"], "out"),
               PERSONA_FORGE_URL="http://127.0.0.1:9")
    run = subprocess.run(["node", "bin/persona-forge.js", "train", recipe, "--dry-run"], cwd=REPO, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    text = run.stdout.decode("utf-8")
    lines = text.splitlines()
    marker = [i for i, line in enumerate(lines) if line.startswith("# node 0 as one line:")]
    if not marker:
        raise AssertionError("no command in the dry run of %s:\n%s%s" % (recipe, text, run.stderr.decode("utf-8")))
    tokens = shlex.split(lines[marker[0] + 1])
    start = tokens.index("swift")
    return tokens[start:], text


class ShippedRecipesThroughSwiftTest(unittest.TestCase):
    maxDiff = None

    def recipes(self):
        found = sorted(p for p in glob.glob(os.path.join(REPO, "recipes", "*.yaml")) if not os.path.basename(p).startswith("_"))
        self.assertEqual(len(found), 4, found)
        return found

    def test_every_recipe_gets_past_post_init_template_matching_and_the_validation_split(self):
        plugin = load_plugin()
        for recipe in self.recipes():
            name = os.path.basename(recipe)
            with self.subTest(recipe=name):
                argv, text = dry_run_argv(recipe)
                sub = argv[1]
                args = parse_argv(argv)
                resolved = post_init(args, sub)

                # A local model folder of another name (a copied base model, a renamed checkpoint).
                folder = os.path.join(EXPORT["root"], "models", "local-base-model")
                os.makedirs(folder, exist_ok=True)
                template = get_template_type(folder, args.get("model_type"), args.get("template"))
                self.assertIn(template, MODEL_TYPES[args["model_type"]]["candidates"])

                out_dir = os.path.join(EXPORT["root"], "swift-out", name)
                train, val, saved = load_and_maybe_save(args, resolved, out_dir)
                self.assertGreater(len(train), 0)
                if saved is not None:
                    with open(saved, encoding="utf-8") as f:
                        back = [json.loads(line) for line in f]
                    self.assertEqual(len(back), len(val))

                # The freeze setting is explicit for a model with a vision tower, and the dry run says it.
                if MODEL_TYPES[args["model_type"]]["multimodal"]:
                    self.assertIn("freeze_vit", args)
                    self.assertIn("freeze_aligner", args)
                self.assertRegex(text, r"# trains: ")
                if sub == "rlhf":
                    self.assertIn("overlong_filter", args)
                    self.assertRegex(text, r"# overlong: overlong_filter %s" % str(resolved["overlong_filter"]).lower())

                # GRPO rows reach the plugin as datasets typed them: the time the retrieval call and
                # the reward items carry is the exported string, whatever type the trainer hands over.
                if sub == "rlhf":
                    with open(as_list(args["dataset"])[0], encoding="utf-8") as f:
                        exported = json.loads(f.readline())
                    row = train[0]
                    self.assertEqual(row["id"], exported["id"])
                    request = types.SimpleNamespace(data_dict=dict(row), messages=row["messages"])
                    scheduler = plugin.PfRetrievalScheduler(client=object())
                    body, problem = scheduler._query(request, '{"keywords": "painting"}')
                    self.assertIsNone(problem)
                    self.assertEqual(body["time"], exported["question_time"])
                    items = plugin.build_items(["<answer>x</answer>"], {k: [v] for k, v in row.items()})
                    self.assertEqual(items[0]["question_time"], exported["question_time"])

    def test_the_stand_ins_fail_where_ms_swift_failed(self):
        # Template matching: qwen2_5_vl has two candidate templates, so a renamed folder needs --template.
        with self.assertRaisesRegex(ValueError, r"Failed to automatically match `template_type`.*\['qwen2_5_vl', 'mimo_vl'\]"):
            get_template_type("/models/my-vl-copy", "qwen2_5_vl", None)
        # A folder named like a registered model gets its group's template without --template.
        self.assertEqual(get_template_type("/hub/Qwen2.5-VL-7B-Instruct", "qwen2_5_vl", None), "qwen2_5_vl")
        self.assertEqual(get_template_type("/hub/Qwen3-8B", None, None), "qwen3")
        self.assertEqual(get_template_type("/models/my-vl-copy", "qwen2_5_vl", "qwen2_5_vl"), "qwen2_5_vl")
        # datasets types the exported question_time as a timestamp; the split save then fails as on the GPU node.
        path = os.path.join(EXPORT["dir"], "rl", "train.jsonl")
        rows, kinds = load_json_dataset(path)
        self.assertEqual(kinds["question_time"], ("timestamp",))
        self.assertIsInstance(rows[0]["question_time"], datetime.datetime)
        self.assertEqual(kinds["memory_snapshot"], ("utf8",))
        args = {"dataset": path, "split_dataset_ratio": "0.05", "rlhf_type": "grpo"}
        with self.assertRaisesRegex(AttributeError, r"'datetime\.datetime' object has no attribute '__dict__'"):
            load_and_maybe_save(args, post_init(args, "rlhf"), os.path.join(EXPORT["root"], "split-save"))
        # The same rows with the export's test split as --val_dataset: no split, no save.
        args["val_dataset"] = os.path.join(EXPORT["dir"], "rl", "test.jsonl")
        _, val, saved = load_and_maybe_save(args, post_init(args, "rlhf"), os.path.join(EXPORT["root"], "val"))
        self.assertIsNone(saved)
        self.assertGreater(len(val), 0)
        # vLLM server mode posts each request's data_dict to swift rollout with requests' json=
        # (rlhf_trainers/vllm_client.py): a datetime column cannot be sent; parquet keeps strings.
        with self.assertRaisesRegex(TypeError, "not JSON serializable"):
            json.dumps({"infer_requests": [{"messages": rows[0]["messages"], "data_dict": rows[0]}]})
        # GRPO truncation and the soft overlong reward's own checks.
        with self.assertRaisesRegex(ValueError, "GRPO requires"):
            post_init({"rlhf_type": "grpo", "truncation_strategy": "right"}, "rlhf")
        with self.assertRaisesRegex(AssertionError, "soft_cache_length must be set"):
            post_init({"rlhf_type": "grpo", "reward_funcs": ["pf_tree_ops", "soft_overlong"]}, "rlhf")
        resolved = post_init({"rlhf_type": "grpo", "reward_funcs": ["soft_overlong"], "soft_cache_length": "128",
                              "max_completion_length": "512"}, "rlhf")
        self.assertEqual(resolved["soft"], (512, 128))


if __name__ == "__main__":
    unittest.main()
