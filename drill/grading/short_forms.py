"""The short forms people type, in English, Chinese and the two mixed, each read as one
canonical phrase.

Answers and rubric phrases both pass through this table (``drill.grading.text.normalize``),
so a rubric written with ``tensor parallel & intra node`` accepts "TP in the node", "node 内用
TP" and "张量并行放机内" alike, and an author may write either form. Relation words (above,
below, higher, lower) share one canonical word per direction across the languages, so a
claim's relation reads the same in "AI < ridge", "低于拐点" and "below the ridge".
"""

from __future__ import annotations

from functools import cache

from drill.grading.tokenize import split_words

# canonical phrase: the forms read as it (lower-case). A Chinese form is a whole word whose
# parts are not used apart (强度, not 算术强度, so 算术强度 and 计算强度 both hold "intensity")
SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "arithmetic intensity": ("ai", "oi", "operational intensity", "计算访存比", "算存比"),
    "intensity": ("强度",),
    "ridge": ("ridge point", "拐点", "脊点", "转折点", "屋脊点", "平衡点", "ridgepoint"),
    "bandwidth": ("bw", "带宽"),
    "peak": ("峰值",),
    "/": ("divided by", "除以"),  # "peak 除以 带宽" says peak / bandwidth
    "latency": ("延迟", "时延"),
    "cpu": ("host", "主机", "主机端"),
    "wait": ("等待", "在等", "空等"),
    "memory": ("mem",),
    "shared memory": ("smem", "shmem", "shared mem", "共享内存", "共享存储"),
    "dram": ("hbm", "gmem", "global memory", "device memory", "hbm3", "hbm3e", "hbm2e", "hbm2"),
    "register": ("reg", "regs", "寄存器"),
    "speed of light": ("sol",),
    "tensor parallel": ("tp", "张量并行", "张量切分"),
    "pipeline parallel": ("pp", "流水线并行", "流水并行", "管线并行"),
    "data parallel": ("dp", "数据并行"),
    "expert parallel": ("ep", "专家并行"),
    "intra node": (
        "intranode", "within a node", "within the node", "within one node", "inside a node",
        "inside the node", "inside one node", "in the node", "in a node", "in one node",
        "on one node", "in node", "within node", "node 内", "节点内", "机内", "单机内", "机器内",
        "同一节点", "同节点", "一台机器内", "单节点内",
    ),
    "inter node": (
        "internode", "across nodes", "across the nodes", "across node", "between nodes",
        "cross node", "multi node", "over the network", "跨机", "跨节点", "机间", "节点间",
        "跨 node", "node 间", "多机",
    ),
    "per gpu": (
        "per card", "per device", "per rank", "each gpu", "/ gpu", "每卡", "每张卡", "每个 gpu",
        "每 gpu", "单卡", "每块卡", "每块 gpu", "每张 gpu",
    ),
    "all to all": ("a2a", "all2all", "alltoall"),
    "moe": ("mixture of experts", "mixture of expert", "混合专家"),
    "vectorized": ("vectorised", "向量化"),  # before 量化: 向量化 is not quantization
    "quantization": ("quant", "量化"),
    "dequantization": ("dequant", "反量化"),
    "requantization": ("requant", "重量化"),
    "multiply add": ("mul add", "muladd", "multiply accumulate", "mac", "macs", "乘加"),
    "forward": ("fwd", "前向"),
    "backward": ("bwd", "反向"),
    "gradient": ("grad", "grads", "梯度"),
    "weight gradient": ("wgrad", "dw"),
    "dimension": ("dim", "dims", "维度"),
    "sequence": ("seq",),
    "context": ("ctx",),
    "batch size": ("bs", "bsz"),
    "utilization": ("util", "利用率"),
    "performance": ("perf",),
    "because": ("b/c", "bc", "since", "as a result of"),
    "without": ("w/o",),
    "with": ("w/",),
    "flop / b": (
        "flops/byte", "flop/byte", "flop per byte", "flops per byte", "flops/b", "flop per b",
        "flops/字节", "flop/字节",
    ),
    # relation words: one canonical word per direction, in every language
    "above": ("greater than", "more than", "exceeds", "exceed", ">", "高于", "大于", "超过"),
    "below": ("less than", "under", "<", "低于", "小于"),
    "higher": ("更高", "升高", "提高", "变高", "抬高", "越高"),
    "lower": ("更低", "降低", "变低", "越低"),
    "larger": ("越大", "更大"),
    "smaller": ("越小", "更小"),
    "increase": ("增加", "增大", "变大", "上升", "提升", "增长", "变多"),
    "decrease": ("减少", "减小", "变小", "下降", "变少"),
    "more": ("更多", "越多", "越来越多"),
    "fewer": ("更少", "越少"),
    "faster": ("更快", "变快", "加快"),
    "slower": ("更慢", "变慢"),
    "left": ("左移", "向左", "往左"),
    "right": ("右移", "向右", "往右"),
    "x": ("times", "multiplied by", "乘以", "乘上"),
    "max": ("maximum", "最大", "最大值", "取大"),
    "min": ("minimum", "最小", "最小值", "取小"),
}  # fmt: skip


@cache
def _table() -> dict[tuple[str, ...], tuple[str, ...]]:
    table: dict[tuple[str, ...], tuple[str, ...]] = {}
    for canonical, forms in SHORT_FORMS.items():
        target = tuple(split_words(canonical))
        for form in forms:
            table[tuple(split_words(form))] = target
    return table


@cache
def _longest() -> int:
    return max(len(k) for k in _table())


def canonical(tokens: list[str]) -> list[str]:
    """``tokens`` with every short form replaced by its canonical phrase (longest first)."""
    table, longest = _table(), _longest()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for k in range(min(longest, len(tokens) - i), 0, -1):
            target = table.get(tuple(tokens[i : i + k]))
            if target is not None:
                out.extend(target)
                i += k
                break
        else:
            out.append(tokens[i])
            i += 1
    return out
