package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What one change did, from the ledger's {@code GET /api/v1/changes/{id}/impact}: the nodes it touched over the window
 * before it and the same length after — GPU-hours, pod starts, failures and their rate per 1,000 GPU-hours, time to
 * recover — and the failures by cause and the Xids by code on each side.
 */
@TemplateData
public record ChangeImpact(BookChange change, int nodeCount, String nodes, Side before, Side after, List<Compare> causes,
                           List<Compare> xids) {

    /** The most nodes named; the rest are counted. */
    static final int NAMED = 20;

    /** One side of the change. */
    @TemplateData
    public record Side(String from, String to, String gpuHours, long podStarts, int failures, BigDecimal rateValue, String mttrP50,
                       String mttrMean) {

        public String rate() {
            return rateValue == null ? "" : Format.number(rateValue);
        }
    }

    /** A cause or an Xid code, before and after. */
    @TemplateData
    public record Compare(String what, String before, String after, BigDecimal beforeRateValue, BigDecimal afterRateValue) {

        public String beforeRate() {
            return beforeRateValue == null ? "" : Format.number(beforeRateValue);
        }

        public String afterRate() {
            return afterRateValue == null ? "" : Format.number(afterRateValue);
        }
    }

    static ChangeImpact of(JsonNode impact) {
        BookChange change = BookChange.of(impact.path("change")).orElse(null);
        List<String> touched = new ArrayList<>();
        impact.path("nodes").forEach(n -> touched.add(n.asText()));
        String named = String.join(", ", touched.subList(0, Math.min(NAMED, touched.size())))
                + (touched.size() > NAMED ? " and " + (touched.size() - NAMED) + " more" : "");
        JsonNode before = impact.path("before");
        JsonNode after = impact.path("after");
        Map<String, JsonNode> causesBefore = byKey(before.path("byCause"));
        Map<String, JsonNode> causesAfter = byKey(after.path("byCause"));
        TreeSet<String> causeKeys = new TreeSet<>(causesBefore.keySet());
        causeKeys.addAll(causesAfter.keySet());
        List<Compare> causes = new ArrayList<>();
        for (String cause : causeKeys) {
            JsonNode b = causesBefore.get(cause);
            JsonNode a = causesAfter.get(cause);
            causes.add(new Compare(cause, b == null ? "0" : b.path("count").asText("0"), a == null ? "0" : a.path("count").asText("0"),
                    rate(b), rate(a)));
        }
        TreeSet<Integer> codes = new TreeSet<>();
        before.path("xids").fieldNames().forEachRemaining(f -> code(f, codes));
        after.path("xids").fieldNames().forEachRemaining(f -> code(f, codes));
        List<Compare> xids = new ArrayList<>();
        for (Integer code : codes) {
            xids.add(new Compare("Xid " + code, before.path("xids").path(code.toString()).asText("0"),
                    after.path("xids").path(code.toString()).asText("0"), null, null));
        }
        return new ChangeImpact(change, touched.size(), named, side(before), side(after), causes, xids);
    }

    /** Failures per 1,000 GPU-hours before and after, in all and by cause. */
    Map<String, Object> chart() {
        List<String> names = new ArrayList<>();
        List<Object> b = new ArrayList<>();
        List<Object> a = new ArrayList<>();
        names.add("all failures");
        b.add(number(before.rateValue()));
        a.add(number(after.rateValue()));
        for (Compare c : causes) {
            names.add(c.what());
            b.add(number(c.beforeRateValue()));
            a.add(number(c.afterRateValue()));
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 40, "bottom", 60));
        option.put("xAxis", Map.of("type", "category", "data", names, "axisLabel", Map.of("interval", 0, "rotate", names.size() > 5 ? 30 : 0)));
        option.put("yAxis", Map.of("type", "value", "name", "per 1,000 GPU-h"));
        option.put("series", List.of(
                Map.of("name", "before", "type", "bar", "barMaxWidth", 40, "color", Palette.MUTED_BLUE, "data", b),
                Map.of("name", "after", "type", "bar", "barMaxWidth", 40, "color", Palette.RED, "data", a)));
        return option;
    }

    private static Side side(JsonNode s) {
        return new Side(Format.text(s, "from"), Format.text(s, "to"), Format.number(Format.decimalOrNull(s, "gpuHours")),
                s.path("podStarts").asLong(), s.path("failures").asInt(), Format.decimalOrNull(s, "ratePer1000GpuHours"),
                Format.duration(Format.decimalOrNull(s, "mttrP50Seconds")), Format.duration(Format.decimalOrNull(s, "mttrMeanSeconds")));
    }

    private static BigDecimal rate(JsonNode row) {
        return row == null ? null : Format.decimalOrNull(row, "ratePer1000GpuHours");
    }

    private static Map<String, JsonNode> byKey(JsonNode rows) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        rows.forEach(r -> out.put(String.valueOf(Format.text(r, "key")), r));
        return out;
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
