"""persona-forge reward functions and retrieval environment for ms-swift GRPO/DAPO.

Load with ``--external_plugins python/persona_forge_swift.py`` and pick rewards with
``--reward_funcs pf_personavlm`` (or ``pf_format pf_accuracy ...``). Every reward is computed by
the persona-forge reward server (``persona-forge serve``); this file only batches rows and POSTs
them to ``/v1/rewards``.

A failed reward is never handed to ms-swift as ``None``: ms-swift sums reward functions with
``nansum`` (``swift/rl_core/advantage.py``), so ``None`` would count as 0 and a judge timeout
would outrank a wrong answer. The server resolves every failed item by the ``onFailure`` policy
of ``rewards.yaml`` (``neutral``: the mean of its prompt group — the rows sharing ms-swift's
``prompt_id`` in the same request — so its advantage is 0; ``value``: a fixed number; ``fail``:
refuse) and this plugin uses those values, logging each failure with its code. A refused batch,
or a server that stays unreachable, raises (``PERSONA_FORGE_ON_ERROR`` can make an unreachable
server give every row the same constant instead: zero advantage).

Only the columns the requested reward reads are sent (``GET /v1/rewards/functions``; an RL row's
``memory_snapshot`` alone is ~26 KB and no ``pf_personavlm`` reward reads it), in requests cut
by bytes under the server's body limit and never splitting a ``prompt_id`` group, so the server
sees each group whole. A request the server still refuses as too large raises "request too
large" with its size.

Registered names:
  ORMs (async):       pf_format, pf_accuracy, pf_consistency, pf_tree_ops, pf_persona, pf_personavlm
  ORMs (sync twins):  the same names with a ``_sync`` suffix
  multi-turn:         pf_retrieval (``--multi_turn_scheduler pf_retrieval --max_turns 4``)

Environment (unknown CLI flags are rejected by ms-swift, so configuration comes from here):
  PERSONA_FORGE_URL        server base URL                        default http://127.0.0.1:8000
  PERSONA_FORGE_TOKEN      bearer token                           default none
  PERSONA_FORGE_TIMEOUT    seconds per HTTP attempt               default 300
  PERSONA_FORGE_RETRIES    retries after the first attempt        default 4
  PERSONA_FORGE_BACKOFF    first backoff in seconds (doubles)     default 0.5
  PERSONA_FORGE_BATCH      rows per POST at most (groups are kept whole)   default 256
  PERSONA_FORGE_MAX_BYTES  body bytes per POST at most           default the server's limit - 64 KiB
  PERSONA_FORGE_THREADS    threads for HTTP calls off the event loop   default 64
  PERSONA_FORGE_ON_ERROR   unreachable server: ``raise``, or ``neutral`` (0.0 for every row of the
                           batch: one constant, so no advantage moves; logged)   default raise
  PERSONA_FORGE_MAX_RETRIEVALS  retrievals served per trajectory  default 3 (PersonaVLM, SPEC.md §1)
  PERSONA_FORGE_RETRIEVAL_ROLE  role of the appended memory turn  default user

Only the Python standard library is used. Works with ms-swift 4.x (``swift.rewards``,
``swift.rollout.multi_turn``; the async ``on_turn_end`` hook from v4.3.0) and 3.x
(``swift.plugin.orm``, ``swift.plugin.multi_turn``); with neither installed it defines minimal
stand-ins so the module still imports (tests, tooling).
"""

import asyncio
import concurrent.futures
import hashlib
import json
import logging
import os
import re
import time
import urllib.error
import urllib.request

logger = logging.getLogger("persona_forge_swift")

# ---------------------------------------------------------------------------------------------
# ms-swift imports: 4.x paths first, then 3.x, then local stand-ins.
# ---------------------------------------------------------------------------------------------
SWIFT_API = None
try:
    from swift.rewards import ORM, orms  # ms-swift >= 4.0

    try:
        from swift.rewards import AsyncORM
    except ImportError:  # pragma: no cover - every 4.x has it; keep the module importable anyway
        AsyncORM = ORM
    SWIFT_API = "4.x"
except ImportError:
    try:
        from swift.plugin.orm import ORM, orms  # ms-swift 3.x

        try:
            from swift.plugin.orm import AsyncORM
        except ImportError:
            AsyncORM = ORM
        SWIFT_API = "3.x"
    except ImportError:

        class ORM:  # minimal stand-in: ms-swift is not installed
            def __init__(self, args=None, **kwargs):
                self.args = args

            def __call__(self, completions, **kwargs):
                raise NotImplementedError

        class AsyncORM(ORM):
            async def __call__(self, completions, **kwargs):
                raise NotImplementedError

        orms = {}
        SWIFT_API = "standalone"

try:
    from swift.rollout.multi_turn import MultiTurnScheduler, multi_turns  # ms-swift >= 4.0
except ImportError:
    try:
        from swift.plugin.multi_turn import MultiTurnScheduler, multi_turns  # ms-swift 3.x
    except ImportError:

        class MultiTurnScheduler:  # minimal stand-in: ms-swift is not installed
            def __init__(self, infer_engine=None, max_turns=None, *args, **kwargs):
                self.infer_engine = infer_engine
                self.max_turns = max_turns

            def check_finished(self, infer_request, response_choice, current_turn):
                if getattr(response_choice, "finish_reason", None) == "length":
                    return True
                return self.max_turns is not None and current_turn >= self.max_turns

        multi_turns = {}


_EXECUTOR = None


def _run_in_thread(function, *args):
    """Blocking HTTP off the event loop, in a pool sized for rollout concurrency (asyncio's default
    pool has only ``cpu_count + 4`` threads, which would queue 8 trajectories on a 2-core host)."""
    global _EXECUTOR
    if _EXECUTOR is None:
        _EXECUTOR = concurrent.futures.ThreadPoolExecutor(max_workers=_env("PERSONA_FORGE_THREADS", 64, int), thread_name_prefix="persona-forge")
    return asyncio.get_running_loop().run_in_executor(_EXECUTOR, function, *args)


def _env(name, default, cast=str):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return cast(value)
    except ValueError:
        logger.warning("persona-forge: ignoring %s=%r (not a %s)", name, value, cast.__name__)
        return default


class RewardServerError(Exception):
    """The reward server refused a request (4xx) or stayed unreachable after every retry."""

    def __init__(self, message, status=None, body=None):
        super().__init__(message)
        self.status = status
        self.body = body


# Columns never sent to the server: large, binary or trainer-internal.
_SKIP_COLUMNS = {"trainer_state", "response_token_ids", "trajectory_inputs", "images", "videos", "audios"}


def _time_text(value):
    """A time column as exported (``YYYY-MM-DD HH:MM``). Hugging Face ``datasets`` types a jsonl
    column of such strings as ``timestamp[s]``, so the trainer hands over ``datetime`` objects."""
    if hasattr(value, "strftime") and hasattr(value, "hour"):
        return value.strftime("%Y-%m-%d %H:%M")
    return str(value)


def _jsonable(value):
    if hasattr(value, "strftime") and hasattr(value, "hour"):
        return _time_text(value)
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        if isinstance(value, dict):
            return {str(k): _jsonable(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [_jsonable(v) for v in value]
        return str(value)


def build_items(completions, kwargs, columns=None):
    """One item per completion: ``completion`` plus the aligned columns of ``reward_kwargs``
    (only those in ``columns`` when given: what the reward reads)."""
    count = len(completions)
    keep = None if columns is None else set(columns)
    columns = {
        key: value
        for key, value in kwargs.items()
        if key not in _SKIP_COLUMNS and (keep is None or key in keep) and isinstance(value, (list, tuple)) and len(value) == count
    }
    items = []
    for index, completion in enumerate(completions):
        item = {key: _jsonable(value[index]) for key, value in columns.items() if value[index] is not None}
        item["completion"] = completion if isinstance(completion, str) else str(completion)
        items.append(item)
    return items


def group_of(item):
    """The prompt group of an item as the server sees it: ms-swift's ``prompt_id``, else the
    conversation before the first model turn, else the question (a request keeps groups whole)."""
    prompt_id = item.get("prompt_id")
    if prompt_id not in (None, ""):
        return "id:" + str(prompt_id)
    messages = item.get("messages")
    if isinstance(messages, list) and messages:
        first = next((i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"), len(messages))
        text = json.dumps([messages[:first], item.get("images")], sort_keys=True)
        return "m:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    for field in ("prompt", "question", "query"):
        if isinstance(item.get(field), str) and item[field]:
            return field + ":" + item[field]
    return None


def plan_chunks(encoded, groups, max_bytes, max_items):
    """Index lists, one per request: whole groups packed in order while the body stays under
    ``max_bytes`` and ``max_items``; a single group too large for one request is split (logged)."""
    order = []
    members = {}
    for index, key in enumerate(groups):
        key = key if key is not None else ("solo", index)
        if key not in members:
            members[key] = []
            order.append(key)
        members[key].append(index)
    chunks, current, size = [], [], _ENVELOPE
    for key in order:
        indexes = members[key]
        weight = sum(len(encoded[i]) + 1 for i in indexes)
        if current and (size + weight > max_bytes or len(current) + len(indexes) > max_items):
            chunks.append(current)
            current, size = [], _ENVELOPE
        if size + weight <= max_bytes and len(indexes) <= max_items:
            current.extend(indexes)
            size += weight
            continue
        logger.warning("persona-forge: one prompt group of %d rows (%d bytes) exceeds one request (%d bytes, %d rows); it is split, so its failed rows are neutral only within each part", len(indexes), weight, max_bytes, max_items)
        for index in indexes:
            row = len(encoded[index]) + 1
            if current and (size + row > max_bytes or len(current) >= max_items):
                chunks.append(current)
                current, size = [], _ENVELOPE
            current.append(index)
            size += row
    if current:
        chunks.append(current)
    return chunks


_ENVELOPE = 256  # bytes of a request body around its items
_DEFAULT_BODY_LIMIT = 8 * 1024 * 1024


class RewardClient:
    """Blocking HTTP client for the reward server (urllib), with retries and exponential backoff.

    4xx answers (a bad request: a bug, not a transient fault) raise at once; connection errors,
    timeouts, 429 and 5xx are retried ``retries`` times with ``backoff * 2**attempt`` sleeps. A
    413 — or a connection cut while sending a body over the server's limit — raises "request too
    large" with the size, never "cannot reach".
    """

    def __init__(self, url=None, token=None, timeout=None, retries=None, backoff=None, batch_size=None, max_bytes=None):
        self.url = (url or _env("PERSONA_FORGE_URL", "http://127.0.0.1:8000")).rstrip("/")
        self.token = token if token is not None else _env("PERSONA_FORGE_TOKEN", None)
        self.timeout = timeout if timeout is not None else _env("PERSONA_FORGE_TIMEOUT", 300.0, float)
        self.retries = retries if retries is not None else _env("PERSONA_FORGE_RETRIES", 4, int)
        self.backoff = backoff if backoff is not None else _env("PERSONA_FORGE_BACKOFF", 0.5, float)
        self.batch_size = batch_size if batch_size is not None else _env("PERSONA_FORGE_BATCH", 256, int)
        self.max_bytes = max_bytes if max_bytes is not None else _env("PERSONA_FORGE_MAX_BYTES", None, int)
        self._functions = None

    def _headers(self):
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = "Bearer " + self.token
        return headers

    def functions(self):
        """``GET /v1/rewards/functions`` (once per client): the columns each reward reads and the
        server's limits. A server without the endpoint's columns gets every column."""
        if self._functions is None:
            request = urllib.request.Request(self.url + "/v1/rewards/functions", headers=self._headers(), method="GET")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    self._functions = json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as error:
                text = error.read().decode("utf-8", "replace")
                if error.code in (404, 405, 501):  # an older server: every column, default limits
                    self._functions = {}
                    return self._functions
                raise RewardServerError("HTTP %d from %s/v1/rewards/functions: %s" % (error.code, self.url, text[:2000]), error.code, text)
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as error:
                raise RewardServerError("cannot reach %s/v1/rewards/functions: %s" % (self.url, error))
        return self._functions

    def columns_for(self, reward):
        """Columns ``reward`` reads (``completion`` included), or None when the server does not say."""
        for function in self.functions().get("functions", []):
            if function.get("name") == reward and isinstance(function.get("columns"), list):
                return function["columns"]
        return None

    def limits(self):
        limits = self.functions().get("limits") or {}
        body = int(limits.get("bodyLimitBytes") or _DEFAULT_BODY_LIMIT)
        # PERSONA_FORGE_MAX_BYTES wins (a value over the server's limit gets its 413).
        max_bytes = self.max_bytes if self.max_bytes else max(64 * 1024, body - 64 * 1024)
        max_items = min(max(1, self.batch_size), int(limits.get("maxItems") or 4096))
        return max_bytes, max_items, body

    def post(self, path, body, data=None):
        data = data if data is not None else json.dumps(body).encode("utf-8")
        headers = self._headers()
        limit = (self._functions or {}).get("limits", {}).get("bodyLimitBytes")
        last_error = None
        for attempt in range(self.retries + 1):
            if attempt > 0:
                time.sleep(self.backoff * (2 ** (attempt - 1)))
            request = urllib.request.Request(self.url + path, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as error:
                text = error.read().decode("utf-8", "replace")
                if error.code == 413:
                    raise RewardServerError("request too large: %d bytes to %s%s refused (HTTP 413): %s" % (len(data), self.url, path, text[:500]), 413, text)
                if error.code == 429 or error.code >= 500:
                    last_error = RewardServerError("HTTP %d from %s%s: %s" % (error.code, self.url, path, text[:500]), error.code, text)
                    continue
                raise RewardServerError("HTTP %d from %s%s: %s" % (error.code, self.url, path, text[:2000]), error.code, text)
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as error:
                if limit and len(data) > int(limit):
                    raise RewardServerError("request too large: %d bytes to %s%s exceed the server's limit of %s bytes (the connection was cut while sending: %s)" % (len(data), self.url, path, limit, error), 413)
                last_error = RewardServerError("cannot reach %s%s: %s" % (self.url, path, error))
        raise RewardServerError("%s (after %d attempts)" % (last_error, self.retries + 1))

    def _requests(self, reward, items, timeout_ms=None):
        """(indexes, body bytes) per request: whole prompt groups, under the byte and row limits."""
        max_bytes, max_items, _body = self.limits()
        encoded = [json.dumps(item, separators=(",", ":")).encode("utf-8") for item in items]
        groups = [group_of(item) for item in items]
        head = {"reward": reward}
        if timeout_ms is not None:
            head["timeout_ms"] = int(timeout_ms)
        prefix = json.dumps(head)[:-1].encode("utf-8") + b', "items": ['
        for indexes in plan_chunks(encoded, groups, max_bytes, max_items):
            yield indexes, prefix + b",".join(encoded[i] for i in indexes) + b"]}"

    def _post_chunk(self, reward, indexes, data):
        return indexes, trainer_values(reward, self.post("/v1/rewards", None, data=data))

    @staticmethod
    def _place(count, results):
        values = [None] * count
        for indexes, chunk in results:
            for index, value in zip(indexes, chunk):
                values[index] = value
        return values

    def score(self, reward, items, timeout_ms=None):
        """Rewards for ``items`` (list of dicts), in order: finite floats, failures resolved by the
        server's ``onFailure`` policy; raises ``RewardFailedError`` when the policy refuses a batch."""
        results = [self._post_chunk(reward, indexes, data) for indexes, data in self._requests(reward, items, timeout_ms)]
        return self._place(len(items), results)

    async def ascore(self, reward, items, timeout_ms=None):
        """``score`` without blocking the event loop: requests POST concurrently in worker threads."""
        planned = await _run_in_thread(lambda: list(self._requests(reward, items, timeout_ms)))
        results = await asyncio.gather(*(_run_in_thread(self._post_chunk, reward, indexes, data) for indexes, data in planned))
        return self._place(len(items), results)

    def retrieve(self, body):
        return self.post("/v1/memory/retrieve", body)


class RewardFailedError(RewardServerError):
    """The server scored the batch but its ``onFailure`` policy refuses to hand the failures over."""


# Failed items per reward and code since the process started (also in the server's /metrics).
FAILURE_COUNTS = {}


def trainer_values(reward, answer):
    """Finite rewards of one server answer; logs every failure with its code; raises on refusal."""
    trainer = answer.get("trainer")
    if trainer is None:  # a server older than the onFailure policy: never pass None on
        raw = answer.get("rewards", [])
        if any(value is None for value in raw):
            raise RewardFailedError("persona-forge %s: %d null rewards and the server applies no onFailure policy; upgrade the server" % (reward, sum(v is None for v in raw)))
        return [float(value) for value in raw]
    codes = trainer.get("codes") or {}
    for code, count in codes.items():
        FAILURE_COUNTS[(reward, code)] = FAILURE_COUNTS.get((reward, code), 0) + count
    examples = "; ".join("%s item %s: %s" % (e.get("code"), e.get("index"), e.get("message")) for e in answer.get("errors", [])[:3])
    if trainer.get("rewards") is None:
        raise RewardFailedError("persona-forge reward %s refused the batch: %s [%s]" % (reward, trainer.get("reason", "failed"), examples))
    if trainer.get("filled"):
        summary = ", ".join("%d× %s" % (count, code) for code, count in sorted(codes.items()))
        logger.warning("persona-forge reward %s: %d of %d items failed (%s), given the %s value [%s]", reward, trainer["filled"], len(trainer["rewards"]), summary, trainer.get("policy"), examples)
    values = [float(value) for value in trainer["rewards"]]
    if any(value != value or value in (float("inf"), float("-inf")) for value in values):
        raise RewardFailedError("persona-forge reward %s: the server sent a non-finite reward" % reward)
    return values


def _on_error(error, count, reward):
    FAILURE_COUNTS[(reward, "unreachable")] = FAILURE_COUNTS.get((reward, "unreachable"), 0) + count
    bad_request = error.status is not None and 400 <= error.status < 500 and error.status != 429
    if isinstance(error, RewardFailedError) or bad_request or _env("PERSONA_FORGE_ON_ERROR", "raise") != "neutral":
        raise error
    logger.warning("persona-forge reward %s unavailable, giving all %d rows the same 0.0 (PERSONA_FORGE_ON_ERROR=neutral): %s", reward, count, error)
    return [0.0] * count


class _PersonaForgeReward(AsyncORM):
    """Async ORM posting the batch to the reward server (ms-swift gathers every async reward)."""

    reward_name = None

    def __init__(self, args=None, client=None, **kwargs):
        # ms-swift 4.x calls cls(args=GRPOConfig); 3.x passes matching args fields plus tokenizer.
        self.args = args
        self.client = client or RewardClient()

    async def __call__(self, completions, **kwargs):
        if not completions:
            return []
        try:
            columns = await _run_in_thread(self.client.columns_for, self.reward_name)
            return await self.client.ascore(self.reward_name, build_items(completions, kwargs, columns))
        except RewardServerError as error:
            return _on_error(error, len(completions), self.reward_name)


class _PersonaForgeRewardSync(ORM):
    """Blocking twin of the async ORM, for trainers that run rewards one after another."""

    reward_name = None

    def __init__(self, args=None, client=None, **kwargs):
        self.args = args
        self.client = client or RewardClient()

    def __call__(self, completions, **kwargs):
        if not completions:
            return []
        try:
            columns = self.client.columns_for(self.reward_name)
            return self.client.score(self.reward_name, build_items(completions, kwargs, columns))
        except RewardServerError as error:
            return _on_error(error, len(completions), self.reward_name)


# Class names are what ms-swift logs (rewards/<ClassName>/mean), so they are readable.
class PfFormat(_PersonaForgeReward):
    reward_name = "format"


class PfAccuracy(_PersonaForgeReward):
    reward_name = "accuracy"


class PfConsistency(_PersonaForgeReward):
    reward_name = "consistency"


class PfTreeOps(_PersonaForgeReward):
    reward_name = "tree_ops"


class PfPersona(_PersonaForgeReward):
    reward_name = "persona_consistency"


class PfPersonaVLM(_PersonaForgeReward):
    reward_name = "personavlm"


ASYNC_REWARDS = {
    "pf_format": PfFormat,
    "pf_accuracy": PfAccuracy,
    "pf_consistency": PfConsistency,
    "pf_tree_ops": PfTreeOps,
    "pf_persona": PfPersona,
    "pf_personavlm": PfPersonaVLM,
}
SYNC_REWARDS = {
    name + "_sync": type(cls.__name__ + "Sync", (_PersonaForgeRewardSync,), {"reward_name": cls.reward_name})
    for name, cls in ASYNC_REWARDS.items()
}
for _name, _cls in list(ASYNC_REWARDS.items()) + list(SYNC_REWARDS.items()):
    orms[_name] = _cls


# ---------------------------------------------------------------------------------------------
# Multi-turn retrieval environment (PersonaVLM response stage, SPEC.md §1).
# ---------------------------------------------------------------------------------------------
_RETRIEVE = re.compile(r"<retrieve>(.*?)</retrieve>", re.S)
_ANSWER = re.compile(r"<answer>.*?</answer>", re.S)


def _content(message):
    content = message.get("content") if isinstance(message, dict) else getattr(message, "content", None)
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def _completion(response_choice):
    message = getattr(response_choice, "message", None)
    return _content(message) if message is not None else ""


def _retrieve_turns(messages):
    return sum(1 for m in messages if (m.get("role") == "assistant" and _RETRIEVE.search(_content(m) or "")))


class PfRetrievalScheduler(MultiTurnScheduler):
    """``pf_retrieval``: serves ``<retrieve>{json}</retrieve>`` turns from the reward server's memory.

    Token ids, both modes: ``step`` returns each retrieve turn's engine token ids; the final
    (answer) turn's ids are added by ms-swift's colocate loop (``rollout/agent_loop.py``) but not
    by ``MultiTurnScheduler.run`` (server mode, ``swift rollout``), which would then lay the
    retrieve turn's ids on the answer (ids are matched to assistant turns from the last one). So
    ``run`` adds the final turn's ids (and log-probs) when ms-swift left them out, and only then.

    After each model turn: an ``<answer>`` ends the trajectory; a ``<retrieve>`` block is sent to
    ``/v1/memory/retrieve`` (with the row's ``user_id`` or ``memory_snapshot`` column, its
    ``question_time`` as the memory state's time, and the ids already returned so no entry comes
    back twice) and the memory block is appended as a new user turn, which GRPO excludes from
    the loss. At most ``PERSONA_FORGE_MAX_RETRIEVALS`` (3) retrievals are served; a further
    ``<retrieve>`` ends the trajectory. Use ``stop_words`` ``</retrieve>`` to end a turn there.
    """

    def __init__(self, infer_engine=None, max_turns=None, *args, **kwargs):
        client = kwargs.pop("client", None)
        super().__init__(infer_engine, max_turns, *args, **kwargs)
        self.client = client or RewardClient()
        self.max_retrievals = _env("PERSONA_FORGE_MAX_RETRIEVALS", 3, int)
        self._pending = {}  # id(infer_request) -> memory block fetched by on_turn_end
        self._ids_returned = {}  # id(infer_request) -> turns whose token ids step() returned
        self.role = _env("PERSONA_FORGE_RETRIEVAL_ROLE", "user")

    def check_finished(self, infer_request, response_choice, current_turn):
        completion = _completion(response_choice)
        if _ANSWER.search(completion) or not _RETRIEVE.search(completion):
            return True
        if _retrieve_turns(infer_request.messages) > self.max_retrievals:
            return True
        return super().check_finished(infer_request, response_choice, current_turn)

    def _query(self, infer_request, raw):
        data = getattr(infer_request, "data_dict", None) or {}
        try:
            query = json.loads(raw)
        except ValueError as error:
            return None, "invalid retrieve JSON: %s" % error
        if not isinstance(query, dict) or not isinstance(query.get("keywords"), str):
            return None, "retrieve JSON needs a keywords string"
        body = {
            "keywords": query["keywords"],
            "start_time": query.get("start_time"),
            "end_time": query.get("end_time"),
            "exclude": list(data.get("_pf_retrieved_ids", [])),
        }
        if data.get("memory_snapshot"):  # exported rows use "" for "no snapshot"
            body["memory_snapshot"] = data["memory_snapshot"]
        elif data.get("user_id") not in (None, ""):
            body["user_id"] = str(data["user_id"])
        else:
            return None, "the row has no user_id or memory_snapshot column"
        when = data.get("question_time") or data.get("time")
        if when is not None:
            body["time"] = _time_text(when)
        if data.get("retrieve_k") is not None:
            body["k"] = int(data["retrieve_k"])
        return body, None

    def _fetch(self, infer_request, completion):
        """The memory block for the turn's last ``<retrieve>`` (blocking HTTP; run it in a thread)."""
        matches = _RETRIEVE.findall(completion)
        if not matches:
            return None
        body, problem = self._query(infer_request, matches[-1].strip())
        if body is None:
            return "<memory>\n%s\n</memory>" % problem
        try:
            answer = self.client.retrieve(body)
        except RewardServerError as error:
            logger.warning("persona-forge retrieval failed: %s", error)
            return "<memory>\nMemory retrieval failed.\n</memory>"
        data = getattr(infer_request, "data_dict", None)
        if isinstance(data, dict):
            data.setdefault("_pf_retrieved_ids", []).extend(r["id"] for r in answer.get("results", []))
        return answer["block"]

    async def on_turn_end(self, infer_request, response_choice, current_turn):
        """ms-swift's async hook (called before ``check_finished`` and ``step``): the retrieval runs
        in a worker thread, so concurrent trajectories in ``swift rollout`` do not wait on each
        other. ``step`` then appends the block fetched here."""
        completion = _completion(response_choice)
        if self.check_finished(infer_request, response_choice, current_turn):
            return {}
        if self.max_turns and current_turn >= self.max_turns:
            return {}
        block = await _run_in_thread(self._fetch, infer_request, completion)
        if block is not None:
            self._pending[id(infer_request)] = block
        return {}

    def step(self, infer_request, response_choice, current_turn):
        block = self._pending.pop(id(infer_request), None)
        if block is None:  # ms-swift without the async hooks (3.x, 4.0): fetch here
            block = self._fetch(infer_request, _completion(response_choice))
        result = {"infer_request": infer_request}
        if block is None:
            # No new turn: ms-swift continues the same assistant message, so the final ids may be
            # merged into this turn's — never repair such a trajectory.
            self._ids_returned[id(infer_request)] = float("-inf")
            return result
        infer_request.messages.append({"role": self.role, "content": block})
        result["rollout_infos"] = {"pf_retrievals": _retrieve_turns(infer_request.messages)}
        # The engine's token ids of this turn: the trainer keeps them (and their rollout log-probs)
        # instead of re-tokenizing earlier turns. The memory block is a new user turn, so every
        # token of this turn is the model's own and trains (loss mask 1).
        token_ids = getattr(response_choice, "token_ids", None)
        if token_ids:
            result["response_token_ids"] = list(token_ids)
            result["response_loss_mask"] = [1] * len(token_ids)
            self._ids_returned[id(infer_request)] = self._ids_returned.get(id(infer_request), 0) + 1
        return result

    async def run(self, infer_request, request_config, **kwargs):
        """Server mode (``swift rollout``): ms-swift's ``run``, then the final turn's token ids
        where it dropped them, so every assistant turn gets its own ids."""
        parent = getattr(super(), "run", None)
        if parent is None:
            raise NotImplementedError("MultiTurnScheduler.run needs ms-swift")
        self._ids_returned.pop(id(infer_request), None)
        try:
            output = await parent(infer_request, request_config, **kwargs)
            returned = self._ids_returned.get(id(infer_request), 0)
        finally:
            self._ids_returned.pop(id(infer_request), None)
        for one in output if isinstance(output, list) else [output]:
            self._add_final_turn(one, returned)
        return output

    def _add_final_turn(self, output, returned):
        ids = getattr(output, "response_token_ids", None)
        response = getattr(output, "response", None)
        choices = getattr(response, "choices", None) or []
        final = list(getattr(choices[0], "token_ids", None) or []) if choices else []
        # Only when the ids hold exactly the step() turns: the final turn was left out.
        if returned < 1 or not final or ids is None or len(ids) != returned:
            return
        ids.append(final)
        masks = getattr(output, "response_loss_mask", None)
        if masks is not None and len(masks) == returned:
            masks.append([1] * len(final))
        logprobs = getattr(output, "rollout_logprobs", None)
        if logprobs:
            extract = getattr(self, "_extract_logprobs_from_choice", None)
            last = extract(choices[0]) if extract is not None else None
            if last and len(logprobs) == returned:
                logprobs.append(last)
            else:  # incomplete log-probs disable importance sampling, as ms-swift does
                del logprobs[:]


multi_turns["pf_retrieval"] = PfRetrievalScheduler
