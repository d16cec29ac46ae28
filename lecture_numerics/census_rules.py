"""The census's rules: what each numeral of the notes is (see census.py).

``SAID``: numbers the notes say, each read as the ledger key that holds it; the ledger's own
quotes (every quantity with a ``notes_quote``) are read first, then these, in order.
``NOT_QUANTITIES``: numerals that are not quantities, reviewed one pattern at a time, each
with its category. The first rule that covers a numeral decides what it is.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Said:
    """A quantity the notes say: ``pattern`` (a regex, searched in every line, or only in the
    one line that contains ``anchor``) whose group ``n`` (or whole match) is the number as
    said, read as ``key``.
    ``as_written``: the words in digits where the agreement check cannot read them
    (三乘十的负四次方 → "3e-4", 负一点七五五 → "-1.755"). ``why``: for a number the ledger
    contradicts, why in one sentence."""

    pattern: str
    key: str
    anchor: str = ""
    as_written: str = ""
    why: str = ""


@dataclass(frozen=True)
class NotQuantity:
    """A reviewed non-quantity: ``pattern``'s numerals (group ``n``, or the whole match) are
    an idiom, an ordinal, a name, a section number or a word; ``category`` says which."""

    pattern: str
    category: str
    why: str = ""

_ZH = "零一二两三四五六七八九十百千万亿"
_NOT_AFTER = rf"(?<![{_ZH}几\d])"


def _at(anchor: str, *rules: tuple[str, str] | tuple[str, str, str]) -> tuple[Said, ...]:
    """Rules for the one notes line that contains ``anchor``: (pattern, key) or
    (pattern, key, as_written). An anchor, not a line number, so an edit above it moves nothing."""
    return tuple(Said(r[0], r[1], anchor=anchor, as_written=r[2] if len(r) > 2 else "") for r in rules)


# Numbers said the same way wherever they occur.
_EVERYWHERE: tuple[Said, ...] = (
    Said(r"(?P<n>三千亿)次前向", "reverse.ours.forward_passes"),
    Said(r"就是(?P<n>三千亿)遍", "reverse.ours.forward_passes"),
    Said(r"(?P<n>三千亿|几千亿)", "slider.desk_faders"),
    Said(r"(?P<n>六十一)(?:层|个)", "model.v3.n_layers"),
    Said(r"(?P<n>零点八)(?!到)", "vanish.rate_low"),
    Said(r"(?P<n>一点二)(?![零一二三四五六七八九])", "vanish.rate_high"),
    Said(r"(?P<n>四分之一)", "vanish.sigmoid_max_slope"),
    Said(r"(?P<n>4\.15) TiB", "act.v3.no_recompute_tib"),
    Said(r"(?P<n>106\.75) GiB", "act.v3.full_recompute_gib"),
    Said(r"(?P<n>十二万八千)", "scenario.seq_len_128k"),
    Said(r"(?P<n>两千零四十八)", "model.gpt3.context_tokens"),
    Said(r"(?P<n>16|十六) ?字节", "bytes.per_param_total"),
    Said(r"(?P<n>十二)字节", "bytes.optimizer_sum"),
    Said(r"(?P<n>一九六四)", "history.polyak.year"),
    Said(r"(?P<n>六十)年", "spoken.polyak_to_2024_years"),
)

SAID: tuple[Said, ...] = (
    # fig-vanish's chain: the seed and 59 rates (60 numbers), not V3's 61 layers.
    *_at('把六十一个数乘起来', (r"(?P<n>六十一)个数", "vanish.numbers_multiplied")),
    *_at('② 同一条判据，', (r"(?P<n>2022) 年", "recompute.korthikanti.year"), (r"从 (?P<n>2)K", "spoken.gpt3_context_k"),
         (r"到 (?P<n>128)K", "onestep.seq_len_k"), (r"(?P<n>五六)倍", "flops.v3.real_over_6nd_128k")),
    *_at('③ 查来的 vs', (r"(?P<n>94) 条序列", "act.v3.seqs_to_match_resident"),
         (r"(?P<n>六)倍反推", "flops.v3.real_over_6nd_128k")),
    *_at('⭐ 需要整张投的', (r"(?P<n>四)项", "onestep.item_count")),
    *_at('「训练一步，显存', (r"(?P<n>四)样", "onestep.item_count")),
    *_at('——\xa0我现在请各', (r"(?P<n>四)样", "onestep.item_count")),
    *_at('一个 671B ', (r"(?P<n>671)B", "model.v3.total_params", "671e9")),
    *_at('🎯 这一节留两样', (r"(?P<n>三)倍算力", "threex.train_over_inference")),
    *_at('一次前向按一秒算', (r"按(?P<n>一)秒", "spoken.forward_seconds")),
    *_at('它解决的是：怎么', (r"压成(?P<n>一)次", "reverse.ours.reverse_passes")),
    *_at('⭐ 那这个推子的', (r"(?P<n>0\.03)", "slider.readout_change"), (r"(?P<n>0\.01)", "slider.push"),
         (r"等于 (?P<n>3)", "slider.derivative")),
    *_at('读作：你动一格，', (r"它动(?P<n>三)格", "slider.derivative")),
    *_at('「注意 ——\xa0导', (r"(?P<n>5\.00)", "slider.readout_before")),
    *_at('5.00 是值。', (r"(?P<n>5\.00)", "slider.readout_before"), (r"(?P<n>3) 是兑换率", "slider.derivative")),
    *_at('「那「偏导数」的', (r"就(?P<n>三)个字", "spoken.hold_still_chars")),
    *_at('⛔ 所以记住：梯', (r"(?P<n>三千亿)", "slider.desk_faders")),
    *_at('第一级：推子动一', (r"动(?P<n>两)格", "slider.rate_fader_to_jia"), (r"兑换率 (?P<n>2)", "slider.rate_fader_to_jia")),
    *_at('第二级：甲动一格', (r"兑换率 (?P<n>0\.5)", "slider.rate_jia_to_yi")),
    *_at('第三级：乙动一格', (r"兑换率 (?P<n>3)", "slider.rate_yi_to_loss")),
    *_at('⭐ 那推子到难听', (r"(?P<n>二)乘", "slider.rate_fader_to_jia"), (r"(?P<n>零点五)", "slider.rate_jia_to_yi"),
         (r"乘(?P<n>三)，", "slider.rate_yi_to_loss")),
    *_at('结果完全一样，可', (r"差(?P<n>一万)年", "spoken.finite_difference_years")),
    *_at('那第一个梯度长什', (r"只有一格是 (?P<n>1)", "vote.onehot.de"), (r"全是 (?P<n>0)", "vote.onehot.le")),
    *_at('🖥 屏幕：翻到 ', (r"(?P<n>三)次矩阵乘", "threex.train_over_inference")),
    *_at('「为什么反向是两', (r"是(?P<n>两)次", "threex.backward_matmuls"), (r"不是(?P<n>一)次", "threex.forward_matmuls")),
    *_at('不是因为它「比较', (r"(?P<n>两)个不同的问题", "threex.backward_matmuls")),
    *_at('两个问题，两次乘', (r"(?P<n>两)个问题", "threex.backward_matmuls"), (r"一加(?P<n>二)", "threex.backward_matmuls"),
         (r"贵(?P<n>三)倍", "threex.train_over_inference")),
    *_at('q 再乘 c 等', (r"负 (?P<n>4)", "circuit.f", "-4")),
    *_at('再看加法门：上游', (r"上游给了 (?P<n>4)", "circuit.grad_q"), (r"各拿走 (?P<n>4)", "circuit.grad_b")),
    *_at('max 门是个路', (r"拿(?P<n>零)", "circuit.max.grad_y")),
    *_at('左边这个点，是零', (r"(?P<n>一百万分之一点九)", "vanish.rate_0p8_60_layers")),
    *_at('⭐⭐⭐ 这就是为', (r"变回了(?P<n>一)", "vanish.relu_slope_positive")),
    *_at('一九九一年，慕尼', (r"(?P<n>一九九一)", "history.hochreiter_thesis.year")),
    *_at('三年后，大西洋另', (r"(?P<n>三)年后", "history.bengio_after_hochreiter_years")),
    *_at('⭐ 但故事的结尾', (r"(?P<n>二〇〇一)", "history.gradient_flow.year"), (r"这(?P<n>四)个人", "history.gradient_flow.authors")),
    *_at('当年分头发现同一', (r"(?P<n>十)年之后", "history.gradient_flow_after_thesis_years")),
    *_at('⭐ 但它们是同一', (r"(?P<n>一千)步", "history.rnn_time_lag_steps"), (r"(?P<n>一千)层", "history.rnn_time_lag_steps")),
    *_at('数，就是三千亿遍', (r"(?P<n>三千亿)个参数", "slider.desk_faders")),
    *_at('而真实模型里，那', (r"『(?P<n>八)』", "trips.parameters")),
    *_at('⭐ 我们之所以用', (r"(?P<n>一)个出", "trips.outputs")),
    *_at('⭐ 记住这张图的', (r"(?P<n>五)道", "gradlife.stops")),
    *_at('代价是多跑一次前', (r"从(?P<n>三)倍", "threex.train_over_inference"), (r"(?P<n>三分之一)", "recompute.compute_extra_fraction")),
    *_at('eek-V3 在', (r"(?P<n>五千七)", "recompute.v3.crossover_tokens"), (r"(?P<n>一万二)", "recompute.gpt3.crossover_tokens")),
    *_at('「「选择性重算」', (r"(?P<n>二〇二二)", "recompute.korthikanti.year")),
    *_at('🎯 本节留三样：', (r"(?P<n>五)样", "spoken.bill_items_per_param")),
    *_at('「两字节 bf1', (r"「(?P<n>两)字节 bf16 权重", "bytes.weights_bf16"), (r"(?P<n>两)字节 bf16 梯度", "bytes.gradients_bf16"),
         (r"的(?P<n>三)份", "spoken.fp32_copies")),
    *_at('权重只占 2，优', (r"只占 (?P<n>2)", "bytes.weights_bf16")),
    *_at('于是它更精细，但', (r"「(?P<n>十六)位", "format.bf16.total_bits")),
    *_at('看这根数轴：bf', (r"在 (?P<n>1\.0) 附近", "precision.start_weight")),
    *_at('而我们要加的那个', (r"(?P<n>万分之三)", "precision.increment")),
    *_at('「有人会想：那多', (r"加(?P<n>二十六)次", "precision.adds_to_one_spacing")),
    *_at('因为每一次都是从', (r"舍回 (?P<n>1\.0)", "precision.bf16.after_1000_adds")),
    *_at('右边那格是对照：', (r"同样(?P<n>一千)次", "precision.adds"), (r"(?P<n>1\.0) 变成", "precision.start_weight")),
    *_at('三十年一路往上加', (r"(?P<n>三十)年", "spoken.optimizer_state_growth_years")),
    *_at('⭐⭐ 还有一个细', (r"(?P<n>三十二)倍", "optim.rmsprop_first_step_gain")),
    *_at('「到了三千亿个参', (r"(?P<n>三千亿)", "slider.desk_faders")),
    *_at('⭐⭐⭐ 话音刚落', (r"(?P<n>两)条轨迹", "momentum.run_count")),
    *_at('β 等于零点九，', (r"(?P<n>零点九)", "optim.adam.beta1")),
    *_at('「顺便说 ——\xa0', (r"(?P<n>零点八)到", "history.polyak.beta_low"), (r"到(?P<n>零点九九)", "history.polyak.beta_high")),
    *_at('而今天 Adam', (r"(?P<n>零点九)", "optim.adam.beta1")),
    *_at('红色比蓝色大百分', (r"大(?P<n>百分之十)", "onelr.red_over_blue", "1.10")),
    *_at('⛔ 而代价马上就', (r"(?P<n>十二)字节", "bytes.optimizer_sum")),
    *_at('也就是说 Ada', (r"在 (?P<n>1) 附近", "optim.adam_first_step_gain")),
    *_at('二〇二四年有一篇', (r"(?P<n>二〇二四)", "lr.warmup_paper.year")),
    *_at('实际用多长？GP', (r"(?P<n>三亿七千五百万)", "gpt3.warmup_tokens"), (r"(?P<n>千分之一点二五)", "lr.gpt3.warmup_share")),
    *_at('GPT-3 论文', (r"(?P<n>三亿五千万)", "gpt3.medium.params"), (r"(?P<n>三乘十的负四次方)", "gpt3.medium.lr", "3e-4"),
         (r"(?P<n>一百七十五) B", "gpt3.175b.params", "175e9"), (r"的(?P<n>零点六)", "gpt3.175b.lr", "0.6e-4")),
    *_at('老派是余弦：GP', (r"(?P<n>两千六百亿)", "gpt3.decay_tokens")),
    *_at('新派是先恒定、最', (r"(?P<n>十万亿)", "v3.hold_until_tokens")),
    *_at('两派的终点，都落', (r"(?P<n>两)派", "lr.school_count")),
    *_at('β₁ 等于 0.', (r"(?P<n>0\.9)", "optim.adam.beta1")),
    *_at('β₂ 等于 0.', (r"(?P<n>0\.99)", "optim.adam.beta2", "0.99"), (r"约(?P<n>一百)步", "spoken.adam_beta2_window")),
    *_at('可 β₂ 一路涨', (r"(?P<n>0\.9999)", "spoken.palm_beta2_100k")),
    *_at('「第二小段：ch', (r"(?P<n>十六)字节", "bytes.per_param_total")),
    *_at('fp32 主权重', (r"(?P<n>三)个都得存", "spoken.fp32_copies")),
    *_at('⭐⭐⭐ 所以 c', (r"(?P<n>671)B", "model.v3.total_params", "671e9")),
    *_at('二，为什么「发布', (r"那(?P<n>两)字节", "bytes.weights_bf16"), (r"一比(?P<n>六)", "bill.optimizer_over_weights")),
    *_at('七十亿参数的模型', (r"(?P<n>七十亿)", "model.llama7b.params")),
    *_at('冻住的参数只留两', (r"(?P<n>两)字节权重", "bytes.weights_bf16")),
    *_at('还记得反向要付两', (r"(?P<n>两)笔乘法", "threex.backward_matmuls")),
    *_at('所以前向一，反向', (r"前向(?P<n>一)", "threex.forward_matmuls"), (r"(?P<n>三)倍变", "threex.train_over_inference")),
    *_at('而几十年的演化全', (r"(?P<n>几十)年", "spoken.polyak_to_2024_years")),
    *_at(' 这一节只留一件', (r"(?P<n>三)级", "zero.cut_count")),
    *_at('③ 权重，每参数', (r"(?P<n>两)字节", "bytes.weights_bf16")),
    *_at('④ 梯度，两字节', (r"(?P<n>两)字节", "bytes.gradients_bf16")),
    *_at('「现在把这个顺序', (r"(?P<n>三)级", "zero.cut_count")),
    *_at('ZeRO-3 最', (r"(?P<n>三)级里", "zero.cut_count")),
    *_at('基线每张卡要装 ', (r"(?P<n>七十五亿)", "zero.psi")),
    *_at('⭐ 从 120 ', (r"从 (?P<n>120)", "zero.baseline_gb"), (r"到 (?P<n>1\.9)", "zero.pos_g_p_gb")),
    *_at('⭐ 所以这几个名', (r"(?P<n>四)个栏目", "onestep.item_count")),
    *_at('六千七百一十亿参', (r"(?P<n>六千七百一十亿)", "model.v3.total_params")),
    *_at('换算一下就知道是', (r"(?P<n>80) GiB", "hardware.gpu_memory_gib")),
    *_at('「算力这边有个人', (r"(?P<n>六)次浮点运算", "flops.six_nd_coefficient")),
    *_at('⭐ 反推一下：真', (r"(?P<n>五到六)倍", "flops.v3.real_over_6nd_128k", "5–6")),
    *_at('今天把账补全之后', (r"(?P<n>四)项", "onestep.item_count")),
    *_at('一，要不要高精度', (r"(?P<n>二百五十六分之一)", "precision.bf16.spacing_at_1"), (r"(?P<n>十万)步", "precision.criterion_horizon"),
         (r"(?P<n>千分之几)", "updratio.target_ratio")),
    *_at('看这张图：到第 ', (r"(?P<n>四千零九十六分之一)", "prepost.share_at_24", str(1 / 4096))),
    *_at('但理由不是『16', (r"『(?P<n>16) 位", "format.fp16.total_bits"), (r"也是 (?P<n>16) 位", "format.fp16.total_bits")),
    *_at('⭐⭐ 所以 fp', (r"只有 (?P<n>5) 位", "format.fp16.exponent_bits")),
    *_at('保险开着，还是飞', (r"(?P<n>二十)次", "spike.count")),
    *_at('「知道了这一点，', (r"(?P<n>三)类", "stability.cure_kinds"), (r"(?P<n>三)个不同", "stability.cure_kinds")),
    *_at('基线，六次里崩两', (r"(?P<n>六)次", "stability.baseline.runs"), (r"负(?P<n>一点七五五)", "stability.baseline.quality", "-1.755")),
    *_at('收紧 updat', (r"(?P<n>三)次全稳", "stability.clipping.runs"),
         (r"负(?P<n>四点二零六)", "stability.clipping.quality", "-4.206")),
    *_at('router z', (r"(?P<n>三)次全稳", "stability.zloss.runs"), (r"负(?P<n>一点七四一)", "stability.zloss.quality", "-1.741")),
    *_at('⭐⭐ 中间那一行', (r"「稳定 (?P<n>3)/", "stability.clipping.stable_runs"), (r"/(?P<n>3)」", "stability.clipping.runs")),
    *_at('为什么？初始化那', (r"方差各是 (?P<n>1)", "prepost.unit_variance")),
    *_at('而 Norm 要', (r"拉回 (?P<n>1)", "prepost.unit_variance")),
    *_at('⭐ 那推子到难听', (r"等于(?P<n>三)", "slider.chain_rate")),
    *_at('两个问题，两次乘', (r"(?P<n>两)次乘法", "threex.backward_matmuls"), (r"(?P<n>一)加二", "threex.forward_matmuls"),
          (r"等于(?P<n>三)", "threex.train_over_inference")),
    *_at('而这两个兑换率 ', (r"差(?P<n>两)成", "vanish.rate_gap_zh", "0.2")),
    *_at('所以前向一，反向', (r"只剩(?P<n>一)", "spoken.lora_backward_matmuls"), (r"变(?P<n>两)倍", "spoken.lora_train_over_inference")),
    *_at('⭐ 为什么差这么', (r"有(?P<n>十四)字节", "spoken.frozen_bytes_saved")),
    *_at("加动量一份", (r"加动量(?P<n>一)份", "optimizers.state_copies.momentum"),
         (r"各(?P<n>一)份", "optimizers.state_copies.adagrad")),
) + _EVERYWHERE  # a line's own rule wins over the everywhere rules

IDIOM = "习语 idiom"
ORDINAL = "序数 ordinal"
NAME = "名字 name"
SECTION = "节号 section number"
ARTICLE = "量词前的「一」 a / this one"
STRUCTURE = "讲法 the talk's own parts"
FORMULA = "公式 formula"
GENERAL = "泛指 a vague scale"

# Measure words that make 一 an article (一个, 一句, 这一格: "a", "this one"), not a count
# the numerics could check; real counts of one (压成一次, 一秒) are read in SAID first.
_ARTICLE_MEASURES = ("个句格条步节遍段次下讲层项件块路拍分行张份眼篇边刻串列道级页处趟字种把口本类组方环"
                     "批套根屏截章记竖档课家位些成坨对栏笔排瞬阶问堆屋推说数算乘比换上开会时能小大整头")
# Counts of the talk's own parts: lines, sentences, things said, pauses, panels, curves, cases.
_PARTS = ("条线|条判据|条斜率|条链|条曲线|条轨迹|条$|条。|条里|条不会|句|样|类|件|个字|个词|个时刻|个模型|个交点|个问题|"
          "个数|个量|个方向|个地方|个东西|个偏差|个小框|个箭头|个样本|个峰|个学习率|个技巧|个参数|个都往上|"
          "秒|分钟|遍|次(?=[，。]|再|都是)|节|格|张|行|排|组|半|段|则|刀|串|栏|拨|边|头|项|小段|级|都是|维|本账|"
          "步没有|份|个兑换率|条断言|个并排|条在|个加起来|个才可比|条写着")

NOT_QUANTITIES: tuple[NotQuantity, ...] = (
    NotQuantity(r"一模一样", IDIOM, "exactly the same"),
    NotQuantity(r"一步都没动", IDIOM, "not moved at all"),
    NotQuantity(r"唯一一", IDIOM, "the only one (唯一一处, 唯一一节)"),
    NotQuantity(r"四舍五入", IDIOM, "rounding"),
    NotQuantity(r"一点点|一丁点|一点(?![零一二三四五六七八九几])", IDIOM, "a (tiny) bit, a point"),
    NotQuantity(r"一样|一起|一直|一定|统一|一般|一旦|一切|一律|一些|一会儿?|万一|唯一|一眼|一口气|一下子?|之一|"
                r"一多半|一半|两半|归一化|归零|从零|零起|为零|一路|万能|一上来|一开始|一个字节都没|一个尖都没有|差一倍|"
                r"两样只能选一样|相邻两个",
                IDIOM, "words built on numerals (same, together, one of, normalise, to zero, all the way …)"),
    NotQuantity(rf"第(?P<n>[{_ZH}]+|\d+)", ORDINAL, "第 makes an ordinal (第三节, 第二条路)"),
    NotQuantity(r"^\s*(?:[「（]?)(?P<n>[一二三四五])，", ORDINAL, "a list marker: 一，… 二，…"),
    NotQuantity(r"[；;]\s*(?P<n>[一二三四五])，", ORDINAL, "a list marker inside a line: …；二，…"),
    NotQuantity(r"治法(?P<n>[一二三])", ORDINAL, "治法二: the second cure"),
    NotQuantity(r"§\s*(?P<n>\d+)", SECTION, "§2: the lecture's section 2"),
    NotQuantity(r"课件 (?P<n>\d\.\d)|(?P<m>\d\.\d) 的 warmup|跟 (?P<k>\d\.\d) 那条", SECTION,
                "课件 6.4, 3.5, 2.6: numbered sections of the deck"),
    NotQuantity(r"把 (?P<n>3\.5) 那个悬案", SECTION, "3.5: the deck's section 3.5 (warmup)"),
    NotQuantity(r"(?:课件 )?[sS](?P<n>[零一二三四五六七八九])", SECTION, "课件 s零: the deck's section zero"),
    NotQuantity(r"第[零一二三四五六七八九]节|(?P<n>[一二三四五六七八九])节(?=[　 ]|的)", SECTION, "节 numbers"),
    NotQuantity(r"(?:fp|bf|FP|BF|int|INT)(?P<n>\d+)", NAME, "number formats fp16, bf16, fp32, fp8"),
    NotQuantity(r"(?:V|GPT-|fig-|ZeRO-)(?P<n>\d+)", NAME, "names: V3, GPT-3, fig-3x, ZeRO-1"),
    NotQuantity(r"(?P<n>\d+)ND", NAME, "6ND: the name of a formula (6 × N × D)"),
    NotQuantity(r"(?P<n>540)B", NAME, "PaLM 540B: the model's name"),
    NotQuantity(r"表 (?P<n>2\.1)", NAME, "Table 2.1 of the GPT-3 paper"),
    NotQuantity(r"专题(?P<n>[一二三四五六七八九])", NAME, "专题一, 专题五: the lecture series' parts"),
    NotQuantity(r"(?P<n>1280)×(?P<m>720)", NAME, "1280×720: the projector's picture size"),
    NotQuantity(r"(?P<n>[一二])阶", NAME, "一阶矩, 二阶矩, 二阶导: first- and second-order (names of moments)"),
    NotQuantity(r"(?P<n>[一二三])维", NAME, "一维, 二维, 三维: one-, two-, three-dimensional"),
    NotQuantity(r"1 除以（1 减 β）|一除以（一减 β）|σ 乘以一减 σ|二的负 l 除以二次方|根号二|十的负多少次方|"
                r"1024 的四次方|[23]Ψ|小于一|偏离一|趋近 1|梯度为零|坡度为零|降到零|设成零|从零|二除以|"
                r"一比|走完一半|每两个参数|拉回 1|除以二阶导",
                FORMULA, "a formula read aloud: 1/(1 − β), σ(1 − σ), 2^(−l/2), √2, 1024⁴, 2Ψ, 2/λ, the zero of a "
                "gradient or of a schedule, the share 1 of a true valley floor"),
    NotQuantity(r"几十个数字|几百亿参数、几百张卡|千分之一的参数", GENERAL,
                "a vague scale: 几十个数字 (the talk), 几百亿参数 (no model), 「千分之一的参数」 (what people think)"),
    NotQuantity(rf"{_NOT_AFTER}(?P<n>一)(?=[{_ARTICLE_MEASURES}])", ARTICLE,
                "一 before a measure word is the article (一个参数, 一句话) or 'this one' (这一格)"),
    NotQuantity(rf"{_NOT_AFTER}(?P<n>[一两二三四五六七八九十])(?:{_PARTS})", STRUCTURE,
                "the talk's and its figures' own parts: 三条线, 两句话, 停三秒, 四个小框, 两条曲线 — counts of what "
                "the speaker says, shows or does, checked by the sentence or the figure itself"),
)
