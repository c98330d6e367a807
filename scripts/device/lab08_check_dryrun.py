#!/usr/bin/env python3
# Lab 08, "Check it on your GPU": one training step of the lab's scenario (CHECK below), measured in
# PyTorch, printed as one JSON object to paste back into the lab. PyTorch only; no network.
# Run: python3 lab08_check.py   (in a notebook: paste it into a cell and run the cell)
import contextlib, json, math, sys, time
import torch
import torch.nn as nn
import torch.nn.functional as F

CHECK = json.loads(r'''{
  "format": "lab08-pytorch-check/1",
  "scenario": {"model":"measure-tiny","device":"h100-sxm-80gb","precision":"autocast_bf16","optimizer":"adam","batch_size":2,"seq_len":64,"checkpointing":"none","activation_model":"pytorch_eager","flash_attention":false,"convention":"ours","reserve_bytes":536870912,"chapter_replay":false,"train_tokens":1000000000,"num_devices":1,"efficiency":0.45,"data_workers":0,"worker_tokens_per_s":500000,"prefetch":false,"prefetch_depth":2,"pinned_memory":false,"epoch_tokens":35856000,"schedule_steps":3,"framework":"pytorch","pytorch_build":"cpu-1.13","zero_grad":"set_to_none","optimizer_impl":"foreach","dropout":true,"pytorch_implementation":"nanogpt","autocast_scope":"forward"},
  "model": {"layers":4,"hidden":128,"heads":4,"vocab":64,"context":64,"mlp_hidden":512,"tied_head":false,"learned_positions":true,"mlp":"gelu","norm":"layernorm","kv_heads":4,"head_dim":32,"qkv_bias":true,"attn_out_bias":true,"mlp_bias":true,"norm_bias":true,"norms_per_layer":2,"parallel_residual":false,"sliding_window":null},
  "predicted_peak_bytes": 556519636,
  "model_flops_per_token": 5202432,
  "peak_flops_per_s": 989500000000000,
  "device_name": "NVIDIA H100 SXM 80 GB",
  "warmup_steps": 1,
  "measured_steps": 2
}''')
S, M = CHECK["scenario"], CHECK["model"]  # the scenario as the lab resolved it; the model it names
DEV = "cuda" if S["pytorch_build"] == "cuda" else "cpu"
DROPOUT_P = 0.1 if S["dropout"] else 0.0  # any p > 0 saves the same masks
# Code style: nanoGPT.

class LayerNorm(nn.Module):  # nanoGPT's: LayerNorm with an optional bias
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d)) if M["norm_bias"] else None

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)


Norm = LayerNorm

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
