"""OpenRLHF v0.11.0 stand-ins written from its source, never copied: ``SingleTurnAgentExecutor``
and its ``_post_request`` client (``openrlhf/utils/agent.py``), ``RolloutRayActor.generate_responses``
(``openrlhf/trainer/ray/vllm_engine.py``) and ``_process_response_into_experience``
(``openrlhf/trainer/ppo_utils/samples_generator.py``).
"""

import asyncio
import json


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
