package io.gpumeter.slo.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.domain.EngineGaugeLine;

import java.util.List;
import java.util.Set;

/**
 * Parses an NDJSON body of engine gauge readings as strictly as request records: the first bad line fails the whole
 * body with a 400 that names the line and the field.
 */
public final class EngineGaugeLines {

    static final Set<String> FIELDS = Set.of("service", "namespace", "pod", "ts", "kvCacheUsage",
            "prefixCacheHitRate", "generationTokensTotal");

    private final ObjectReader reader;
    private final int maxLines;

    public EngineGaugeLines(ObjectMapper mapper, int maxLines) {
        this.reader = LatencyLines.strictReader(mapper);
        this.maxLines = maxLines;
    }

    /**
     * @throws ApiProblem 400 naming the first bad line and field, 413 above the configured number of lines
     */
    public List<EngineGaugeLine> parse(String body) {
        return LatencyLines.eachLine(body, maxLines, "gauge lines", this::line);
    }

    private EngineGaugeLine line(int line, String text) {
        JsonNode node = LatencyLines.object(reader, line, text, FIELDS);
        EngineGaugeLine parsed = new EngineGaugeLine(LatencyLines.name(line, node, "service"),
                LatencyLines.name(line, node, "namespace"), LatencyLines.name(line, node, "pod"),
                LatencyLines.ts(line, node.get("ts")), fraction(line, node, "kvCacheUsage"),
                fraction(line, node, "prefixCacheHitRate"), counter(line, node, "generationTokensTotal"));
        if (parsed.kvCacheUsage() == null && parsed.prefixCacheHitRate() == null && parsed.generationTokensTotal() == null) {
            throw LatencyLines.bad(line, "kvCacheUsage", "kvCacheUsage, prefixCacheHitRate, generationTokensTotal or"
                    + " several must be given");
        }
        return parsed;
    }

    /** A cumulative counter's value: a whole number of tokens, never negative. */
    private static Double counter(int line, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber() || !Double.isFinite(v.doubleValue()) || v.doubleValue() < 0
                || v.doubleValue() != Math.rint(v.doubleValue())) {
            throw LatencyLines.bad(line, field, field + " must be a counter's value, a whole number from 0, got " + v);
        }
        return v.doubleValue();
    }

    private static Double fraction(int line, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber() || !Double.isFinite(v.doubleValue()) || v.doubleValue() < 0 || v.doubleValue() > 1) {
            throw LatencyLines.bad(line, field, field + " must be a fraction from 0 to 1, got " + v);
        }
        return v.doubleValue();
    }
}
