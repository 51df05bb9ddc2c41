"""Test support for the persona_forge_swift tests (standard library only).

* ``start_server`` runs the real reward server (``test/support/start-reward-server.ts`` through
  ``npx tsx``: the real llm layer against the fake OpenAI-compatible judge) on a free loopback port;
  ``start_binary`` runs the shipped ``bin/persona-forge.js serve`` against ``persona-forge dev fake-llm``.
* Stand-ins for the trainers' call paths, written from their source (never copied):
  ms-swift ``MultiTurnScheduler.run`` (server mode, ``swift/rollout/multi_turn.py``), the colocate
  loop ``run_multi_turn`` (``swift/rollout/agent_loop.py``), ``replace_assistant_response_with_ids``
  (``swift/rlhf_trainers/utils.py``), ``compute_rewards_per_func`` (``swift/rl_core/grpo_algorithm.py``)
  and the advantages (``swift/rl_core/advantage.py``), all at ms-swift 3602360a (4.6.0.dev0; the same
  in v4.3.0–v4.5.2); OpenRLHF v0.11.0 ``SingleTurnAgentExecutor`` (``openrlhf/utils/agent.py``) and
  ``_process_response_into_experience`` (``openrlhf/trainer/ppo_utils/samples_generator.py``).
"""

import asyncio
import importlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import types

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


# --- ms-swift stand-ins -----------------------------------------------------------------------
_SWIFT_MODULES = ["swift", "swift.rewards", "swift.rollout", "swift.rollout.multi_turn", "swift.plugin", "swift.plugin.orm", "swift.plugin.multi_turn"]


class StandInORM:
    def __init__(self, args=None, **kwargs):
        self.args = args


class StandInAsyncORM(StandInORM):
    pass


class RolloutOutput:
    """``swift.infer_engine.protocol.RolloutOutput``: the fields the trainer reads."""

    def __init__(self, response, messages, response_token_ids=None, response_loss_mask=None, rollout_infos=None, rollout_logprobs=None):
        self.response = response
        self.messages = messages
        self.response_token_ids = response_token_ids if response_token_ids is not None else []
        self.response_loss_mask = response_loss_mask if response_loss_mask is not None else []
        self.rollout_infos = rollout_infos or {}
        self.rollout_logprobs = rollout_logprobs if rollout_logprobs is not None else []


class StandInScheduler:
    """``MultiTurnScheduler`` of ms-swift 4.3+: the hooks' defaults and ``run`` (server mode) in its
    real call order — infer, append the completion, ``await on_turn_end``, ``check_finished`` (a
    ``done`` from the hook wins), ``max_turns``; on stop the final turn's token ids are kept only
    for a continuation or when no turn returned ids (so a trajectory whose ``step`` returned ids
    loses the last turn's); else ``step`` and collect its ids, mask and log-probs."""

    def __init__(self, infer_engine=None, max_turns=None, *args, **kwargs):
        self.infer_engine = infer_engine
        self.max_turns = max_turns

    async def on_turn_end(self, infer_request, response_choice, current_turn):
        return {}

    def check_finished(self, infer_request, response_choice, current_turn):
        if response_choice.finish_reason == "length":
            return True
        return bool(self.max_turns and current_turn >= self.max_turns)

    @staticmethod
    def _extract_logprobs_from_choice(response_choice):
        if response_choice.logprobs is None or "content" not in response_choice.logprobs:
            return []
        return [entry["logprob"] for entry in response_choice.logprobs["content"]]

    async def run(self, infer_request, request_config, **kwargs):
        current, turn, infos = infer_request, 1, {}
        ids, masks, logprobs = [], [], []
        while True:
            messages = current.messages
            response = await self.infer_engine.infer_async(current, request_config, **kwargs)
            choice = response.choices[0]
            continuation = messages[-1]["role"] == "assistant"
            if continuation:
                messages[-1]["content"] += choice.message.content
            else:
                messages.append({"role": "assistant", "content": choice.message.content})
            result = await self.on_turn_end(current, choice, turn)
            infos.update(result.get("rollout_infos") or {})
            stop = self.check_finished(current, choice, turn)
            if "done" in result:
                stop = result["done"]
            if self.max_turns:
                stop = stop or turn >= self.max_turns
            if stop:
                final = choice.token_ids
                current_lps = self._extract_logprobs_from_choice(choice)
                if continuation and ids:
                    ids[-1].extend(final)
                    if masks:
                        masks[-1].extend([1] * len(final))
                elif not ids:
                    if final:
                        ids, masks = [list(final)], [[1] * len(final)]
                    if current_lps:
                        logprobs = [current_lps]
                # (else: the final turn's ids are not added — the upstream behaviour replayed here)
                if logprobs and sum(len(x) for x in logprobs) != sum(sum(m) for m in masks):
                    logprobs = []
                return RolloutOutput(response, messages, ids, masks, dict(infos, num_turns=turn), logprobs)
            ret = self.step(current, choice, turn)
            current = ret["infer_request"]
            if "response_token_ids" in ret:
                if continuation and ids:
                    ids[-1].extend(ret["response_token_ids"])
                else:
                    ids.append(ret["response_token_ids"])
            if "response_loss_mask" in ret:
                assert "response_token_ids" in ret and len(ret["response_loss_mask"]) == len(ret["response_token_ids"])
                if continuation and masks:
                    masks[-1].extend(ret["response_loss_mask"])
                else:
                    masks.append(ret["response_loss_mask"])
            infos.update(ret.get("rollout_infos") or {})
            current_lps = ret.get("rollout_logprobs") or self._extract_logprobs_from_choice(choice)
            if current_lps:
                logprobs.append(current_lps)
            turn += 1


def colocate_run_multi_turn(scheduler, requests, first_outputs, rollout_fn, max_turns=None):
    """ms-swift ``rollout/agent_loop.py:run_multi_turn`` (colocate mode): per turn, append every
    pending completion, gather ``on_turn_end``, then ``check_finished`` (``done`` wins) and
    ``max_turns``; a stopped trajectory keeps its final turn's ids (appended as a new turn unless
    it is a continuation); the others go through ``step`` and the next ``rollout_fn`` call."""
    size = len(requests)
    outputs_by_index = [None] * size
    ids = [[] for _ in range(size)]
    masks = [[] for _ in range(size)]
    infos = [{} for _ in range(size)]
    pending, outputs, turn = list(range(size)), first_outputs, 1
    loop = asyncio.new_event_loop()
    try:
        while pending:
            continuation = {}
            for index, output in zip(pending, outputs):
                messages = requests[index].messages
                content = output.response.choices[0].message.content
                continuation[index] = messages[-1]["role"] == "assistant"
                if continuation[index]:
                    messages[-1]["content"] += content
                else:
                    messages.append({"role": "assistant", "content": content})
            current = [requests[index] for index in pending]

            async def gather():
                return await asyncio.gather(*(scheduler.on_turn_end(r, o.response.choices[0], turn) for r, o in zip(current, outputs)))

            results = loop.run_until_complete(gather())
            nxt = []
            for result, index, output in zip(results, pending, outputs):
                infos[index].update(result.get("rollout_infos") or {})
                choice = output.response.choices[0]
                stop = result.get("done", scheduler.check_finished(requests[index], choice, turn))
                if max_turns:
                    stop = stop or turn >= max_turns
                if stop:
                    final = choice.token_ids
                    if continuation[index] and ids[index]:
                        ids[index][-1].extend(final)
                        masks[index][-1].extend([1] * len(final))
                    elif final:
                        ids[index].append(list(final))
                        masks[index].append([1] * len(final))
                    outputs_by_index[index] = RolloutOutput(output.response, requests[index].messages, ids[index], masks[index], dict(infos[index], num_turns=turn))
                    continue
                ret = scheduler.step(requests[index], choice, turn)
                if "response_token_ids" in ret:
                    ids[index].append(ret["response_token_ids"])
                if "response_loss_mask" in ret:
                    masks[index].append(ret["response_loss_mask"])
                infos[index].update(ret.get("rollout_infos") or {})
                requests[index] = ret["infer_request"]
                nxt.append(index)
            turn += 1
            outputs = rollout_fn([requests[index] for index in nxt])
            pending = nxt
    finally:
        loop.close()
    return outputs_by_index


def replace_assistant_response_with_ids(messages, completion_ids):
    """ms-swift ``rlhf_trainers/utils.py``: the id lists are laid on the assistant turns from the
    LAST one backwards (the trainer then trains each turn on the ids it got)."""
    if completion_ids and isinstance(completion_ids[0], int):
        completion_ids = [completion_ids]
    out = [dict(m) for m in messages]
    position = 0
    for message in reversed(out):
        if message["role"] != "assistant":
            continue
        if position >= len(completion_ids):
            break
        message["content"] = completion_ids[-1 - position]
        position += 1
    return out


def swift_rewards_per_func(reward_funcs, completions, reward_kwargs):
    """``compute_rewards_per_func``: sync functions in order, then every async one gathered in one
    ``asyncio.run``; ``None`` becomes NaN."""
    nan = float("nan")
    is_async = [asyncio.iscoroutinefunction(f) or asyncio.iscoroutinefunction(getattr(f, "__call__", None)) for f in reward_funcs]
    per_func = [[0.0] * len(reward_funcs) for _ in completions]
    for i, func in enumerate(reward_funcs):
        if not is_async[i]:
            for row, value in enumerate(func(completions, **reward_kwargs)):
                per_func[row][i] = nan if value is None else float(value)
    async_indices = [i for i, flag in enumerate(is_async) if flag]

    async def gather():
        return await asyncio.gather(*(reward_funcs[i](completions, **reward_kwargs) for i in async_indices))

    if async_indices:
        for i, output in zip(async_indices, asyncio.run(gather())):
            for row, value in enumerate(output):
                per_func[row][i] = nan if value is None else float(value)
    return per_func


def swift_rewards(reward_funcs, completions, reward_kwargs, weights=None):
    """``compute_rewards_per_func`` then ``(rewards_per_func * weights).nansum(dim=1)``."""
    per_func = swift_rewards_per_func(reward_funcs, completions, reward_kwargs)
    weights = weights or [1.0] * len(reward_funcs)
    return [sum(w * v for w, v in zip(weights, row) if v == v) for row in per_func]


def swift_advantages(rewards, prompt_ids, scale="group"):
    """``compute_advantages_dynamic`` (grpo estimator): per ``prompt_id`` group, reward minus the
    group mean, divided by the group std (+1e-4) with ``scale_rewards='group'``."""
    groups = {}
    for index, pid in enumerate(prompt_ids):
        groups.setdefault(pid, []).append(index)
    advantages = [0.0] * len(rewards)
    for indexes in groups.values():
        values = [rewards[i] for i in indexes]
        mean = sum(values) / len(values)
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
        for i in indexes:
            advantages[i] = (rewards[i] - mean) / ((std + 1e-4) if scale == "group" else 1.0)
    return advantages


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


# --- OpenRLHF v0.11.0 stand-ins ---------------------------------------------------------------
def openrlhf_tensor(values):
    """``torch.tensor([v])`` on rewards, scores and every extra_logs value: numbers only."""

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


class OpenRlhfRequestError(Exception):
    """What ``_post_request`` raises after its five attempts; ``seen`` holds what aiohttp logged."""

    def __init__(self, seen):
        super().__init__("Request error for 5 times, returning None. Please check the API server.")
        self.seen = seen


def openrlhf_post(url, payload, attempts=5, sleep=0.0):
    """``_post_request``: POST the JSON with no headers, ``raise_for_status``, five attempts; every
    error is logged as aiohttp words it (``<status>, message='<reason phrase>', url=…``)."""
    import http.client
    import urllib.parse

    seen = []
    parts = urllib.parse.urlsplit(url)
    path = parts.path + ("?" + parts.query if parts.query else "")
    body = json.dumps(payload).encode()
    for _ in range(attempts):
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=180)
        try:
            connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            text = response.read()
            if response.status >= 400:
                seen.append("%d, message=%r" % (response.status, response.reason))
            else:
                return json.loads(text)
        except OSError as error:
            seen.append(str(error))
        finally:
            connection.close()
        if sleep:
            import time

            time.sleep(sleep)
    raise OpenRlhfRequestError(seen)


def openrlhf_single_turn(url, query, prompt, label):
    """``SingleTurnAgentExecutor.execute`` after generation: one query per POST to the reward URL
    as given (``--reward.remote_url``), ``scores`` falling back to ``rewards``, then
    ``_process_response_into_experience``'s tensors. A failed fetch leaves reward None (logged)."""
    try:
        info = openrlhf_post(url, {"query": [query], "prompts": [prompt], "labels": [label]})
    except OpenRlhfRequestError as error:
        return {"reward": None, "score": None, "error": error}
    reward = info.get("rewards")
    score = info.get("scores") if info.get("scores") is not None else reward
    experience = {"reward": openrlhf_tensor([reward]), "score": openrlhf_tensor([score])}
    for key, value in (info.get("extra_logs") or {}).items():
        experience[key] = openrlhf_tensor([value])
    return experience


def openrlhf_generate_responses(url, prompt, label, completions):
    """``RolloutRayActor.generate_responses``: the n samples of one prompt run concurrently
    (``asyncio.gather`` of ``execute``), each fetching its reward in its own request."""

    async def main():
        return await asyncio.gather(*(asyncio.to_thread(openrlhf_single_turn, url, prompt + completion, prompt, label) for completion in completions))

    return asyncio.run(main())


# --- a scripted inference engine --------------------------------------------------------------
class Message:
    def __init__(self, content):
        self.content = content


class Choice:
    """``ChatCompletionResponseChoice``: message, finish_reason, token_ids, logprobs."""

    def __init__(self, content, token_ids=None, finish_reason="stop", logprobs=None):
        self.message = Message(content)
        self.finish_reason = finish_reason
        self.token_ids = token_ids if token_ids is not None else []
        self.logprobs = logprobs


class Response:
    def __init__(self, choice):
        self.choices = [choice]


class InferRequest:
    """``RolloutInferRequest``: messages plus the row's columns in ``data_dict``."""

    def __init__(self, data_dict, question="What do I do on weekends lately?"):
        self.messages = [{"role": "user", "content": question}]
        self.data_dict = data_dict


class ScriptedEngine:
    """Answers each request's turns from its script: ``scripts[id(request)]`` is a list of
    ``(content, token_ids)``; log-probs are ``-0.<id>`` per token so their turn can be told."""

    def __init__(self):
        self.scripts = {}
        self.turns = {}

    def add(self, request, script):
        self.scripts[id(request)] = list(script)
        self.turns[id(request)] = 0

    def respond(self, request):
        turn = self.turns[id(request)]
        self.turns[id(request)] = turn + 1
        content, ids = self.scripts[id(request)][turn]
        return Response(Choice(content, list(ids), logprobs={"content": [{"logprob": -i / 1000.0} for i in ids]}))

    async def infer_async(self, request, request_config=None, **kwargs):
        await asyncio.sleep(0)
        return self.respond(request)

    def rollout(self, requests):
        """Colocate ``rollout_fn``: one turn for each pending request."""
        return [RolloutOutput(self.respond(request), None) for request in requests]
