// The Python text of the "Check it on your GPU" script, in pieces: the head, one model per code style,
// and the measuring loop. pytorch-script.js picks the pieces and fills in the check's JSON; nothing
// here runs. The model code is scripts/measure-pytorch.py's (the code the fixtures and so the engine's
// step-phase model were measured on), without its per-op tagging. Python has no `${`; String.raw keeps
// its backslashes as written.

export const PY_HEAD = String.raw`#!/usr/bin/env python3
# Lab 08, "Check it on your GPU": one training step of the lab's scenario (CHECK below), measured in
# PyTorch, printed as one JSON object to paste back into the lab. PyTorch only; no network.
# Run: python3 lab08_check.py   (in a notebook: paste it into a cell and run the cell)
import contextlib, json, math, sys, time
import torch
import torch.nn as nn
import torch.nn.functional as F

CHECK = json.loads(@@CHECK@@)
S, M = CHECK["scenario"], CHECK["model"]  # the scenario as the lab resolved it; the model it names
DEV = "cuda" if S["pytorch_build"] == "cuda" else "cpu"
DROPOUT_P = 0.1 if S["dropout"] else 0.0  # any p > 0 saves the same masks
`;

const ATTENTION = String.raw`
def attention(q, k, v, mask, hd, p, training, hf):
    if S["flash_attention"]:
        return F.scaled_dot_product_attention(q, k, v, dropout_p=p if training else 0, is_causal=True)
    T = q.shape[2]
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
    if hf:  # Hugging Face's eager path: the mask is added (nothing saved), softmax in FP32
        att = att + mask
        att = F.softmax(att, dim=-1, dtype=torch.float32).to(q.dtype)
    else:
        att = att.masked_fill(mask[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
    if p > 0: att = F.dropout(att, p, training)
    return att @ v
`;

const MODEL = String.raw`
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        d, V = M["hidden"], M["vocab"]
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Embedding(M["context"], d) if M["learned_positions"] else None
        self.blocks = nn.ModuleList(Block() for _ in range(M["layers"]))
        self.norm_f = Norm(d)
        self.head = nn.Linear(d, V, bias=False)
        if M["tied_head"]: self.head.weight = self.tok.weight
        self.per_forward = PerForward()

    def forward(self, idx, targets):
        x = self.tok(idx)
        if self.pos is not None: x = x + self.pos(torch.arange(idx.shape[1], device=idx.device))
        if DROPOUT_P > 0: x = F.dropout(x, DROPOUT_P, self.training)
        shared = self.per_forward(x)  # what the code builds once per forward for every block
        for b in self.blocks: x = b(x, *shared)
        logits = self.head(self.norm_f(x))
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss  # the loop keeps the logits alive through backward, as nanoGPT and HF do
`;

// nanoGPT (Karpathy): pre-LayerNorm, fused QKV, explicit causal softmax attention, GELU MLP, dropout.
export const PY_NANOGPT = String.raw`
class LayerNorm(nn.Module):  # nanoGPT's: LayerNorm with an optional bias
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d)) if M["norm_bias"] else None

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)


Norm = LayerNorm
` + ATTENTION + String.raw`

class PerForward(nn.Module):  # nanoGPT builds nothing per forward
    def forward(self, x):
        return ()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        d, ctx, f = M["hidden"], M["context"], M["mlp_hidden"]
        self.heads = M["heads"]
        self.ln_1, self.ln_2 = LayerNorm(d), LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d, bias=M["qkv_bias"]), nn.Linear(d, d, bias=M["attn_out_bias"])
        self.fc, self.fc_proj = nn.Linear(d, f, bias=M["mlp_bias"]), nn.Linear(f, d, bias=M["mlp_bias"])
        if not S["flash_attention"]:  # nanoGPT registers its causal mask only without flash
            self.register_buffer("mask", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))

    def drop(self, x):
        return F.dropout(x, DROPOUT_P, self.training) if DROPOUT_P > 0 else x

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        y = attention(q, k, v, getattr(self, "mask", None), C // self.heads, DROPOUT_P, self.training, False)
        x = x + self.drop(self.proj(y.transpose(1, 2).contiguous().view(B, T, C)))
        return x + self.drop(self.fc_proj(F.gelu(self.fc(self.ln_2(x)))))
` + MODEL;

// Hugging Face's Llama block, simplified: RMSNorm, separate q/k/v, RoPE (rotate_half) with cos/sin built
// per forward, repeat_kv for grouped-query attention, an additive causal mask, SwiGLU, no dropout.
export const PY_HF_LLAMA = String.raw`
class RMSNorm(nn.Module):  # Meta's and HF's: x * rsqrt(mean(x^2) + eps) in FP32, times the weight
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        n = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return n.type_as(x) * self.weight


Norm = RMSNorm


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n):  # HF: every K/V head expanded to the n query heads that share it
    B, kv, T, hd = x.shape
    return x if n == 1 else x[:, :, None, :, :].expand(B, kv, n, T, hd).reshape(B, kv * n, T, hd)
` + ATTENTION + String.raw`

class PerForward(nn.Module):
    # HF's LlamaRotaryEmbedding (one per model, its only buffer inv_freq) and eager causal mask (s x s in
    # x's type, expanded over the batch): built once per forward, with the position ids, for every block.
    def __init__(self):
        super().__init__()
        hd = M["head_dim"]
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd)), persistent=False)

    @torch.no_grad()
    def forward(self, x):
        B, T = x.shape[0], x.shape[1]
        pos = torch.arange(T, device=x.device).unsqueeze(0)
        with torch.autocast(x.device.type, enabled=False):
            freqs = (self.inv_freq[None, :, None].float() @ pos[:, None, :].float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
        if S["flash_attention"]: return cos, sin, None, pos
        m = torch.triu(torch.full((T, T), torch.finfo(x.dtype).min, dtype=x.dtype, device=x.device), diagonal=1)
        return cos, sin, m[None, None].expand(B, 1, -1, -1), pos


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        d, ctx, f = M["hidden"], M["context"], M["mlp_hidden"]
        self.heads, self.kv, self.hd = M["heads"], M["kv_heads"], M["head_dim"]
        self.norm_1, self.norm_2 = RMSNorm(d), RMSNorm(d)
        self.wq = nn.Linear(d, self.heads * self.hd, bias=M["qkv_bias"])
        self.wk = nn.Linear(d, self.kv * self.hd, bias=M["qkv_bias"])
        self.wv = nn.Linear(d, self.kv * self.hd, bias=M["qkv_bias"])
        self.wo = nn.Linear(self.heads * self.hd, d, bias=M["attn_out_bias"])
        self.gate, self.up = nn.Linear(d, f, bias=M["mlp_bias"]), nn.Linear(d, f, bias=M["mlp_bias"])
        self.down = nn.Linear(f, d, bias=M["mlp_bias"])

    def forward(self, x, cos, sin, mask, position_ids):
        B, T, C = x.shape
        h = self.norm_1(x)
        q = self.wq(h).view(B, T, self.heads, self.hd).transpose(1, 2)
        k = self.wk(h).view(B, T, self.kv, self.hd).transpose(1, 2)
        v = self.wv(h).view(B, T, self.kv, self.hd).transpose(1, 2)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        k, v = repeat_kv(k, self.heads // self.kv), repeat_kv(v, self.heads // self.kv)
        y = attention(q, k, v, mask, self.hd, 0.0, self.training, True)
        x = x + self.wo(y.transpose(1, 2).contiguous().view(B, T, self.heads * self.hd))
        h = self.norm_2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))
` + MODEL;

// The from-scratch style of a course assignment: every op hand-written (issue 26). Linear is a matmul
// on the weight itself (d_in x d_out, no bias), softmax exp(x - max) / sum, RMSNorm in FP32, SiLU as
// x * sigmoid(x), a boolean causal mask, RoPE from cos/sin tables indexed by position, and the loss
// as logsumexp(logits) minus the target's logit.
export const PY_FROM_SCRATCH = String.raw`
def param(*shape):
    return nn.Parameter(torch.randn(*shape) * 0.02)


def softmax(x):
    e = torch.exp(x - x.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps, self.g = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        xf = x.float()
        return (xf / torch.sqrt((xf * xf).mean(-1, keepdim=True) + self.eps) * self.g).type_as(x)


class RoPE(nn.Module):  # rotates pairs (x[2i], x[2i+1]) by position * theta_i
    def __init__(self, hd, ctx, theta=10000.0):
        super().__init__()
        ang = torch.outer(torch.arange(ctx).float(), 1.0 / (theta ** (torch.arange(0, hd, 2).float() / hd)))
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)

    def forward(self, x, positions):
        cos, sin = self.cos[positions], self.sin[positions]  # new tensors at each call
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        d, ctx, f = M["hidden"], M["context"], M["mlp_hidden"]
        self.heads, self.kv, self.hd = M["heads"], M["kv_heads"], M["head_dim"]
        self.norm_1, self.norm_2 = RMSNorm(d), RMSNorm(d)
        self.wq, self.wk, self.wv = param(d, self.heads * self.hd), param(d, self.kv * self.hd), param(d, self.kv * self.hd)
        self.wo = param(self.heads * self.hd, d)
        self.w_gate, self.w_up, self.w_down = param(d, f), param(d, f), param(f, d)
        self.rope = RoPE(self.hd, ctx)
        self.register_buffer("mask", torch.tril(torch.ones(ctx, ctx, dtype=torch.bool)), persistent=False)

    def forward(self, x, positions):
        B, T, C = x.shape
        h = self.norm_1(x)
        q = (h @ self.wq).view(B, T, self.heads, self.hd).transpose(1, 2)
        k = (h @ self.wk).view(B, T, self.kv, self.hd).transpose(1, 2)
        v = (h @ self.wv).view(B, T, self.kv, self.hd).transpose(1, 2)
        q, k = self.rope(q, positions), self.rope(k, positions)
        if self.kv != self.heads:  # GQA: each K/V head serves heads/kv query heads
            k, v = k.repeat_interleave(self.heads // self.kv, dim=1), v.repeat_interleave(self.heads // self.kv, dim=1)
        if S["flash_attention"]:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            att = q @ k.transpose(-2, -1) / math.sqrt(self.hd)
            att = softmax(att.masked_fill(~self.mask[:T, :T], float("-inf")))
            y = att @ v
        x = x + y.transpose(1, 2).reshape(B, T, self.heads * self.hd) @ self.wo
        h = self.norm_2(x)
        g, u = h @ self.w_gate, h @ self.w_up
        return x + (g * torch.sigmoid(g) * u) @ self.w_down


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        d, V = M["hidden"], M["vocab"]
        self.emb = param(V, d)
        self.blocks = nn.ModuleList(Block() for _ in range(M["layers"]))
        self.norm_f = RMSNorm(d)
        if not M["tied_head"]: self.w_head = param(d, V)

    def forward(self, idx, targets):
        positions = torch.arange(idx.shape[1], device=idx.device)
        x = self.emb[idx]
        for b in self.blocks: x = b(x, positions)
        logits = self.norm_f(x) @ (self.emb.T if M["tied_head"] else self.w_head)  # tied: a view, never cached
        target_logit = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        return logits, (torch.logsumexp(logits, dim=-1) - target_logit).mean()
`;

// The loop: checks the step fits, builds the model, counts what autograd saves, measures the first and
// a steady step phase by phase (CUDA: the allocator's peak, reset per phase; CPU: the profiler's memory
// events over the bytes alive before the step), times the steps, and prints one JSON object.
export const PY_RUN = String.raw`

def refuse(message):
    print(json.dumps({"refused": message, "scenario": S, "torch_version": torch.__version__}))
    sys.exit(1)


def free_bytes():
    if DEV == "cuda":
        if not torch.cuda.is_available():
            refuse("PyTorch sees no CUDA GPU. In a notebook, choose a GPU runtime; or check the CPU build in the lab.")
        return torch.cuda.mem_get_info()[0], torch.cuda.get_device_name()
    try:
        with open("/proc/meminfo") as fh:
            info = dict(line.split(":", 1) for line in fh)
        return int(info["MemAvailable"].split()[0]) * 1024, "CPU"
    except (OSError, KeyError, ValueError):
        return None, "CPU"


def autocast(region):
    if not S["precision"].startswith("autocast") or S.get("autocast_scope", "forward") != region:
        return contextlib.nullcontext()
    return torch.autocast(DEV, dtype=torch.bfloat16 if S["precision"] == "autocast_bf16" else torch.float16)


def make_optimizer(model):
    o, impl = S["optimizer"], S["optimizer_impl"]
    kw = {"fused": True} if impl == "fused" else {"foreach": impl == "foreach"}
    if o in ("adam", "adamw"): return torch.optim.AdamW(model.parameters(), lr=1e-4, **kw)
    return torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9 if o == "momentum" else 0, **kw)


def is_weight_copy(t):  # autocast's cached 16-bit cast of a parameter itself (not of a view of one)
    fn = t.grad_fn
    for _ in range(4):
        if fn is None or type(fn).__name__ not in ("ToCopyBackward0", "TBackward0", "ViewBackward0", "ExpandBackward0"):
            return False
        nxt = fn.next_functions[0][0]
        if nxt is not None and type(nxt).__name__ == "AccumulateGrad": return type(fn).__name__ == "ToCopyBackward0"
        fn = nxt
    return False


def saved_bytes(model, idx, tgt):
    """Bytes autograd saves for backward: unique storages, parameters and buffers left out."""
    owned = {p.data_ptr() for p in model.parameters()} | {b.data_ptr() for b in model.buffers()}
    seen, total = set(), {"activations": 0, "weight_copies": 0}
    def pack(t):
        st = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
        if st.data_ptr() not in owned and t.dim() > 0 and st.data_ptr() not in seen:
            seen.add(st.data_ptr())
            total["weight_copies" if is_weight_copy(t) else "activations"] += st.nbytes()
        return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with autocast(S.get("autocast_scope", "forward")):
            logits, loss = model(idx, tgt)
    loss.backward()
    return total


def live_bytes(model, opt, idx, tgt):  # CPU: what is alive before a step (no allocator to ask)
    ts = [p for p in model.parameters()] + [p.grad for p in model.parameters() if p.grad is not None]
    ts += [v for st in opt.state.values() for v in st.values() if torch.is_tensor(v)] + [idx, tgt]
    return sum(t.numel() * t.element_size() for t in ts)


PHASES = ("zero_grad", "forward", "backward", "optimizer_step")


def step(model, opt, idx, tgt, mark):
    with mark("zero_grad"): opt.zero_grad(set_to_none=S["zero_grad"] == "set_to_none")
    with autocast("step"):
        with mark("forward"):
            with autocast("forward"): logits, loss = model(idx, tgt)
        with mark("backward"): loss.backward()
        with mark("optimizer_step"): opt.step()
    del logits, loss


def measured_step(model, opt, idx, tgt):
    """Peak live bytes in each phase of one step, and the step's peak."""
    phase_max = {}
    if DEV == "cuda":
        @contextlib.contextmanager
        def mark(name):
            torch.cuda.reset_peak_memory_stats()
            yield
            torch.cuda.synchronize()
            phase_max[name] = torch.cuda.max_memory_allocated()
        torch.cuda.synchronize()
        start = torch.cuda.memory_allocated()
        step(model, opt, idx, tgt, mark)
        end = torch.cuda.memory_allocated()
    else:
        start = live_bytes(model, opt, idx, tgt)
        mark = lambda name: torch.profiler.record_function("phase:" + name)
        prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True)
        with prof: step(model, opt, idx, tgt, mark)
        events = list(prof.profiler.kineto_results.events())
        spans = {e.name()[6:]: (e.start_us(), e.start_us() + e.duration_us()) for e in events if e.name().startswith("phase:")}
        # Each phase's maximum starts from the bytes alive when that phase begins, as CUDA's reset of
        # the peak does (the steady forward starts after zero_grad has freed the gradients).
        order = sorted(spans, key=lambda p: spans[p][0])
        live, phase_max, k = start, {}, 0
        for t, _, n in sorted((e.start_us(), i, e.nbytes()) for i, e in enumerate(events) if e.name() == "[memory]"):
            while k < len(order) and spans[order[k]][0] <= t:
                phase_max[order[k]], k = live, k + 1
            live += n
            phase = next((p for p, (a, b) in spans.items() if a <= t <= b), None)
            if phase: phase_max[phase] = max(phase_max[phase], live)
        for p in PHASES: phase_max.setdefault(p, live)
        end = live
    peak_phase = max(PHASES, key=lambda p: phase_max[p])
    return {"start_bytes": start, "peak_bytes": phase_max[peak_phase], "peak_phase": peak_phase,
            "end_bytes": end, "phase_max_bytes": phase_max}


def timed_steps(model, opt, idx, tgt, n):
    nomark = lambda name: contextlib.nullcontext()
    sync = torch.cuda.synchronize if DEV == "cuda" else (lambda: None)
    seconds = []
    for _ in range(n):
        sync()
        t0 = time.perf_counter()
        step(model, opt, idx, tgt, nomark)
        sync()
        seconds.append(time.perf_counter() - t0)
    return seconds


def main():
    free, device_name = free_bytes()
    need = CHECK["predicted_peak_bytes"]
    if free is not None and need > free:
        refuse(f"The lab predicts this step needs {need:,} bytes ({need / 1e9:,.2f} GB); {device_name} has {free:,} bytes ({free / 1e9:,.2f} GB) free. "
               "It would run out of memory: choose a smaller batch, sequence or model in the lab.")
    # On a CPU the profiler's records and Python take their share too, and the machine is the user's
    # own: a step over half of what is free is refused (a walk: 12 GB and growing after 3 minutes).
    if DEV == "cpu" and free is not None and need > free // 2:
        refuse(f"The lab predicts this step needs {need:,} bytes ({need / 1e9:,.2f} GB); CPU has {free:,} bytes ({free / 1e9:,.2f} GB) free. "
               "On a CPU the script runs only a step within half of that: choose a smaller batch, sequence or model in the lab.")
    if DEV == "cpu": torch.set_num_threads(1)  # as the lab's CPU measurements were made
    torch.manual_seed(0)
    try:
        model = Model().train().to(DEV)
        if S["precision"] in ("bf16", "fp16"):  # pure 16-bit: the model cast, no FP32 master copy
            model = model.to(torch.bfloat16 if S["precision"] == "bf16" else torch.float16)
        g = torch.Generator().manual_seed(1)
        idx, tgt = (torch.randint(0, M["vocab"], (S["batch_size"], S["seq_len"]), generator=g).to(DEV) for _ in range(2))
        saved = saved_bytes(model, idx, tgt)
        model.zero_grad(set_to_none=True)
        opt = make_optimizer(model)
        first = measured_step(model, opt, idx, tgt)
        for _ in range(CHECK["warmup_steps"]):  # measured too: on CPU the profiler sizes only blocks it saw allocated
            measured_step(model, opt, idx, tgt)
        steady = measured_step(model, opt, idx, tgt)
        seconds = sorted(timed_steps(model, opt, idx, tgt, CHECK["measured_steps"]))
    except (RuntimeError, TypeError, ValueError, AttributeError) as err:  # out of memory, an op or option this build lacks
        refuse(f"PyTorch stopped: {str(err).splitlines()[0][:300]}")
    step_s = seconds[len(seconds) // 2]
    tokens_per_s = S["batch_size"] * S["seq_len"] / step_s
    mfu = CHECK["model_flops_per_token"] * tokens_per_s / CHECK["peak_flops_per_s"] if DEV == "cuda" else None
    print(json.dumps({
        "lab_check": CHECK["format"], "scenario": S, "torch_version": torch.__version__,
        "device": {"type": DEV, "name": device_name},
        "parameters": sum(p.numel() for p in model.parameters()),
        "saved_bytes": saved["activations"], "autocast_weight_cache_bytes": saved["weight_copies"],
        "first_step": first, "steady_step": steady,
        "timing": {"warmup_steps": CHECK["warmup_steps"], "measured_steps": len(seconds), "step_seconds": step_s,
                   "tokens_per_s": tokens_per_s, "model_flops_per_token": CHECK["model_flops_per_token"],
                   "peak_flops_per_s": CHECK["peak_flops_per_s"], "peak_of": CHECK["device_name"], "mfu": mfu}}))


if __name__ == "__main__":
    main()
`;
