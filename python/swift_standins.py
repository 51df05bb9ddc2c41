"""ms-swift stand-ins written from its source (ms-swift 3602360a, 4.6.0.dev0; the same in
v4.3.0–v4.5.2), never copied: ``MultiTurnScheduler.run`` (server mode, ``swift/rollout/multi_turn.py``),
the colocate loop ``run_multi_turn`` (``swift/rollout/agent_loop.py``),
``replace_assistant_response_with_ids`` (``swift/rlhf_trainers/utils.py``),
``compute_rewards_per_func`` (``swift/rl_core/grpo_algorithm.py``) and the advantages
(``swift/rl_core/advantage.py``), plus a scripted inference engine.
"""

import asyncio
import math


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
