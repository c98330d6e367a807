#!/usr/bin/python3
# Measures what PyTorch really holds in a training step, for tests/fixtures/pytorch/*.json (not a test:
# run by hand, `scripts/measure-pytorch.py [OUT_DIR]`, with Debian's python3-torch on CPU, or any
# PyTorch >= 1.13). Straightforward GPT-2 and Llama-style models; saved tensors per op through
# torch.autograd.graph.saved_tensors_hooks; live bytes through a step from the profiler's memory events.
import contextlib, json, math, os, sys
import torch
import torch.nn as nn
import torch.nn.functional as F

TAG = ["other"]  # the op whose saved tensors are being recorded ("layer.attn.softmax", "head", ...)
# MEASURE_DEVICE=cuda measures on a CUDA GPU (torch.cuda.max_memory_allocated per phase; configs
# with "flash" use scaled_dot_product_attention, PyTorch >= 2.0). Default: CPU (the profiler).
DEV = "cuda" if os.environ.get("MEASURE_DEVICE") == "cuda" else "cpu"


@contextlib.contextmanager
def tag(name):
    TAG.append(name)
    try:
        yield
    finally:
        TAG.pop()


class Linear(nn.Linear):
    def __init__(self, name, d_in, d_out, bias):
        super().__init__(d_in, d_out, bias=bias)
        self.tag_name = name

    def forward(self, x):
        with tag(self.tag_name):
            return super().forward(x)


class GPT2Block(nn.Module):
    # nanoGPT's block (Karpathy): pre-LayerNorm, fused QKV, explicit causal softmax attention, GELU MLP.
    def __init__(self, d, heads, ctx, f, p):
        super().__init__()
        self.heads, self.p = heads, p
        self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = Linear("attn.qkv", d, 3 * d, True), Linear("attn.proj", d, d, True)
        self.fc, self.fc_proj = Linear("mlp.fc", d, f, True), Linear("mlp.proj", f, d, True)
        self.ctx = ctx  # the mask is registered by set_flash: nanoGPT registers it only without flash

    def set_flash(self, flash):
        # nanoGPT's CausalSelfAttention: `if not self.flash: self.register_buffer("bias", tril(...))`
        self.flash = flash
        if not flash: self.register_buffer("mask", torch.tril(torch.ones(self.ctx, self.ctx)).view(1, 1, self.ctx, self.ctx))

    def drop(self, x, name):
        if self.p == 0: return x
        with tag(name):
            return F.dropout(x, self.p, self.training)

    def forward(self, x):
        B, T, C = x.shape
        with tag("ln_1"): h = self.ln_1(x)
        q, k, v = self.qkv(h).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        if self.flash:
            with tag("attn.sdpa"):
                y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.p if self.training else 0, is_causal=True)
            y = y.transpose(1, 2).contiguous().view(B, T, C)
        else:
            with tag("attn.scores"): att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C // self.heads))
            with tag("attn.mask"): att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
            with tag("attn.softmax"): att = F.softmax(att, dim=-1)
            att = self.drop(att, "attn.dropout")
            with tag("attn.av"): y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.drop(self.proj(y), "attn.resid_dropout")
        with tag("ln_2"): h = self.ln_2(x)
        h = self.fc(h)
        with tag("mlp.gelu"): h = F.gelu(h)
        return x + self.drop(self.fc_proj(h), "mlp.resid_dropout")


class RMSNorm(nn.Module):
    # Meta's Llama reference: x * rsqrt(mean(x^2) + eps), in FP32, times the weight.
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        n = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return n.type_as(x) * self.weight


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n_rep):
    # Hugging Face's repeat_kv: (b, kv, s, hd) -> (b, kv * n_rep, s, hd), a materialised copy.
    b, kv, s, hd = x.shape
    if n_rep == 1: return x
    return x[:, :, None, :, :].expand(b, kv, n_rep, s, hd).reshape(b, kv * n_rep, s, hd)


class LlamaRotary(nn.Module):
    # Hugging Face's LlamaRotaryEmbedding (transformers 4.4x-5.x): one per model, its only buffer inv_freq
    # (head_dim/2, FP32, persistent=False); cos/sin (1 x s x head_dim) built in FP32 each forward, in x's dtype.
    def __init__(self, hd):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd)), persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        with torch.autocast(x.device.type, enabled=False):
            freqs = (inv @ position_ids[:, None, :].float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos() * 1.0, emb.sin() * 1.0  # HF: * attention_scaling (1.0 for default rope)
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


def hf_causal_mask(x, T):
    # Hugging Face's eager-attention mask (4.4x _update_causal_mask without a padding mask): 0 where a
    # query may look, the dtype's minimum above the diagonal, s x s in the hidden states' dtype, expanded
    # (a view) to b x 1 x s x s; added to the scores, so autograd saves nothing for it.
    m = torch.full((T, T), torch.finfo(x.dtype).min, dtype=x.dtype, device=x.device)
    m = torch.triu(m, diagonal=1)
    m *= torch.arange(T, device=x.device) > torch.arange(T, device=x.device).reshape(-1, 1)  # HF: past the cache position
    return m[None, None].expand(x.shape[0], 1, -1, -1)


class LlamaBlock(nn.Module):
    # Hugging Face's Llama block, simplified: RMSNorm, separate q/k/v, RoPE (rotate_half) with the model's
    # per-forward cos/sin, GQA by repeat_kv, an additive causal mask (eager) or SDPA's is_causal, SwiGLU,
    # no dropout. No registered buffers, as in transformers.
    def __init__(self, d, heads, ctx, f, kv_heads=None):
        super().__init__()
        self.heads, self.kv_heads = heads, kv_heads or heads
        self.norm_1, self.norm_2 = RMSNorm(d), RMSNorm(d)
        kvw = self.kv_heads * (d // heads)
        self.wq, self.wk, self.wv = Linear("attn.q", d, d, False), Linear("attn.k", d, kvw, False), Linear("attn.v", d, kvw, False)
        self.wo = Linear("attn.proj", d, d, False)
        self.gate, self.up, self.down = Linear("mlp.gate", d, f, False), Linear("mlp.up", d, f, False), Linear("mlp.proj", f, d, False)

    def forward(self, x, cos, sin, mask):
        B, T, C = x.shape
        hd = C // self.heads
        with tag("norm_1"): h = self.norm_1(x)
        q = self.wq(h).view(B, T, self.heads, hd).transpose(1, 2)
        k, v = (w(h).view(B, T, self.kv_heads, hd).transpose(1, 2) for w in (self.wk, self.wv))
        with tag("attn.rope"):
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # HF's apply_rotary_pos_emb
            q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        with tag("attn.repeat_kv"):
            k, v = repeat_kv(k, self.heads // self.kv_heads), repeat_kv(v, self.heads // self.kv_heads)
        if self.flash:
            with tag("attn.sdpa"): y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            y = y.transpose(1, 2).contiguous().view(B, T, C)
        else:
            with tag("attn.scores"): att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
            with tag("attn.mask"): att = att + mask
            with tag("attn.softmax"): att = F.softmax(att, dim=-1, dtype=torch.float32).to(q.dtype)
            with tag("attn.av"): y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.wo(y)
        with tag("norm_2"): h = self.norm_2(x)
        g, u = self.gate(h), self.up(h)
        with tag("mlp.silu_mul"): h = F.silu(g) * u
        return x + self.down(h)


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        d, L, V, ctx = c["hidden"], c["layers"], c["vocab"], c["context"]
        self.llama, self.p = c["arch"] == "llama", c.get("dropout_p", 0.0)
        self.tok = nn.Embedding(V, d)
        if not self.llama: self.pos = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(
            LlamaBlock(d, c["heads"], ctx, c["mlp_hidden"], c.get("kv_heads")) if self.llama else GPT2Block(d, c["heads"], ctx, c["mlp_hidden"], self.p)
            for _ in range(L))
        for b in self.blocks:
            if self.llama: b.flash = c.get("flash", False)
            else: b.set_flash(c.get("flash", False))
        if self.llama: self.rotary = LlamaRotary(d // c["heads"])
        self.norm_f = RMSNorm(d) if self.llama else nn.LayerNorm(d)
        self.head = Linear("head", d, V, False)
        if c["tied_head"]: self.head.weight = self.tok.weight

    def forward(self, idx, targets=None):
        T = idx.shape[1]
        with tag("embedding"):
            x = self.tok(idx) if self.llama else self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        if self.p > 0:
            with tag("embedding.dropout"): x = F.dropout(x, self.p, self.training)
        if self.llama:  # Hugging Face's LlamaModel.forward: cos/sin and the mask once, for every layer
            position_ids = torch.arange(T, device=idx.device).unsqueeze(0)
            cos, sin = self.rotary(x, position_ids)
            mask = None if self.blocks[0].flash else hf_causal_mask(x, T)
        for i, b in enumerate(self.blocks):
            with tag("layer"): x = b(x, cos, sin, mask) if self.llama else b(x)
        with tag("final_norm"): x = self.norm_f(x)
        logits = self.head(x)
        if targets is None: return logits, None
        with tag("loss"): loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss  # the caller keeps the logits alive through backward (nanoGPT, Hugging Face)


# ---- The from-scratch style: a course assignment's Llama-style model, every op hand-written ----------
# Linear is a matmul on the weight parameter itself (stored d_in x d_out, no bias), softmax is
# exp(x - max) / sum, RMSNorm runs in FP32, SiLU is x * sigmoid(x), attention is Q K^T / sqrt(d) with a
# boolean causal mask, RoPE indexes precomputed cos/sin tables by the token positions, and
# cross-entropy is logsumexp(logits) minus the target's logit. No nn.functional attention, norm or softmax.
def param(*shape):
    return nn.Parameter(torch.randn(*shape) * 0.02)


def scratch_linear(name, x, w):
    with tag(name):
        return x @ w


def scratch_softmax(x):
    e = torch.exp(x - x.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)


class ScratchRMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps, self.g = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        xf = x.float()
        return (xf / torch.sqrt((xf * xf).mean(-1, keepdim=True) + self.eps) * self.g).type_as(x)


class ScratchRoPE(nn.Module):
    # Rotates pairs (x[2i], x[2i+1]) by position * theta_i; cos/sin precomputed for every position.
    def __init__(self, hd, ctx, theta=10000.0):
        super().__init__()
        inv = 1.0 / (theta ** (torch.arange(0, hd, 2).float() / hd))
        ang = torch.outer(torch.arange(ctx).float(), inv)
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)

    def forward(self, x, positions):
        cos, sin = self.cos[positions], self.sin[positions]  # (T, hd/2), new tensors each call
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class ScratchBlock(nn.Module):
    def __init__(self, d, heads, kv_heads, ctx, f):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, d // heads
        self.norm_1, self.norm_2 = ScratchRMSNorm(d), ScratchRMSNorm(d)
        self.wq, self.wk, self.wv = param(d, d), param(d, kv_heads * self.hd), param(d, kv_heads * self.hd)
        self.wo = param(d, d)
        self.w_gate, self.w_up, self.w_down = param(d, f), param(d, f), param(f, d)
        self.rope = ScratchRoPE(self.hd, ctx)
        self.register_buffer("mask", torch.tril(torch.ones(ctx, ctx, dtype=torch.bool)), persistent=False)

    def forward(self, x, positions):
        B, T, C = x.shape
        with tag("norm_1"): h = self.norm_1(x)
        q = scratch_linear("attn.q", h, self.wq).view(B, T, self.heads, self.hd).transpose(1, 2)
        k = scratch_linear("attn.k", h, self.wk).view(B, T, self.kv_heads, self.hd).transpose(1, 2)
        v = scratch_linear("attn.v", h, self.wv).view(B, T, self.kv_heads, self.hd).transpose(1, 2)
        with tag("attn.rope"): q, k = self.rope(q, positions), self.rope(k, positions)
        if self.kv_heads != self.heads:  # GQA: each K/V head serves heads/kv_heads query heads
            with tag("attn.repeat_kv"):
                r = self.heads // self.kv_heads
                k, v = k.repeat_interleave(r, dim=1), v.repeat_interleave(r, dim=1)
        with tag("attn.scores"): att = q @ k.transpose(-2, -1) / math.sqrt(self.hd)
        with tag("attn.mask"): att = att.masked_fill(~self.mask[:T, :T], float("-inf"))
        with tag("attn.softmax"): att = scratch_softmax(att)
        with tag("attn.av"): y = (att @ v).transpose(1, 2).reshape(B, T, C)
        x = x + scratch_linear("attn.proj", y, self.wo)
        with tag("norm_2"): h = self.norm_2(x)
        g, u = scratch_linear("mlp.gate", h, self.w_gate), scratch_linear("mlp.up", h, self.w_up)
        with tag("mlp.silu_mul"): h = g * torch.sigmoid(g) * u
        return x + scratch_linear("mlp.proj", h, self.w_down)


class ScratchModel(nn.Module):
    def __init__(self, c):
        super().__init__()
        d, V = c["hidden"], c["vocab"]
        self.emb = param(V, d)
        self.blocks = nn.ModuleList(ScratchBlock(d, c["heads"], c.get("kv_heads", c["heads"]), c["context"], c["mlp_hidden"])
                                    for _ in range(c["layers"]))
        self.norm_f = ScratchRMSNorm(d)
        self.tied = c["tied_head"]
        if not self.tied: self.w_head = param(d, V)

    def forward(self, idx, targets=None):
        positions = torch.arange(idx.shape[1], device=idx.device)
        with tag("embedding"): x = self.emb[idx]
        for b in self.blocks:
            with tag("layer"): x = b(x, positions)
        with tag("final_norm"): x = self.norm_f(x)
        logits = scratch_linear("head", x, self.emb.T if self.tied else self.w_head)  # tied: a view, never cached
        if targets is None: return logits, None
        with tag("loss"):
            target_logit = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
            loss = (torch.logsumexp(logits, dim=-1) - target_logit).mean()
        return logits, loss


def label():
    inner = [t for t in TAG[1:] if t != "layer"]
    name = inner[-1] if inner else "other"
    return ("layer." + name) if "layer" in TAG else name


def saved_tensors(model, c, idx, tgt):
    """Bytes autograd saves for backward, per op: unique storages, parameters and buffers left out."""
    owned = {p.data_ptr() for p in model.parameters()} | {b.data_ptr() for b in model.buffers()}
    seen, by_op, scalars = set(), {}, [0]
    def pack(t):
        st = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()  # 2.x / 1.13
        ptr = st.data_ptr()
        if ptr in owned or t.dim() == 0:
            scalars[0] += t.dim() == 0
            return t
        if ptr not in seen:
            seen.add(ptr)
            op = label()
            if is_weight_copy(t): op = "autocast_weight_cache"  # autocast's 16-bit copy of a parameter
            by_op[op] = by_op.get(op, 0) + st.nbytes()
            if os.environ.get("MEASURE_DEBUG"): print(op, tuple(t.shape), t.dtype, st.nbytes(), t.grad_fn)
        return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with autocast(c, c.get("autocast_scope", "forward")):
            logits, loss = model(idx, tgt)
    loss.backward()
    return by_op, scalars[0]


def is_weight_copy(t):
    """autocast's cached cast of a parameter: a cast whose input is the leaf itself (views may follow
    the cast). A cast of a view of a parameter (x @ W.T) is made at each use, never cached: not this."""
    fn = t.grad_fn
    for _ in range(4):
        if fn is None or type(fn).__name__ not in ("ToCopyBackward0", "TBackward0", "ViewBackward0", "ExpandBackward0"):
            return False
        nxt = fn.next_functions[0][0]
        if nxt is not None and type(nxt).__name__ == "AccumulateGrad": return type(fn).__name__ == "ToCopyBackward0"
        fn = nxt
    return False


def autocast(c, region="forward"):
    """The autocast region around `region` ("forward": the model call and the loss; "step": backward
    and optimizer.step() too). With scope "step" the loop opens one region around the whole step."""
    if not c["precision"].startswith("autocast"): return contextlib.nullcontext()
    if c.get("autocast_scope", "forward") != region: return contextlib.nullcontext()
    return torch.autocast(DEV, dtype=torch.bfloat16 if c["precision"] == "autocast_bf16" else torch.float16)


def make_optimizer(model, c):
    o = c["optimizer"]
    foreach = c["optimizer_impl"] == "foreach"
    if o == "adamw": return torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=foreach)
    if o == "adam": return torch.optim.Adam(model.parameters(), lr=1e-4, foreach=foreach)
    return torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9 if o == "momentum" else 0, foreach=foreach)


def live_baseline(model, opt):
    total = sum(p.numel() * p.element_size() for p in model.parameters())
    total += sum(p.grad.numel() * p.grad.element_size() for p in model.parameters() if p.grad is not None)
    for st in opt.state.values():
        total += sum(v.numel() * v.element_size() for v in st.values() if torch.is_tensor(v))
    return total


PHASES = ("zero_grad", "forward", "backward", "grad_sync", "optimizer_step")


def step_timeline_cuda(model, opt, c, idx, tgt, sync=None):
    """Live bytes through one step on a GPU: the allocator's own count, its peak phase by phase."""
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    phase_max = {}
    def run(name, fn):
        torch.cuda.reset_peak_memory_stats()
        out = fn()
        torch.cuda.synchronize()
        phase_max[name] = torch.cuda.max_memory_allocated()
        return out
    run("zero_grad", lambda: opt.zero_grad(set_to_none=c["zero_grad"] == "set_to_none"))
    def forward():
        with autocast(c): return model(idx, tgt)
    with autocast(c, "step"):
        logits, loss = run("forward", forward)
        run("backward", loss.backward)
        if sync: run("grad_sync", sync)
        run("optimizer_step", opt.step)
    del logits, loss
    torch.cuda.synchronize()
    peak_phase = max(phase_max, key=phase_max.get)
    return {"start_bytes": base, "peak_bytes": phase_max[peak_phase], "peak_phase": peak_phase,
            "end_bytes": torch.cuda.memory_allocated(), "phase_max_bytes": phase_max}


def step_timeline(model, opt, c, idx, tgt, base=None, sync=None):
    """Live bytes through one step: the bytes alive before it plus the profiler's allocation events.
    base: what is live before the step besides the inputs (default: parameters, gradients, optimizer
    state); sync: a callable run as phase "grad_sync" between backward and the optimizer step (the
    two-rank script's all-reduce without DDP, scripts/measure-pytorch-dist.py)."""
    if DEV == "cuda": return step_timeline_cuda(model, opt, c, idx, tgt, sync)
    base = (live_baseline(model, opt) if base is None else base) + idx.numel() * idx.element_size() + tgt.numel() * tgt.element_size()
    prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True)
    with prof:
        with torch.profiler.record_function("phase:zero_grad"): opt.zero_grad(set_to_none=c["zero_grad"] == "set_to_none")
        with autocast(c, "step"):
            with torch.profiler.record_function("phase:forward"):
                with autocast(c): logits, loss = model(idx, tgt)
            with torch.profiler.record_function("phase:backward"): loss.backward()
            if sync:
                with torch.profiler.record_function("phase:grad_sync"): sync()
            with torch.profiler.record_function("phase:optimizer_step"): opt.step()
        del logits, loss
    events = list(prof.profiler.kineto_results.events())
    ranges = {e.name()[6:]: (e.start_us(), e.start_us() + e.duration_us()) for e in events if e.name().startswith("phase:")}
    mem = sorted((e.start_us(), i, e.nbytes()) for i, e in enumerate(events) if e.name() == "[memory]")
    live, peak, peak_phase, phase_max = base, base, "start", {p: base for p in PHASES if p != "grad_sync" or sync}
    for t, _, n in mem:
        live += n
        phase = next((p for p, (a, b) in ranges.items() if a <= t <= b), "other")
        if phase in phase_max: phase_max[phase] = max(phase_max[phase], live)
        if live > peak: peak, peak_phase = live, phase
    return {"start_bytes": base, "peak_bytes": peak, "peak_phase": peak_phase, "end_bytes": live,
            "phase_max_bytes": phase_max}


def cuda_workspace_bytes():
    """What the first matmuls leave allocated once their tensors are gone: cuBLAS's workspaces, which
    PyTorch 2.x takes from the caching allocator, so every CUDA start_bytes and peak includes them."""
    if DEV != "cuda": return 0
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    a = torch.ones(64, 64, device="cuda")
    for t in (a, a.bfloat16()):  # cuBLAS (matmul) and cuBLASLt (Linear with a bias) may keep one each
        t @ t, F.linear(t, t, t[0])
    torch.cuda.synchronize()
    del a, t
    return torch.cuda.memory_allocated() - before


def forward_peak(model, c, idx, tgt, grad):
    """Peak live bytes of one forward pass: with autograd recording (and the loss), or under no_grad."""
    model.zero_grad(set_to_none=True)
    base = sum(p.numel() * p.element_size() for p in model.parameters()) + idx.numel() * idx.element_size()
    if grad: base += tgt.numel() * tgt.element_size()
    model.train(grad)  # no_grad inference runs in eval mode (no dropout)
    if DEV == "cuda":
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        with torch.set_grad_enabled(grad):
            with autocast(c, c.get("autocast_scope", "forward")): out = model(idx, tgt if grad else None)
        del out
        torch.cuda.synchronize()
        model.train()
        return {"start_bytes": base, "peak_bytes": torch.cuda.max_memory_allocated()}
    prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True)
    with prof:
        with torch.set_grad_enabled(grad):
            with autocast(c, c.get("autocast_scope", "forward")): out = model(idx, tgt if grad else None)
        del out
    model.train()
    live = peak = base
    for _, _, n in sorted((e.start_us(), i, e.nbytes()) for i, e in enumerate(prof.profiler.kineto_results.events()) if e.name() == "[memory]"):
        live += n
        peak = max(peak, live)
    return {"start_bytes": base, "peak_bytes": peak}


def measure(c):
    torch.manual_seed(0)
    model = (ScratchModel(c) if c["arch"] == "scratch" else Model(c)).train().to(DEV)
    if c["precision"] in ("bf16", "fp16"):  # pure 16-bit: model.to(dtype), no FP32 master copy
        model = model.to(torch.bfloat16 if c["precision"] == "bf16" else torch.float16)
    g = torch.Generator().manual_seed(1)
    idx = torch.randint(0, c["vocab"], (c["batch_size"], c["seq_len"]), generator=g).to(DEV)
    tgt = torch.randint(0, c["vocab"], (c["batch_size"], c["seq_len"]), generator=g).to(DEV)
    by_op, scalars = saved_tensors(model, c, idx, tgt)
    fwd = forward_peak(model, c, idx, tgt, True)
    inference = forward_peak(model, c, idx, tgt, False)
    model.zero_grad(set_to_none=True)
    opt = make_optimizer(model, c)
    first = step_timeline(model, opt, c, idx, tgt)
    step_timeline(model, opt, c, idx, tgt)
    steady = step_timeline(model, opt, c, idx, tgt)
    params = sum(p.numel() for p in model.parameters())
    return {"config": c, "scenario": scenario_of(c), "parameters": params,
            "saved_bytes_by_op": dict(sorted(by_op.items())), "saved_bytes_total": sum(by_op.values()),
            "saved_scalar_tensors": scalars, "first_step": first, "steady_step": steady,
            "forward_with_grad": fwd, "inference": inference}


def scenario_of(c):
    """The lab's scenario for this measurement (core/facade/README.md, "Scenario format"; framework "pytorch")."""
    gpt2 = c["arch"] == "gpt2"
    style = {"gpt2": "nanogpt", "llama": "hf_llama", "scratch": "from_scratch"}[c["arch"]]
    model = {"layers": c["layers"], "hidden": c["hidden"], "heads": c["heads"], "vocab": c["vocab"],
             "context": c["context"], "mlp_hidden": c["mlp_hidden"], "tied_head": c["tied_head"],
             "learned_positions": gpt2, "biases": gpt2, "mlp": "gelu" if gpt2 else "swiglu",
             "norm": "layernorm" if gpt2 else "rmsnorm", **({"kv_heads": c["kv_heads"]} if "kv_heads" in c else {})}
    return {"model": model, "framework": "pytorch", "pytorch_build": "cuda" if DEV == "cuda" else "cpu-1.13",
            "flash_attention": c.get("flash", False), "precision": c["precision"],
            "optimizer": "adam" if c["optimizer"] == "adamw" else c["optimizer"], "optimizer_impl": c["optimizer_impl"],
            "zero_grad": c["zero_grad"], "batch_size": c["batch_size"], "seq_len": c["seq_len"],
            "dropout": c.get("dropout_p", 0.0) > 0, "reserve_bytes": 0,
            **({"pytorch_implementation": style} if style == "from_scratch" else {}),
            **({"autocast_scope": "step"} if c.get("autocast_scope") == "step" else {})}


def configs():
    gpt2 = dict(arch="gpt2", vocab=512, context=128, tied_head=True, dropout_p=0.1)
    llama = dict(arch="llama", vocab=512, context=128, tied_head=False)
    scratch = dict(llama, arch="scratch")
    grid = [
        ("gpt2", gpt2, 2, 64, 4, 32, 2, "fp32", "adamw", "per_parameter"),
        ("gpt2", gpt2, 3, 96, 4, 64, 1, "fp32", "sgd", "per_parameter"),
        ("gpt2", {**gpt2, "dropout_p": 0.0}, 2, 128, 8, 48, 3, "fp32", "momentum", "foreach"),
        ("gpt2", gpt2, 2, 64, 2, 128, 2, "autocast_bf16", "adamw", "per_parameter"),
        ("llama", llama, 2, 64, 4, 32, 2, "fp32", "adamw", "per_parameter"),
        ("llama", llama, 3, 128, 8, 96, 1, "fp32", "adam", "foreach"),
        ("llama", {**llama, "tied_head": True}, 2, 96, 6, 64, 2, "fp32", "sgd", "per_parameter"),
        ("llama", llama, 2, 64, 4, 128, 2, "autocast_bf16", "adamw", "per_parameter"),
        ("gpt2", gpt2, 4, 64, 4, 16, 4, "fp32", "adamw", "foreach"),
        ("gpt2", {**gpt2, "tied_head": False}, 1, 192, 6, 128, 1, "autocast_bf16", "sgd", "per_parameter"),
        ("llama", {**llama, "context": 256}, 4, 32, 2, 256, 1, "fp32", "momentum", "per_parameter"),
        ("llama", {**llama, "vocab": 2048}, 1, 256, 4, 16, 8, "autocast_bf16", "adam", "foreach"),
        ("gpt2", {**gpt2, "vocab": 4096, "context": 256}, 2, 128, 4, 256, 2, "fp32", "adamw", "per_parameter"),
        ("llama", {**llama, "context": 512}, 2, 128, 8, 512, 1, "autocast_bf16", "adamw", "per_parameter"),
        ("gpt2", gpt2, 2, 64, 4, 64, 2, "bf16", "adamw", "per_parameter"),
        ("llama", llama, 2, 64, 4, 64, 2, "bf16", "momentum", "per_parameter"),
        ("llama", {**llama, "vocab": 2048}, 1, 256, 4, 16, 2, "fp32", "sgd", "per_parameter"),
        ("gpt2", {**gpt2, "vocab": 4096}, 1, 128, 4, 16, 1, "fp32", "sgd", "per_parameter"),
        ("llama", {**llama, "vocab": 2048}, 1, 256, 4, 16, 2, "autocast_bf16", "sgd", "per_parameter"),
        # The from-scratch style (issue 26): sizes, precisions, optimizers, a tied head (a view: never cached).
        ("scratch", scratch, 2, 64, 4, 32, 2, "fp32", "adamw", "per_parameter"),
        ("scratch", {**scratch, "tied_head": True}, 2, 96, 6, 64, 2, "fp32", "sgd", "per_parameter"),
        ("scratch", scratch, 3, 128, 8, 96, 1, "fp32", "adam", "foreach"),
        ("scratch", scratch, 2, 64, 4, 128, 2, "autocast_bf16", "adamw", "per_parameter"),
        ("scratch", {**scratch, "vocab": 2048}, 1, 256, 4, 16, 8, "autocast_bf16", "adam", "foreach"),
        ("scratch", scratch, 2, 64, 4, 64, 2, "bf16", "momentum", "per_parameter"),
        ("scratch", {**scratch, "context": 256}, 4, 32, 2, 256, 1, "fp32", "momentum", "per_parameter"),
        ("scratch", {**scratch, "tied_head": True}, 2, 64, 4, 64, 2, "autocast_bf16", "sgd", "per_parameter"),
        ("scratch", {**scratch, "vocab": 4096, "context": 256}, 2, 128, 4, 256, 2, "fp32", "adamw", "per_parameter"),
        # A small vocabulary: the last block's MLP backward, not the loss, is the peak.
        ("llama", {**llama, "vocab": 32}, 2, 128, 4, 64, 2, "fp32", "sgd", "per_parameter"),
        ("scratch", {**scratch, "vocab": 32}, 2, 128, 4, 64, 2, "fp32", "sgd", "per_parameter"),
        ("gpt2", {**gpt2, "vocab": 32, "dropout_p": 0.0}, 2, 128, 4, 64, 2, "fp32", "sgd", "per_parameter"),
        ("llama", {**llama, "vocab": 32}, 2, 128, 4, 64, 2, "autocast_bf16", "sgd", "per_parameter"),
        ("scratch", {**scratch, "vocab": 32}, 2, 128, 4, 64, 2, "bf16", "sgd", "per_parameter"),  # b*s >= d: see README
        # autocast around the whole step: the weight cache lives until optimizer.step() ends.
        ("llama", {**llama, "autocast_scope": "step"}, 2, 64, 4, 64, 2, "autocast_bf16", "adamw", "per_parameter"),
        ("gpt2", {**gpt2, "autocast_scope": "step"}, 2, 64, 4, 64, 2, "autocast_bf16", "adamw", "per_parameter"),
        ("scratch", {**scratch, "autocast_scope": "step"}, 2, 64, 4, 64, 2, "autocast_bf16", "adamw", "per_parameter"),
        ("scratch", {**scratch, "autocast_scope": "step", "tied_head": True}, 2, 96, 6, 32, 2, "autocast_bf16", "sgd", "per_parameter"),
        ("llama", {**llama, "autocast_scope": "step", "vocab": 32}, 2, 128, 4, 64, 2, "autocast_bf16", "sgd", "foreach"),
        # Grouped-query attention (kv_heads < heads): Hugging Face's repeat_kv, the course's repeat_interleave.
        ("llama", {**llama, "kv_heads": 2}, 2, 128, 8, 64, 2, "fp32", "adamw", "per_parameter"),
        ("llama", {**llama, "kv_heads": 4}, 2, 128, 8, 128, 1, "autocast_bf16", "adamw", "per_parameter"),
        ("scratch", {**scratch, "kv_heads": 2}, 2, 128, 8, 64, 2, "fp32", "adamw", "per_parameter"),
        ("scratch", {**scratch, "kv_heads": 2}, 2, 96, 6, 64, 2, "autocast_bf16", "sgd", "per_parameter"),
        ("scratch", {**scratch, "kv_heads": 1}, 2, 128, 4, 64, 2, "bf16", "momentum", "per_parameter"),
        ("llama", {**llama, "kv_heads": 1, "vocab": 32}, 2, 128, 4, 64, 2, "fp32", "sgd", "per_parameter"),
        # b*s small next to d: the weights' gradients in the MLP's and the attention's input projections peak.
        ("llama", {**llama, "vocab": 64}, 2, 256, 4, 16, 1, "fp32", "sgd", "per_parameter"),
        ("scratch", {**scratch, "vocab": 64}, 1, 256, 4, 16, 1, "fp32", "momentum", "per_parameter"),
        ("gpt2", {**gpt2, "vocab": 64, "dropout_p": 0.0}, 2, 256, 4, 16, 1, "fp32", "sgd", "per_parameter"),
    ]
    if DEV == "cuda":  # the same runs with SDPA, and in FP16 autocast (CPU autocast is BF16 only)
        plain = list(grid)
        grid += [(arch, {**base, "flash": True}, L, d, a, s, b, prec, opt, impl) for arch, base, L, d, a, s, b, prec, opt, impl in plain]
        grid += [(arch, base, L, d, a, s, b, "autocast_fp16", opt, impl) for arch, base, L, d, a, s, b, prec, opt, impl in plain if prec == "autocast_bf16"]
    for i, (arch, base, L, d, a, s, b, prec, opt, impl) in enumerate(grid):
        f = 4 * d if arch == "gpt2" else 2 * (4 * d) // 3 // 8 * 8
        yield {**base, "layers": L, "hidden": d, "heads": a, "mlp_hidden": f, "seq_len": s, "batch_size": b,
               "precision": prec, "optimizer": opt, "optimizer_impl": impl,
               "zero_grad": "zero" if i % 5 == 4 else "set_to_none"}


def fixture_name(i, c):
    gqa = f"-kv{c['kv_heads']}" if c.get("kv_heads", c["heads"]) != c["heads"] else ""
    return (f"{i:02d}-{c['arch']}{'-sdpa' if c.get('flash') else ''}-L{c['layers']}-d{c['hidden']}{gqa}-s{c['seq_len']}"
            f"-b{c['batch_size']}-V{c['vocab']}-{c['precision']}{'-step' if c.get('autocast_scope') == 'step' else ''}"
            f"-{c['optimizer']}.json") if i >= 19 else \
        f"{i:02d}-{c['arch']}{'-sdpa' if c.get('flash') else ''}-L{c['layers']}-d{c['hidden']}-s{c['seq_len']}-b{c['batch_size']}-{c['precision']}-{c['optimizer']}.json"


def selected(only, i):
    """MEASURE_ONLY: "i", "i-j" or a comma list of those; None runs all."""
    if only is None: return True
    for part in only.split(","):
        a, _, b = part.partition("-")
        if int(a) <= i <= int(b or a): return True
    return False


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "pytorch")
    if DEV == "cuda": out = os.path.join(out, "cuda")  # its own manifest; the doctest reads the CPU one
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(1)
    only = os.environ.get("MEASURE_ONLY")
    workspace = cuda_workspace_bytes()
    for i, c in enumerate(configs()):
        if not selected(only, i): continue
        try:
            r = measure(c)
        except Exception as e:  # on a GPU, one failing run (an API of another version) must not lose the rest
            if DEV != "cuda": raise
            print(fixture_name(i, c), "failed:", type(e).__name__, e, flush=True)
            continue
        r["torch_version"], r["device"] = torch.__version__, DEV if DEV == "cpu" else torch.cuda.get_device_name()
        if DEV == "cuda": r["cuda_workspace_bytes"] = workspace
        r["regenerate"] = "scripts/measure-pytorch.py (Debian bookworm python3-torch, CPU); see README"
        name = fixture_name(i, c)
        write_json(os.path.join(out, name), r)
        print(name, r["saved_bytes_total"], r["steady_step"]["peak_bytes"], r["steady_step"]["peak_phase"], flush=True)
    write_manifest(out, [fixture_name(i, c) for i, c in enumerate(configs())])


def write_json(path, data):
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")


def write_manifest(out, listed):
    """The manifest lists every configuration whose file exists (a partial run keeps the others)."""
    write_json(os.path.join(out, "manifest.json"), [n for n in listed if os.path.exists(os.path.join(out, n))])


if __name__ == "__main__":
    main()
