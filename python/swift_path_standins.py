"""Stand-ins (stdlib only) for the pure-Python parts of ms-swift 4.x that the shipped recipes
went through on a GPU node, written from its source at ``modelscope/ms-swift`` 3602360a (not
copied from it; paths below are relative to its ``swift/``), used by ``test_recipes_swift.py``:

- argument post-init: ``arguments/base_args/data_args.py`` (a ``--val_dataset`` zeroes
  ``split_dataset_ratio``), ``arguments/base_args/base_args.py`` ``load_dataset``,
  ``arguments/base_args/template_args.py`` (``truncation_strategy`` default ``delete``),
  ``arguments/rlhf_args.py`` ``_init_grpo`` (``left`` for GRPO, only ``left``/``delete``; the
  ``soft_overlong`` reward needs ``soft_cache_length``, ``soft_max_length`` defaults to
  ``max_completion_length``; ``rewards/orm.py`` ``SoftOverlong`` asserts cache < max) and
  ``arguments/tuner_args.py`` (``freeze_vit``/``freeze_aligner`` default true);
- template matching: ``template/register.py`` ``get_template_meta`` with the model metadata of
  ``model/model_meta.py`` (``get_matched_model_meta`` by folder name, else the ``--model_type``'s
  ``MODEL_MAPPING`` entry and its ``candidate_templates``), for a local model folder whose name no
  registered model has;
- the validation split: ``dataset/loader.py`` reads jsonl with Hugging Face ``datasets``
  (``load_dataset('json')``), whose pyarrow JSON reader types a string column ``timestamp[s]``
  unless some value fails Arrow's ISO-8601 parser (``arrow/json/converter.cc``
  ``GetPromotionGraph``, ``arrow/util/value_parsing.h`` ``ParseTimestampISO8601``);
  ``pipelines/train/sft.py`` ``_save_val_dataset`` writes a split cut from the training set
  with ``to_list()`` through ``utils/io_utils.py`` ``append_to_jsonl`` and
  ``utils/utils.py`` ``check_json_format``, unless ``--val_dataset`` is given;
- vLLM server mode posts each request's ``data_dict`` with ``requests``' ``json=``
  (``rlhf_trainers/vllm_client.py``), which a ``datetime`` column cannot pass.
"""

import datetime
import json
import math
import os
import re
from collections.abc import Mapping, Sequence

# --- registry data (model/models/qwen.py, template/constant.py at 3602360a) -------------------
# Per model type: some of the folder names it matches (lower-cased last path component of a
# registered id) with their ModelGroup's template, and its candidate templates (ModelMeta.template,
# then each ModelGroup's template, in order, without repeats).
MODEL_TYPES = {
    "qwen2_5_vl": {
        "names": {"qwen2.5-vl-3b-instruct": "qwen2_5_vl", "qwen2.5-vl-7b-instruct": "qwen2_5_vl",
                  "qwen2.5-vl-32b-instruct": "qwen2_5_vl", "qwen2.5-vl-72b-instruct": "qwen2_5_vl",
                  "mimo-vl-7b-sft": "mimo_vl", "mimo-vl-7b-rl": "mimo_vl"},
        "candidates": ["qwen2_5_vl", "mimo_vl"],
        "multimodal": True,
    },
    "qwen3": {
        "names": {"qwen3-0.6b": "qwen3", "qwen3-1.7b": "qwen3", "qwen3-4b": "qwen3", "qwen3-8b": "qwen3",
                  "qwen3-14b": "qwen3", "qwen3-32b": "qwen3"},
        "candidates": ["qwen3", "deepseek_r1", "qwen3_guard", "yufeng_xguard", "qwen3_thinking", "qwen3_nothinking"],
        "multimodal": False,
    },
}
TEMPLATES = {"qwen2_5_vl", "mimo_vl", "qwen3", "deepseek_r1", "qwen3_guard", "yufeng_xguard", "qwen3_thinking", "qwen3_nothinking"}


# --- argv ---------------------------------------------------------------------------------------
def parse_argv(argv):
    """``swift <sub> --name v1 v2 --flag v …`` → {name: value or list}; ms-swift's parser takes
    every token up to the next ``--name`` as that argument's values."""
    assert argv[0] == "swift", argv
    args, name = {}, None
    for token in argv[2:]:
        if token.startswith("--"):
            name = token[2:]
            args[name] = []
        else:
            args[name].append(token)
    return {k: (v[0] if len(v) == 1 else v) for k, v in args.items()}


def as_list(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def as_bool(value, default):
    if value is None:
        return default
    return {"true": True, "false": False}[str(value).lower()]


# --- argument post-init ---------------------------------------------------------------------
def post_init(args, subcommand):
    """The argument post-init steps the recipes' failures went through; returns the resolved values."""
    out = {}
    val = as_list(args.get("val_dataset"))
    ratio = float(args.get("split_dataset_ratio", 0.0))
    # DataArguments.__post_init__: a val_dataset (or streaming) sets split_dataset_ratio to 0.
    if val:
        ratio = 0.0
    out["val_dataset"], out["split_dataset_ratio"] = val, ratio
    # TemplateArguments.__post_init__ leaves None to 'delete'; RLHFArguments._init_grpo runs first for GRPO.
    strategy = args.get("truncation_strategy")
    if subcommand == "rlhf" and args.get("rlhf_type") == "grpo":
        if strategy is None:
            strategy = "left"
        if strategy not in {"left", "delete"}:
            raise ValueError("GRPO requires `truncation_strategy 'left' or 'delete'`, Current value: %r" % strategy)
        funcs = as_list(args.get("reward_funcs"))
        if "soft_overlong" in funcs:
            if args.get("soft_cache_length") is None:
                raise AssertionError("The soft_cache_length must be set when using soft overlong rewards.")
            soft_max = int(args.get("soft_max_length") or args.get("max_completion_length") or 512)
            if not int(args["soft_cache_length"]) < soft_max:  # SoftOverlong.__init__
                raise AssertionError("soft_cache_length must be below soft_max_length")
            out["soft"] = (soft_max, int(args["soft_cache_length"]))
        weights = as_list(args.get("reward_weights"))
        if weights and len(weights) != len(funcs):
            raise ValueError("reward_weights must match reward_funcs: %r vs %r" % (weights, funcs))
        out["overlong_filter"] = as_bool(args.get("overlong_filter"), False)
    out["truncation_strategy"] = strategy or "delete"
    # TunerArguments: freeze_vit / freeze_aligner default True.
    out["freeze_vit"] = as_bool(args.get("freeze_vit"), True)
    out["freeze_aligner"] = as_bool(args.get("freeze_aligner"), True)
    return out


# --- template matching (model/model_meta.py, template/register.py) -------------------------
def model_name(model_dir):
    """get_model_name: the folder's last component (hub cache layouts aside)."""
    return model_dir.rstrip("/").rsplit("/", 1)[-1].replace("___", ".")


def matched_model_type(model_dir):
    name = model_name(model_dir).lower()
    for model_type, meta in MODEL_TYPES.items():
        if name in meta["names"]:
            return model_type
    return None


def get_template_type(model_dir, model_type, template):
    """get_model_info_meta keeps the meta matched by folder name (its ModelGroup's template set on
    it) unless --model_type names another type, whose MODEL_MAPPING meta has no template of its
    own; get_template_meta then takes --template, args.json's, the meta's, or the one candidate."""
    matched = matched_model_type(model_dir)
    model_type = model_type or matched
    if model_type is None:
        raise ValueError('Model "%s" is not supported because no suitable `model_type` was found.' % model_dir)
    meta_template = MODEL_TYPES[model_type]["names"][model_name(model_dir).lower()] if matched == model_type else None
    if template is None and os.path.exists(os.path.join(model_dir, "args.json")):
        with open(os.path.join(model_dir, "args.json"), encoding="utf-8") as f:
            template = json.load(f).get("template")
    template = template or meta_template
    if template is None:
        candidates = MODEL_TYPES[model_type]["candidates"]
        if len(candidates) != 1:
            raise ValueError(
                "Failed to automatically match `template_type` for `%s`. Multiple possible types found: %s. "
                "Please specify `template_type` manually via `--template`." % (model_dir, candidates))
        return candidates[0]
    if template not in TEMPLATES:
        raise ValueError("template_type: '%s' not in %s" % (template, sorted(TEMPLATES)))
    return template


# --- datasets' JSON typing (pyarrow's JSON reader) -----------------------------------------
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2})(?::(\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$")


def arrow_timestamp(value):
    """ParseTimestampISO8601 at unit s → a naive UTC datetime, or None when it does not parse."""
    m = _ISO.match(value)
    if m is None:
        return None
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    hour, minute, second = (int(g) if g is not None else 0 for g in m.group(4, 5, 6))
    if hour >= 24 or minute >= 60 or second >= 60:
        return None
    try:
        moment = datetime.datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    zone = m.group(7)
    if zone and zone != "Z":
        digits = zone[1:].replace(":", "")
        offset = datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
        moment = moment - offset if zone[0] == "+" else moment + offset
    return moment


def infer_type(values):
    """GetPromotionGraph: null → (first kind seen); string → timestamp[s] → utf8 on a failed parse;
    number → int64 → float64; lists and objects element- and field-wise."""
    kinds = {type(v).__name__ for v in values if v is not None}
    if not kinds:
        return ("null",)
    if kinds == {"bool"}:
        return ("bool",)
    if kinds <= {"int", "float"}:
        return ("int64",) if kinds == {"int"} else ("float64",)
    if kinds == {"str"}:
        return ("timestamp",) if all(arrow_timestamp(v) is not None for v in values if v is not None) else ("utf8",)
    if kinds == {"list"}:
        return ("list", infer_type([x for v in values if v is not None for x in v]))
    if kinds == {"dict"}:
        names = []
        for v in values:
            for k in v or {}:
                if k not in names:
                    names.append(k)
        return ("struct", {k: infer_type([(v or {}).get(k) for v in values]) for k in names})
    raise TypeError("JSON column with mixed kinds %s" % sorted(kinds))


def typed(value, kind):
    """A JSON value as ``Dataset.to_list()`` returns it under ``kind``."""
    if value is None:
        return None
    tag = kind[0]
    if tag == "timestamp":
        return arrow_timestamp(value)
    if tag == "float64":
        return float(value)
    if tag == "list":
        return [typed(x, kind[1]) for x in value]
    if tag == "struct":
        return {k: typed(value.get(k), t) for k, t in kind[1].items()}
    return value


def load_json_dataset(path):
    """load_dataset('json', data_files=path)['train'].to_list(), as far as types go."""
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    columns = []
    for row in rows:
        for k in row:
            if k not in columns:
                columns.append(k)
    kinds = {c: infer_type([r.get(c) for r in rows]) for c in columns}
    return [{c: typed(r.get(c), kinds[c]) for c in columns} for r in rows], kinds


# --- the validation-split save --------------------------------------------------------------
def check_json_format(obj, token_safe=True):
    """utils/utils.py check_json_format (torch branches left out: no torch here)."""
    if obj is None or isinstance(obj, (int, float, str, complex)):
        return obj
    if isinstance(obj, bytes):
        return "<<<bytes>>>"
    if isinstance(obj, Sequence):
        return [check_json_format(x, token_safe) for x in obj]
    if isinstance(obj, Mapping):
        res = {}
        for k, v in obj.items():
            if token_safe and isinstance(k, str) and "_token" in k and isinstance(v, str):
                res[k] = None
            else:
                res[k] = check_json_format(v, token_safe)
        return res
    if token_safe:
        unsafe = {k: v for k, v in obj.__dict__.items() if "_token" in k}  # AttributeError for datetime
        for k in unsafe:
            setattr(obj, k, None)
        res = repr(obj)
        for k, v in unsafe.items():
            setattr(obj, k, v)
        return res
    return repr(obj)


def load_and_maybe_save(args, resolved, output_dir):
    """args.load_dataset() then _save_val_dataset: a split cut from the training set (ratio > 0,
    no --val_dataset) is written to <output_dir>/val_dataset.jsonl with datasets' types."""
    train = []
    for path in as_list(args.get("dataset")):
        rows, _ = load_json_dataset(path)
        train.extend(rows)
    val = []
    if resolved["val_dataset"]:
        assert resolved["split_dataset_ratio"] == 0.0  # BaseArguments.load_dataset
        for path in resolved["val_dataset"]:
            rows, _ = load_json_dataset(path)
            val.extend(rows)
        return train, val, None
    ratio = resolved["split_dataset_ratio"]
    if ratio > 0:
        n = max(1, int(math.ceil(len(train) * ratio)))
        train, val = train[:-n], train[-n:]
        saved = os.path.join(output_dir, "val_dataset.jsonl")
        os.makedirs(output_dir, exist_ok=True)
        lines = [json.dumps(row, ensure_ascii=False) + "\n" for row in check_json_format(val)]
        with open(saved, "a", encoding="utf-8") as f:
            f.write("".join(lines))
        return train, val, saved
    return train, val, None
