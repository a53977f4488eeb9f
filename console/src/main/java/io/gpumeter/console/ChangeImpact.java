package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What one change did, from the ledger's {@code GET /api/v1/changes/{id}/impact}: the nodes it touched over the window
 * before it and the same length after — GPU-hours, pod starts, failures and their rate per 1,000 GPU-hours, time to
 * recover — and the failures by cause and the Xids by code on each side.
 */
@TemplateData
@RegisterForReflection
public record ChangeImpact(BookChange change, List<String> nodes, Side before, Side after) {

    /** The most nodes named; the rest are counted. */
    static final int NAMED = 20;

    /** One side of the change: its window's figures, its failures by cause and its Xids by code. */
    @TemplateData
    @RegisterForReflection
    public record Side(String from, String to, BigDecimal gpuHours, long podStarts, int failures, BigDecimal ratePer1000GpuHours,
                       BigDecimal mttrP50Seconds, BigDecimal mttrMeanSeconds, List<Cause> byCause, Map<String, Integer> xids) {

        Map<String, Cause> causes() {
            return (byCause == null ? List.<Cause>of() : byCause).stream()
                    .collect(Collectors.toMap(c -> String.valueOf(c.key()), Function.identity(), (a, b) -> a));
        }

        int xid(int code) {
            return xids == null ? 0 : xids.getOrDefault(Integer.toString(code), 0);
        }
    }

    /** One cause's failures on a side. */
    @RegisterForReflection
    public record Cause(String key, int count, BigDecimal ratePer1000GpuHours) {
    }

    /** A cause or an Xid code, before and after; the rates null for an Xid. */
    @TemplateData
    public record Compare(String what, int before, int after, BigDecimal beforeRate, BigDecimal afterRate) {
    }

    public int nodeCount() {
        return nodes == null ? 0 : nodes.size();
    }

    /** The nodes it touched, the first {@link #NAMED} named and the rest counted. */
    public String named() {
        List<String> touched = nodes == null ? List.of() : nodes;
        return String.join(", ", touched.subList(0, Math.min(NAMED, touched.size())))
                + (touched.size() > NAMED ? " and " + (touched.size() - NAMED) + " more" : "");
    }

    /** Each cause of either side, before and after. */
    public List<Compare> causes() {
        Map<String, Cause> b = before.causes();
        Map<String, Cause> a = after.causes();
        TreeSet<String> keys = new TreeSet<>(b.keySet());
        keys.addAll(a.keySet());
        List<Compare> out = new ArrayList<>();
        for (String cause : keys) {
            Cause was = b.get(cause);
            Cause is = a.get(cause);
            out.add(new Compare(cause, was == null ? 0 : was.count(), is == null ? 0 : is.count(),
                    was == null ? null : was.ratePer1000GpuHours(), is == null ? null : is.ratePer1000GpuHours()));
        }
        return out;
    }

    /** Each Xid code seen on either side, before and after. */
    public List<Compare> xids() {
        TreeSet<Integer> codes = new TreeSet<>();
        for (Side side : List.of(before, after)) {
            (side.xids() == null ? Map.<String, Integer>of() : side.xids()).keySet().forEach(k -> code(k, codes));
        }
        return codes.stream().map(c -> new Compare("Xid " + c, before.xid(c), after.xid(c), null, null)).toList();
    }

    /** Failures per 1,000 GPU-hours before and after, in all and by cause. */
    ChartOption chart() {
        List<String> names = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        List<Double> a = new ArrayList<>();
        names.add("all failures");
        b.add(number(before.ratePer1000GpuHours()));
        a.add(number(after.ratePer1000GpuHours()));
        for (Compare c : causes()) {
            names.add(c.what());
            b.add(number(c.beforeRate()));
            a.add(number(c.afterRate()));
        }
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(60, 20, 40, 60)
                .categoriesAcross(names, 5).valuesUp("per 1,000 GPU-h", null);
        chart.bars("before", b).colour(Palette.MUTED_BLUE);
        chart.bars("after", a).colour(Palette.RED);
        return chart;
    }

    private static void code(String field, TreeSet<Integer> codes) {
        try {
            codes.add(Integer.valueOf(field));
        } catch (NumberFormatException e) {
            // not an Xid code: left out
        }
    }

    private static double number(BigDecimal value) {
        return value == null ? 0 : value.doubleValue();
    }
}
