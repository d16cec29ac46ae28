"""fig-step: the whole ledger of one step (第五节).

whole  Projected whole first (先整张投三秒): Ⓐ's four strips on one time axis (each row on its own
       scale, and said so) beside Ⓑ's crossing.
Ⓐ      「再放大 Ⓐ」: the whole view's texts leave while its strips and names move into Ⓐ's layout,
       then Ⓐ's texts come in. The bill (its line under the strips, the three resident rows braced
       with their 9.76 TiB; the 125 cards drawn, one per GPU), gone with the scenario line at A.4; then the
       compute row in the bottom third: 6ND and its ✗, then, in a box of its own (「算力：一层前向」,
       off the time axis, in no memory colour), one layer's forward FLOPs as a split bar (weight
       matmuls 18 % in ink | attention 82 % highlighted, not in 6ND's account), the real multiple
       (the ⭐ takeaway), GPT-3's short context as a second bar. The
       compute row leaves for the two peaks (⭐⭐⭐), at different moments, and the total's peak (its
       label above the strips, its line stopping at their baseline) with what each item holds at
       that moment; from A.9 on each beat's sentence stands alone at the bottom.
Ⓑ      Who is biggest depends on the batch: the resident block is flat, activations rise and cross it.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, ReplacementTransform, VGroup, Write

from lecture_numerics import quantity
from lecture_numerics.models import TIB
from lecture_numerics.onestep import MAX_BATCH, BATCH_TICKS, TIB_TICKS, batch_sweep, step_timeline
from scenes.kit import marks, theme, widgets
from scenes.kit.annotate import label_after, legend
from scenes.kit.arrows import arrow
from scenes.kit.bars import SEGMENT_OPACITY
from scenes.kit.base import LectureScene
from scenes.kit.charts import TimeAxis, guide
from scenes.kit.panels import panel_header
from scenes.kit.plots import Plot, curve
from scenes.kit.strips import Strip, phase_bands
from scenes.kit.text import ledger_text, words

# The four items, top to bottom: name, theme colour, size template, when it is used.
ITEMS = (
    ("优化器状态", "optimizer", "{bill.v3.optimizer_tib} TiB", "update"),
    ("权重", "weights", "{bill.v3.weights_tib} TiB", "forward+backward"),
    ("梯度", "gradients", "{timeline.v3.gradient_peak_tib} TiB", "all"),
    ("激活", "activations", "{timeline.v3.activations_end_of_forward_gib} GiB", "all"),
)
A_HEADING = "一步之内：{onestep.item_count}项在同一条时间轴上"
# The chart answers against the whole resident block (weights + gradients + optimizer state), so
# the question on screen names that block; the speaker's 「优化器状态」 is the block's largest part.
B_HEADING = "激活大，还是常驻块大？"
SIX = "{flops.six_nd_coefficient}ND"

# Ⓐ geometry (scene units; the frame is 14.2 × 8), top to bottom: the header, two text rows (the
# scenario, the bill), the phase names, the four strips; under them, first the compute row (A.4–A.8),
# then, once it has left, the peaks' labels; the takeaways along the bottom.
A_TIME = TimeAxis(-4.3, 3.0)
A_TEXT_TOP_Y, A_TEXT_PITCH = 2.9, 0.42
A_TOP_BASELINE, A_STRIP_H, A_STRIP_GAP = 1.38, 0.45, 0.58   # strips as tall as in the whole view
A_ARROW_GAP, A_PEAK_ROW = 0.18, 0.4  # below the bottom strip's baseline
SCALE_NOTE_X = 5.25          # the 「各行纵轴各自缩放」 bracket, right of the sizes column
AT_PEAK_X = 5.75             # Ⓐ's last column: what each item holds at the total's peak (where the note was)
# The compute row: 6ND on its line, then, in a box of their own (「算力：一层前向」, FLOPs, not bytes:
# shorter than the time axis and inset from it), the two split bars (V3 at 128K, GPT-3 at 2048), each
# named on its left; the real multiple on the V3 bar's right.
SIX_ND_Y, BOX_HEAD_Y, V3_BAR_Y, GPT3_BAR_Y = -0.68, -1.22, -1.78, -2.4
V3_BAR_H, GPT3_BAR_H = 0.56, 0.28   # the V3 bar tall enough to hold its attention label inside
BAR_LEFT, BAR_RIGHT = -3.7, 2.1       # inside the time axis's span, visibly not on it
# FLOPs are no memory item, so no memory colour: the weight matmuls (what 6ND counts) in ink, the
# attention 6ND leaves out highlighted (accent).
FLOPS = ("ink", "accent")
# A.2's bill: its line under the strips (clear of the phase names), the three resident rows braced
# with their sum where the scale note stands; A.3's cards: one per GPU (bill.v3.gpus_80gib), rows of
# GPU_ROW, under the bill.
BILL_Y = -0.8
GPU_SIDE, GPU_GAP, GPU_ROW, GPU_TOP = 0.2, 0.07, 25, -1.25
# the whole view: Ⓐ on the left ~60 %, Ⓑ on the right; strips as tall as Ⓐ's, so zooming never squashes them.
W_TIME = TimeAxis(-4.6, 0.9)
W_TOP_BASELINE, W_STRIP_H, W_STRIP_GAP = 1.7, 0.45, 1.0
W_SCALE_NOTE_X = 1.2
# Ⓑ's chart: (lower-left corner, width, height); the whole view's is the same chart, smaller.
W_CHART = (np.array([2.9, -2.9, 0]), 3.7, 4.8)
B_CHART = (np.array([-4.6, -1.5, 0]), 9.0, 3.85)   # its x title well clear of the takeaway
SWEEP_POINTS = 2   # activations are linear in the batch: the simulator at both ends draws the line
RESIDENT_ROLE = "ink"   # the resident block is no single concept (weights + gradients + optimizer state)


class FigStep(LectureScene):
    scene_id = "fig-step"
    title = "一步的总账：四项在同一条时间轴上"
    ledger_keys = (
        "bill.v3.optimizer_tib", "bill.v3.weights_tib", "bill.v3.total_tib", "bill.v3.gpus_80gib",
        "hardware.gpu_memory_gib", "model.v3.total_params", "bytes.per_param_total", "onestep.seq_len_k",
        "timeline.v3.gradient_peak_tib", "timeline.v3.activations_end_of_forward_gib",
        "timeline.v3.total_peak_tib", "timeline.v3.total_peak_layers_before_gradient_peak",
        "onestep.v3.items_at_total_peak_tib",
        "flops.six_nd_coefficient", "flops.v3.six_nd_pflop_128k", "model.v3.active_params",
        "onestep.bytes_per_tib", "onestep.v3.attention_share_round", "onestep.v3.matmul_share_128k",
        "flops.gpt3.attention_share_2k", "flops.v3.real_over_6nd_128k", "flops.v3.real_over_6nd_from_share",
        "onestep.item_count", "onestep.model_name",
        "act.v3.full_recompute_gib", "onestep.sweep.crossing_batch", "onestep.sweep.batch_ticks",
        "onestep.sweep.tib_ticks", "model.gpt3.context_tokens",
    )

    def construct(self) -> None:
        self.tl = step_timeline()
        self.sweep = batch_sweep(np.linspace(1, MAX_BATCH.value, SWEEP_POINTS))
        self.panel("whole")
        self.whole_frame()
        self.ledger_and_peaks()
        self.who_is_biggest()

    # ---- shared drawing ----

    def lit_span(self, when: str) -> tuple[float, float]:
        tl = self.tl
        return {"update": (tl.backward_end, 1.0), "forward+backward": (0.0, tl.backward_end),
                "all": (0.0, 1.0)}[when]

    def strips(self, time: TimeAxis, top_baseline: float, height: float, gap: float) -> list[Strip]:
        return [Strip(self.tl.t, self.series(color), color, time, top_baseline - k * gap, height,
                      lit=self.lit_span(when))
                for k, (_, color, _, when) in enumerate(ITEMS)]

    def series(self, item: str):
        """A strip's bytes over the step. The activations row is the stored inputs (激活, whose
        size it is labelled with), not the stored inputs plus the layer being recomputed."""
        return self.tl.stored if item == "activations" else self.tl.bytes[item]

    def phase_names(self, time: TimeAxis, y: float, size: str) -> VGroup:
        tl = self.tl
        spans = (("前向", 0.0, tl.forward_end), ("反向", tl.forward_end, tl.backward_end))
        names = VGroup(*[words(n, size=size, color="muted").move_to([float(time.x((a + b) / 2)), y, 0])
                         for n, a, b in spans])
        update = words("更新", size=size, color="optimizer").move_to([float(time.x(1.0)), y, 0])
        update.align_to([float(time.x(tl.backward_end)), 0, 0], LEFT)
        return VGroup(*names, update)

    def bands(self, time: TimeAxis, bottom: float, top: float) -> VGroup:
        tl = self.tl
        return phase_bands(time, [0.0, tl.forward_end, tl.backward_end, 1.0], bottom, top)

    @staticmethod
    def scale_note(x: float, top: float, bottom: float) -> VGroup:
        """「各行纵轴各自缩放」 as a bracket beside the strips: each row is scaled to its own maximum."""
        bracket = marks.bracket([x, top], [x, bottom], LEFT, "muted", weight="thin")
        note = VGroup(words("各行纵轴", size="small", color="muted"), words("各自缩放", size="small", color="muted"))
        note.arrange(DOWN, buff=theme.space("fine"), aligned_edge=LEFT).next_to(bracket, RIGHT,
                                                                                buff=theme.space("small"))
        return VGroup(bracket, note)

    def sweep_lines(self, chart: Plot) -> tuple:
        b = np.concatenate([[0.0], self.sweep["batch"]])
        resident = np.full_like(b, self.sweep["resident"][0]) / TIB
        activations = np.concatenate([[0.0], self.sweep["activations"]]) / TIB
        return curve(chart, b, resident, RESIDENT_ROLE), curve(chart, b, activations, "activations")

    def sweep_chart(self, where: tuple, ticks: bool = True, **titles) -> Plot:
        corner, width, height = where
        chart = Plot(x_range=(0, MAX_BATCH.value), y_range=(0, float(self.sweep["activations"][-1]) / TIB),
                     width=width, height=height, x_ticks_key=BATCH_TICKS.key if ticks else None,
                     y_ticks_key=TIB_TICKS.key if ticks else None, **titles)
        chart.shift(corner - chart.x_axis.get_start())
        chart.y_max = chart.y_scale.high
        chart.x_max = chart.x_scale.high
        return chart

    def crossing_line(self, chart: Plot, x: float):
        return guide(chart.point(x, 0), chart.point(x, chart.y_max))

    def crossing_x(self) -> float:
        return float(quantity("onestep.sweep.crossing_batch").value)

    # ---- whole: the one picture that must land ----

    def whole_frame(self) -> None:
        self.clear()
        strips = self.strips(W_TIME, W_TOP_BASELINE, W_STRIP_H, W_STRIP_GAP)
        top, bottom = W_TOP_BASELINE + W_STRIP_H, strips[-1].baseline
        names = [VGroup(words(n, size="small", color=c), ledger_text(t, size="small", color=c))
                 .arrange(DOWN, buff=theme.space("hair"), aligned_edge=RIGHT)
                 .next_to([W_TIME.left, s.baseline + W_STRIP_H / 2, 0], LEFT, buff=theme.space("close"))
                 for (n, c, t, _), s in zip(ITEMS, strips)]
        left_title = ledger_text("Ⓐ " + A_HEADING, size="label").to_corner(UP + LEFT, buff=theme.space("edge"))
        phases = self.phase_names(W_TIME, top + theme.space("gap"), "small")
        bands = self.bands(W_TIME, bottom, top)
        note = self.scale_note(W_SCALE_NOTE_X, top, bottom)

        chart = self.sweep_chart(W_CHART, ticks=False)
        resident, activations = self.sweep_lines(chart)
        cross = self.crossing_line(chart, self.crossing_x())
        right_title = words("Ⓑ " + B_HEADING, size="small").next_to(
            [W_CHART[0][0] - theme.space("large"), left_title.get_center()[1], 0], RIGHT, buff=0)
        flat = words("常驻块", size="small", color=RESIDENT_ROLE).next_to(resident, UP, buff=theme.space("tight"))
        flat.align_to(resident, LEFT).shift(RIGHT * theme.space("small"))
        # On the line's upper-left side, well left of the crossing's dashed line.
        rising = words("激活", size="small", color="activations")
        rising.next_to(chart.point(MAX_BATCH.value * 0.45, float(self.sweep["activations"][-1]) / TIB * 0.45),
                       LEFT, buff=theme.space("small")).shift(UP * theme.space("close"))
        # No crossing number here: Ⓑ says 「约九十四条」 when it gets there.
        self.add(bands, *strips, *names, phases, note, left_title, chart, resident, activations, cross,
                 right_title, flat, rising)
        self.wait(3.0)
        # Ⓐ takes these over and moves them; the rest leaves with the whole view.
        self.whole = dict(strips=strips, names=names, phases=phases, bands=bands, title=left_title, note=note,
                          right=VGroup(chart, resident, activations, cross, right_title, flat, rising))

    # ---- Ⓐ the ledger and the two peaks ----

    def ledger_and_peaks(self) -> None:
        self.panel("A", says="先把显存的总账封口")
        strips = self.strips(A_TIME, A_TOP_BASELINE, A_STRIP_H, A_STRIP_GAP)
        self.a_strips = strips
        self.a_top, self.a_bottom = A_TOP_BASELINE + A_STRIP_H, strips[-1].baseline
        self.zoom_into_a(strips)

        self.beat(says="六千七百一十亿参数 × 十六字节 ÷ 1024 的四次方 ＝ 9.76 TiB")
        bill = ledger_text("{model.v3.total_params} × {bytes.per_param_total} 字节 ÷ {onestep.bytes_per_tib} "
                           "= {bill.v3.total_tib} TiB", size="small")
        cards = ledger_text("按每张卡 {hardware.gpu_memory_gib} GiB 算 ≈ {bill.v3.gpus_80gib} 张（还没算激活）",
                            size="small")
        bill.move_to([0, BILL_Y, 0]).align_to([self.text_left, 0, 0], LEFT)
        cards.next_to(bill, RIGHT, buff=theme.space("gap"))
        resident = self.resident_brace()
        self.play(Write(bill), FadeOut(self.note), run_time=1.0)
        self.play(FadeIn(resident), run_time=0.5)

        self.beat(says="按每张卡 80 GiB 算，光这一块就要 125 张")
        self.play(FadeIn(cards, shift=LEFT * 0.1), run_time=0.6)
        # The count drawn: one small card per GPU, in rows of 25, under the strips (gone at A.4).
        self.gpu_grid = self.gpu_cards()
        self.play(FadeIn(self.gpu_grid, lag_ratio=0.01), run_time=1.0)
        # The bill is said: it leaves with the scenario line at A.4, and the scale note comes back.
        self.bill_rows = VGroup(self.scenario, bill, cards, resident)

        self.compute_row()
        self.two_peaks()

    def zoom_into_a(self, strips: list[Strip]) -> None:
        """「再放大 Ⓐ」: the whole view's strips, bands, phase names, item names and sizes, its
        scale note and its title move into Ⓐ's layout (each name keeps its place at the left,
        each size goes to its strip's right end, the title becomes the panel's header); Ⓑ leaves."""
        whole = self.whole
        bands = self.bands(A_TIME, self.a_bottom, self.a_top)
        phases = self.phase_names(A_TIME, self.a_top + theme.space("medium"), "small")
        names = [words(n, size="label", color=c).next_to([A_TIME.left, s.baseline + A_STRIP_H / 2, 0], LEFT,
                                                         buff=theme.space("medium"))
                 for (n, c, _, _), s in zip(ITEMS, strips)]
        self.sizes = [ledger_text(t, size="label", color=c).next_to([A_TIME.right, s.baseline + A_STRIP_H / 2, 0],
                                                                    RIGHT, buff=theme.space("gap"))
                      for (_, c, t, _), s in zip(ITEMS, strips)]
        self.text_left = min(name.get_left()[0] for name in names)
        self.scenario = ledger_text("{onestep.model_name} {model.v3.total_params} · 一条 {onestep.seq_len_k} 序列 · "
                                    "{bytes.per_param_total} 字节/参数 · 开重算", size="small", color="muted")
        self.text_row(self.scenario, 0)
        self.note = self.scale_note(SCALE_NOTE_X, self.a_top, self.a_bottom)
        # Shapes and the item names (the same words, larger) move; the title, the sizes and the note
        # change place by cross-fading where they stand, so no text travels over the strips and
        # none is ever off screen.
        moves = [ReplacementTransform(whole["bands"], bands), ReplacementTransform(whole["phases"], phases)]
        for old, new in zip(whole["strips"], strips):
            moves.append(ReplacementTransform(old, new))
        # The old texts leave first, while the shapes move; only then do the new ones come in, so no
        # two texts are ever half-faded over each other.
        outs = [FadeOut(whole["title"]), FadeOut(whole["note"])]
        for old, name in zip(whole["names"], names):
            moves.append(ReplacementTransform(old[0], name))
            outs.append(FadeOut(old[1]))
        self.play(FadeOut(whole["right"], shift=RIGHT * 0.6), *outs, run_time=0.4)
        self.play(*moves, run_time=0.9)
        self.play(FadeIn(panel_header("A", A_HEADING)), FadeIn(self.note), *(FadeIn(size) for size in self.sizes),
                  run_time=0.5)
        self.play(FadeIn(self.scenario), run_time=0.4)

    def resident_brace(self) -> VGroup:
        """The bill drawn: a bracket right of the sizes over the three resident rows (optimizer state,
        weights, gradients), their sum beside it, where the scale note stood."""
        top, bottom = self.a_top, self.a_strips[2].baseline
        bracket = marks.bracket([SCALE_NOTE_X, top], [SCALE_NOTE_X, bottom], LEFT, "ink", weight="thin")
        total = VGroup(words("常驻", size="label"), ledger_text("{bill.v3.total_tib} TiB", size="label"))
        total.arrange(DOWN, buff=theme.space("fine"), aligned_edge=LEFT).next_to(bracket, RIGHT,
                                                                                  buff=theme.space("small"))
        return VGroup(bracket, total)

    def gpu_cards(self) -> VGroup:
        """bill.v3.gpus_80gib small cards (GPUs) in rows of GPU_ROW under the strips, named on the right."""
        count = int(quantity("bill.v3.gpus_80gib").value)
        cards = VGroup(*(marks.box(GPU_SIDE * 1.2, GPU_SIDE, "ink", weight="hairline", fill_opacity=0.3,
                                      corner="square") for _ in range(count)))
        cards.arrange_in_grid(cols=GPU_ROW, buff=GPU_GAP, flow_order="rd")
        cards.move_to([0, GPU_TOP, 0], aligned_edge=UP).align_to([A_TIME.left, 0, 0], LEFT)
        name = ledger_text("每张 {hardware.gpu_memory_gib} GiB", size="label").next_to(cards, RIGHT,
                                                                                    buff=theme.space("large"))
        return VGroup(cards, name)

    def text_row(self, mob, row: int):
        """Put ``mob`` on row ``row`` of Ⓐ's text block (left edge: the strip names')."""
        return mob.move_to([0, A_TEXT_TOP_Y - row * A_TEXT_PITCH, 0]).align_to([self.text_left, 0, 0], LEFT)

    # -- the compute row --

    def split_bars(self) -> tuple:
        """One layer's forward FLOPs split, V3 at 128K and GPT-3 at 2048, each named on its left, in a
        box of their own headed 「算力：一层前向」 with the key to the two parts."""
        width = BAR_RIGHT - BAR_LEFT
        v3 = widgets.split_bar([("", "onestep.v3.matmul_share_128k", FLOPS[0]),
                                ("attention {onestep.v3.attention_share_round}", "onestep.v3.attention_share_round",
                                 FLOPS[1])], width, V3_BAR_H, size="small")
        v3.shift(np.array([BAR_LEFT, V3_BAR_Y, 0]) - v3.bar.base())      # bar, labels and leaders together
        share = float(quantity("flops.gpt3.attention_share_2k").value)
        gpt3 = widgets.split_bar([("", 1 - share, FLOPS[0]), ("", share, FLOPS[1])], width, GPT3_BAR_H)
        gpt3.shift(np.array([BAR_LEFT, GPT3_BAR_Y, 0]) - gpt3.bar.base())
        v3_name = ledger_text("V3 · {onestep.seq_len_k}", size="small", color="muted")
        gpt3_name = ledger_text("GPT-3 · {model.gpt3.context_tokens}", size="small", color="muted")
        for name, y in ((v3_name, V3_BAR_Y), (gpt3_name, GPT3_BAR_Y)):
            name.next_to([BAR_LEFT, y, 0], LEFT, buff=theme.space("small"))
        gpt3_share = ledger_text("attention 只占 {flops.gpt3.attention_share_2k}", size="small", color="muted")
        gpt3_share.next_to([BAR_RIGHT, GPT3_BAR_Y, 0], RIGHT, buff=theme.space("small"))
        head = words("算力：一层前向", size="small")
        key = legend([(FLOPS[0], "权重矩阵乘 {onestep.v3.matmul_share_128k}"),
                      (FLOPS[1], f"attention：不在 {SIX} 的账里")], gap="large")
        for item in key:        # each swatch as light as the bar part it names
            item[0].set_fill(opacity=SEGMENT_OPACITY)
        VGroup(head, key).arrange(RIGHT, buff=theme.space("wide")).move_to([0, BOX_HEAD_Y, 0])
        head.align_to([self.text_left, 0, 0], LEFT)
        key.next_to(head, RIGHT, buff=theme.space("wide"))
        return VGroup(head, key, v3_name, v3), VGroup(gpt3_name, gpt3, gpt3_share)

    def compute_row(self) -> None:
        """6ND and why it is wrong here, in its own row in the bottom third, each piece as it is said."""
        estimate = ledger_text(f"{SIX} = {{flops.six_nd_coefficient}} × {{model.v3.active_params}}（每 token 激活的参数）"
                               " × {onestep.seq_len_k} ≈ {flops.v3.six_nd_pflop_128k} PFLOP", size="small")
        estimate.move_to([0, SIX_ND_Y, 0]).align_to([self.text_left, 0, 0], LEFT)
        wrong = words("✗", size="body", color="bad").next_to(estimate, RIGHT, buff=theme.space("medium"))  # 「错得很多」
        v3, gpt3 = self.split_bars()
        # One layer's multiple, straight from the bar (1 ÷ its weight-matmul share); the whole model's
        # is the beat's takeaway.
        # Named as one layer's, so the takeaway's whole-model multiple is not read as the same number twice.
        multiple = ledger_text("只算这一层 ≈ {flops.v3.real_over_6nd_from_share}", size="label")
        multiple.next_to([BAR_RIGHT, V3_BAR_Y, 0], RIGHT, buff=theme.space("small"))
        box = marks.frame_around(VGroup(v3, gpt3, multiple), "muted", pad="tight", weight="thin")

        self.beat(says="算力这边有个人人都在用的估法，叫 6ND")
        self.play(FadeOut(self.gpu_grid), FadeOut(self.bill_rows), run_time=0.4)
        self.play(FadeIn(self.note), run_time=0.3)
        self.play(FadeIn(estimate), run_time=0.6)
        self.beat(says="……但这个数在这儿是错的，而且错得很多")
        self.play(FadeIn(wrong, scale=1.6), run_time=0.5)
        self.beat(says="在这个长度上，attention 占一层前向算力的 82%")
        self.play(Create(box), FadeIn(v3), run_time=0.8)
        self.beat(says="反推一下：真实算力大约是 6ND 的五到六倍",
                  takeaway=f"整个模型：真实算力 ≈ {{flops.v3.real_over_6nd_128k}} {SIX}")
        self.play(FadeIn(multiple, shift=LEFT * 0.1), run_time=0.6)
        self.beat(says="GPT-3 那个两千零四十八，attention 只占百分之一点几，漏掉完全无所谓",
                  takeaway=f"短序列上 {SIX} 好用：不是公式错了，是前提变了", replaces=True)
        self.play(FadeIn(gpt3), run_time=0.6)
        self.compute = VGroup(estimate, wrong, box, v3, gpt3, multiple)

    # -- the two peaks --

    def peak_marks(self) -> list[tuple]:
        """Each ▲ where the simulator puts its strip's maximum, a dashed line through the strips,
        a short name beside its line: (x, mark, label)."""
        act, grad = self.a_strips[3], self.a_strips[2]
        top, bottom = self.a_top, self.a_bottom
        peak_row = bottom - A_PEAK_ROW
        peaks = []
        for strip, (t_peak, v_peak), text, role in (
                (act, self.tl.stored_peak, "激活峰", "activations"),
                (grad, self.tl.gradient_peak, "梯度峰", "gradients")):
            x = float(A_TIME.x(t_peak))
            # small, so it stays in the gap between its strip and the one above
            tri = marks.triangle_marker(strip.point(t_peak, v_peak) + UP * marks.radius_of("small"), role, size="small")
            mark = VGroup(tri, guide([x, bottom - A_ARROW_GAP, 0], [x, top, 0], role))
            label = words(text, size="small", color=role).move_to([x, peak_row, 0])
            peaks.append((x, mark, label))
        # Each label stands outside its line, so 「不同时」 sits alone between the two.
        peaks[0][2].align_to([peaks[0][0] - theme.space("hair"), 0, 0], RIGHT)
        peaks[1][2].align_to([peaks[1][0] + theme.space("hair"), 0, 0], LEFT)
        return peaks

    def two_peaks(self) -> None:
        peaks = self.peak_marks()
        # ⭐⭐⭐: the strips alone with the first peak; the bill and the compute row have been said.
        self.beat(says="第一节我给过一个答案：峰值在前向末尾", takeaway="第一节说：峰值在前向末尾")
        self.play(FadeOut(self.compute), *self.clear_takeaways(), run_time=0.5)
        self.play(Create(peaks[0][1]), FadeIn(peaks[0][2]), run_time=0.8)

        self.beat(says="梯度的峰在反向末尾 —— 两个峰根本不在同一时刻", takeaway="激活峰和梯度峰，根本不同时",
                  replaces=True)
        (x_act, _, _), (x_grad, _, _) = peaks
        y = self.a_bottom - A_ARROW_GAP
        apart_arrow = arrow([x_act, y, 0], [x_grad, y, 0], "ink", weight="thin", buff=None, both=True)
        apart = words("不同时", size="small").move_to([(x_act + x_grad) / 2, self.a_bottom - A_PEAK_ROW, 0])
        self.play(Create(peaks[1][1]), FadeIn(peaks[1][2]), run_time=0.8)
        self.play(Create(apart_arrow), FadeIn(apart), run_time=0.6)

        # The total's peak, where the simulator finds it (not on either single peak).
        # Each beat's sentence stands alone: the arrow and its 「不同时」 still say the last one.
        self.beat(says="把几条形状不同的曲线叠起来之后，总和的峰未必落在任何一条单独的峰上",
                  takeaway="曲线叠起来之后，总和的峰未必落在任何一条单独的峰上")
        line, label = self.total_peak()
        self.play(*self.clear_takeaways(), run_time=0.4)
        self.play(Create(line), run_time=0.5)
        self.play(FadeIn(label), run_time=0.4)

        self.beat(says="要知道那一刻是哪一项最大，才知道该动哪个开关",
                  takeaway="查 OOM：要知道最挤的那刻，是哪项最大")
        self.play(FadeOut(self.note), *self.clear_takeaways(), run_time=0.4)
        self.play(FadeIn(self.at_total_peak()), run_time=0.8)

    def total_peak(self) -> tuple:
        """The total's peak: its label above the strips (in the row the bill left), a solid line
        from it down through the strips to their baseline, above the 不同时 arrow, crossing nothing."""
        x = float(A_TIME.x(self.tl.total_peak[0]))
        # Set left of its line, ending before it, and saying where it is not: the gradients' peak line
        # stands a little further right, and the two must not read as one.
        label = ledger_text("合计峰 {timeline.v3.total_peak_tib} TiB：比梯度峰早 "
                            "{timeline.v3.total_peak_layers_before_gradient_peak} 层", size="small")
        label.move_to([x, A_TEXT_TOP_Y - A_TEXT_PITCH / 2, 0]).align_to([x - theme.space("tight"), 0, 0], RIGHT)
        line = marks.segment([x, label.get_top()[1]], [x, self.a_bottom], "ink", weight="bold")
        return line, label

    def at_total_peak(self) -> VGroup:
        """What each item holds at the total's peak, beside its strip (TiB), the largest framed:
        at that moment the optimizer state is the biggest, whatever the strips' own scales say."""
        head = VGroup(words("合计峰时", size="small", color="ink"), words("（TiB）", size="small", color="ink"))
        head.arrange(DOWN, buff=theme.space("hair")).move_to([AT_PEAK_X, self.a_top + theme.space("medium"), 0],
                                                              aligned_edge=DOWN)
        values = VGroup(*(ledger_text(f"{{onestep.v3.items_at_total_peak_tib[{k}]}}", size="label")
                          .move_to([AT_PEAK_X, s.baseline + A_STRIP_H / 2, 0]) for k, s in enumerate(self.a_strips)))
        # The activations' value counts the layer being recomputed at that moment, which the strip
        # (the stored inputs alone) does not draw: said under it.
        working = words("含重算临时", size="small", color="activations").next_to(values[-1], DOWN,
                                                                              buff=theme.space("fine"))
        biggest = int(np.argmax(quantity("onestep.v3.items_at_total_peak_tib").value))
        frame = marks.frame_around(values[biggest], "accent", pad="tight", weight="bold")
        return VGroup(head, values, working, frame)

    # ---- Ⓑ who is biggest depends on the batch ----

    def who_is_biggest(self) -> None:
        self.start_panel("B", B_HEADING, says="最后一个问题：激活大，还是优化器状态大？")
        chart = self.sweep_chart(B_CHART, x_title="同时在算的序列条数（不做梯度累积时）", y_title="TiB")
        resident, activations = self.sweep_lines(chart)
        self.play(FadeIn(chart), run_time=0.6)

        self.beat(says="常驻那一块不随 batch 变，而激活线性地随 batch 涨")
        flat = ledger_text("常驻 {bill.v3.total_tib} TiB（权重 + 梯度 + 优化器状态）", size="small",
                           color=RESIDENT_ROLE).next_to(resident, UP, buff=theme.space("snug"))
        flat.align_to(resident, LEFT).shift(RIGHT * theme.space("close"))
        self.play(label_after(resident, flat, run_time=0.8, label_time=0.3))
        slope = ledger_text("激活：每条 {act.v3.full_recompute_gib} GiB（开重算）", size="small", color="activations")
        slope.move_to(chart.point(MAX_BATCH.value * 0.46, chart.y_max * 0.12))
        self.play(label_after(activations, slope, run_time=0.8, label_time=0.3))

        self.beat(says="要约九十四条十二万八千的序列，激活才追平常驻块")
        x = self.crossing_x()
        cross = self.crossing_line(chart, x)
        at = ledger_text("≈ {onestep.sweep.crossing_batch} 条", size="label").next_to(
            chart.point(x, chart.y_max), UP, buff=theme.space("tight"))
        left = words("常驻块更大", size="label", color=RESIDENT_ROLE).move_to(chart.point(x * 0.4, chart.y_max * 0.62))
        right = words("激活更大", size="label", color="activations").move_to(
            chart.point((x + chart.x_max) / 2, chart.y_max * 0.45))
        self.play(label_after(cross, at, run_time=0.5, label_time=0.3))
        self.play(FadeIn(left), FadeIn(right), run_time=0.5)

        self.beat(says="所以「谁最大」不是模型的属性，是这次训练配置的属性",
                  takeaway="「谁最大」不是模型的属性，是这次训练配置的属性")
