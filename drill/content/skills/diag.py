"""Skills on diagnosis: Speed-of-Light reading and the optimization direction that follows."""

from __future__ import annotations

from drill.content.skills import directions as dirs
from drill.content.skills.context import Ctx
from drill.content.skills.model import CHOICE, MULTI, Ask, Option, Scenario
from drill.content.skills.skill import skill
from drill.core.engine import roofline as rl
from drill.core.engine.steps import Step

SOL_OPTIONS = (
    Option("a", "memory", "memory-bound", "带宽受限"),
    Option("b", "compute", "compute-bound", "算力受限"),
    Option("c", "latency", "latency / occupancy bound", "延迟 / 占用率受限"),
)
KERNELS = (
    ("an element-wise add", "一个逐元素加法"),
    ("a large fp16 GEMM", "一个大的 fp16 GEMM"),
    ("a softmax over long rows", "一个长行 softmax"),
    ("a small reduction launched 10,000 times", "一个被调用 1 万次的小规约"),
    ("a 3×3 convolution", "一个 3×3 卷积"),
)


@skill("sol-diagnosis", "diagnosis", en="Speed-of-Light diagnosis", zh="Speed-of-Light 判读")
def sol_diagnosis(ctx: Ctx) -> Scenario:
    case = ctx.choice(("memory", "compute", "latency"))
    r = ctx.rng
    if case == "memory":
        mem, comp = r.randint(65, 95), r.randint(3, 45)
    elif case == "compute":
        comp, mem = r.randint(65, 95), r.randint(5, 55)
    else:
        comp, mem = r.randint(5, 50), r.randint(5, 55)
    kernel_en, kernel_zh = ctx.choice(KERNELS)
    verdict = rl.sol_diagnosis(comp / 100, mem / 100)
    step = Step("sol", "Speed-of-Light reading", "Speed-of-Light 判读",
                "the larger of compute % and memory % names the bound if ≥ 60 %; both below "
                "60 % → latency / occupancy", f"compute {comp} %, memory {mem} %", verdict,
                formula_zh="计算与访存百分比中较大者 ≥ 60 % 即为瓶颈；都低于 60 % → 延迟 / 占用率")
    wrong = tuple(("wrong-bound", o.value) for o in SOL_OPTIONS
                  if o.value != verdict and {o.value, verdict} == {"memory", "compute"})
    ask = Ask("sol", CHOICE, "What limits it? a) memory bandwidth  b) compute  c) latency / "
                             "occupancy",
              "它受什么限制？a) 显存带宽  b) 算力  c) 延迟 / 占用率", verdict, None, wrong, (step,),
              SOL_OPTIONS,
              hints_en=("Compare the larger of the two figures with 60 %.",),
              hints_zh=("拿两个数中较大的那个和 60 % 比较。",))
    en = (f"Nsight Compute's Speed-of-Light section for {kernel_en}: Compute (SM) Throughput "
          f"{comp} %, Memory Throughput {mem} %.")
    zh = (f"Nsight Compute 对{kernel_zh}的 Speed-of-Light 结果：Compute (SM) Throughput {comp} %，"
          f"Memory Throughput {mem} %。")
    return Scenario("sol-diagnosis", ctx.difficulty, 0, en, zh, (ask,),
                    {"compute_pct": comp, "memory_pct": mem},
                    "A throughput of 60 % or more of its peak names the bound.",
                    "某项吞吐达到其峰值的 60 % 及以上，即判定为该瓶颈。")


# (situation en, zh, correct directions, why en, why zh)
CASES = (
    ("Three element-wise kernels run back to back (bias add, GELU, dropout). Each reaches "
     "85 % of the memory bandwidth; compute is at 5 %.",
     "三个逐元素 kernel 依次执行（加 bias、GELU、dropout）。每个都达到显存带宽的 85 %，计算只有 5 %。",
     {"fusion", "lower-precision"},
     "Memory-bound and already near the bandwidth roof: only moving fewer bytes helps — fuse "
     "so intermediates never reach DRAM, and store tensors in fewer bytes.",
     "带宽受限且已接近带宽上限：只有少搬数据才有用——融合让中间结果不落显存，并用更少的字节存张量。"),
    ("A copy-like kernel reads with a stride between threads and reaches 30 % of the memory "
     "bandwidth; its intensity is 0.1 FLOP/B.",
     "一个类似拷贝的 kernel 线程之间跨步读取，只达到显存带宽的 30 %；强度为 0.1 FLOP/B。",
     {"vectorize", "occupancy"},
     "Memory-bound but far below the bandwidth roof: fix the access pattern (coalesced, wide "
     "loads) and keep enough loads in flight.",
     "带宽受限却远低于带宽上限：先修访存模式（合并、宽加载），并保证足够多的访存请求在途。"),
    ("A hand-written fp16 GEMM, 4096³, on an A100 reaches 20 TFLOP/s; cuBLAS reaches 250.",
     "手写的 fp16 GEMM（4096³）在 A100 上只有 20 TFLOP/s；cuBLAS 能到 250。",
     {"tiling", "tensor-cores"},
     "Compute-bound (intensity ~1365 ≫ ridge ~200) and far from the roof: reuse data from "
     "shared memory and registers, and issue tensor-core MMA instructions.",
     "算力受限（强度约 1365 ≫ 拐点约 200）且远离上限：用共享内存和寄存器复用数据，并使用 Tensor Core 的 MMA 指令。"),
    ("An fp32 GEMM, 8192³, on an A100 runs at 18.5 TFLOP/s, 95 % of the fp32 peak.",
     "fp32 GEMM（8192³）在 A100 上跑到 18.5 TFLOP/s，达到 fp32 峰值的 95 %。",
     {"tensor-cores", "lower-precision"},
     "At the fp32 roof: the only way up is a higher roof — tf32/fp16/bf16 on tensor cores.",
     "已贴着 fp32 上限：只能换更高的屋顶——在 Tensor Core 上用 tf32/fp16/bf16。"),
    ("A 7B model decodes at batch 1 in fp16 on an H100; each step reads all weights and "
     "reaches 80 % of the memory bandwidth.",
     "7B 模型在 H100 上以 fp16、batch 1 解码；每步读全部权重，达到显存带宽的 80 %。",
     {"larger-batch", "lower-precision"},
     "Memory-bound with intensity about 1 FLOP/B: batch more sequences so each weight read "
     "does more work, and quantize the weights to read fewer bytes.",
     "带宽受限，强度约 1 FLOP/B：合并更多序列让每次读权重做更多计算，并量化权重以少读字节。"),
    ("Naive attention at sequence length 8192 writes the 8192×8192 score matrix to DRAM and "
     "reads it back; the kernels are memory-bound.",
     "序列长度 8192 的朴素注意力把 8192×8192 的分数矩阵写回显存再读出；这些 kernel 带宽受限。",
     {"change-algorithm", "fusion"},
     "The S² intermediate dominates the traffic: a fused, tiled (flash) attention keeps it on "
     "chip.",
     "S² 的中间结果主导访存：融合、分块的（flash）注意力把它留在片上。"),
    ("A training step launches 4,000 tiny kernels; the profiler shows gaps between them and "
     "each kernel has compute 10 % and memory 15 % of peak.",
     "一个训练步启动 4000 个很小的 kernel；profiler 显示它们之间有空隙，每个 kernel 计算 10 %、访存 15 %。",
     {"cuda-graphs", "fusion", "latency"},
     "Overhead and latency bound: both throughputs are low and the GPU idles between launches; "
     "capture the launches in a CUDA graph, fuse small kernels, and treat it as a latency "
     "problem rather than a bandwidth or compute one.",
     "开销与延迟受限：两个吞吐都低，GPU 在启动间隙空闲；用 CUDA Graph 捕获启动、融合小 kernel，把它当作延迟问题处理，而不是带宽或算力问题。"),
    ("A reduction kernel shows compute 20 % and memory 25 % of peak; it runs 64 blocks on a "
     "132-SM H100 and its registers limit it to 1 block per SM.",
     "一个规约 kernel 计算 20 %、访存 25 %；在 132 个 SM 的 H100 上只有 64 个 block，寄存器限制每个 SM 只能驻留 1 个 block。",
     {"occupancy", "latency"},
     "Latency / occupancy bound: too little parallel work to hide memory latency; launch more "
     "blocks and cut register use.",
     "延迟 / 占用率受限：并行度不足以掩盖访存延迟；增加 block 数、降低寄存器占用。"),
)


def direction_ask(correct: set[str], why_en: str, why_zh: str) -> Ask:
    """Choose the directions that come first from the fixed list; partial credit per pick."""
    options = tuple(Option(dirs.letter(d), d, e, z) for d, e, z in dirs.DIRECTIONS)
    listing_en = "  ".join(f"{o.id}) {o.en}" for o in options)
    listing_zh = "  ".join(f"{o.id}) {o.zh}" for o in options)
    step = Step("direction", "Directions", "优化方向", why_en, "",
                ", ".join(f"{dirs.letter(d)}) {d}" for d in dirs.DIRECTION_IDS if d in correct),
                formula_zh=why_zh)
    return Ask("direction", MULTI,
               f"Which directions come first? Choose all that apply (e.g. a,c): {listing_en}",
               f"首先应该往哪些方向优化？多选（如 a,c）：{listing_zh}", frozenset(correct), None,
               (), (step,), options, why_en, why_zh,
               hints_en=("Name the bound first, then how far below the roof it is.",
                         "Far below a compute roof: data reuse and the right instructions. Far "
                         "below a bandwidth roof: the access pattern.",
                         f"Expected {len(correct)} choices."),
               hints_zh=("先说出瓶颈，再看离屋顶有多远。",
                         "远低于算力屋顶：数据复用和合适的指令；远低于带宽屋顶：访存模式。",
                         f"应选 {len(correct)} 项。"))


@skill("direction", "diagnosis", en="Optimization direction", zh="优化方向")
def direction(ctx: Ctx) -> Scenario:
    index = ctx.rng.randrange(len(CASES))
    en, zh, correct, why_en, why_zh = CASES[index]
    return Scenario("direction", ctx.difficulty, 0, en, zh,
                    (direction_ask(correct, why_en, why_zh),), {"case": index},
                    "Partial credit: right picks minus wrong picks, over the number right.",
                    "部分得分：选对数减选错数，除以正确项数。")
