package io.gpumeter.collector.usage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/** Reads a Prometheus HTTP API range-query answer ({@code resultType: matrix}) into samples with timestamps. */
public final class PrometheusMatrix {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PrometheusMatrix() {
    }

    public static List<Sample> parse(String body) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the Prometheus answer is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !"success".equals(root.path("status").asText())) {
            throw new IllegalArgumentException("Prometheus answered " + (root == null ? "nothing"
                    : root.path("status").asText() + ": " + root.path("error").asText()));
        }
        JsonNode data = root.path("data");
        if (!"matrix".equals(data.path("resultType").asText())) {
            throw new IllegalArgumentException("expected a matrix, got '" + data.path("resultType").asText() + "'");
        }
        List<Sample> samples = new ArrayList<>();
        for (JsonNode series : data.path("result")) {
            Map<String, String> labels = new TreeMap<>();
            series.path("metric").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            String name = labels.remove("__name__");
            if (name == null) {
                continue;
            }
            for (JsonNode point : series.path("values")) {
                long millis = new BigDecimal(point.path(0).asText()).movePointRight(3).longValue();
                Double value = Decimals.sampleValue(point.path(1).asText());
                if (value == null) {
                    throw new IllegalArgumentException("not a sample value: '" + point.path(1).asText() + "'");
                }
                samples.add(new Sample(name, labels, value, OptionalLong.of(millis)));
            }
        }
        return samples;
    }
}
